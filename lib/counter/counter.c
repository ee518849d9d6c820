// SPDX-License-Identifier: GPL-2.0
/*
 * A counter or a group a program opens on itself or on a CPU and reads:
 * an evlist of one group (<pulse/evlist.h> opens, reads and scales it),
 * and, on the calling thread, each member's perf_event_mmap_page mapped
 * so that a read can skip the system call (page.c).
 *
 * Every member is opened disabled (unless asked otherwise) with
 * read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID, and GROUP when
 * the group has several members, so that one read(2) of any of them
 * returns the whole group.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <pulse/counter.h>
#include <pulse/event.h>
#include <pulse/evlist.h>

#include "counter/counter-internal.h"

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		     PERF_FORMAT_ID)

int pulse_counter__nr(const struct pulse_counter *c)
{
	return c->evlist.nr;
}

const char *pulse_counter__name(const struct pulse_counter *c, int idx)
{
	return idx >= 0 && idx < c->evlist.nr ? c->evlist.entries[idx]->name : NULL;
}

int pulse_counter__fd(const struct pulse_counter *c, int idx)
{
	int fd = pulse_evlist__fd(&c->evlist, idx, 0, 0);

	return fd < 0 ? -ERANGE : fd;
}

const struct perf_event_mmap_page *pulse_counter__page(const struct pulse_counter *c, int idx)
{
	return c->pages && idx >= 0 && idx < c->evlist.nr ? c->pages[idx] : NULL;
}

void pulse_counter__delete(struct pulse_counter *c)
{
	if (!c)
		return;
	for (int i = 0; c->pages && i < c->evlist.nr; i++)
		if (c->pages[i])
			munmap(c->pages[i], c->page_size);
	free(c->pages);
	pulse_evlist__exit(&c->evlist);
	free(c);
}

/* Whether the evlist is one group: a single event, or a leader and all its members. */
static bool is_one_group(const struct pulse_evlist *evlist)
{
	const struct pulse_evsel *leader;

	if (evlist->nr < 1)
		return false;
	leader = evlist->entries[0];
	if (evlist->nr == 1)
		return true;
	return leader->nr_members == evlist->nr &&
	       evlist->entries[evlist->nr - 1]->leader == leader;
}

/* Map each member's user page, read only: the page alone, no ring. */
static int map_pages(struct pulse_counter *c)
{
	c->page_size = sysconf(_SC_PAGESIZE);
	c->pages = calloc(c->evlist.nr, sizeof(*c->pages));
	if (!c->pages)
		return -ENOMEM;
	for (int i = 0; i < c->evlist.nr; i++) {
		void *p = mmap(NULL, c->page_size, PROT_READ, MAP_SHARED,
			       pulse_counter__fd(c, i), 0);

		if (p == MAP_FAILED)
			return -errno;
		c->pages[i] = p;
	}
	return 0;
}

/* Set the attrs up, open the evlist where @opts says and map its pages. */
static int open_counter(struct pulse_counter *c, const struct pulse_counter_opts *opts)
{
	struct pulse_counter_opts o = { .sz = sizeof(o) };
	struct pulse_evlist_open_opts eo = { .sz = sizeof(eo) };
	pid_t any_task = -1;
	int ret;

	if (opts) {
		if (opts->sz < sizeof(o))
			return -EINVAL;
		o = *opts;
	}
	if (!is_one_group(&c->evlist) || (o.cpu_wide && o.cpu < 0))
		return -EINVAL;
	for (int i = 0; i < c->evlist.nr; i++) {
		struct perf_event_attr *a = &c->evlist.entries[i]->attr;

		a->read_format = READ_FORMAT | (c->evlist.nr > 1 ? PERF_FORMAT_GROUP : 0);
		/* members follow their leader: only it is enabled and disabled */
		a->disabled = !i && !o.enable;
		if (!i && o.sample_period) {
			a->freq = 0;
			a->sample_period = o.sample_period;
			a->wakeup_events = 1;
		}
	}
	c->sample_period = o.sample_period;
	if (o.cpu_wide) {
		eo.cpus = &o.cpu;
		eo.nr_cpus = 1;
		eo.threads = &any_task;
		eo.nr_threads = 1;
	}
	ret = pulse_evlist__open(&c->evlist, &eo, NULL);
	if (ret)
		return ret;
	if (!o.cpu_wide && !o.no_mmap)
		return map_pages(c);
	return 0;
}

