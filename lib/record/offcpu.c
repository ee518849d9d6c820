// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record --off-cpu: perf 6.1's offcpu-time event without BPF.
 *
 * The offcpu-time event itself is in the user's evlist (the CLI adds it,
 * as perf's off_cpu_config() does): a software BPF_OUTPUT event, opened
 * like the others so that the file has its attr, name (EVENT_DESC) and
 * ids, and which never fires on its own. What fills it is a second,
 * hidden event opened here on the same CPUs and tasks: sched:sched_switch
 * with a callchain, RAW (prev_state) and attr.context_switch (the SWITCH
 * records that tell when a task comes back; see include/pulse/offcpu.h).
 * It has rings of its own, which every pass of the recorder (rec_drain_all)
 * reads into lib/offcpu's bookkeeping and releases: none of its records
 * reaches the file, as perf's file has no sched_switch samples either.
 * At the end, the totals are written as offcpu-time samples after the
 * last ring data, as perf's off_cpu_write() does.
 *
 * What it costs the recorder: per context switch of a target task, one
 * sample (header, id, tid, time, the callchain, 72 bytes of RAW) and two
 * SWITCH records (in and out; the kernel has no attr bit for one
 * direction) to decode, and a hash lookup per record; memory per distinct
 * (task, stack, state), not per switch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <pulse/offcpu.h>
#include "record/internal.h"

#define OFFCPU_TAG (1ULL << 62)	/* epoll tags of our fds: the tag | the fd */

struct rec_offcpu {
	struct pulse_evsel *sw;		/* sched:sched_switch, borrowed from the opts */
	struct pulse_evsel *entries[1];
	struct pulse_evlist evlist;	/* a view over entries[] that owns the cells */
	struct pulse_mmap *maps;	/* [nr_cpus] */
	struct pulse_offcpu *oc;
	int event_idx;			/* the offcpu-time evsel in r->evsels */
	__u64 pass_bytes;		/* bytes the last pass read */
};

/* The format file is ~2 KiB; one this long is not a tracepoint's format. */
#define FORMAT_MAX 65536

/* prev_state's place in sched_switch's RAW, from tracefs. */
static int state_field(unsigned int *off, unsigned int *size)
{
	const char *dir = pulse_tracefs_dir(NULL);
	char path[4096], *text;
	size_t len = 0;
	ssize_t n;
	int fd, ret;

	if (!dir)
		return -errno;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	text = malloc(FORMAT_MAX);
	if (!text)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	/* tracefs hands a file over in pieces: read to its end, never cut it */
	do {
		n = read(fd, text + len, FORMAT_MAX - 1 - len);
		if (n > 0)
			len += (size_t)n;
	} while ((n > 0 || (n < 0 && errno == EINTR)) && len < FORMAT_MAX - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (!ret && len == FORMAT_MAX - 1)
		ret = -EFBIG;
	if (!ret) {
		text[len] = 0;
		ret = pulse_offcpu__parse_format(text, off, size);
	}
out_free:
	free(text);
	return ret;
}

/* The sched_switch attr: its own sample layout, the target's inheritance and enabling. */
static void config_switch(const struct rec *r, struct perf_event_attr *a)
{
	const struct pulse_record_opts *o = r->opts;
	bool on_exec = o->argv && !is_system_wide(o) && !has_task_target(o);

	a->size = sizeof(*a);
	a->freq = 0;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	a->sample_max_stack = o->max_stack;
	a->read_format = PERF_FORMAT_ID;
	a->sample_id_all = 1;
	a->context_switch = 1;
	a->inherit = !o->no_inherit;
	/* a command's from its exec, like the other events; -p/-a at once */
	a->disabled = on_exec;
	a->enable_on_exec = on_exec;
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
}

static int map_rings(struct rec *r, struct rec_offcpu *x, size_t pages)
{
	x->maps = calloc(r->nr_cpus, sizeof(*x->maps));
	if (!x->maps)
		return -ENOMEM;
	for (int c = 0; c < r->nr_cpus; c++) {
		int owner = -1;

		for (int t = 0; t < r->nr_threads; t++) {
			int fd = pulse_evlist__fd(&x->evlist, 0, c, t);
			struct epoll_event ev = { .events = EPOLLIN, .data.u64 = OFFCPU_TAG | fd };
			int ret;

			if (fd < 0)
				continue;
			if (owner < 0) {
				owner = fd;
				ret = pulse_mmap__mmap(&x->maps[c], fd, pages, false);
			} else {
				ret = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, owner) < 0 ? -errno : 0;
			}
			if (ret) {
				r->err->stage = PULSE_REC_MMAP;
				r->err->cpu = r->cpus[c];
				return ret;
			}
			/* polling the ring is part of setting it up: the mmap stage */
			if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
				ret = -errno;
				r->err->stage = PULSE_REC_MMAP;
				r->err->cpu = r->cpus[c];
				return ret;
			}
		}
	}
	return 0;
}

