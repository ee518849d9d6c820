// SPDX-License-Identifier: GPL-2.0
/*
 * Threads and maps rebuilt from COMM, FORK, EXIT, MMAP and MMAP2 records;
 * see include/pulse/machine.h for the perf 6.1 rules followed. Threads
 * live in a hash by tid; a thread replaced by a FORK of the same tid goes
 * to a graveyard rather than being freed, because report entries made
 * from it still point at it. A process's maps are lib/session/maps.c's;
 * placing sample addresses on them is lib/session/machine-resolve.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/inline.h>
#include <pulse/machine.h>
#include <pulse/unwind.h>
#include "core/internal.h"
#include "session/machine-internal.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"

/* ---- strings ------------------------------------------------------------ */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

const char *pulse_machine__intern(struct pulse_machine *m, const char *s)
{
	size_t mask, i;

	if ((m->nr_strs + 1) * 2 > m->strs_size) {
		size_t n = m->strs_size ? m->strs_size * 2 : 64;
		char **t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < m->strs_size; i++) {
			size_t j;

			if (!m->strs[i])
				continue;
			for (j = hash_str(m->strs[i]) & (n - 1); t[j]; j = (j + 1) & (n - 1))
				;
			t[j] = m->strs[i];
		}
		free(m->strs);
		m->strs = t;
		m->strs_size = n;
	}
	mask = m->strs_size - 1;
	for (i = hash_str(s) & mask; m->strs[i]; i = (i + 1) & mask)
		if (!strcmp(m->strs[i], s))
			return m->strs[i];
	m->strs[i] = strdup(s);
	if (!m->strs[i])
		return NULL;
	m->nr_strs++;
	return m->strs[i];
}

/* ---- threads ------------------------------------------------------------ */

int pulse_machine__init(struct pulse_machine *m, const struct pulse_symbol_opts *opts)
{
	struct pulse_thread *idle;
	int err;

	memset(m, 0, sizeof(*m));
	m->max_stack = PULSE_MAX_STACK;
	err = pulse_dsos__init(&m->dsos, opts);
	if (err)
		return err;
	m->nr_buckets = 1024;
	m->threads = calloc(m->nr_buckets, sizeof(*m->threads));
	if (!m->threads) {
		pulse_machine__exit(m);
		return -ENOMEM;
	}
	m->kmaps.refcnt = 1;
	m->kmaps.version = pulse_maps__next_version();
	/* perf's idle task: samples of pid 0 read "swapper" */
	idle = pulse_machine__findnew_thread(m, 0, 0);
	if (idle)
		idle->comm = pulse_machine__intern(m, "swapper");
	if (!idle || !idle->comm) {
		pulse_machine__exit(m);
		return -ENOMEM;
	}
	idle->comm_set = true;
	return 0;
}

static void thread__delete(struct pulse_thread *t)
{
	pulse_maps__put(t->maps);
	free(t);
}

void pulse_machine__exit(struct pulse_machine *m)
{
	struct pulse_thread *t, *next;

	/* its CFI cache points into the DSOs: gone before them */
	pulse_unwinder__delete(m->unwinder);
	free(m->unwind_ips);

	for (size_t i = 0; m->threads && i < m->nr_buckets; i++) {
		for (t = m->threads[i]; t; t = next) {
			next = t->next;
			thread__delete(t);
		}
	}
	for (t = m->graveyard; t; t = next) {
		next = t->next;
		thread__delete(t);
	}
	free(m->threads);
	free(m->kmaps.maps);
	free(m->rcache);
	free(m->scache);
	pulse_inlines__delete(m->inlines);
	pulse_cc_cursor__exit(&m->inline_scratch);
	for (size_t i = 0; i < m->strs_size; i++)
		free(m->strs[i]);
	free(m->strs);
	pulse_dsos__exit(&m->dsos);
	memset(m, 0, sizeof(*m));
}

static size_t tid_hash(const struct pulse_machine *m, int32_t tid)
{
	return ((uint32_t)tid * 2654435761u) & (m->nr_buckets - 1);
}

struct pulse_thread *pulse_machine__find_thread(struct pulse_machine *m, int32_t tid)
{
	struct pulse_thread *t;

