// SPDX-License-Identifier: GPL-2.0
/*
 * An evsel's cells: one fd and kernel id (PERF_EVENT_IOC_ID) per
 * (cpu, thread), kept in the evsel's fd[]/id[] arrays indexed
 * [cpu * nr_threads + thread], allocated on the first open and freed by
 * the close. A group member is opened with its leader's fd of the same
 * cell as group_fd. The evlist (evlist.c) drives these in order; only
 * code that handles one evsel at a time calls them directly.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <pulse/open.h>

int pulse_evsel__alloc_fds(struct pulse_evsel *evsel, int nr_cpus, int nr_threads)
{
	size_t n = (size_t)nr_cpus * nr_threads;

	evsel->fd = malloc(n * sizeof(int));
	evsel->id = calloc(n, sizeof(__u64));
	if (!evsel->fd || !evsel->id) {
		free(evsel->fd);
		free(evsel->id);
		evsel->fd = NULL;
		evsel->id = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		evsel->fd[i] = -1;
	evsel->nr_cpus = nr_cpus;
	evsel->nr_threads = nr_threads;
	return 0;
}

/* The leader's fd of the same cell, or -1 for a leader; -EBADF when the leader is not open there. */
static int group_fd(const struct pulse_evsel *evsel, int cell)
{
	const struct pulse_evsel *leader = evsel->leader;

	if (pulse_evsel__is_leader(evsel))
		return -1;
	if (!leader->fd || leader->nr_cpus != evsel->nr_cpus ||
	    leader->nr_threads != evsel->nr_threads || leader->fd[cell] < 0)
		return -EBADF;
	return leader->fd[cell];
}

int pulse_evsel__open(struct pulse_evsel *evsel, const int *cpus, int nr_cpus,
		      const pid_t *threads, int nr_threads, int *failed_cpu, pid_t *failed_tid)
{
	int err;

	if (!evsel->fd && (err = pulse_evsel__alloc_fds(evsel, nr_cpus, nr_threads)))
		return err;
	for (int c = 0; c < nr_cpus; c++) {
		for (int t = 0; t < nr_threads; t++) {
			int cell = c * nr_threads + t;
			int gfd = group_fd(evsel, cell), fd;

			/* the leader's thread exited while it was opened */
			if (gfd == -EBADF && nr_threads > 1)
				continue;
			fd = gfd == -EBADF ? -EBADF :
			     pulse_perf_event_open(&evsel->attr, threads[t], cpus[c], gfd, 0);
			if (fd == -ESRCH && nr_threads > 1)
				continue; /* a thread that exited since we listed it */
			if (fd < 0) {
				if (failed_cpu)
					*failed_cpu = cpus[c];
				if (failed_tid)
					*failed_tid = threads[t];
				return fd;
			}
			evsel->fd[cell] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &evsel->id[cell]) < 0)
				return -errno;
		}
	}
	return 0;
}

void pulse_evsel__close(struct pulse_evsel *evsel)
{
	size_t n = (size_t)evsel->nr_cpus * evsel->nr_threads;

	for (size_t i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	free(evsel->fd);
	free(evsel->id);
	evsel->fd = NULL;
	evsel->id = NULL;
	evsel->nr_cpus = evsel->nr_threads = 0;
}

int pulse_evsel__ioctl(struct pulse_evsel *evsel, unsigned long req, unsigned long arg)
{
	size_t n = (size_t)evsel->nr_cpus * evsel->nr_threads;

	for (size_t i = 0; i < n; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], req, arg) < 0)
			return -errno;
	return 0;
}
