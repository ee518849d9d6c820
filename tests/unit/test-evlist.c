// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for groups and the evlist (lib/event/parse.c's "{a,b}",
 * evlist.c, counts.c, open.c's probe): the group syntax and its
 * modifiers against what perf 6.1 builds (`perf record -e
 * '{task-clock:u,cpu-clock}:k' -vv`), then real software-event groups
 * opened on this thread and read with PERF_FORMAT_GROUP. Counts of a real
 * workload are not exact, so those tests check the structure: one entry
 * per member, the ids the kernel gave each evsel, enabled >= running > 0.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/event.h>
#include <pulse/evlist.h>
#include <pulse/open.h>

#include "test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define GROUP_READ (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		    PERF_FORMAT_ID | PERF_FORMAT_GROUP)

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int parse(struct pulse_evlist *evlist, const char *spec, struct pulse_parse_error *err)
{
	pulse_set_print(quiet);
	return pulse_evlist__parse(evlist, spec, NULL, err);
}

static void test_evlist__group_links(void)
{
	struct pulse_evlist l;
	struct pulse_evsel **e;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "cs,{task-clock,cpu-clock,page-faults},faults", NULL), 0);
	ASSERT_EQ(l.nr, 5);
	e = l.entries;
	ASSERT_STREQ(e[1]->name, "task-clock");
	ASSERT_STREQ(e[3]->name, "page-faults");
	/* alone: its own leader, a group of one */
	ASSERT_TRUE(e[0]->leader == e[0] && pulse_evsel__is_leader(e[0]));
	ASSERT_EQ(e[0]->nr_members, 1);
	ASSERT_TRUE(e[4]->leader == e[4]);
	ASSERT_EQ(e[4]->nr_members, 1);
	ASSERT_TRUE(pulse_evsel__is_leader(e[1]));
	ASSERT_EQ(e[1]->nr_members, 3);
	for (int i = 1; i <= 3; i++) {
		ASSERT_TRUE(e[i]->leader == e[1]);
		ASSERT_EQ(e[i]->group_idx, i - 1);
		ASSERT_EQ(e[i]->idx, i);
	}
	ASSERT_TRUE(!pulse_evsel__is_leader(e[2]));
	/* no group modifiers: the bits of events of their own */
	ASSERT_EQ(e[2]->attr.exclude_guest, 1);
	ASSERT_EQ(e[2]->attr.exclude_kernel, 0);
	pulse_evlist__exit(&l);
	ASSERT_EQ(l.nr, 0);
}

static void test_evlist__group_modifiers(void)
{
	struct pulse_evlist l;
	struct perf_event_attr *a, *b;

	pulse_evlist__init(&l);
	/* perf 6.1 -vv: task-clock exclude_hv+guest; cpu-clock exclude_user+hv+guest */
	ASSERT_EQ(parse(&l, "{task-clock:u,cpu-clock}:k", NULL), 0);
	a = &l.entries[0]->attr;
	b = &l.entries[1]->attr;
	ASSERT_EQ(a->exclude_user, 0);
	ASSERT_EQ(a->exclude_kernel, 0);
	ASSERT_EQ(a->exclude_hv, 1);
	ASSERT_EQ(a->exclude_guest, 1);
	ASSERT_EQ(b->exclude_user, 1);
	ASSERT_EQ(b->exclude_kernel, 0);
	ASSERT_EQ(b->exclude_hv, 1);
	ASSERT_EQ(b->exclude_guest, 1);
	ASSERT_STREQ(l.entries[0]->name, "task-clock:u");
	pulse_evlist__exit(&l);

	/* :S on every member; :D (pinned) on the leader only */
	ASSERT_EQ(parse(&l, "{task-clock,cpu-clock}:SD", NULL), 0);
	ASSERT_TRUE(l.entries[0]->sample_read && l.entries[1]->sample_read);
	ASSERT_EQ(l.entries[0]->attr.pinned, 1);
	ASSERT_EQ(l.entries[1]->attr.pinned, 0);
	pulse_evlist__exit(&l);

	/* a group's p adds to the member's own; more than 3 fails */
	ASSERT_EQ(parse(&l, "{task-clock:p,cpu-clock}:p", NULL), 0);
	ASSERT_EQ(l.entries[0]->attr.precise_ip, 2);
	ASSERT_EQ(l.entries[1]->attr.precise_ip, 1);
	ASSERT_TRUE(l.entries[1]->mod_precise_set);
	pulse_evlist__exit(&l);
	ASSERT_EQ(parse(&l, "{task-clock:ppp,cpu-clock}:p", NULL), -EINVAL);
	ASSERT_EQ(l.nr, 0);
	pulse_evlist__exit(&l);
}

