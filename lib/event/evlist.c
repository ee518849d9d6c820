// SPDX-License-Identifier: GPL-2.0
/*
 * The evlist: the evsels an -e list parsed into, in order, their groups,
 * and their open state.
 *
 * Opening follows libperf's evlist/evsel: each evsel in turn is opened on
 * every (cpu, thread) cell (cells.c), so a group's leader is open on a
 * cell before its members are, and each member passes the leader's fd of
 * the same cell as group_fd. With opts->fallback a failing evsel is rewritten and
 * retried the way perf record does (pulse_evsel__fallback(), then
 * pulse_evsel__fallback_user_only()) before the open gives up.
 */
#include <errno.h>
#include <stdlib.h>
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
