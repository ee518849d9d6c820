// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesized COMM/FORK/MMAP/MMAP2 records for the kernel image and for
 * tasks that already run when recording starts. The kernel reports only
 * what happens after the events are enabled, so without these a report
 * could name neither the tasks nor the DSOs of most samples.
 *
 * The records are byte for byte what perf 6.1 writes (compare with
 * `perf report -D` of a `perf record -a` file): the task name, tgid and
 * ppid come from .../status (not from comm: status is what perf reads),
 * mappings from .../task/<pid>/maps, one MMAP2 per mapping, with maj, min
 * and inode from the line, ino_generation 0 and a zeroed sample_id trailer.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/buf.h>
#include <pulse/symbols.h>
#include <pulse/synthesize.h>
#include "core/internal.h"

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif

#define COMM_LEN	16		/* TASK_COMM_LEN */
#define MMAP_FN_OFF	40		/* offsetof(perf_record_mmap, filename) */
#define MMAP2_FN_OFF	72		/* offsetof(perf_record_mmap2, filename) */
#define ID_SIZE_MAX	1024		/* far above any real sample_id trailer */
#define FILE_MAX	(256u << 20)	/* a maps file of a huge process stays far below */

struct synth {
	size_t id_size;
	char proc[PATH_MAX];
	bool mmap_data;
	pulse_synth_cb cb;
	void *arg;
	int cb_ret;			/* non-zero once the callback asked to stop */
	char *rec;			/* one record; MMAP2_FN_OFF + PATH_MAX + id_size */
	struct pulse_buf file;		/* the last file read, NUL-terminated */
	bool hugetlbfs_done;
	char hugetlbfs[PATH_MAX];	/* mount point, "" when none */
};

struct task_status {
	char comm[COMM_LEN];
	int tgid, ppid;
	bool kthread;
};

#define OPT(opts, field, def)                                                  \
	((opts) && (opts)->sz >= offsetof(struct pulse_synth_opts, field) +    \
				 sizeof((opts)->field) ? (opts)->field : (def))

static void put16(char *p, __u16 v) { memcpy(p, &v, 2); }
static void put32(char *p, __u32 v) { memcpy(p, &v, 4); }
static void put64(char *p, __u64 v) { memcpy(p, &v, 8); }

static void put_header(char *p, __u32 type, __u16 misc, size_t size)
{
	put32(p, type);
	put16(p + 4, misc);
	put16(p + 6, (__u16)size);
}

static int synth__init(struct synth *s, const struct pulse_synth_opts *opts,
		       pulse_synth_cb cb, void *arg)
{
	const char *proc = OPT(opts, proc, NULL);

	memset(s, 0, sizeof(*s));
	s->id_size = OPT(opts, id_size, 0);
	s->mmap_data = OPT(opts, mmap_data, false);
	s->cb = cb;
	s->arg = arg;
	if (!cb || s->id_size % 8 || s->id_size > ID_SIZE_MAX)
		return -EINVAL;
	if (snprintf(s->proc, sizeof(s->proc), "%s", proc ? proc : "/proc") >=
	    (int)sizeof(s->proc))
		return -ENAMETOOLONG;
	s->rec = malloc(MMAP2_FN_OFF + PATH_MAX + s->id_size);
	return s->rec ? 0 : -ENOMEM;
}

static void synth__exit(struct synth *s)
{
	free(s->rec);
	pulse_buf__release(&s->file);
}

static int synth__emit(struct synth *s, size_t size)
{
	int ret = s->cb(s->rec, size, s->arg);

	if (ret)
		s->cb_ret = ret;
	return ret;
}

/*
 * Read a whole file into s->file. /proc files report size 0 and can grow
 * while being read, so read until EOF rather than trusting st_size.
 */
static int synth__read_file(struct synth *s, const char *path, size_t *len)
{
	long n;

	s->file.len = 0;
	n = pulse_buf__read_file(&s->file, path, FILE_MAX);
	if (n < 0)
		return (int)n;
	*len = (size_t)n;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The numeric entries of a /proc directory, ascending: the order the kernel
 * lists them in, so the output matches perf's; a fake tree on another file
 * system lists them in any order.
 */
static int list_numeric(const char *path, int **out, size_t *nr)
{
	size_t n = 0, alloc = 0;
	struct dirent *de;
	int *v = NULL;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		char *end;
		long id;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		errno = 0;
		id = strtol(de->d_name, &end, 10);
		if (*end || errno || id > INT_MAX)
			continue;
		if (n == alloc) {
			size_t na = alloc ? 2 * alloc : 256;
			int *nv = realloc(v, na * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(dir);
				return -ENOMEM;
			}
			v = nv;
			alloc = na;
		}
		v[n++] = (int)id;
	}
	closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), cmp_int);
	*out = v;
	*nr = n;
	return 0;
}

