// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's engine.
 *
 * Events are opened per CPU (inherited task events cannot be mmapped when
 * opened with cpu == -1) and per target thread; each CPU has one ring
 * buffer, owned by the first fd opened on it, and every other fd of that
 * CPU is redirected into it with PERF_EVENT_IOC_SET_OUTPUT. The main loop
 * sleeps in epoll on the event fds (and a pidfd for the workload), then
 * makes a pass over every ring: the batch [tail, head) is parsed only for
 * accounting (samples, LOST, which DSOs were hit, time range) and copied
 * to the file with one writev straight from the mapping, then the tail is
 * released. A FINISHED_ROUND follows each pass that wrote something, and
 * the header is rewritten at least once a second.
 *
 * System-wide recording adds a "dummy" tracking event, enabled at once, so
 * that no MMAP/COMM/FORK is missed while existing tasks are synthesized
 * from /proc; the sampling events are enabled after that, as perf does.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pulse/data.h>
#include <pulse/event.h>
#include <pulse/mmap.h>
#include <pulse/open.h>
#include <pulse/record.h>
#include <pulse/synthesize.h>
#include <pulse/build-id.h>
#include <pulse/features.h>
#include <pulse/trace.h>
#include "core/internal.h"
#include "record/dso-hits.h"

#define DEFAULT_MMAP_PAGES 128	/* 512 KiB per CPU, perf's default as root */
#define STORM_BYTES (64 * 1024)	/* a pass this large means data is pouring in */

struct id_ent {
	__u64 id;
	int evsel;
};

/*
 * Where the fields the recorder needs sit in this evsel's SAMPLE records:
 * they precede every variable-size field, so their offsets are fixed and a
 * sample is accounted with a few loads instead of a full parse.
 */
struct sample_offs {
	int ip, pid, time;	/* byte offsets, -1 when absent */
	int min_size;		/* the record must be at least this long */
};

struct rec {
	const struct pulse_record_opts *opts;
	struct pulse_record_stats *stats;
	struct pulse_record_error *err;
	int *cpus;			/* owned */
	int nr_cpus;
	pid_t *threads;			/* owned */
	int nr_threads;
	struct pulse_evsel **evsels;	/* borrowed from the evlist, plus the dummy */
	int nr_evsels;
	struct pulse_evsel *dummy;	/* owned when system wide */
	struct pulse_evsel *tracking;
	struct pulse_mmap *maps;	/* [nr_cpus] */
	struct pulse_data_writer *w;
	struct dso_hits *hits;
	struct id_ent *ids;
	size_t nr_ids;
	struct sample_offs *offs;	/* [nr_evsels] */
	struct pulse_data_attr *attrs;	/* [nr_evsels], the events as the file stores them */
	size_t id_size;			/* sample_id trailer bytes */
	pid_t child;
	int go_pipe[2];
	int exec_pipe[2];
	int pidfd;
	int epfd;
	int nr_polled;			/* event fds in epoll, not yet hung up */
	bool child_done;
	__u64 first_time, last_time;
	bool wrote_this_pass;
	__u64 pass_bytes;		/* bytes the last pass copied */
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int read_online_cpus(int **cpus)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = 0, alloc = 16, a, b;
	int *v = malloc(alloc * sizeof(int));
	char c;

	if (!v) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	if (!f) {
		long nr = sysconf(_SC_NPROCESSORS_ONLN);

		for (int i = 0; i < nr; i++) {
			if (n == alloc)
				v = realloc(v, (alloc *= 2) * sizeof(int));
			v[n++] = i;
		}
		*cpus = v;
		return n;
	}
	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		if (fscanf(f, "%c", &c) == 1 && c == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			if (fscanf(f, "%c", &c) != 1)
				c = 0;
		}
		for (int i = a; i <= b; i++) {
			if (n == alloc) {
				int *nv = realloc(v, (alloc *= 2) * sizeof(int));

				if (!nv)
					break;
				v = nv;
			}
			v[n++] = i;
		}
		if (c != ',')
			break;
	}
	fclose(f);
	*cpus = v;
	return n;
}