static void test_evlist__group_errors(void)
{
	static const char *const bad[] = {
		"{task-clock,cpu-clock", "{}", "{task-clock,{cpu-clock}}", "{task-clock}x",
		"{task-clock,cpu-clock}:x", "{task-clock}:", "task-clock}", "{task-clock,nosuch}",
		"cs,{task-clock,cpu-clock}:uu",
	};
	struct pulse_parse_error err;
	struct pulse_evlist l;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "cs", NULL), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = parse(&l, bad[i], &err);

		printf("# %s: %d %s\n", bad[i], ret, err.msg);
		ASSERT_TRUE(ret == -EINVAL || ret == -ENOENT);
		ASSERT_TRUE(err.msg[0]);
		/* the list is left as it was */
		ASSERT_EQ(l.nr, 1);
	}
	pulse_evlist__exit(&l);
}

/* Touch fresh pages and yield: page faults, context switches, clock time. */
static void workload(void)
{
	size_t len = 64 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED) {
		for (size_t i = 0; i < len; i += 4096)
			p[i] = 1;
		munmap(p, len);
	}
	for (int i = 0; i < 10; i++)
		sched_yield();
	for (volatile int i = 0; i < 1000000; i++)
		;
}

/*
 * As perf stat configures them: leaders start disabled, members enabled,
 * and pulse_evlist__enable() then schedules each group in as one. (A
 * member added to a group already running would stay inactive until the
 * group is next scheduled in, and count nothing.)
 */
static void set_read_format(struct pulse_evlist *l, __u64 rf)
{
	for (int i = 0; i < l->nr; i++) {
		l->entries[i]->attr.read_format = rf;
		l->entries[i]->attr.disabled = pulse_evsel__is_leader(l->entries[i]);
	}
}

/* The kernel id of an evsel's first cell. */
static __u64 id0(const struct pulse_evlist *l, int idx)
{
	size_t nr;
	const __u64 *ids = pulse_evlist__ids(l, idx, &nr);

	return ids && nr ? ids[0] : 0;
}

static void test_evlist__group_read(void)
{
	struct pulse_counts c[8], one;
	struct pulse_evlist l;
	int nr = -1, ret;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "{task-clock,cpu-clock,page-faults,context-switches}", NULL), 0);
	set_read_format(&l, GROUP_READ);
	ret = pulse_evlist__open(&l, NULL, NULL);
	if (ret == -EACCES || ret == -EPERM) {
		test__skip = "perf_event_open not permitted";
		pulse_evlist__exit(&l);
		return;
	}
	ASSERT_EQ(ret, 0);
	ASSERT_EQ(pulse_evlist__enable(&l), 0);
	workload();
	ASSERT_EQ(pulse_evlist__read_group(&l, 0, 0, 0, c, ARRAY_SIZE(c), &nr), 0);
	ASSERT_EQ(nr, 4);
	for (int i = 0; i < nr; i++) {
		ASSERT_EQ(c[i].id, id0(&l, i));
		ASSERT_TRUE(c[i].run > 0);
		ASSERT_TRUE(c[i].ena >= c[i].run);
		/* software events are never multiplexed */
		ASSERT_EQ(pulse_counts__scale(&c[i]), 0);
	}
	/* every member counted: task-clock, cpu-clock and the 64 pages' faults */
	ASSERT_TRUE(c[0].val > 0);
	ASSERT_TRUE(c[1].val > 0);
	ASSERT_TRUE(c[2].val > 0);
	/* a member reads its own entry of the group */
	ASSERT_EQ(pulse_evlist__read(&l, 2, 0, 0, &one), 0);
	ASSERT_EQ(one.id, id0(&l, 2));
	ASSERT_TRUE(one.val >= c[2].val);
	/* too small a buffer, a bad cell */
	ASSERT_EQ(pulse_evlist__read_group(&l, 0, 0, 0, c, 2, &nr), -ENOSPC);
	ASSERT_EQ(pulse_evlist__read(&l, 0, 1, 0, &one), -ERANGE);
	ASSERT_EQ(pulse_evlist__disable(&l), 0);
	pulse_evlist__close(&l);
	ASSERT_TRUE(l.cells == NULL);
	ASSERT_EQ(pulse_evlist__fd(&l, 0, 0, 0), -ERANGE);
	ASSERT_EQ(pulse_evlist__read(&l, 0, 0, 0, &one), -ERANGE);
	pulse_evlist__exit(&l);
}

