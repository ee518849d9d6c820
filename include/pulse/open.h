/* SPDX-License-Identifier: GPL-2.0 */
/* Opening parsed events (lib/event/open.c). */
#ifndef PULSE_OPEN_H
#define PULSE_OPEN_H

#include <sys/types.h>
#include <pulse/event.h>

/* perf_event_open(2) with FD_CLOEXEC. Return: fd or -errno. */
int pulse_perf_event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags);

int pulse_evsel__alloc_fds(struct pulse_evsel *evsel, int nr_cpus, int nr_threads);

/**
 * pulse_evsel__open - open the evsel on every cpu x thread cell
 * @cpus: cpu numbers (-1 for any cpu)
 * @threads: tids (-1 for all tasks of the cpus)
 * @failed_cpu, @failed_tid: where the failing open was (may be NULL)
 *
 * A thread that exits while being opened (ESRCH) is skipped when there are
 * several. Return: 0 or -errno of the failing perf_event_open().
 */
int pulse_evsel__open(struct pulse_evsel *evsel, const int *cpus, int nr_cpus,
		      const pid_t *threads, int nr_threads, int *failed_cpu, pid_t *failed_tid);

/* Close every fd and free the fd/id arrays. */
void pulse_evsel__close(struct pulse_evsel *evsel);

/* The same ioctl on every open fd. Return: 0 or the first -errno. */
int pulse_evsel__ioctl(struct pulse_evsel *evsel, unsigned long req, unsigned long arg);

/**
 * pulse_evsel__fallback_user_only - after EACCES/EPERM under
 * perf_event_paranoid > 1, exclude kernel samples and append "u" to the
 * name, as perf 6.1 does.
 * @paranoid: set to the value read
 * Return: true if the evsel changed and the open is worth retrying.
 */
bool pulse_evsel__fallback_user_only(struct pulse_evsel *evsel, int err, int *paranoid);

#endif