static int add_thread(struct rec *r, pid_t tid)
{
	pid_t *t = realloc(r->threads, (r->nr_threads + 1) * sizeof(pid_t));

	if (!t)
		return -ENOMEM;
	r->threads = t;
	r->threads[r->nr_threads++] = tid;
	return 0;
}

/* Every thread of a process, from /proc/PID/task. */
static int add_task_threads(struct rec *r, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (add_thread(r, atoi(de->d_name))) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

static bool is_system_wide(const struct pulse_record_opts *o)
{
	return pulse_record__is_system_wide(o);
}

static bool has_task_target(const struct pulse_record_opts *o)
{
	return o->nr_pids || o->nr_tids;
}

static int start_workload(struct rec *r)
{
	int err;

	if (pipe2(r->go_pipe, O_CLOEXEC) || pipe2(r->exec_pipe, O_CLOEXEC))
		return -errno;
	r->child = fork();
	if (r->child < 0)
		return -errno;
	if (r->child == 0) {
		char c;

		close(r->go_pipe[1]);
		close(r->exec_pipe[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* Wait until the events are open: enable_on_exec then starts them. */
		if (read(r->go_pipe[0], &c, 1) != 1)
			_exit(127);
		execvp(r->opts->argv[0], r->opts->argv);
		err = errno;
		if (write(r->exec_pipe[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(r->go_pipe[0]);
	close(r->exec_pipe[1]);
	r->go_pipe[0] = r->exec_pipe[1] = -1;
	r->pidfd = syscall(SYS_pidfd_open, r->child, 0);
	return 0;
}

/* Let the workload exec; report exec failure as perf does ("workload failed"). */
static int go_workload(struct rec *r)
{
	int child_err = 0;
	ssize_t n;

	if (write(r->go_pipe[1], "g", 1) != 1)
		return -errno;
	close(r->go_pipe[1]);
	r->go_pipe[1] = -1;
	/* EOF on the CLOEXEC pipe means exec succeeded. */
	n = read(r->exec_pipe[0], &child_err, sizeof(child_err));
	close(r->exec_pipe[0]);
	r->exec_pipe[0] = -1;
	if (n == sizeof(child_err)) {
		waitpid(r->child, NULL, 0);
		r->child = 0;
		r->child_done = true;
		return -child_err;
	}
	r->stats->workload_ran = true;
	return 0;
}

static int open_events(struct rec *r)
{
	for (int i = 0; i < r->nr_evsels; i++) {
		struct pulse_evsel *e = r->evsels[i];
		int cpu = -1, ret;
		pid_t tid = -1;

		for (;;) {
			ret = pulse_evsel__open(e, r->cpus, r->nr_cpus, r->threads, r->nr_threads,
						&cpu, &tid);
			if (!ret)
				break;
			pulse_evsel__close(e);
			if ((ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV) &&
			    pulse_evsel__fallback(e)) {
				r->err->fell_back = true;
				continue;
			}
			if (pulse_evsel__fallback_user_only(e, ret, &r->err->paranoid)) {
				r->err->user_only = true;
				continue;
			}
			r->err->stage = PULSE_REC_OPEN;
			r->err->evsel = e->name;
			r->err->cpu = cpu;
			r->err->tid = tid;
			return ret;
		}
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int build_id_table(struct rec *r)
{
	size_t n = 0;

	for (int i = 0; i < r->nr_evsels; i++)
		n += (size_t)r->evsels[i]->nr_cpus * r->evsels[i]->nr_threads;
	r->ids = calloc(n ? n : 1, sizeof(*r->ids));
	if (!r->ids)
		return -ENOMEM;
	for (int i = 0; i < r->nr_evsels; i++) {
		struct pulse_evsel *e = r->evsels[i];

		for (int k = 0; k < e->nr_cpus * e->nr_threads; k++)
			if (e->fd[k] >= 0)
				r->ids[r->nr_ids++] = (struct id_ent){ e->id[k], i };
	}
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

static int build_sample_offsets(struct rec *r)
{
	r->offs = calloc(r->nr_evsels, sizeof(*r->offs));
	if (!r->offs)
		return -ENOMEM;
	for (int i = 0; i < r->nr_evsels; i++) {
		__u64 st = r->evsels[i]->attr.sample_type;
		struct sample_offs *o = &r->offs[i];
		int off = sizeof(struct perf_event_header);

		o->ip = o->pid = o->time = -1;
		if (st & PERF_SAMPLE_IDENTIFIER)
			off += 8;
		if (st & PERF_SAMPLE_IP) {
			o->ip = off;
			off += 8;
		}
		if (st & PERF_SAMPLE_TID) {
			o->pid = off;
			off += 8;
		}
		if (st & PERF_SAMPLE_TIME) {
			o->time = off;
			off += 8;
		}
		o->min_size = off;
	}
	return 0;
}

static int evsel_of_id(struct rec *r, __u64 id)
{
	size_t lo = 0, hi = r->nr_ids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->ids[mid].id == id)
			return r->ids[mid].evsel;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int mmap_events(struct rec *r)
{
	size_t pages = r->opts->mmap_pages ? r->opts->mmap_pages : DEFAULT_MMAP_PAGES;

	r->maps = calloc(r->nr_cpus, sizeof(*r->maps));
	if (!r->maps)
		return -ENOMEM;
	for (int c = 0; c < r->nr_cpus; c++) {
		int owner = -1;

		for (int i = 0; i < r->nr_evsels; i++) {
			struct pulse_evsel *e = r->evsels[i];

			for (int t = 0; t < r->nr_threads; t++) {
				int fd = e->fd[c * r->nr_threads + t];
				int ret;

				if (fd < 0)
					continue;
				if (owner < 0) {
					owner = fd;
					ret = pulse_mmap__mmap(&r->maps[c], fd, pages, false);
					if (ret) {
						r->err->stage = PULSE_REC_MMAP;
						r->err->cpu = r->cpus[c];
						return ret;
					}
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, owner) < 0) {
					ret = -errno;
					r->err->stage = PULSE_REC_MMAP;
					r->err->cpu = r->cpus[c];
					return ret;
				}
				struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (__u64)c };

				if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
					return -errno;
				r->nr_polled++;
			}
		}
	}
	return 0;
}

/* Parse one record for the summary, BUILD_ID and SAMPLE_TIME; never fails. */
static void account(struct rec *r, const unsigned char *p, size_t size, int map)
{
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE: {
		const struct sample_offs *so;
		int ev = 0;

		r->stats->samples++;
		if (r->nr_evsels > 1 && size >= 16)
			ev = evsel_of_id(r, get_u64(p + 8));
		so = &r->offs[ev];
		if (size < (size_t)so->min_size)
			return;
		if (so->time >= 0) {
			__u64 t = get_u64(p + so->time);

			if (!r->first_time || t < r->first_time)
				r->first_time = t;
			if (t > r->last_time)
				r->last_time = t;
		}
		if (so->ip >= 0)
			dso_hits__sample(r->hits, so->pid >= 0 ? (pid_t)get_u32(p + so->pid) : -1,
					 get_u64(p + so->ip),
					 (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
						 PERF_RECORD_MISC_KERNEL);
		break;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t name_off = h.type == PERF_RECORD_MMAP ? 40 : 72;
		const __u8 *bid = NULL;
		__u8 bid_size = 0;
		char name[4096];
		size_t n;

		if (size <= name_off || (h.misc & PERF_RECORD_MISC_MMAP_DATA))
			return;
		n = strnlen((const char *)p + name_off, size - name_off);
		if (n >= sizeof(name))
			return;
		memcpy(name, p + name_off, n);
		name[n] = 0;
		if (h.type == PERF_RECORD_MMAP2 && (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			bid_size = p[40];
			bid = p + 44;
		}
		dso_hits__mmap(r->hits, (pid_t)get_u32(p + 8), get_u64(p + 16), get_u64(p + 24),
			       name,
			       (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL,
			       bid, bid_size);
		break;
	}
	case PERF_RECORD_FORK:
		if (size >= 16)
			dso_hits__fork(r->hits, (pid_t)get_u32(p + 8), (pid_t)get_u32(p + 12));
		break;
	case PERF_RECORD_COMM:
		if ((h.misc & PERF_RECORD_MISC_COMM_EXEC) && size >= 16)
			dso_hits__exec(r->hits, (pid_t)get_u32(p + 8));
		break;
	case PERF_RECORD_LOST:
		if (size >= 24) {
			r->stats->lost_events += get_u64(p + 16);
			r->stats->lost_chunks++;
			if (map >= 0)
				r->stats->lost_per_cpu[map] += get_u64(p + 16);
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			r->stats->lost_samples += get_u64(p + 8);
		break;
	}
}

/* Synthesized records: account and write them like ring data. */
static int write_synth(const void *rec, size_t len, void *arg)
{
	struct rec *r = arg;

	account(r, rec, len, -1);
	return pulse_data_writer__write(r->w, rec, len);
}

static int write_err(struct rec *r, int ret)
{
	r->err->stage = PULSE_REC_WRITE;
	if (ret == -ENOSPC)
		r->stats->disk_full = true;
	return ret;
}

static int drain_map(struct rec *r, int c)
{
	struct pulse_mmap *m = &r->maps[c];
	const struct perf_event_header *ev;
	struct iovec iov[2];
	int n, ret;

	__u64 kept, seen = 0;

	if (!m->base || pulse_mmap__read_init(m))
		return 0;
	n = pulse_mmap__batch_iov(m, iov);
	if (!n)
		goto out_done;
	ret = pulse_data_writer__writev(r->w, iov, n);
	kept = pulse_data_writer__last_kept(r->w);
	/* Account only what reached the file, so the summary matches it. */
	while (seen < kept && (ev = pulse_mmap__read_event(m)) != NULL) {
		account(r, (const unsigned char *)ev, ev->size, c);
		seen += ev->size;
	}
	if (ret)
		return write_err(r, ret);
	r->wrote_this_pass = true;
out_done:
	pulse_mmap__read_done(m);
	return 0;
}

static int drain_all(struct rec *r)
{
	static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	int ret;

	r->wrote_this_pass = false;
	__u64 before = pulse_data_writer__data_size(r->w);

	for (int c = 0; c < r->nr_cpus; c++)
		if ((ret = drain_map(r, c)))
			return ret;
	r->pass_bytes = pulse_data_writer__data_size(r->w) - before;
	if (r->wrote_this_pass) {
		ret = pulse_data_writer__write(r->w, &round, sizeof(round));
		if (ret)
			return write_err(r, ret);
	}
	return 0;
}

static int enable_events(struct rec *r)
{
	for (int i = 0; i < r->nr_evsels; i++) {
		int ret = pulse_evsel__ioctl(r->evsels[i], PERF_EVENT_IOC_ENABLE, 0);

		if (ret)
			return ret;
	}
	return 0;
}

static void disable_events(struct rec *r)
{
	for (int i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i]->fd)
			pulse_evsel__ioctl(r->evsels[i], PERF_EVENT_IOC_DISABLE, 0);
}

static void reap_child(struct rec *r, bool block)
{
	int status;

	if (r->child <= 0 || r->child_done)
		return;
	if (waitpid(r->child, &status, block ? 0 : WNOHANG) == r->child) {
		r->child_done = true;
		r->stats->workload_status = status;
	}
}

static int features_at_start(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_OSRELEASE, PULSE_FEAT_VERSION, PULSE_FEAT_ARCH,
		PULSE_FEAT_NRCPUS, PULSE_FEAT_CPUDESC, PULSE_FEAT_CPUID, PULSE_FEAT_TOTAL_MEM,
		PULSE_FEAT_CMDLINE, PULSE_FEAT_EVENT_DESC,
	};
	struct pulse_feat_ctx ctx = { 0 };
	int ret = 0;

	ctx.argc = o->argc_self;
	ctx.argv = o->argv_self;
	ctx.attrs = r->attrs;
	ctx.nr_attrs = r->nr_evsels;
	for (size_t i = 0; i < ARRAY_SIZE(feats) && !ret; i++) {
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(feats[i], &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(r->w, feats[i], b.p, b.len);
		else if (ret == -ENOENT || ret == -EOPNOTSUPP)
			ret = 0; /* this machine cannot say (e.g. no cpuinfo field) */
		pulse_buf__release(&b);
	}
	return ret;
}

static int tracing_data(struct rec *r)
{
	const char **sys, **ev;
	size_t n = 0;
	struct pulse_buf b = { 0 };
	const char *dir;
	int ret;

	for (int i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i]->attr.type == PERF_TYPE_TRACEPOINT && r->evsels[i]->tp_system)
			n++;
	if (!n)
		return 0;
	dir = pulse_tracefs_dir(NULL);
	if (!dir) {
		r->err->stage = PULSE_REC_TRACEFS;
		return -errno;
	}
	sys = calloc(n, sizeof(*sys));
	ev = calloc(n, sizeof(*ev));
	if (!sys || !ev) {
		free(sys);
		free(ev);
		return -ENOMEM;
	}
	n = 0;
	for (int i = 0; i < r->nr_evsels; i++) {
		if (r->evsels[i]->attr.type != PERF_TYPE_TRACEPOINT || !r->evsels[i]->tp_system)
			continue;
		sys[n] = r->evsels[i]->tp_system;
		ev[n++] = r->evsels[i]->tp_name;
	}
	ret = pulse_tracing_data__build(&b, dir, sys, ev, n);
	if (!ret)
		ret = pulse_data_writer__add_feature(r->w, PULSE_FEAT_TRACING_DATA, b.p, b.len);
	else
		r->err->stage = PULSE_REC_TRACEFS;
	pulse_buf__release(&b);
	free(sys);
	free(ev);
	return ret;
}

static int synthesize(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	struct pulse_synth_opts so = { .sz = sizeof(so), .id_size = r->id_size };
	int ret;

	ret = pulse_synthesize__kernel_mmap(&so, write_synth, r);
	if (ret && ret != -ENOENT && ret != -EACCES)
		return ret;
	if (is_system_wide(o)) {
		ret = pulse_synthesize__all(&so, write_synth, r);
	} else {
		ret = 0;
		for (size_t i = 0; i < o->nr_pids && !ret; i++)
			ret = pulse_synthesize__task(o->pids[i], &so, write_synth, r);
		for (size_t i = 0; i < o->nr_tids && !ret; i++)
			ret = pulse_synthesize__thread(o->tids[i], &so, write_synth, r);
	}
	if (ret == -ENOSPC)
		return write_err(r, ret);
	if (ret && ret != -ENOENT && ret != -ESRCH)
		return ret;
	static const struct perf_event_header init = { PERF_RECORD_FINISHED_INIT, 0, 8 };

	ret = pulse_data_writer__write(r->w, &init, sizeof(init));
	return ret ? write_err(r, ret) : 0;
}

/* read_format LOST: samples the kernel dropped, synthesized as LOST_SAMPLES as perf 6.x. */
static int write_lost_samples(struct rec *r)
{
	for (int i = 0; i < r->nr_evsels; i++) {
		struct pulse_evsel *e = r->evsels[i];
		__u64 lost = 0, v[3];

		for (int k = 0; k < e->nr_cpus * e->nr_threads; k++)
			if (e->fd[k] >= 0 && read(e->fd[k], v, sizeof(v)) == sizeof(v))
				lost += v[2];
		if (!lost)
			continue;
		unsigned char rec[16 + 64] = { 0 };
		size_t size = 16 + r->id_size;
		struct perf_event_header h = { PERF_RECORD_LOST_SAMPLES, 0, (__u16)size };

		if (size > sizeof(rec))
			continue;
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &lost, 8);
		if (e->attr.sample_type & PERF_SAMPLE_IDENTIFIER)
			memcpy(rec + size - 8, &e->id[0], 8);
		r->stats->lost_samples += lost;
		int ret = pulse_data_writer__write(r->w, rec, size);

		if (ret)
			return write_err(r, ret);
	}
	return 0;
}

static int build_ids(struct rec *r)
{
	struct pulse_build_id_entry *ents;
	struct dso_hit *d;
	size_t nr, n = 0;
	int ret;

	d = dso_hits__dsos(r->hits, &nr);
	ents = calloc(nr ? nr : 1, sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct pulse_build_id_entry *e = &ents[n];
		size_t len = 0;

		if (!d[i].hit)
			continue;
		if (d[i].has_build_id) {
			memcpy(e->id, d[i].build_id, d[i].build_id_size);
			len = d[i].build_id_size;
		} else if (d[i].kernel) {
			if (pulse_build_id__read_kernel(e->id, &len))
				continue;
		} else if (d[i].name[0] == '/') {
			if (pulse_build_id__read_file(d[i].name, e->id, &len))
				continue;
		} else {
			continue; /* [vdso], //anon: nothing on disk to identify */
		}
		e->size = len;
		e->pid = -1;
		e->misc = d[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		e->filename = d[i].kernel ? "[kernel.kallsyms]" : d[i].name;
		n++;
	}
	if (n) {
		struct pulse_feat_ctx ctx = { .build_ids = ents, .nr_build_ids = n };
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(PULSE_FEAT_BUILD_ID, &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(r->w, PULSE_FEAT_BUILD_ID, b.p, b.len);
		pulse_buf__release(&b);
	} else {
		ret = 0;
	}
	free(ents);
	return ret;
}

static int finish_features(struct rec *r)
{
	int ret = build_ids(r);

	if (!ret && r->first_time) {
		struct pulse_feat_ctx ctx = { .first_time = r->first_time,
					      .last_time = r->last_time };
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(PULSE_FEAT_SAMPLE_TIME, &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(r->w, PULSE_FEAT_SAMPLE_TIME, b.p, b.len);
		pulse_buf__release(&b);
	}
	return ret;
}

static int setup_target(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	int ret;

	if (o->cpus && o->nr_cpus) {
		r->cpus = malloc(o->nr_cpus * sizeof(int));
		if (!r->cpus)
			return -ENOMEM;
		memcpy(r->cpus, o->cpus, o->nr_cpus * sizeof(int));
		r->nr_cpus = o->nr_cpus;
	} else {
		r->nr_cpus = read_online_cpus(&r->cpus);
		if (r->nr_cpus < 0)
			return r->nr_cpus;
	}
	/* -1: every task of the CPUs */
	if (is_system_wide(o))
		return add_thread(r, -1);
	for (size_t i = 0; i < o->nr_pids; i++) {
		ret = add_task_threads(r, o->pids[i]);
		if (ret) {
			r->err->stage = PULSE_REC_TARGET;
			r->err->tid = o->pids[i];
			return ret == -ENOENT ? -ESRCH : ret;
		}
	}
	for (size_t i = 0; i < o->nr_tids; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/status", (int)o->tids[i]);
		if (access(path, F_OK)) {
			r->err->stage = PULSE_REC_TARGET;
			r->err->tid = o->tids[i];
			return -ESRCH;
		}
		if (add_thread(r, o->tids[i]))
			return -ENOMEM;
	}
	/* a command: its pid is filled in once forked */
	if (!r->nr_threads)
		return add_thread(r, -1);
	return 0;
}

static bool want_stop(struct rec *r)
{
	return r->opts->stop && *r->opts->stop;
}

static int main_loop(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	bool task_target = has_task_target(o);
	__u64 last_sync = now_ns();
	struct epoll_event evs[64];
	int ret;

	for (;;) {
		/*
		 * The kernel wakes us at half a buffer. In a storm that leaves
		 * only the other half as slack for our scheduling latency, so
		 * while passes are large, come back after 1 ms instead of
		 * waiting for the wakeup: the rings stay nearly empty.
		 */
		int n = epoll_wait(r->epfd, evs, 64, r->pass_bytes >= STORM_BYTES ? 1 : 200);
		bool hup = false;

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			r->stats->wakeups++;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == ~0ULL) {
				reap_child(r, false);
				continue;
			}
			if (evs[i].events & (EPOLLHUP | EPOLLERR))
				hup = true;
		}
		if (hup) {
			/* Drop hung-up fds from the set, or epoll would report them forever. */
			for (int e = 0; e < r->nr_evsels; e++) {
				struct pulse_evsel *ev = r->evsels[e];

				for (int k = 0; k < ev->nr_cpus * ev->nr_threads; k++) {
					struct pollfd pfd = { .fd = ev->fd[k], .events = POLLIN };

					if (ev->fd[k] < 0 || poll(&pfd, 1, 0) <= 0 ||
					    !(pfd.revents & (POLLHUP | POLLERR)))
						continue;
					if (epoll_ctl(r->epfd, EPOLL_CTL_DEL, ev->fd[k], NULL) == 0)
						r->nr_polled--;
				}
			}
		}
		ret = drain_all(r);
		if (ret)
			return ret;
		if (now_ns() - last_sync >= 1000000000ULL) {
			ret = pulse_data_writer__sync_header(r->w);
			if (ret)
				return write_err(r, ret);
			last_sync = now_ns();
		}
		if (r->child > 0 && !r->child_done)
			reap_child(r, false);
		if (want_stop(r))
			return 0;
		if (r->child > 0 && r->child_done)
			return 0;
		if (task_target && r->nr_polled <= 0)
			return 0;
	}
}

static void rec_cleanup(struct rec *r)
{
	for (int c = 0; r->maps && c < r->nr_cpus; c++)
		pulse_mmap__munmap(&r->maps[c]);
	free(r->maps);
	for (int i = 0; i < r->nr_evsels; i++)
		pulse_evsel__close(r->evsels[i]);
	if (r->dummy)
		pulse_evsel__delete(r->dummy);
	free(r->evsels);
	free(r->threads);
	free(r->cpus);
	free(r->ids);
	free(r->offs);
	free(r->attrs);
	dso_hits__delete(r->hits);
	pulse_data_writer__delete(r->w);
	for (int i = 0; i < 2; i++) {
		if (r->go_pipe[i] >= 0)
			close(r->go_pipe[i]);
		if (r->exec_pipe[i] >= 0)
			close(r->exec_pipe[i]);
	}
	if (r->pidfd >= 0)
		close(r->pidfd);
	if (r->epfd >= 0)
		close(r->epfd);
}

static struct pulse_evsel *new_dummy(void)
{
	struct pulse_evsel *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup("dummy:HG");
	d->attr.type = PERF_TYPE_SOFTWARE;
	d->attr.config = PERF_COUNT_SW_DUMMY;
	d->attr.size = sizeof(d->attr);
	if (!d->name) {
		free(d);
		return NULL;
	}
	return d;
}

int pulse_record__run(const struct pulse_record_opts *o, struct pulse_record_stats *stats,
		      struct pulse_record_error *err)
{
	struct rec r = { .opts = o, .stats = stats, .err = err, .pidfd = -1, .epfd = -1,
			 .go_pipe = { -1, -1 }, .exec_pipe = { -1, -1 } };
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo), .pipe = o->pipe };
	int ret;

	memset(stats, 0, sizeof(*stats));
	memset(err, 0, sizeof(*err));
	r.hits = dso_hits__new();
	r.epfd = epoll_create1(EPOLL_CLOEXEC);
	r.evsels = calloc(o->evlist->nr + 1, sizeof(*r.evsels));
	if (!r.hits || r.epfd < 0 || !r.evsels) {
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < o->evlist->nr; i++)
		r.evsels[r.nr_evsels++] = o->evlist->entries[i];
	r.tracking = r.evsels[0];
	if (is_system_wide(o)) {
		r.dummy = new_dummy();
		if (!r.dummy) {
			ret = -ENOMEM;
			goto out;
		}
		r.evsels[r.nr_evsels++] = r.dummy;
		r.tracking = r.dummy;
	}
	ret = setup_target(&r);
	if (ret)
		goto out;
	pulse_record__config_attrs(o, r.evsels, r.nr_evsels, r.dummy, r.tracking);
	r.id_size = pulse_sample__id_size(&r.evsels[0]->attr);

	if (o->argv) {
		ret = start_workload(&r);
		if (ret) {
			err->stage = PULSE_REC_WORKLOAD;
			goto out;
		}
		if (!is_system_wide(o) && !has_task_target(o))
			r.threads[0] = r.child;
	}
	ret = open_events(&r);
	if (ret)
		goto out_kill;
	stats->nr_cpus = r.nr_cpus;
	stats->lost_per_cpu = calloc(r.nr_cpus, sizeof(__u64));
	stats->cpu_of = calloc(r.nr_cpus, sizeof(int));
	if (!stats->lost_per_cpu || !stats->cpu_of) {
		ret = -ENOMEM;
		goto out_kill;
	}
	memcpy(stats->cpu_of, r.cpus, r.nr_cpus * sizeof(int));
	ret = mmap_events(&r);
	if (ret)
		goto out_kill;
	ret = build_id_table(&r);
	if (!ret)
		ret = build_sample_offsets(&r);
	if (ret)
		goto out_kill;

	r.attrs = calloc(r.nr_evsels, sizeof(*r.attrs));
	if (!r.attrs) {
		ret = -ENOMEM;
		goto out_kill;
	}
	for (int i = 0; i < r.nr_evsels; i++) {
		r.attrs[i].attr = r.evsels[i]->attr;
		r.attrs[i].name = r.evsels[i]->name;
		r.attrs[i].ids = r.evsels[i]->id;
		r.attrs[i].nr_ids = (size_t)r.evsels[i]->nr_cpus * r.evsels[i]->nr_threads;
	}
	ret = pulse_data_writer__new(&r.w, o->out_fd, r.attrs, r.nr_evsels, &wo);
	if (ret) {
		ret = write_err(&r, ret);
		goto out_kill;
	}
	/* Before the first record: TRACING_DATA then lands in the reserved gap. */
	ret = tracing_data(&r);
	if (ret)
		goto out_kill;
	ret = features_at_start(&r);
	if (ret)
		goto out_kill;
	ret = synthesize(&r);
	if (ret)
		goto out_kill;
	ret = pulse_data_writer__sync_header(r.w);
	if (ret) {
		ret = write_err(&r, ret);
		goto out_kill;
	}
	if (r.pidfd >= 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = ~0ULL };

		epoll_ctl(r.epfd, EPOLL_CTL_ADD, r.pidfd, &ev);
	}
	if (is_system_wide(o) || has_task_target(o)) {
		ret = enable_events(&r);
		if (ret) {
			err->stage = PULSE_REC_OPEN;
			goto out_kill;
		}
	}
	if (o->on_start)
		o->on_start(o->arg);
	if (r.child > 0) {
		ret = go_workload(&r);
		if (ret) {
			err->stage = PULSE_REC_WORKLOAD;
			goto out_finish;
		}
	}
	ret = main_loop(&r);

out_finish:
	disable_events(&r);
	if (r.child > 0 && !r.child_done && (want_stop(&r) || ret)) {
		kill(r.child, SIGTERM);
	}
	reap_child(&r, true);
	{
		int ret2 = 0;

		if (!stats->disk_full && (ret2 = drain_all(&r)) == 0)
			ret2 = write_lost_samples(&r);
		if (!ret)
			ret = ret2;
	}
	stats->bytes = pulse_data_writer__data_size(r.w);
	{
		int ret2 = finish_features(&r);

		if (!ret2)
			ret2 = pulse_data_writer__finish(r.w);
		if (ret2 && !ret)
			ret = write_err(&r, ret2);
	}
	stats->bytes = pulse_data_writer__data_size(r.w);
	goto out;

out_kill:
	if (r.child > 0 && !r.child_done) {
		kill(r.child, SIGKILL);
		reap_child(&r, true);
	}
out:
	rec_cleanup(&r);
	return ret;
}