	for (t = m->threads[tid_hash(m, tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void machine__grow_threads(struct pulse_machine *m)
{
	size_t n = m->nr_buckets * 2, old = m->nr_buckets;
	struct pulse_thread **b = calloc(n, sizeof(*b)), **ob = m->threads;

	if (!b)
		return;
	m->threads = b;
	m->nr_buckets = n;
	for (size_t i = 0; i < old; i++) {
		struct pulse_thread *t = ob[i], *next;

		for (; t; t = next) {
			size_t h = tid_hash(m, t->tid);

			next = t->next;
			t->next = b[h];
			b[h] = t;
		}
	}
	free(ob);
}

static struct pulse_thread *machine__leader_maps_thread(struct pulse_machine *m, int32_t pid);

/* perf's machine__update_thread_pid(): a thread learns its process late. */
static void machine__update_thread_pid(struct pulse_machine *m, struct pulse_thread *t, int32_t pid)
{
	struct pulse_thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = machine__leader_maps_thread(m, pid);
	if (!leader || leader->maps == t->maps)
		return;
	if (t->maps && t->maps->nr)
		pr_debug("machine: discarding thread maps for %d:%d\n", t->pid, t->tid);
	pulse_maps__put(t->maps);
	t->maps = pulse_maps__get(leader->maps);
}

struct pulse_thread *pulse_machine__findnew_thread(struct pulse_machine *m, int32_t pid,
						   int32_t tid)
{
	struct pulse_thread *t = pulse_machine__find_thread(m, tid);
	char name[32];
	size_t h;
	int err = 0;

	if (t) {
		machine__update_thread_pid(m, t, pid);
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	snprintf(name, sizeof(name), ":%d", tid);
	t->comm = pulse_machine__intern(m, name);
	if (!t->comm) {
		free(t);
		return NULL;
	}
	if (m->nr_threads >= m->nr_buckets)
		machine__grow_threads(m);
	h = tid_hash(m, tid);
	t->next = m->threads[h];
	m->threads[h] = t;
	m->nr_threads++;

	/* in the hash before looking for the leader, which may be itself */
	if (pid == tid || pid == -1) {
		err = pulse_maps__new(&t->maps);
	} else {
		struct pulse_thread *leader = machine__leader_maps_thread(m, pid);

		if (leader)
			t->maps = pulse_maps__get(leader->maps);
		else
			err = pulse_maps__new(&t->maps);
	}
	if (err)
		return NULL;
	return t;
}

static struct pulse_thread *machine__leader_maps_thread(struct pulse_machine *m, int32_t pid)
{
	struct pulse_thread *leader = pulse_machine__findnew_thread(m, pid, pid);

	if (leader && !leader->maps && pulse_maps__new(&leader->maps))
		return NULL;
	return leader;
}

static void machine__remove_thread(struct pulse_machine *m, struct pulse_thread *t)
{
	struct pulse_thread **pp = &m->threads[tid_hash(m, t->tid)];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			m->nr_threads--;
			t->next = m->graveyard;
			m->graveyard = t;
			return;
		}
	}
}

/* ---- records ------------------------------------------------------------ */

static int process_comm(struct pulse_machine *m, const struct perf_event_header *rec)
{
	const char *p = (const char *)rec;
	char comm[64];
	struct pulse_thread *t;
	size_t n;

	if (rec->size < 16)
		return -EBADMSG;
	n = strnlen(p + 16, rec->size - 16);
	if (n >= sizeof(comm))
		n = sizeof(comm) - 1;
	memcpy(comm, p + 16, n);
	comm[n] = '\0';
	t = pulse_machine__findnew_thread(m, get_u32(p + 8), get_u32(p + 12));
	if (!t)
		return -ENOMEM;
	t->comm = pulse_machine__intern(m, comm);
	if (!t->comm)
		return -ENOMEM;
	t->comm_set = true;
	return 0;
}

static int process_fork(struct pulse_machine *m, const struct perf_event_header *rec)
{
	const char *p = (const char *)rec;
	int32_t pid, ppid, tid, ptid;
	struct pulse_thread *t, *parent;

	if (rec->size < 32)
		return -EBADMSG;
	pid = get_u32(p + 8);
	ppid = get_u32(p + 12);
	tid = get_u32(p + 16);
	ptid = get_u32(p + 20);

	t = pulse_machine__find_thread(m, tid);
	parent = pulse_machine__findnew_thread(m, ppid, ptid);
	if (!parent)
		return -ENOMEM;
	/* a stale thread holds the parent's tid: a lost EXIT, as perf assumes */
	if (parent->pid != ppid) {
		machine__remove_thread(m, parent);
		parent = pulse_machine__findnew_thread(m, ppid, ptid);
		if (!parent)
			return -ENOMEM;
	}
	if (t)
		machine__remove_thread(m, t);
	t = pulse_machine__findnew_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	if (parent->comm_set) {
		t->comm = parent->comm;
		t->comm_set = true;
	}
	t->ppid = parent->tid;
	if (t->pid == parent->pid || t->maps == parent->maps)
		return 0;
	if (rec->misc & PERF_RECORD_MISC_FORK_EXEC)
		return 0;
	return pulse_maps__clone(t->maps, parent->maps);
}

static int process_exit(struct pulse_machine *m, const struct perf_event_header *rec)
{
	const char *p = (const char *)rec;
	struct pulse_thread *t;

	if (rec->size < 32)
		return -EBADMSG;
	t = pulse_machine__find_thread(m, get_u32(p + 16));
	if (t)
		t->dead = true;
	return 0;
}

static bool is_anon(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static bool is_no_dso(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

static int process_kernel_mmap(struct pulse_machine *m, const char *name, uint64_t start,
			       uint64_t len, uint64_t pgoff)
{
	struct pulse_map map = { .start = start, .end = start + len, .pgoff = pgoff,
				 .identity = true, .prot = PROT_EXEC };

	if (!strncmp(name, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME))) {
		if (!m->kernel_dso)
			m->kernel_dso = pulse_dsos__findnew(&m->dsos, KERNEL_MMAP_NAME,
							    PULSE_DSO_KERNEL);
		if (!m->kernel_dso)
			return -ENOMEM;
		m->kernel_dso->has_text_range = true;
		m->kernel_dso->text_start = start;
		m->kernel_dso->text_end = start + len;
		m->kernel_dso->running_verdict = 0;	/* a new map: ask again */
		map.dso = m->kernel_dso;
		/* the kernel map is made anew: drop the previous one */
		for (size_t i = 0; i < m->kmaps.nr; i++) {
			if (m->kmaps.maps[i].dso == m->kernel_dso) {
				memmove(&m->kmaps.maps[i], &m->kmaps.maps[i + 1],
					(m->kmaps.nr - i - 1) * sizeof(map));
				m->kmaps.nr--;
				break;
			}
		}
	} else if (name[0] == '/' || name[0] == '[') {
		/*
		 * A module (perf's machine__addnew_module_map): "[name]", its
		 * addresses taken from its load address, as perf prints them
		 */
		map.dso = pulse_dsos__findnew(&m->dsos, name, PULSE_DSO_MODULE);
		if (!map.dso)
			return -ENOMEM;
		map.identity = false;
		map.pgoff = 0;
		map.dso->has_text_range = true;
		map.dso->text_start = start;
		map.dso->text_end = start + len;
	} else {
		map.dso = pulse_dsos__findnew(&m->dsos, name, PULSE_DSO_NOSYMS);
		if (!map.dso)
			return -ENOMEM;
	}
	return pulse_maps__insert(&m->kmaps, &map);
}

static int process_mmap(struct pulse_machine *m, const struct perf_event_header *rec)
{
	const char *p = (const char *)rec;
	bool mmap2 = rec->type == PERF_RECORD_MMAP2;
	size_t name_off = mmap2 ? 72 : 40;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	char name[4096], jit[64];
	uint64_t start, len, pgoff;
	struct pulse_thread *t;
	struct pulse_map map = { 0 };
	enum pulse_dso_kind kind = PULSE_DSO_USER;
	const char *dso_name;
	bool anon, no_dso;
	size_t n;

	if (rec->size < name_off)
		return -EBADMSG;
	n = strnlen(p + name_off, rec->size - name_off);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, p + name_off, n);
	name[n] = '\0';
	start = get_u64(p + 16);
	len = get_u64(p + 24);
	pgoff = get_u64(p + 32);

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return process_kernel_mmap(m, name, start, len, pgoff);

	t = pulse_machine__findnew_thread(m, get_u32(p + 8), get_u32(p + 12));
	if (!t)
		return -ENOMEM;
	if (mmap2) {
		map.prot = get_u32(p + 64);
		map.flags = get_u32(p + 68);
		map.ino = get_u64(p + 48);
	} else {
		map.prot = rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;
	}
	map.start = start;
	map.end = start + len;
	map.pgoff = pgoff;

	anon = is_anon(name);
	no_dso = is_no_dso(name);
	dso_name = name;
	if ((anon || no_dso) && (map.prot & PROT_EXEC)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->pid);
		dso_name = jit;
		kind = PULSE_DSO_PERF_MAP;
	} else if (anon || no_dso) {
		kind = PULSE_DSO_NOSYMS;
	} else if (!strcmp(name, "[vdso]")) {
		kind = PULSE_DSO_VDSO;
	} else if (name[0] == '[') {
		kind = PULSE_DSO_NOSYMS;
	}
	/* identity maps keep the record's pgoff, as perf's do (report --mmaps prints it) */
	if (anon || no_dso)
		map.identity = true;
	/* perf's map__new(): a vdso map's pgoff is 0 */
	if (kind == PULSE_DSO_VDSO)
		map.pgoff = 0;
	map.dso = pulse_dsos__findnew(&m->dsos, dso_name, kind);
	if (!map.dso)
		return -ENOMEM;
	if (mmap2 && (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && !map.dso->has_build_id) {
		uint8_t size = (uint8_t)p[40];

		if (size > 20)
			size = 20;
		memcpy(map.dso->build_id, p + 44, size);
		map.dso->build_id_size = size;
		map.dso->has_build_id = size > 0;
	}
	return pulse_maps__insert(t->maps, &map);
}

int pulse_machine__process(struct pulse_machine *m, const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM:
		return process_comm(m, rec);
	case PERF_RECORD_FORK:
		return process_fork(m, rec);
	case PERF_RECORD_EXIT:
		return process_exit(m, rec);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return process_mmap(m, rec);
	default:
		return 0;
	}
}
