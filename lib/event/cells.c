// SPDX-License-Identifier: GPL-2.0
/*
 * An evlist's cells: one fd and kernel id (PERF_EVENT_IOC_ID) per (evsel,
 * cpu, thread), the open state the evsels themselves do not hold. They are
 * allocated for the whole evlist when it is opened and freed by its close;
 * an evsel's cells are found by its position in the evlist. evlist.c drives
 * the open (order, fallbacks); readers come through the accessors below.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <pulse/open.h>

#include "event/cells.h"

struct pulse_evlist_cells {
	int nr_evsels;			/* the evlist's evsels when it was opened */
	int nr_cpus;
	int nr_threads;
	int *fd;			/* [(evsel * nr_cpus + cpu) * nr_threads + thread], -1: not open */
	__u64 *id;			/* kernel ids, same indexing; 0: not open */
};

/* Cells per evsel. */
static size_t row_size(const struct pulse_evlist_cells *c)
{
	return (size_t)c->nr_cpus * c->nr_threads;
}

int pulse_evlist__alloc_cells(struct pulse_evlist *evlist, int nr_cpus, int nr_threads)
{
	struct pulse_evlist_cells *c;
	size_t n = (size_t)evlist->nr * nr_cpus * nr_threads;

	if (evlist->cells)
		return -EBUSY;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* one more than needed: an evlist of no evsels still gets (empty) cells */
	c->fd = malloc((n + 1) * sizeof(int));
	c->id = calloc(n + 1, sizeof(__u64));
	if (!c->fd || !c->id) {
		free(c->fd);
		free(c->id);
		free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		c->fd[i] = -1;
	c->nr_evsels = evlist->nr;
	c->nr_cpus = nr_cpus;
	c->nr_threads = nr_threads;
	evlist->cells = c;
	return 0;
}

/* The index of a cell in fd[] and id[], or -ERANGE. */
static ssize_t cell_index(const struct pulse_evlist *evlist, int idx, int cpu, int thread)
{
	const struct pulse_evlist_cells *c = evlist->cells;

	if (!c || idx < 0 || idx >= c->nr_evsels || cpu < 0 || cpu >= c->nr_cpus ||
	    thread < 0 || thread >= c->nr_threads)
		return -ERANGE;
	return ((ssize_t)idx * c->nr_cpus + cpu) * c->nr_threads + thread;
}

int pulse_evlist__fd(const struct pulse_evlist *evlist, int idx, int cpu, int thread)
{
	ssize_t i = cell_index(evlist, idx, cpu, thread);

	if (i < 0)
		return i;
	return evlist->cells->fd[i] < 0 ? -EBADF : evlist->cells->fd[i];
}

const __u64 *pulse_evlist__ids(const struct pulse_evlist *evlist, int idx, size_t *nr)
{
	const struct pulse_evlist_cells *c = evlist->cells;

	*nr = 0;
	if (!c || idx < 0 || idx >= c->nr_evsels)
		return NULL;
	*nr = row_size(c);
	return &c->id[idx * row_size(c)];
}

int pulse_evlist__nr_cpus(const struct pulse_evlist *evlist)
{
	return evlist->cells ? evlist->cells->nr_cpus : 0;
}

int pulse_evlist__nr_threads(const struct pulse_evlist *evlist)
{
	return evlist->cells ? evlist->cells->nr_threads : 0;
}

/*
 * The fd of the same cell of the group's leader, -1 for a leader; -EBADF
 * when the leader is not open there. Groups are contiguous, leader first,
 * so the leader sits group_idx places before its member.
 */
static int group_fd(const struct pulse_evlist *evlist, int idx, int cpu, int thread)
{
	const struct pulse_evsel *evsel = evlist->entries[idx];
	int leader = idx - evsel->group_idx, fd;

	if (pulse_evsel__is_leader(evsel))
		return -1;
	if (leader < 0 || evlist->entries[leader] != evsel->leader)
		return -EBADF;
	fd = pulse_evlist__fd(evlist, leader, cpu, thread);
	return fd < 0 ? -EBADF : fd;
}

int pulse_evlist__open_evsel(struct pulse_evlist *evlist, int idx, const int *cpus,
			     const pid_t *threads, int *failed_cpu, pid_t *failed_tid)
{
	struct pulse_evlist_cells *c = evlist->cells;
	const struct pulse_evsel *evsel;

	if (!c || idx < 0 || idx >= c->nr_evsels)
		return -ERANGE;
	evsel = evlist->entries[idx];
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		for (int t = 0; t < c->nr_threads; t++) {
			size_t cell = cell_index(evlist, idx, cpu, t);
			int gfd = group_fd(evlist, idx, cpu, t), fd;

			/* the leader's thread exited while it was opened */
			if (gfd == -EBADF && c->nr_threads > 1)
				continue;
			fd = gfd == -EBADF ? -EBADF :
			     pulse_perf_event_open(&evsel->attr, threads[t], cpus[cpu], gfd, 0);
			if (fd == -ESRCH && c->nr_threads > 1)
				continue; /* a thread that exited since we listed it */
			if (fd < 0) {
				*failed_cpu = cpus[cpu];
				*failed_tid = threads[t];
				return fd;
			}
			c->fd[cell] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &c->id[cell]) < 0)
				return -errno;
		}
	}
	return 0;
}

void pulse_evlist__close_evsel(struct pulse_evlist *evlist, int idx)
{
	struct pulse_evlist_cells *c = evlist->cells;
	size_t n;

	if (!c || idx < 0 || idx >= c->nr_evsels)
		return;
	n = row_size(c);
	for (size_t i = idx * n; i < (idx + 1) * n; i++) {
		if (c->fd[i] >= 0)
			close(c->fd[i]);
		c->fd[i] = -1;
		c->id[i] = 0;
	}
}

void pulse_evlist__close(struct pulse_evlist *evlist)
{
	struct pulse_evlist_cells *c = evlist->cells;

	if (!c)
		return;
	/* members before their leader, so no fd goes while a sibling still points at it */
	for (int i = c->nr_evsels - 1; i >= 0; i--)
		pulse_evlist__close_evsel(evlist, i);
	free(c->fd);
	free(c->id);
	free(c);
	evlist->cells = NULL;
}

int pulse_evlist__ioctl(struct pulse_evlist *evlist, unsigned long req, unsigned long arg)
{
	const struct pulse_evlist_cells *c = evlist->cells;
	size_t n = c ? c->nr_evsels * row_size(c) : 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		if (c->fd[i] >= 0 && ioctl(c->fd[i], req, arg) < 0 && !ret)
			ret = -errno;
	return ret;
}

int pulse_evlist__enable(struct pulse_evlist *evlist)
{
	return pulse_evlist__ioctl(evlist, PERF_EVENT_IOC_ENABLE, 0);
}

int pulse_evlist__disable(struct pulse_evlist *evlist)
{
	return pulse_evlist__ioctl(evlist, PERF_EVENT_IOC_DISABLE, 0);
}
