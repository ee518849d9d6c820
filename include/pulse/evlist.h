/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an evlist and reading its counts (lib/event/evlist.c, cells.c,
 * counts.c), as libperf's evlist.c/evsel.c do: every evsel is opened once
 * per (cpu, thread) cell, the members of a group with their leader's fd of
 * the same cell as group_fd. The evsels stay descriptions: each cell's fd
 * and kernel id belong to the evlist, found by the evsel's position in it
 * and the cell's cpu and thread indexes (pulse_evlist__fd(),
 * pulse_evlist__ids()).
 *
 * Usage:
 *   pulse_evlist__parse(&evlist, "{task-clock,page-faults}", NULL, NULL);
 *   (set read_format, disabled, ... on the attrs)
 *   pulse_evlist__open(&evlist, &opts, &res);
 *   pulse_evlist__enable(&evlist); ... pulse_evlist__disable(&evlist);
 *   pulse_evlist__read_group(&evlist, 0, 0, 0, counts, n, &nr);
 *   pulse_counts__scale(&counts[i]);
 *   pulse_evlist__close(&evlist);
 */
#ifndef PULSE_EVLIST_H
#define PULSE_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <pulse/event.h>

/* Where an evlist opens: @cpus (-1: any cpu) x @threads (-1: every task of the cpu). */
struct pulse_evlist_open_opts {
	size_t sz;			/* sizeof(struct pulse_evlist_open_opts) */
	const int *cpus;		/* NULL: { -1 } */
	int nr_cpus;
	const pid_t *threads;		/* NULL: { 0 }, the calling thread */
	int nr_threads;
	bool fallback;			/* retry a failing evsel as perf does: cycles -> cpu-clock,
					 * then user only under perf_event_paranoid > 1 */
	bool skip_unsupported;		/* perf stat: an evsel the kernel cannot count (ENOENT,
					 * EOPNOTSUPP, ENODEV, ENXIO, EINVAL, or its leader is
					 * not open) stays closed and the open goes on */
};

/* What an open did, and where it failed. */
struct pulse_evlist_open_result {
	struct pulse_evsel *evsel;	/* the evsel whose open failed, NULL on success */
	int cpu;			/* its failing cell: the cpu number */
	pid_t tid;			/* and the tid */
	bool fell_back;			/* some cycles became cpu-clock */
	bool user_only;			/* some evsel was retried without the kernel */
	int paranoid;			/* perf_event_paranoid, read when user_only was tried */
};

/**
 * pulse_evlist__open - open every evsel of @evlist on every cell, in order
 * @evlist: the evsels; groups must be contiguous, leader first (as parsed)
 * @opts: where (may be NULL: the calling thread on any cpu)
 * @res: filled in (may be NULL)
 *
 * A thread that exits while being opened (ESRCH) is skipped when there are
 * several, and so are its group's members; those cells stay closed (fd
 * < 0, id 0). On failure every cell is closed again.
 *
 * Return: 0 or the -errno of the failing perf_event_open() (-EINVAL for
 * bad opts, -EBUSY when @evlist is open already, -ENOMEM).
 */
int pulse_evlist__open(struct pulse_evlist *evlist, const struct pulse_evlist_open_opts *opts,
		       struct pulse_evlist_open_result *res);

/*
 * Close every cell, members before their leader, and free the cells; a
 * no-op on an evlist that is not open. The evsels stay.
 */
void pulse_evlist__close(struct pulse_evlist *evlist);

/* The cpus and threads @evlist was opened on (0 when not open). */
int pulse_evlist__nr_cpus(const struct pulse_evlist *evlist);
int pulse_evlist__nr_threads(const struct pulse_evlist *evlist);

/**
 * pulse_evlist__fd - the fd of one cell
 * @idx: the evsel's position in @evlist
 * @cpu: index into the cpus it was opened on
 * @thread: index into the threads
 *
 * Return: the fd; -ERANGE an index outside what was opened (or @evlist is
 * not open); -EBADF that cell is not open (its thread exited).
 */
int pulse_evlist__fd(const struct pulse_evlist *evlist, int idx, int cpu, int thread);

/**
 * pulse_evlist__ids - the kernel ids (PERF_EVENT_IOC_ID) of one evsel's cells
 * @idx: the evsel's position in @evlist
 * @nr: set to the number of cells, nr_cpus * nr_threads (0 on NULL)
 *
 * Indexed [cpu * nr_threads + thread]; a cell that is not open has id 0.
 * The ids are what the data writer stores for the evsel's attr.
 *
 * Return: the ids, valid until pulse_evlist__close(); NULL when @evlist
 * is not open or @idx is out of range.
 */