static void test_evlist__read_single(void)
{
	struct pulse_counts c;
	struct pulse_evlist l;
	int nr;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "task-clock,page-faults", NULL), 0);
	set_read_format(&l, PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			       PERF_FORMAT_ID);
	if (pulse_evlist__open(&l, NULL, NULL)) {
		test__skip = "cannot open software events";
		pulse_evlist__exit(&l);
		return;
	}
	ASSERT_EQ(pulse_evlist__enable(&l), 0);
	workload();
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(pulse_evlist__read(&l, i, 0, 0, &c), 0);
		ASSERT_EQ(c.id, id0(&l, i));
		ASSERT_TRUE(c.run > 0 && c.ena >= c.run);
		ASSERT_TRUE(c.val > 0);
	}
	/* not a group read */
	ASSERT_EQ(pulse_evlist__read_group(&l, 0, 0, 0, &c, 1, &nr), -EINVAL);
	pulse_evlist__exit(&l);
}

/* Per-CPU cells: pid 0 on each of the first CPUs, the group on every cell. */
static void test_evlist__per_cpu(void)
{
	int cpus[2] = { 0, 1 }, nr_cpus = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
	pid_t threads[1] = { 0 };
	struct pulse_evlist_open_opts o = { .sz = sizeof(o), .cpus = cpus, .nr_cpus = nr_cpus,
					    .threads = threads, .nr_threads = 1 };
	struct pulse_counts c[4];
	struct pulse_evlist l;
	size_t nr_ids;
	int nr;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "{task-clock,context-switches}", NULL), 0);
	set_read_format(&l, GROUP_READ);
	if (pulse_evlist__open(&l, &o, NULL)) {
		test__skip = "cannot open software events per cpu";
		pulse_evlist__exit(&l);
		return;
	}
	ASSERT_EQ(pulse_evlist__nr_cpus(&l), nr_cpus);
	ASSERT_EQ(pulse_evlist__nr_threads(&l), 1);
	for (int i = 0; i < l.nr; i++) {
		ASSERT_TRUE(pulse_evlist__ids(&l, i, &nr_ids) != NULL);
		ASSERT_EQ(nr_ids, (size_t)nr_cpus);
	}
	ASSERT_TRUE(pulse_evlist__ids(&l, l.nr, &nr_ids) == NULL);
	ASSERT_EQ(nr_ids, 0);
	ASSERT_EQ(pulse_evlist__enable(&l), 0);
	workload();
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		ASSERT_TRUE(pulse_evlist__fd(&l, 1, cpu, 0) >= 0);
		ASSERT_EQ(pulse_evlist__read_group(&l, 0, cpu, 0, c, 4, &nr), 0);
		ASSERT_EQ(nr, 2);
		ASSERT_EQ(c[0].id, pulse_evlist__ids(&l, 0, &nr_ids)[cpu]);
		ASSERT_EQ(c[1].id, pulse_evlist__ids(&l, 1, &nr_ids)[cpu]);
		/* the ids of two cells differ */
		if (cpu)
			ASSERT_TRUE(id0(&l, 0) != pulse_evlist__ids(&l, 0, &nr_ids)[1]);
	}
	ASSERT_EQ(pulse_evlist__fd(&l, 0, nr_cpus, 0), -ERANGE);
	ASSERT_EQ(pulse_evlist__fd(&l, l.nr, 0, 0), -ERANGE);
	pulse_evlist__exit(&l);
}

/* A failing member: every evsel is closed again, and the result says which. */
static void test_evlist__open_failure(void)
{
	struct pulse_evlist_open_result res;
	struct pulse_evlist_open_opts bad = { .sz = 1 };
	struct pulse_evlist l;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "{task-clock,cpu-clock}", NULL), 0);
	l.entries[1]->attr.type = 0x7fff;	/* no such PMU */
	ASSERT_TRUE(pulse_evlist__open(&l, NULL, &res) < 0);
	ASSERT_TRUE(res.evsel == l.entries[1]);
	ASSERT_EQ(res.cpu, -1);
	ASSERT_EQ(res.tid, 0);
	ASSERT_TRUE(l.cells == NULL);
	ASSERT_EQ(pulse_evlist__open(&l, &bad, &res), -EINVAL);
	pulse_evlist__exit(&l);
}

/*
 * The cells belong to the evlist, not the evsels: a second open of an open
 * evlist is refused, its close leaves the evsels as they were, and a view
 * that borrows evsels (as pulse record's does) opens and closes them
 * without owning them.
 */
