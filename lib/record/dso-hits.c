// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process executable maps, kept just precisely enough to say which DSO
 * a sample's ip falls in: maps are appended as MMAP records arrive, copied
 * on fork, dropped on exec, and sorted lazily when a sample needs them.
 * A one-entry cache makes the common case (many samples in one DSO of one
 * process, or in the kernel) a compare.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record/dso-hits.h"

struct map_ent {
	__u64 start, end;
	unsigned int dso;
};

struct proc_maps {
	pid_t pid;		/* 0: empty slot */
	struct map_ent *v;
	size_t n, alloc;
	bool sorted;
};

struct dso_hits {
	struct proc_maps *procs;	/* open addressing on pid */
	size_t nr_procs, alloc_procs;
	struct dso_hit *dsos;
	size_t nr_dsos, alloc_dsos;
	/* last lookup */
	pid_t last_pid;
	__u64 last_start, last_end;
	unsigned int last_dso;
	int kernel_dso;			/* -1 until a kernel map is seen */
};

struct dso_hits *dso_hits__new(void)
{
	struct dso_hits *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->alloc_procs = 256;
	h->procs = calloc(h->alloc_procs, sizeof(*h->procs));
	if (!h->procs) {
		free(h);
		return NULL;
	}
	h->kernel_dso = -1;
	h->last_pid = -2;
	return h;
}

void dso_hits__delete(struct dso_hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->alloc_procs; i++)
		free(h->procs[i].v);
	for (size_t i = 0; i < h->nr_dsos; i++)
		free(h->dsos[i].name);
	free(h->procs);
	free(h->dsos);
	free(h);
}

static size_t pid_hash(pid_t pid, size_t alloc)
{
	return ((unsigned int)pid * 2654435761u) & (alloc - 1);
}

static struct proc_maps *find_proc(struct dso_hits *h, pid_t pid, bool create)
{
	size_t i = pid_hash(pid, h->alloc_procs);

	/* pid 0 marks an empty slot; the idle task (pid 0) never maps user code. */
	if (pid == 0)
		return NULL;
	while (h->procs[i].pid) {
		if (h->procs[i].pid == pid)
			return &h->procs[i];
		i = (i + 1) & (h->alloc_procs - 1);
	}
	if (!create)
		return NULL;
	if ((h->nr_procs + 1) * 2 > h->alloc_procs) {
		struct proc_maps *old = h->procs;
		size_t old_alloc = h->alloc_procs;
		struct proc_maps *n = calloc(old_alloc * 2, sizeof(*n));

		if (!n)
			return NULL;
		h->procs = n;
		h->alloc_procs = old_alloc * 2;
		for (size_t j = 0; j < old_alloc; j++) {
			if (!old[j].pid)
				continue;
			size_t k = pid_hash(old[j].pid, h->alloc_procs);

			while (n[k].pid)
				k = (k + 1) & (h->alloc_procs - 1);
			n[k] = old[j];
		}
		free(old);
		return find_proc(h, pid, true);
	}
	h->procs[i].pid = pid;
	h->nr_procs++;
	return &h->procs[i];
}

static int find_dso(struct dso_hits *h, const char *name)
{
	/* Few distinct DSOs: a linear scan from the newest is enough. */
	for (size_t i = h->nr_dsos; i-- > 0;)
		if (!strcmp(h->dsos[i].name, name))
			return (int)i;
	if (h->nr_dsos == h->alloc_dsos) {
		size_t alloc = h->alloc_dsos ? h->alloc_dsos * 2 : 64;
		struct dso_hit *d = realloc(h->dsos, alloc * sizeof(*d));

		if (!d)
			return -ENOMEM;
		h->dsos = d;
		h->alloc_dsos = alloc;
	}
	memset(&h->dsos[h->nr_dsos], 0, sizeof(h->dsos[0]));
	h->dsos[h->nr_dsos].name = strdup(name);
	if (!h->dsos[h->nr_dsos].name)
		return -ENOMEM;
	return (int)h->nr_dsos++;
}

static int add_map(struct proc_maps *p, __u64 start, __u64 end, unsigned int dso)
{
	if (p->n == p->alloc) {
		size_t alloc = p->alloc ? p->alloc * 2 : 16;
		struct map_ent *v = realloc(p->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->alloc = alloc;
	}
	p->v[p->n++] = (struct map_ent){ start, end, dso };
	p->sorted = false;
	return 0;
}

void dso_hits__mmap(struct dso_hits *h, pid_t pid, __u64 start, __u64 len, const char *name,
		    bool kernel, const __u8 *build_id, __u8 build_id_size)
{
	int dso = find_dso(h, name);
	struct proc_maps *p;

	if (dso < 0)
		return;
	if (build_id && build_id_size && build_id_size <= 20) {
		h->dsos[dso].has_build_id = true;
		h->dsos[dso].build_id_size = build_id_size;
		memcpy(h->dsos[dso].build_id, build_id, build_id_size);
	}
	if (kernel) {
		h->dsos[dso].kernel = true;
		if (h->kernel_dso < 0)
			h->kernel_dso = dso;
		return;
	}
	p = find_proc(h, pid, true);
	if (p)
		add_map(p, start, start + len, (unsigned int)dso);
	h->last_pid = -2;
}

void dso_hits__fork(struct dso_hits *h, pid_t pid, pid_t ppid)
{
	struct proc_maps *parent, *child;

	if (pid == ppid)
		return; /* a new thread shares its process's maps */
	parent = find_proc(h, ppid, false);
	if (!parent || !parent->n)
		return;
	child = find_proc(h, pid, true);
	parent = find_proc(h, ppid, false); /* the table may have grown */
	if (!child || !parent)
		return;
	for (size_t i = 0; i < parent->n; i++)
		add_map(child, parent->v[i].start, parent->v[i].end, parent->v[i].dso);
	h->last_pid = -2;
}

void dso_hits__exec(struct dso_hits *h, pid_t pid)
{
	struct proc_maps *p = find_proc(h, pid, false);

	if (p)
		p->n = 0;
	h->last_pid = -2;
}

static int cmp_map(const void *a, const void *b)
{
	const struct map_ent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void dso_hits__sample(struct dso_hits *h, pid_t pid, __u64 ip, bool kernel)
{
	struct proc_maps *p;
	size_t lo, hi;

	if (kernel) {
		if (h->kernel_dso >= 0)
			h->dsos[h->kernel_dso].hit = true;
		return;
	}
	if (pid == h->last_pid && ip >= h->last_start && ip < h->last_end)
		return; /* already marked */
	p = find_proc(h, pid, false);
	if (!p || !p->n)
		return;
	if (!p->sorted) {
		/* stable order is not needed: a later overlapping map wins ties below */
		qsort(p->v, p->n, sizeof(*p->v), cmp_map);
		p->sorted = true;
	}
	lo = 0;
	hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= p->v[lo - 1].end)
		return;
	h->dsos[p->v[lo - 1].dso].hit = true;
	h->last_pid = pid;
	h->last_start = p->v[lo - 1].start;
	h->last_end = p->v[lo - 1].end;
	h->last_dso = p->v[lo - 1].dso;
}

struct dso_hit *dso_hits__dsos(struct dso_hits *h, size_t *nr)
{
	*nr = h->nr_dsos;
	return h->dsos;
}
