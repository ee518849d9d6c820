// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow signals and REFRESH on a sampling counter, and the prctl that
 * stops and resumes every counter of the calling task.
 *
 * A counter with a sample_period overflows every period; with O_ASYNC on
 * its fd and an owner (F_SETOWN_EX), the kernel's perf_event_wakeup()
 * sends the owner the F_SETSIG signal (SIGIO by default) at each one
 * (perf_event_overflow() -> irq_work -> kill_fasync()). An event_limit
 * set by PERF_EVENT_IOC_REFRESH n counts the overflows down and, at zero,
 * disables the counter (kernel/events/core.c __perf_event_overflow()):
 * exactly n signals, then no more until the next REFRESH.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <pulse/counter.h>

#include "counter/counter-internal.h"

int pulse_counter__set_signal(struct pulse_counter *c, int sig)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = syscall(SYS_gettid) };
	int fd = pulse_counter__fd(c, 0), fl;

	if (!c->sample_period)
		return -EINVAL;
	/* the thread, not the process: a signal for the one that counts itself */
	if (fcntl(fd, F_SETOWN_EX, &owner) < 0 || fcntl(fd, F_SETSIG, sig) < 0)
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC) < 0)
		return -errno;
	return 0;
}

int pulse_counter__refresh(struct pulse_counter *c, int n)
{
	if (n <= 0 || !c->sample_period)
		return -EINVAL;
	if (ioctl(pulse_counter__fd(c, 0), PERF_EVENT_IOC_REFRESH, n) < 0)
		return -errno;
	return 0;
}

int pulse_disable_task_counters(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

int pulse_enable_task_counters(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}
