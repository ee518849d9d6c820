// SPDX-License-Identifier: GPL-2.0
/*
 * The counting loop of one run (perf stat's dispatch_events()): sleeps
 * until the next thing to do, on the workload's pidfd when there is one,
 * and does it:
 *   - the workload exited: reap it (status, rusage), done;
 *   - an -I interval is due: read the cells as this interval's counts,
 *     hand them to opts->interval, and stop after --interval-count;
 *   - --timeout: SIGTERM the workload and wait for it, or stop;
 *   - a stop (SIGINT/SIGTERM to pulse): SIGTERM the workload (a terminal's
 *     SIGINT reached it already) and wait for it, or stop;
 *   - without a workload, every -p/-t task has exited: stop.
 * A workload that ends mid-interval gets that last, short interval
 * printed too, as perf does.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "stat/internal.h"

#define NSEC_PER_MSEC 1000000ULL
/* how often a loop without a workload looks at its tasks and stop flag */
#define POLL_NS (100 * NSEC_PER_MSEC)

/* Whether every task of @o's -p/-t list has gone. */
static bool tasks_gone(const struct pulse_stat_opts *o)
{
	for (int i = 0; i < o->nr_threads; i++)
		if (o->threads[i] > 0 && (!kill(o->threads[i], 0) || errno != ESRCH))
			return false;
	return true;
}

/*
 * Sleep until @wake (ns), until @pidfd is readable, or until --control's
 * fd is, then run its commands. Return: 1 the workload exited, 0, -errno.
 */
static int sleep_until(struct pulse_stat *st, const struct pulse_stat_opts *o, uint64_t wake,
		       int pidfd)
{
	uint64_t now = stat_now_ns();
	int ms = wake > now ? (int)((wake - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC) : 0;
	struct pollfd p[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = o->control ? o->ctl_fd : -1, .events = POLLIN },
	};
	struct stat_control ctl = { st, o };

	if (pidfd < 0 && !o->control) {
		if (ms)
			poll(NULL, 0, ms);
		return 0;
	}
	if (poll(p, 2, ms) <= 0)
		return 0;
	if (p[1].revents & POLLIN) {
		int ret = stat_control_process(&ctl);

		if (ret < 0)
			return ret;
	}
	return !!(p[0].revents & (POLLIN | POLLHUP));
}

/* One -I interval: this interval's counts as the rows, then the callback. */
static int tick(struct pulse_stat *st, const struct pulse_stat_opts *o, uint64_t ts)
{
	int ret = o->null_run ? 0 : stat_read_counts(st, o->no_scale, true);

	if (ret)
		return ret;
	st->wall = (struct pulse_stat_stats){};
	/* perf's metrics take the interval as it was asked for, not as it ran */
	pulse_stat_stats__update(&st->wall, o->interval_ms * NSEC_PER_MSEC);
	return o->interval ? o->interval(st, ts, o->arg) : 0;
}

int stat_loop(struct pulse_stat *st, const struct pulse_stat_opts *o, pid_t pid, uint64_t t0,
	      struct pulse_stat_run *res)
{
	int pidfd = pid > 0 ? syscall(SYS_pidfd_open, pid, 0) : -1;
	uint64_t end = o->timeout_ms ? t0 + o->timeout_ms * NSEC_PER_MSEC : 0;
	uint64_t step = o->interval_ms * NSEC_PER_MSEC;
	uint64_t next = step ? t0 + step : 0;
	bool exited = false, killed = false, counted_out = false;
	int nr = 0, ret = 0;

	while (!exited && !ret) {
		uint64_t wake = stat_now_ns() + POLL_NS, now;

		if (end && end < wake)
			wake = end;
		if (next && next < wake)
			wake = next;
		if (pid > 0 && pidfd < 0)	/* no pidfd: look every POLL_NS */
			exited = stat_workload_reap(pid, WNOHANG, res) == 1;
		if (!exited) {
			ret = sleep_until(st, o, wake, pidfd);
			exited = ret == 1;
			ret = ret < 0 ? ret : 0;
		}
		now = stat_now_ns();
		if (ret)
			break;
		if (exited)
			break;
		if (pid <= 0 && ((o->stop && *o->stop) || (o->threads && tasks_gone(o))))
			break;
		if (next && now >= next) {
			ret = tick(st, o, now - t0);
			next += step;
			counted_out = o->interval_count && ++nr >= o->interval_count;
		}
		if ((end && now >= end) || counted_out || (o->stop && *o->stop)) {
			if (pid <= 0)
				break;
			if (!killed) {
				kill(pid, SIGTERM);
				res->timed_out = !(o->stop && *o->stop);
				killed = true;
			}
			end = 0;
			next = 0;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	if (pid > 0 && !(pidfd < 0 && exited)) {
		int r = stat_workload_reap(pid, 0, res);

		if (r < 0 && !ret)
			ret = r;
	}
	/* the last, short interval (not after --interval-count) */
	if (!ret && step && !counted_out && next)
		ret = tick(st, o, stat_now_ns() - t0);
	return ret;
}
