/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The evlist's open state (cells.c), as evlist.c's open drives it: the
 * cells are allocated for every evsel at once, then each evsel in turn is
 * opened on its row of cells (and closed again before a fallback retries
 * it). Not part of the public API; readers use <pulse/evlist.h>.
 */
#ifndef PULSE_EVENT_CELLS_H
#define PULSE_EVENT_CELLS_H

#include <sys/types.h>
#include <pulse/evlist.h>

/*
 * Give @evlist cells for each of its evsels on @nr_cpus x @nr_threads,
 * every fd -1 and id 0. Return: 0, -EBUSY it has cells already, -ENOMEM.
 */
int pulse_evlist__alloc_cells(struct pulse_evlist *evlist, int nr_cpus, int nr_threads);

/*
 * Open the evsel at @idx on each of its cells, @cpus and @threads being the
 * cpu numbers and tids the cells were allocated for. A group member passes
 * its leader's fd of the same cell as group_fd, so the leader must be open
 * first. A thread that exits while being opened (ESRCH) is skipped when
 * there are several. @failed_cpu, @failed_tid: where the failing open was.
 * Return: 0 or -errno of the failing perf_event_open() (-EBADF: the leader
 * is not open on that cell).
 */
int pulse_evlist__open_evsel(struct pulse_evlist *evlist, int idx, const int *cpus,
			     const pid_t *threads, int *failed_cpu, pid_t *failed_tid);

/* Close the cells of the evsel at @idx (fd -1, id 0 again); the others stay. */
void pulse_evlist__close_evsel(struct pulse_evlist *evlist, int idx);

#endif
