// SPDX-License-Identifier: GPL-2.0
/*
 * The evlist: the evsels an -e list parsed into, in order, their groups,
 * and their open state.
 *
 * Opening follows libperf's evlist/evsel: each evsel in turn is opened on
 * every (cpu, thread) cell, so a group's leader is open on a cell before
 * its members are, and each member passes the leader's fd of the same cell
 * as group_fd. A cell's fd and kernel id (PERF_EVENT_IOC_ID) are kept in
 * the evsel's fd[]/id[] arrays, allocated here on the first open and freed
 * by the close. With opts->fallback a failing evsel is rewritten and
 * retried the way perf record does (pulse_evsel__fallback(), then
 * pulse_evsel__fallback_user_only()) before the open gives up.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <pulse/evlist.h>
#include <pulse/open.h>

#include "event/parse-internal.h"

int pulse_evlist__init(struct pulse_evlist *evlist)
{
	evlist->entries = NULL;
	evlist->nr = 0;
	return 0;
}

int pulse_evlist__add(struct pulse_evlist *evlist, struct pulse_evsel *evsel)
{
	struct pulse_evsel **e = realloc(evlist->entries, (evlist->nr + 1) * sizeof(*e));

	if (!e) {
		pulse_evsel__delete(evsel);
		return -ENOMEM;
	}
	evlist->entries = e;
	evsel->idx = evlist->nr;
	e[evlist->nr++] = evsel;
	return 0;
}

void pulse_evlist__exit(struct pulse_evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		pulse_evsel__delete(evlist->entries[i]);
	free(evlist->entries);
	evlist->entries = NULL;
	evlist->nr = 0;
}

void pulse_evlist__set_leader(struct pulse_evlist *evlist, int first, int nr)
{
	struct pulse_evsel *leader = evlist->entries[first];

	for (int i = 0; i < nr; i++) {
		struct pulse_evsel *e = evlist->entries[first + i];

		e->leader = leader;
		e->group_idx = i;
		e->nr_members = i ? 0 : nr;
	}
}

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

/* Open one evsel, rewriting and retrying it as perf record does when asked to. */
static int open_evsel(struct pulse_evsel *e, const struct pulse_evlist_open_opts *o,
		      struct pulse_evlist_open_result *res)
{
	int cpu = -1, ret;
	pid_t tid = -1;

	for (;;) {
		ret = pulse_evsel__open(e, o->cpus, o->nr_cpus, o->threads, o->nr_threads, &cpu,
					&tid);
		if (!ret)
			return 0;
		pulse_evsel__close(e);
		if (!o->fallback)
			break;
		if ((ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV) &&
		    pulse_evsel__fallback(e)) {
			res->fell_back = true;
			continue;
		}
		if (pulse_evsel__fallback_user_only(e, ret, &res->paranoid)) {
			res->user_only = true;
			continue;
		}
		break;
	}
	res->evsel = e;
	res->cpu = cpu;
	res->tid = tid;
	return ret;
}

int pulse_evlist__open(struct pulse_evlist *evlist, const struct pulse_evlist_open_opts *opts,
		       struct pulse_evlist_open_result *res)
{
	static const int any_cpu[] = { -1 };
	static const pid_t self[] = { 0 };
	struct pulse_evlist_open_opts o = { .sz = sizeof(o), .cpus = any_cpu, .nr_cpus = 1,
					    .threads = self, .nr_threads = 1 };
	struct pulse_evlist_open_result unused;
	int ret;

	if (!res)
		res = &unused;
	*res = (struct pulse_evlist_open_result){ .cpu = -1, .tid = -1 };
	if (opts) {
		if (opts->sz < sizeof(o))
			return -EINVAL;
		if (opts->cpus) {
			o.cpus = opts->cpus;
			o.nr_cpus = opts->nr_cpus;
		}
		if (opts->threads) {
			o.threads = opts->threads;
			o.nr_threads = opts->nr_threads;
		}
		o.fallback = opts->fallback;
	}
	if (o.nr_cpus <= 0 || o.nr_threads <= 0)
		return -EINVAL;
	for (int i = 0; i < evlist->nr; i++) {
		ret = open_evsel(evlist->entries[i], &o, res);
		if (ret) {
			pulse_evlist__close(evlist);
			return ret;
		}
	}
	return 0;
}

void pulse_evlist__close(struct pulse_evlist *evlist)
{
	/* members before their leader, so no fd goes while a sibling still points at it */
	for (int i = evlist->nr - 1; i >= 0; i--)
		pulse_evsel__close(evlist->entries[i]);
}

static int evlist_ioctl(struct pulse_evlist *evlist, unsigned long req)
{
	for (int i = 0; i < evlist->nr; i++) {
		int ret;

		if (!evlist->entries[i]->fd)
			continue;
		ret = pulse_evsel__ioctl(evlist->entries[i], req, 0);
		if (ret)
			return ret;
	}
	return 0;
}

int pulse_evlist__enable(struct pulse_evlist *evlist)
{
	return evlist_ioctl(evlist, PERF_EVENT_IOC_ENABLE);
}

int pulse_evlist__disable(struct pulse_evlist *evlist)
{
	return evlist_ioctl(evlist, PERF_EVENT_IOC_DISABLE);
}
