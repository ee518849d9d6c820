/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open(2) (lib/event/open.c), one evsel's cells (cells.c) and
 * the probe for pulse list (probe.c).
 * Whole evlists, groups and reads are in <pulse/evlist.h>.
 */
#ifndef PULSE_OPEN_H
#define PULSE_OPEN_H

#include <stdbool.h>
#include <sys/types.h>
#include <pulse/event.h>
#include <pulse/evlist.h>

/*
 * perf_event_open(2) with FD_CLOEXEC; with PULSE_TEST_ATTR=<dir> the attr
 * is also written to <dir>/attr-<seq>-<pid>-<cpu>. Return: fd or -errno.
 */
int pulse_perf_event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags);

/* Allocate @evsel's nr_cpus x nr_threads cells, every fd -1. Return: 0 or -ENOMEM. */
int pulse_evsel__alloc_fds(struct pulse_evsel *evsel, int nr_cpus, int nr_threads);

/**
 * pulse_evsel__open - open the evsel on every cpu x thread cell
 * @cpus: cpu numbers (-1 for any cpu)
 * @threads: tids (-1 for all tasks of the cpus)
 * @failed_cpu, @failed_tid: where the failing open was (may be NULL)
 *
 * A group member passes its leader's fd of the same cell as group_fd, so
 * the leader must be open first. A thread that exits while being opened
 * (ESRCH) is skipped when there are several. Most callers want
 * pulse_evlist__open(), which opens the evsels in order and cleans up.
 *
 * Return: 0 or -errno of the failing perf_event_open() (-EBADF: the
 * leader is not open on that cell).
 */
int pulse_evsel__open(struct pulse_evsel *evsel, const int *cpus, int nr_cpus,
		      const pid_t *threads, int nr_threads, int *failed_cpu, pid_t *failed_tid);

/* Close every fd and free the cells; a no-op on a closed evsel. */
void pulse_evsel__close(struct pulse_evsel *evsel);

/* The same ioctl on every open fd. Return: 0 or the first -errno. */
int pulse_evsel__ioctl(struct pulse_evsel *evsel, unsigned long req, unsigned long arg);

/* The fd of one cell, -1 when not open. */
static inline int pulse_evsel__fd(const struct pulse_evsel *evsel, int cpu, int thread)
{
	if (!evsel->fd || cpu < 0 || cpu >= evsel->nr_cpus || thread < 0 ||
	    thread >= evsel->nr_threads)
		return -1;
	return evsel->fd[cpu * evsel->nr_threads + thread];
}

/**
 * pulse_evsel__fallback_user_only - after EACCES/EPERM under
 * perf_event_paranoid > 1, exclude kernel samples and append "u" to the
 * name, as perf 6.1 does.
 * @paranoid: set to the value read
 * Return: true if the evsel changed and the open is worth retrying.
 */
bool pulse_evsel__fallback_user_only(struct pulse_evsel *evsel, int err, int *paranoid);

/**
 * pulse_event__probe - whether this machine can count @name (perf's
 * is_event_supported(): open it disabled on ourselves, user only if the
 * kernel is not allowed). Only the first spelling of "a OR b" is used.
 * @opts: where sysfs and tracefs are (may be NULL)
 */
bool pulse_event__probe(const char *name, const struct pulse_parse_opts *opts);

#endif