/* The value of "Key:" at the start of a line of a status file, or NULL. */
static const char *status_field(const char *buf, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen))
			return p + klen;
	}
	return NULL;
}

static int read_status(struct synth *s, const char *path, struct task_status *st)
{
	const char *name, *tgid, *ppid;
	size_t len;
	int err;

	err = synth__read_file(s, path, &len);
	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	name = status_field(s->file.p, "Name:");
	tgid = status_field(s->file.p, "Tgid:");
	ppid = status_field(s->file.p, "PPid:");
	if (!tgid)
		return -ENOENT;
	if (name) {
		size_t n;

		while (*name == ' ' || *name == '\t')
			name++;
		n = strcspn(name, "\n");
		if (n >= COMM_LEN)
			n = COMM_LEN - 1;
		memcpy(st->comm, name, n);
	}
	st->tgid = atoi(tgid);
	st->ppid = ppid ? atoi(ppid) : -1;
	/* Kernel threads have no mm, hence no Vm* lines. */
	st->kthread = !status_field(s->file.p, "VmPeak:");
	return st->tgid < 0 ? -ENOENT : 0;
}

static int emit_comm(struct synth *s, int tgid, int tid, const char *comm)
{
	size_t clen = PULSE_ALIGN(strlen(comm) + 1, 8);
	size_t size = 16 + clen + s->id_size;

	memset(s->rec, 0, size);
	put_header(s->rec, PERF_RECORD_COMM, 0, size);
	put32(s->rec + 8, tgid);
	put32(s->rec + 12, tid);
	memcpy(s->rec + 16, comm, strlen(comm));
	return synth__emit(s, size);
}

static int emit_fork(struct synth *s, int tgid, int tid, int ppid)
{
	size_t size = 32 + s->id_size;
	/* perf assumes the leader spawned every other thread. */
	int parent = tid == tgid ? ppid : tgid;

	memset(s->rec, 0, size);
	put_header(s->rec, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, size);
	put32(s->rec + 8, tgid);
	put32(s->rec + 12, parent);
	put32(s->rec + 16, tid);
	put32(s->rec + 20, parent);
	return synth__emit(s, size);
}