int rec_offcpu_open(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	struct pulse_evlist_open_opts oo = { .sz = sizeof(oo), .cpus = r->cpus,
					     .nr_cpus = r->nr_cpus, .threads = r->threads,
					     .nr_threads = r->nr_threads };
	struct pulse_offcpu_opts oco = { .sz = sizeof(oco) };
	struct pulse_evlist_open_result res;
	struct rec_offcpu *x;
	int ret;

	if (!o->offcpu_switch)
		return 0;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	r->offcpu = x;
	x->sw = o->offcpu_switch;
	x->event_idx = -1;
	for (int i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i] == o->offcpu_event)
			x->event_idx = i;
	if (x->event_idx < 0)
		return -EINVAL;
	ret = state_field(&oco.state_offset, &oco.state_size);
	if (ret) {
		r->err->stage = PULSE_REC_TRACEFS;
		return ret;
	}
	config_switch(r, &x->sw->attr);
	oco.attr = &x->sw->attr;
	/*
	 * Under -a/-C the recorder's own threads switch too, mostly waiting
	 * in epoll for the rings: that is not the workload's off-CPU time.
	 * (A command or -p/-t target is another process: nothing is lost.)
	 */
	oco.exclude_pid = (__u32)getpid();
	ret = pulse_offcpu__new(&x->oc, &oco);
	if (ret)
		return ret;
	x->entries[0] = x->sw;
	x->evlist.entries = x->entries;
	x->evlist.nr = 1;
	ret = pulse_evlist__open(&x->evlist, &oo, &res);
	if (ret) {
		r->err->stage = PULSE_REC_OPEN;
		r->err->evsel = x->sw->name;
		r->err->type = x->sw->attr.type;
		r->err->cpu = res.cpu;
		r->err->tid = res.tid;
		return ret;
	}
	/* as large as the sample rings: a switch storm fills them as fast */
	return map_rings(r, x, o->mmap_pages ? o->mmap_pages : 128);
}

bool rec_offcpu_event(struct rec *r, const struct epoll_event *ev)
{
	if (!r->offcpu || (ev->data.u64 & ~0xffffffffULL) != OFFCPU_TAG)
		return false;
	/* a task that is gone hangs its fd up: stop polling it (its ring is read still) */
	if (ev->events & (EPOLLHUP | EPOLLERR))
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, (int)(ev->data.u64 & 0xffffffffULL), NULL);
	return true;
}

bool rec_offcpu_storm(const struct rec *r)
{
	return r->offcpu && r->offcpu->pass_bytes >= STORM_BYTES;
}

int rec_offcpu_drain(struct rec *r)
{
	struct rec_offcpu *x = r->offcpu;
	const struct perf_event_header *ev;
	struct pulse_offcpu_stats before, after;
	int ret = 0;

	if (!x)
		return 0;
	x->pass_bytes = 0;
	pulse_offcpu__stats(x->oc, &before);
	for (int c = 0; c < r->nr_cpus; c++) {
		struct pulse_mmap *m = &x->maps[c];

		if (!m->base || pulse_mmap__read_init(m))
			continue;
		while (!ret && (ev = pulse_mmap__read_event(m)) != NULL) {
			x->pass_bytes += ev->size;
			ret = pulse_offcpu__add_record(x->oc, ev, ev->size);
		}
		pulse_mmap__read_done(m);
		if (ret)
			return ret;
	}
	/* switches the kernel dropped are off-CPU time missed: the summary says so */
	pulse_offcpu__stats(x->oc, &after);
	r->stats->lost_events += after.lost - before.lost;
	r->stats->lost_chunks += after.lost_chunks - before.lost_chunks;
	return pulse_offcpu__flush(x->oc);
}

static int emit(void *arg, const void *rec, size_t size)
{
	struct rec *r = arg;
	struct iovec iov = { .iov_base = (void *)rec, .iov_len = size };
	size_t kept;
	int ret = pulse_record_output__write(r->out, &iov, 1, &kept);

	if (ret)
		return rec_write_err(r, ret);
	r->stats->samples++;
	return 0;
}

int rec_offcpu_write(struct rec *r)
{
	struct rec_offcpu *x = r->offcpu;
	const __u64 *ids;
	__u64 id = 0;
	size_t nr;
	int ret;

	if (!x)
		return 0;
	pulse_evlist__disable(&x->evlist);
	ret = rec_offcpu_drain(r);
	if (ret)
		return ret;
	/* perf's off_cpu_write(): the evsel's first id */
	ids = pulse_evlist__ids(&r->evlist, x->event_idx, &nr);
	for (size_t i = 0; ids && i < nr && !id; i++)
		id = ids[i];
	return pulse_offcpu__write(x->oc, &r->evsels[x->event_idx]->attr, id, emit, r);
}

void rec_offcpu_cleanup(struct rec *r)
{
	struct rec_offcpu *x = r->offcpu;

	if (!x)
		return;
	for (int c = 0; x->maps && c < r->nr_cpus; c++)
		pulse_mmap__munmap(&x->maps[c]);
	free(x->maps);
	pulse_evlist__close(&x->evlist);
	pulse_offcpu__delete(x->oc);
	free(x);
	r->offcpu = NULL;
}