static void test_evlist__cells(void)
{
	struct pulse_evlist l, view = {};
	struct pulse_evsel copy;
	size_t nr;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "task-clock,page-faults", NULL), 0);
	ASSERT_TRUE(pulse_evlist__ids(&l, 0, &nr) == NULL);
	ASSERT_EQ(pulse_evlist__nr_cpus(&l), 0);
	ASSERT_EQ(pulse_evlist__ioctl(&l, PERF_EVENT_IOC_DISABLE, 0), 0);
	copy = *l.entries[1];
	if (pulse_evlist__open(&l, NULL, NULL)) {
		test__skip = "cannot open software events";
		pulse_evlist__exit(&l);
		return;
	}
	ASSERT_EQ(pulse_evlist__open(&l, NULL, NULL), -EBUSY);
	ASSERT_TRUE(pulse_evlist__fd(&l, 1, 0, 0) >= 0);
	ASSERT_TRUE(id0(&l, 0) != 0 && id0(&l, 0) != id0(&l, 1));
	ASSERT_EQ(memcmp(&copy, l.entries[1], sizeof(copy)), 0);
	pulse_evlist__close(&l);
	ASSERT_EQ(memcmp(&copy, l.entries[1], sizeof(copy)), 0);

	view.entries = &l.entries[1];
	view.nr = 1;
	ASSERT_EQ(pulse_evlist__open(&view, NULL, NULL), 0);
	ASSERT_TRUE(pulse_evlist__fd(&view, 0, 0, 0) >= 0);
	ASSERT_EQ(pulse_evlist__fd(&view, 1, 0, 0), -ERANGE);
	ASSERT_EQ(pulse_evlist__enable(&view), 0);
	ASSERT_EQ(pulse_evlist__disable(&view), 0);
	pulse_evlist__close(&view);
	ASSERT_TRUE(view.cells == NULL);
	/* reusable once closed */
	ASSERT_EQ(pulse_evlist__open(&l, NULL, NULL), 0);
	pulse_evlist__exit(&l);
	ASSERT_TRUE(l.cells == NULL && l.nr == 0);
}

/* PULSE_TEST_ATTR sees the group's attrs, leader first. */
static void test_evlist__test_attr(void)
{
	char dir[] = "/tmp/pulse-test-evlist-XXXXXX";
	struct perf_event_attr got[2];
	struct pulse_evlist l;
	struct dirent **names;
	int n, ret;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	setenv("PULSE_TEST_ATTR", dir, 1);
	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "{task-clock,page-faults}:u", NULL), 0);
	set_read_format(&l, GROUP_READ);
	ret = pulse_evlist__open(&l, NULL, NULL);
	unsetenv("PULSE_TEST_ATTR");
	pulse_evlist__exit(&l);
	if (ret) {
		test__skip = "cannot open software events";
		return;
	}
	n = scandir(dir, &names, NULL, alphasort);
	ASSERT_EQ(n, 4);	/* ., .., two attrs */
	for (int i = 2, k = 0; i < n; i++, k++) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		f = fopen(path, "r");
		ASSERT_TRUE(f && fread(&got[k], sizeof(got[k]), 1, f) == 1);
		fclose(f);
		unlink(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	rmdir(dir);
	ASSERT_EQ(got[0].config, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_EQ(got[1].config, PERF_COUNT_SW_PAGE_FAULTS);
	ASSERT_EQ(got[0].read_format, GROUP_READ);
	ASSERT_EQ(got[1].read_format, GROUP_READ);
	ASSERT_EQ(got[0].disabled, 1);
	ASSERT_EQ(got[1].disabled, 0);
	ASSERT_EQ(got[0].exclude_kernel, 1);
	ASSERT_EQ(got[1].exclude_kernel, 1);
}

static void test_evlist__scale(void)
{
	struct pulse_counts c = { .val = 100, .ena = 300, .run = 100 };

	ASSERT_EQ(pulse_counts__scale(&c), 1);
	ASSERT_EQ(c.val, 300);
	c = (struct pulse_counts){ .val = 100, .ena = 300, .run = 300 };
	ASSERT_EQ(pulse_counts__scale(&c), 0);
	ASSERT_EQ(c.val, 100);
	c = (struct pulse_counts){ .val = 100, .ena = 300, .run = 0 };
	ASSERT_EQ(pulse_counts__scale(&c), -ENODATA);
	ASSERT_EQ(c.val, 0);
}

static void test_evlist__probe(void)
{
	pulse_set_print(quiet);
	ASSERT_TRUE(pulse_event__probe("task-clock", NULL));
	ASSERT_TRUE(pulse_event__probe("context-switches OR cs", NULL));
	ASSERT_TRUE(!pulse_event__probe("no-such-event", NULL));
}

TEST_MAIN(TEST(test_evlist__group_links),
	  TEST(test_evlist__group_modifiers),
	  TEST(test_evlist__group_errors),
	  TEST(test_evlist__group_read),
	  TEST(test_evlist__read_single),
	  TEST(test_evlist__per_cpu),
	  TEST(test_evlist__open_failure),
	  TEST(test_evlist__cells),
	  TEST(test_evlist__test_attr),
	  TEST(test_evlist__scale),
	  TEST(test_evlist__probe))
