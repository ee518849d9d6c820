// SPDX-License-Identifier: GPL-2.0
/*
 * The evlist: the evsels an -e list parsed into, in order, their groups,
 * and the open that gives it its cells.
 *
 * Opening follows libperf's evlist/evsel: each evsel in turn is opened on
 * every (cpu, thread) cell (cells.c, which keeps the fds and ids), so a
 * group's leader is open on a cell before its members are, and each member
 * passes the leader's fd of the same cell as group_fd. With opts->fallback
 * a failing evsel is rewritten and retried the way perf record does
 * (pulse_evsel__fallback(), then pulse_evsel__fallback_user_only()) before
 * the open gives up.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <pulse/evlist.h>
#include <pulse/open.h>

#include "event/cells.h"
#include "event/parse-internal.h"

int pulse_evlist__init(struct pulse_evlist *evlist)
{
	evlist->entries = NULL;
	evlist->nr = 0;
	evlist->cells = NULL;
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
	pulse_evlist__close(evlist);
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

/* The PMU of hardware events: "cpu", or "cpu_core" on hybrid machines. */
static bool has_core_pmu(void)
{
	return !access("/sys/bus/event_source/devices/cpu", F_OK) ||
	       !access("/sys/bus/event_source/devices/cpu_core", F_OK);
}

/* Open the evsel at @idx, rewriting and retrying it as perf record does when asked to. */
static int open_evsel(struct pulse_evlist *evlist, int idx, const struct pulse_evlist_open_opts *o,
		      struct pulse_evlist_open_result *res)
{
	struct pulse_evsel *e = evlist->entries[idx];
	int cpu = -1, ret;
	pid_t tid = -1;

	for (;;) {
		ret = pulse_evlist__open_evsel(evlist, idx, o->cpus, o->threads, &cpu, &tid);
		if (!ret)
			return 0;
		pulse_evlist__close_evsel(evlist, idx);
		if (!o->fallback)
			break;
		/*
		 * Without a core PMU, cycles is cpu-clock whatever else is wrong
		 * (a bad cpu, a frequency too high): fall back, so that the error
		 * names the event as opened.
		 */
		if ((ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
		     (ret == -EINVAL && !has_core_pmu())) &&
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
	if (o->skip_unsupported && (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
				    ret == -ENXIO || ret == -EINVAL || ret == -EBADF))
		return 0;
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
		o.skip_unsupported = opts->skip_unsupported;
	}
	if (o.nr_cpus <= 0 || o.nr_threads <= 0)
		return -EINVAL;
	ret = pulse_evlist__alloc_cells(evlist, o.nr_cpus, o.nr_threads);
	if (ret)
		return ret;
	for (int i = 0; i < evlist->nr; i++) {
		ret = open_evsel(evlist, i, &o, res);
		if (ret) {
			pulse_evlist__close(evlist);
			return ret;
		}
	}
	return 0;
}
