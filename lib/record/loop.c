// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's main loop: sleep in epoll on the event fds (and a pidfd
 * for the workload), then let the pump (pump.c) make a pass over every
 * ring; rewrite the output's header at least once a second; stop when the
 * caller asks, the command exits, or every task of -p/-t is gone.
 */
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "record/internal.h"

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int rec_write_err(struct rec *r, int ret)
{
	r->err->stage = PULSE_REC_WRITE;
	if (ret == -ENOSPC)
		r->stats->disk_full = true;
	return ret;
}

/*
 * One pass over the rings: the side-band's own first (flight recording),
 * so that the state knows a task before its samples; then the samples,
 * unless the kernel keeps them (--overwrite) until a snapshot.
 */
int rec_drain_all(struct rec *r)
{
	int ret = 0;

	if (r->track_pump)
		ret = pulse_record_pump__drain(r->track_pump);
	if (!ret && !r->opts->overwrite)
		ret = pulse_record_pump__drain(r->pump);
	if (ret)
		return rec_write_err(r, ret);
	ret = rec_offcpu_drain(r);
	return ret ? ret : rec_aux_drain(r);
}

/* Take @fd out of the epoll set if it has hung up (its task is gone). */
static void drop_hung_up(struct rec *r, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0 || poll(&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLHUP | POLLERR)))
		return;
	if (epoll_ctl(r->epfd, EPOLL_CTL_DEL, fd, NULL) == 0)
		__atomic_sub_fetch(&r->nr_polled, 1, __ATOMIC_RELEASE);
}

/* -D windows: when toggle k is due (ns, monotonic); ~0 when there is none left */
static __u64 toggle_at(const struct rec *r, size_t k)
{
	const struct pulse_record_opts *o = r->opts;

	if (!o->nr_windows || k >= 2 * o->nr_windows)
		return ~0ULL;
	return r->t0_ns + 1000000ULL * (k & 1 ? o->windows[k / 2].end : o->windows[k / 2].start);
}

/* Disable at a window's end, enable at the next one's start, as perf's -D. */
static int run_toggles(struct rec *r, __u64 now)
{
	const struct pulse_record_opts *o = r->opts;

	while (toggle_at(r, r->next_toggle) <= now) {
		bool enable = !(r->next_toggle & 1);
		int ret = enable ? pulse_evlist__enable(&r->evlist) : pulse_evlist__disable(&r->evlist);

		if (ret)
			return ret;
		if (enable && o->on_enable)
			o->on_enable(o->arg);
		if (!enable && o->on_disable)
			o->on_disable(o->arg);
		r->next_toggle++;
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

	r->snap_last_ns = last_sync;
	if (o->wake_fd) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = ~1ULL };

		if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, *o->wake_fd, &ev) < 0)
			return -errno;
	}
	if (o->control) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = ~2ULL };

		if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, o->ctl_fd, &ev) < 0)
			return -errno;
	}
	for (;;) {
		/*
		 * The kernel wakes us at half a buffer. In a storm that leaves
		 * only the other half as slack for our scheduling latency, so
		 * while passes are large, come back after 1 ms instead of
		 * waiting for the wakeup: the rings stay nearly empty.
		 */
		/* (an overwrite snapshot's pass is no storm: the rings are read only then) */
		bool storm = (!o->overwrite &&
			      pulse_record_pump__pass_bytes(r->pump) >= STORM_BYTES) ||
			     (r->track_pump &&
			      pulse_record_pump__pass_bytes(r->track_pump) >= STORM_BYTES) ||
			     rec_offcpu_storm(r);
		__u64 due = toggle_at(r, r->next_toggle), t = now_ns();
		int timeout = storm ? 1 : 200;
		int n;
		bool hup = false;

		if (due != ~0ULL && (due <= t || (due - t) / 1000000 < (__u64)timeout))
			timeout = due <= t ? 0 : (int)((due - t) / 1000000) + 1;
		n = epoll_wait(r->epfd, evs, 64, timeout);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			r->stats->wakeups++;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == ~0ULL) {
				rec_reap_child(r, false);
				continue;
			}
			if (evs[i].data.u64 == ~2ULL) {
				ret = rec_control(r);
				if (ret < 0)
					return ret;
				if (ret > 0)
					return 0;
				continue;
			}
			if (rec_offcpu_event(r, &evs[i]))
				continue;
			if (evs[i].data.u64 == REC_SIZE_WAKE) {
				__u64 v;

				/* the --max-size check below sees it */
				if (read(r->size_fd, &v, sizeof(v)) < 0)
					continue;
				continue;
			}
			if (evs[i].data.u64 == ~1ULL) {
				char buf[64];

				while (read(*o->wake_fd, buf, sizeof(buf)) > 0)
					;
				continue;
			}
			if (evs[i].events & (EPOLLHUP | EPOLLERR))
				hup = true;
		}
		if (hup) {
			/* Drop hung-up fds from the set, or epoll would report them forever. */
			for (int e = 0; e < r->nr_evsels; e++)
				for (int c = 0; c < r->nr_cpus; c++)
					for (int t = 0; t < r->nr_threads; t++)
						drop_hung_up(r, pulse_evlist__fd(&r->evlist, e, c, t));
		}
		ret = rec_drain_all(r);
		if (ret)
			return ret;
		ret = rec_maybe_snapshot(r, now_ns());
		if (ret)
			return ret;
		ret = run_toggles(r, now_ns());
		if (ret)
			return ret;
		/* perf's record__output_max_size_exceeded(), checked a pass at a time */
		if (o->max_size &&
		    pulse_record_output__data_size(r->out) + rec_readers_bytes(r) >= o->max_size)
			r->stats->max_size_reached = true;
		if (now_ns() - last_sync >= 1000000000ULL) {
			ret = pulse_record_output__sync(r->out);
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
		if (task_target && __atomic_load_n(&r->nr_polled, __ATOMIC_ACQUIRE) <= 0)
			return 0;
	}
}