const __u64 *pulse_evlist__ids(const struct pulse_evlist *evlist, int idx, size_t *nr);

/*
 * The same ioctl on every open cell, evsel by evsel. Every cell is tried.
 * Return: 0 or the first -errno.
 */
int pulse_evlist__ioctl(struct pulse_evlist *evlist, unsigned long req, unsigned long arg);

/**
 * pulse_evlist__apply_filters - PERF_EVENT_IOC_SET_FILTER with each evsel's
 * filter on its open cells (lib/event/filter.c)
 * @failed: set to the evsel whose filter the kernel refused (may be NULL)
 *
 * Return: 0 or the first -errno (-EINVAL: the kernel cannot parse it).
 */
int pulse_evlist__apply_filters(struct pulse_evlist *evlist, struct pulse_evsel **failed);

/* PERF_EVENT_IOC_ENABLE / _DISABLE on every open cell. Return: 0 or the first -errno. */
int pulse_evlist__enable(struct pulse_evlist *evlist);
int pulse_evlist__disable(struct pulse_evlist *evlist);

/*
 * One counter's value as read(2) returns it (read_format), and its scaled
 * value. Fields the read_format did not ask for are 0.
 */
struct pulse_counts {
	uint64_t val;			/* the count */
	uint64_t ena;			/* PERF_FORMAT_TOTAL_TIME_ENABLED, ns */
	uint64_t run;			/* PERF_FORMAT_TOTAL_TIME_RUNNING, ns */
	uint64_t id;			/* PERF_FORMAT_ID */
	uint64_t lost;			/* PERF_FORMAT_LOST */
};

/**
 * pulse_evlist__read - read one cell of an open evsel
 * @evlist: opened by pulse_evlist__open()
 * @idx: the evsel's position in @evlist
 * @cpu: index into the cpus it was opened on
 * @thread: index into the threads
 * @counts: filled in, unscaled
 *
 * With PERF_FORMAT_GROUP the whole group is read and the evsel's own entry
 * returned.
 *
 * Return: 0; -EBADF the cell is not open; -ERANGE bad index; -EIO short
 * read; other -errno of read(2).
 */
int pulse_evlist__read(const struct pulse_evlist *evlist, int idx, int cpu, int thread,
		       struct pulse_counts *counts);

/**
 * pulse_evlist__read_group - read a group in one read(2) (PERF_FORMAT_GROUP)
 * @evlist: opened by pulse_evlist__open()
 * @idx: the position of the group's leader, its attr.read_format with
 *       PERF_FORMAT_GROUP
 * @cpu, @thread: the cell
 * @counts: filled in, leader first, each entry with the group's ena/run
 * @size: entries @counts has room for
 * @nr: set to the number of members the kernel returned
 *
 * Return: 0; -EINVAL no PERF_FORMAT_GROUP; -ENOSPC more members than
 * @size; the errors of pulse_evlist__read().
 */
int pulse_evlist__read_group(const struct pulse_evlist *evlist, int idx, int cpu, int thread,
			     struct pulse_counts *counts, int size, int *nr);

/**
 * pulse_counts__scale - scale a count by time_enabled / time_running
 * @counts: read with PERF_FORMAT_TOTAL_TIME_ENABLED and _RUNNING
 *
 * perf's perf_counts_values__scale(): a counter multiplexed off the PMU for
 * part of the time is extrapolated to the whole time it was enabled, and
 * one that never ran counts 0. This is the only place pulse scales.
 *
 * Return: 0 the count is exact; 1 it was scaled; -ENODATA it never ran
 * (val set to 0).
 */
int pulse_counts__scale(struct pulse_counts *counts);

/*
 * Thread lists for pulse_evlist_open_opts (lib/event/threads.c): append
 * @tid to *@tids[*@nr] (-ENOMEM), or every thread of process @pid from
 * /proc/PID/task (-ESRCH: no such process); whether thread @tid exists
 * (0 or -ESRCH).
 */
int pulse_threads__add(pid_t **tids, int *nr, pid_t tid);
int pulse_threads__add_process(pid_t **tids, int *nr, pid_t pid);
int pulse_threads__exists(pid_t tid);

#endif
