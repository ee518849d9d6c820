// SPDX-License-Identifier: GPL-2.0
/*
 * The pump: the main loop sleeps in epoll on the event fds (and a pidfd
 * for the workload), then makes a pass over every ring: the batch
 * [tail, head) is parsed only for accounting (samples, LOST, which DSOs
 * were hit, time range) and copied to the file with one writev straight
 * from the mapping, then the tail is released. A FINISHED_ROUND follows
 * each pass that wrote something, and the header is rewritten at least
 * once a second.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include "record/internal.h"

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int rec_build_id_table(struct rec *r)
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

int rec_build_sample_offsets(struct rec *r)
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

/* Parse one record for the summary, BUILD_ID and SAMPLE_TIME; never fails. */
void rec_account(struct rec *r, const unsigned char *p, size_t size, int map)
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

int rec_write_err(struct rec *r, int ret)
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
		rec_account(r, (const unsigned char *)ev, ev->size, c);
		seen += ev->size;
	}
	if (ret)
		return rec_write_err(r, ret);
	r->wrote_this_pass = true;
out_done:
	pulse_mmap__read_done(m);
	return 0;
}

int rec_drain_all(struct rec *r)
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
			return rec_write_err(r, ret);
	}
	return 0;
}

int rec_main_loop(struct rec *r)
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
				rec_reap_child(r, false);
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
		ret = rec_drain_all(r);
		if (ret)
			return ret;
		if (now_ns() - last_sync >= 1000000000ULL) {
			ret = pulse_data_writer__sync_header(r->w);
			if (ret)
				return rec_write_err(r, ret);
			last_sync = now_ns();
		}
		if (r->child > 0 && !r->child_done)
			rec_reap_child(r, false);
		if (want_stop(r))
			return 0;
		if (r->child > 0 && r->child_done)
			return 0;
		if (task_target && r->nr_polled <= 0)
			return 0;
	}
}