static int new_counter(struct pulse_counter **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	return pulse_evlist__init(&(*out)->evlist);
}

int pulse_counter__new(struct pulse_counter **out, const char *events,
		       const struct pulse_counter_opts *opts)
{
	struct pulse_counter *c;
	int ret = new_counter(&c);

	*out = NULL;
	if (ret)
		return ret;
	ret = pulse_evlist__parse(&c->evlist, events, NULL, NULL);
	if (!ret)
		ret = open_counter(c, opts);
	if (ret) {
		pulse_counter__delete(c);
		return ret;
	}
	*out = c;
	return 0;
}

/* Link the evsels as one group behind the first, as the parser links "{a,b}". */
static void set_group(struct pulse_evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++) {
		struct pulse_evsel *e = evlist->entries[i];

		e->leader = evlist->entries[0];
		e->group_idx = i;
		e->nr_members = i ? 0 : evlist->nr;
	}
}

int pulse_counter__new_attr(struct pulse_counter **out, const struct perf_event_attr *attrs,
			    int nr, const struct pulse_counter_opts *opts)
{
	struct pulse_counter *c;
	int ret;

	*out = NULL;
	if (nr < 1)
		return -EINVAL;
	ret = new_counter(&c);
	if (ret)
		return ret;
	for (int i = 0; i < nr && !ret; i++) {
		struct pulse_evsel *e;
		char name[64];

		if (!pulse_attr__name(&attrs[i], name, sizeof(name)))
			strcpy(name, "tracepoint");
		ret = pulse_evsel__new(&e, attrs[i].type, attrs[i].config, name);
		if (!ret) {
			e->attr = attrs[i];
			e->attr.size = sizeof(e->attr);
			ret = pulse_evlist__add(&c->evlist, e);
		}
	}
	if (!ret) {
		set_group(&c->evlist);
		ret = open_counter(c, opts);
	}
	if (ret) {
		pulse_counter__delete(c);
		return ret;
	}
	*out = c;
	return 0;
}

/* PERF_EVENT_IOC_* on every member. */
static int ioctl_all(struct pulse_counter *c, unsigned long req)
{
	return pulse_evlist__ioctl(&c->evlist, req, 0);
}

int pulse_counter__enable(struct pulse_counter *c)
{
	return ioctl_all(c, PERF_EVENT_IOC_ENABLE);
}

int pulse_counter__disable(struct pulse_counter *c)
{
	return ioctl_all(c, PERF_EVENT_IOC_DISABLE);
}

int pulse_counter__reset(struct pulse_counter *c)
{
	return ioctl_all(c, PERF_EVENT_IOC_RESET);
}

/* A value from read(2), scaled. */
static void from_counts(struct pulse_counter_value *v, const struct pulse_counts *counts)
{
	struct pulse_counts scaled = *counts;

	pulse_counts__scale(&scaled);
	*v = (struct pulse_counter_value){ .val = counts->val, .ena = counts->ena,
					   .run = counts->run, .scaled = scaled.val,
					   .id = counts->id, .source = PULSE_COUNTER_READ };
}

int pulse_counter__read(struct pulse_counter *c, int idx, struct pulse_counter_value *v)
{
	const struct perf_event_mmap_page *pc = pulse_counter__page(c, idx);
	struct pulse_counts counts;
	int ret;

	if (idx < 0 || idx >= c->evlist.nr)
		return -ERANGE;
	if (pc && !pulse_counter_page__read(pc, NULL, v))
		return 0;
	ret = pulse_evlist__read(&c->evlist, idx, 0, 0, &counts);
	if (ret)
		return ret;
	from_counts(v, &counts);
	return 0;
}

int pulse_counter__read_group(struct pulse_counter *c, struct pulse_counter_value *v, int size,
			      int *nr)
{
	struct pulse_counts counts[64];
	int ret;

	*nr = 0;
	if (size < c->evlist.nr)
		return -ENOSPC;
	if (c->evlist.nr == 1) {
		ret = pulse_counter__read(c, 0, v);
		if (!ret)
			*nr = 1;
		return ret;
	}
	ret = pulse_evlist__read_group(&c->evlist, 0, 0, 0, counts, 64, nr);
	if (ret)
		return ret;
	for (int i = 0; i < *nr && i < size; i++)
		from_counts(&v[i], &counts[i]);
	return 0;
}