static void find_hugetlbfs(struct synth *s)
{
	char path[PATH_MAX + 8];
	size_t len;
	char *line, *save = NULL;

	s->hugetlbfs_done = true;
	snprintf(path, sizeof(path), "%s/mounts", s->proc);
	if (synth__read_file(s, path, &len))
		return;
	for (line = strtok_r(s->file.p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[256], mnt[PATH_MAX], type[64];

		if (sscanf(line, "%255s %4095s %63s", dev, mnt, type) == 3 &&
		    !strcmp(type, "hugetlbfs")) {
			snprintf(s->hugetlbfs, sizeof(s->hugetlbfs), "%s", mnt);
			return;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Parse digits at *p and step past the character that ended them, which is
 * returned (-1 at the end of the buffer).
 */
static int get_hex(const char **p, __u64 *v)
{
	const char *q = *p;
	int d, ch;

	*v = 0;
	while ((d = hexval((unsigned char)*q)) >= 0) {
		*v = (*v << 4) | d;
		q++;
	}
	ch = *q ? (unsigned char)*q : -1;
	*p = *q ? q + 1 : q;
	return ch;
}

static int get_dec(const char **p, __u64 *v)
{
	const char *q = *p;
	int ch;

	*v = 0;
	while (*q >= '0' && *q <= '9')
		*v = *v * 10 + (*q++ - '0');
	ch = *q ? (unsigned char)*q : -1;
	*p = *q ? q + 1 : q;
	return ch;
}

struct maps_line {
	__u64 start, end, pgoff, maj, min, ino;
	__u32 prot, flags;
	const char *path;
	size_t path_len;
};

/*
 * One line of a maps file:
 * "00400000-0040c000 r-xp 00000000 fd:01 41038                     /bin/cat"
 * The path may contain spaces (" (deleted)") and runs to the end of line.
 * Return: false for a malformed line.
 */
static bool parse_maps_line(const char *line, const char *eol, struct maps_line *m)
{
	const char *p = line;
	int ch;

	if (get_hex(&p, &m->start) != '-' || get_hex(&p, &m->end) != ' ')
		return false;
	if (eol - p < 5)
		return false;
	m->prot = 0;
	if (p[0] == 'r')
		m->prot |= PROT_READ;
	else if (p[0] != '-')
		return false;
	if (p[1] == 'w')
		m->prot |= PROT_WRITE;
	else if (p[1] != '-')
		return false;
	if (p[2] == 'x')
		m->prot |= PROT_EXEC;
	else if (p[2] != '-')
		return false;
	if (p[3] == 's')
		m->flags = MAP_SHARED;
	else if (p[3] == 'p')
		m->flags = MAP_PRIVATE;
	else
		return false;
	if (p[4] != ' ')
		return false;
	p += 5;
	if (get_hex(&p, &m->pgoff) != ' ' || get_hex(&p, &m->maj) != ':' ||
	    get_hex(&p, &m->min) != ' ')
		return false;
	ch = get_dec(&p, &m->ino);
	if (ch == '\n' || ch == -1) {
		m->path = "";
		m->path_len = 0;
		return m->start <= m->end;
	}
	if (ch != ' ')
		return false;
	while (p < eol && *p == ' ')
		p++;
	m->path = p;
	m->path_len = eol - p;
	return m->start <= m->end;
}

static int emit_mmap2(struct synth *s, int tgid, int pid, const struct maps_line *m)
{
	static const char anon[] = "//anon";
	__u16 misc = PERF_RECORD_MISC_USER;
	__u32 flags = m->flags;
	const char *name = m->path;
	size_t nlen = m->path_len, flen, size;

	if (!(m->prot & PROT_EXEC)) {
		if (!s->mmap_data || !(m->prot & PROT_READ))
			return 0;
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	if (!nlen) {
		name = anon;
		nlen = sizeof(anon) - 1;
	}
	if (!s->hugetlbfs_done)
		find_hugetlbfs(s);
	/* Files on hugetlbfs have no symbols to find: perf files them as anon. */
	if (s->hugetlbfs[0] && nlen >= strlen(s->hugetlbfs) &&
	    !strncmp(name, s->hugetlbfs, strlen(s->hugetlbfs))) {
		name = anon;
		nlen = sizeof(anon) - 1;
		flags |= MAP_HUGETLB;
	}
	if (nlen > PATH_MAX - 1)
		nlen = PATH_MAX - 1;
	flen = PULSE_ALIGN(nlen + 1, 8);
	size = MMAP2_FN_OFF + flen + s->id_size;

	memset(s->rec, 0, size);
	put_header(s->rec, PERF_RECORD_MMAP2, misc, size);
	put32(s->rec + 8, tgid);
	put32(s->rec + 12, pid);
	put64(s->rec + 16, m->start);
	put64(s->rec + 24, m->end - m->start);
	put64(s->rec + 32, m->pgoff);
	put32(s->rec + 40, (__u32)m->maj);
	put32(s->rec + 44, (__u32)m->min);
	put64(s->rec + 48, m->ino);
	/* ino_generation at 56 stays 0: /proc does not show it. */
	put32(s->rec + 64, m->prot);
	put32(s->rec + 68, flags);
	memcpy(s->rec + MMAP2_FN_OFF, name, nlen);
	return synth__emit(s, size);
}

static int synth_maps(struct synth *s, int tgid, int pid)
{
	char path[PATH_MAX + 64];
	char *maps, *line, *eol;
	size_t len = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%d/task/%d/maps", s->proc, pid, pid);
	err = synth__read_file(s, path, &len);
	if (err) {
		pr_debug("synthesize: %s: %s\n", path, strerror(-err));
		return err;
	}
	/* emit_mmap2() may reuse s->file for the mounts file: keep a copy. */
	maps = malloc(len + 1);
	if (!maps)
		return -ENOMEM;
	memcpy(maps, s->file.p, len + 1);
	for (line = maps; *line; line = *eol ? eol + 1 : eol) {
		struct maps_line m;

		eol = strchrnul(line, '\n');
		if (!parse_maps_line(line, eol, &m)) {
			pr_debug("synthesize: %s: bad line\n", path);
			continue;
		}
		err = emit_mmap2(s, tgid, pid, &m);
		if (err)
			break;
	}
	free(maps);
	return err;
}

/*
 * One process: @full is perf's system-wide mode (FORK + COMM per thread),
 * otherwise its per-task mode (COMM per thread). The leader's maps follow
 * its COMM in both.
 */
static int synth_process(struct synth *s, int pid, bool full)
{
	char path[PATH_MAX + 64];
	int *tids = NULL;
	size_t nr = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%d/task", s->proc, pid);
	err = list_numeric(path, &tids, &nr);
	if (err)
		return err;
	for (size_t i = 0; i < nr && !s->cb_ret; i++) {
		struct task_status st;

		snprintf(path, sizeof(path), "%s/%d/task/%d/status", s->proc, pid, tids[i]);
		/* A thread that exited since the listing has nothing to report. */
		if (read_status(s, path, &st))
			continue;
		if (full && emit_fork(s, st.tgid, tids[i], st.ppid))
			break;
		if (emit_comm(s, st.tgid, tids[i], st.comm))
			break;
		if (tids[i] == pid && st.tgid == pid && !st.kthread)
			synth_maps(s, st.tgid, pid);
	}
	free(tids);
	return s->cb_ret;
}

int pulse_synthesize__comm(pid_t pid, const struct pulse_synth_opts *opts, pulse_synth_cb cb,
			   void *arg)
{
	char path[PATH_MAX + 32];
	struct task_status st;
	struct synth s;
	int err;

	err = synth__init(&s, opts, cb, arg);
	if (!err) {
		snprintf(path, sizeof(path), "%s/%d/status", s.proc, (int)pid);
		err = read_status(&s, path, &st);
		if (!err)
			err = emit_comm(&s, st.tgid, pid, st.comm);
	}
	synth__exit(&s);
	return err;
}

int pulse_synthesize__task(pid_t pid, const struct pulse_synth_opts *opts, pulse_synth_cb cb,
			   void *arg)
{
	struct synth s;
	int err;

	err = synth__init(&s, opts, cb, arg);
	if (!err)
		err = synth_process(&s, pid, false);
	synth__exit(&s);
	return err;
}

int pulse_synthesize__thread(pid_t tid, const struct pulse_synth_opts *opts,
			     pulse_synth_cb cb, void *arg)
{
	char path[PATH_MAX + 32];
	struct task_status st, leader;
	struct synth s;
	int err;

	err = synth__init(&s, opts, cb, arg);
	if (err)
		goto out;
	snprintf(path, sizeof(path), "%s/%d/status", s.proc, (int)tid);
	err = read_status(&s, path, &st);
	if (!err)
		err = emit_comm(&s, st.tgid, tid, st.comm);
	if (err)
		goto out;
	if (st.tgid != tid) {
		snprintf(path, sizeof(path), "%s/%d/status", s.proc, st.tgid);
		/* The leader may have exited while the thread lives on. */
		if (read_status(&s, path, &leader))
			goto out;
		err = emit_comm(&s, leader.tgid, st.tgid, leader.comm);
		if (err)
			goto out;
		st.kthread = leader.kthread;
	}
	if (!st.kthread)
		synth_maps(&s, st.tgid, st.tgid);
	err = s.cb_ret;
out:
	synth__exit(&s);
	return err;
}

int pulse_synthesize__all(const struct pulse_synth_opts *opts, pulse_synth_cb cb, void *arg)
{
	int *pids = NULL;
	struct synth s;
	size_t nr = 0;
	int err;

	err = synth__init(&s, opts, cb, arg);
	if (!err)
		err = list_numeric(s.proc, &pids, &nr);
	for (size_t i = 0; !err && i < nr; i++) {
		/* Processes exit while we read: only a callback failure stops us. */
		synth_process(&s, pids[i], true);
		err = s.cb_ret;
	}
	free(pids);
	synth__exit(&s);
	return err;
}

int pulse_synthesize__kernel_mmap(const struct pulse_synth_opts *opts, pulse_synth_cb cb,
				  void *arg)
{
	static const char fname[] = "[kernel.kallsyms]_text";
	char path[PATH_MAX + 16];
	size_t flen, size;
	struct synth s;
	uint64_t start, end;
	int err;

	err = synth__init(&s, opts, cb, arg);
	if (err)
		goto out;
	snprintf(path, sizeof(path), "%s/kallsyms", s.proc);
	err = pulse_kallsyms__text_range_cached(path, OPT(opts, kallsyms_cache, NULL), &start,
						&end);
	if (err == -EACCES)
		pr_debug("synthesize: kallsyms addresses are hidden (kptr_restrict)\n");
	if (err)
		goto out;

	flen = PULSE_ALIGN(sizeof(fname), 8);
	size = MMAP_FN_OFF + flen + s.id_size;
	memset(s.rec, 0, size);
	put_header(s.rec, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, size);
	put32(s.rec + 8, (__u32)-1);	/* HOST_KERNEL_ID */
	put32(s.rec + 12, 0);
	put64(s.rec + 16, start);
	put64(s.rec + 24, end - start);
	put64(s.rec + 32, start);	/* pgoff: the ref_reloc_sym address */
	memcpy(s.rec + MMAP_FN_OFF, fname, sizeof(fname));
	err = synth__emit(&s, size);
out:
	synth__exit(&s);
	return err;
}
