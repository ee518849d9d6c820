// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for what surrounds the event parser: the "did you mean" hints
 * (lib/event/suggest.c), the cycles -> cpu-clock fallback (evsel.c) and
 * the walk over every event for pulse list (list.c), against the fake
 * trees in tests/data, plus one walk of this machine's real events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/core.h>
#include <pulse/event.h>

#include "test.h"
#include "event-fake.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_event__unknown_suggestions(void)
{
	static const struct { const char *spec, *token, *hint; } cases[] = {
		{ "cpu-clok", "cpu-clok", "did you mean 'cpu-clock'?" },
		{ "cpu-clokc", "cpu-clokc", "did you mean 'cpu-clock'?" },
		{ "cpu-clok:u", "cpu-clok", "did you mean 'cpu-clock'?" },
		{ "sched:sched_swich", "sched:sched_swich", "did you mean 'sched:sched_switch'?" },
		{ "schde:sched_switch", "schde:sched_switch", "did you mean 'sched:sched_switch'?" },
		{ "sched:sched_swich:u", "sched:sched_swich", "did you mean 'sched:sched_switch'?" },
		{ "L1-dcache-laods", "L1-dcache-laods", "did you mean 'L1-dcache-loads'?" },
		{ "mispredict", "mispredict", "did you mean 'mispredicts'?" },
		{ "contextswitches", "contextswitches", "did you mean 'context-switches'?" },
		{ "xyzzy-plugh-frobnicate", "xyzzy-plugh-frobnicate",
		  "run 'pulse list' to see the events of this machine" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct pulse_parse_error err;

		ASSERT_EQ(parse(&evlist, cases[i].spec, &err), -ENOENT);
		printf("# %s: msg '%s' hint '%s'\n", cases[i].spec, err.msg, err.hint);
		ASSERT_STREQ(err.token, cases[i].token);
		{
			char msg[256];

			snprintf(msg, sizeof(msg), "unknown event '%s'", cases[i].token);
			ASSERT_STREQ(err.msg, msg);
		}
		ASSERT_STREQ(err.hint, cases[i].hint);
	}
}

static void test_event__ties_suggest_several(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;

	/* two edits from both sched_wakeup and sched_waking */
	ASSERT_EQ(parse(&evlist, "sched:sched_wak", &err), -ENOENT);
	ASSERT_TRUE(strstr(err.hint, "'sched:sched_waking'") != NULL);
	ASSERT_TRUE(strstr(err.hint, "'sched:sched_wakeup'") != NULL);
	ASSERT_TRUE(strstr(err.hint, " or ") != NULL);
}

static void test_event__no_err_is_fine(void)
{
	struct pulse_evlist evlist = {};

	ASSERT_EQ(parse(&evlist, "cpu-clok", NULL), -ENOENT);
	ASSERT_EQ(parse(&evlist, "fakecpu/bogus/", NULL), -EINVAL);
	ASSERT_EQ(parse(&evlist, "sched:nothing*", NULL), -ENOENT);
	ASSERT_EQ(evlist.nr, 0);
}

static void test_event__fallback(void)
{
	static const struct {
		const char *spec, *name;
		int precise, eu, ek, eG;
	} cases[] = {
		/* perf record -e <spec> on a machine without a PMU, then perf evlist -v */
		{ "cycles", "cpu-clock", 0, 0, 0, 1 },
		{ "cpu-cycles", "cpu-clock", 0, 0, 0, 1 },
		{ "cycles:u", "cpu-clock:uH", 0, 0, 1, 1 },
		{ "cycles:P", "cpu-clock:ppp", 3, 0, 0, 0 },
		{ "cycles:ppp", "cpu-clock:pppH", 3, 0, 0, 1 },
		{ "cycles:p", "cpu-clock:pH", 1, 0, 0, 1 },
		{ "cycles:k", "cpu-clock:k", 0, 1, 0, 0 },
		{ "cycles:G", "cpu-clock:G", 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct pulse_evsel *e;

		ASSERT_EQ(parse(&evlist, cases[i].spec, NULL), 0);
		e = evlist.entries[0];
		ASSERT_TRUE(!e->fell_back);
		ASSERT_TRUE(pulse_evsel__fallback(e));
		ASSERT_TRUE(e->fell_back);
		ASSERT_EQ(e->attr.type, PERF_TYPE_SOFTWARE);
		ASSERT_EQ(e->attr.config, PERF_COUNT_SW_CPU_CLOCK);
		ASSERT_EQ(e->attr.precise_ip, cases[i].precise);
		ASSERT_EQ(e->attr.exclude_user, cases[i].eu);
		ASSERT_EQ(e->attr.exclude_kernel, cases[i].ek);
		ASSERT_EQ(e->attr.exclude_guest, cases[i].eG);
		ASSERT_STREQ(e->name, cases[i].name);
		/* once is enough */
		ASSERT_TRUE(!pulse_evsel__fallback(e));
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__fallback_other_events(void)
{
	struct pulse_evlist evlist = {};

	ASSERT_EQ(parse(&evlist, "instructions,cpu-clock,r0,fakecpu/event=0/", NULL), 0);
	for (int i = 0; i < evlist.nr; i++) {
		struct perf_event_attr before = evlist.entries[i]->attr;

		ASSERT_TRUE(!pulse_evsel__fallback(evlist.entries[i]));
		ASSERT_MEMEQ(&before, &evlist.entries[i]->attr, sizeof(before));
		ASSERT_TRUE(!evlist.entries[i]->fell_back);
	}
	ASSERT_STREQ(evlist.entries[0]->name, "instructions");
	pulse_evlist__exit(&evlist);
}

struct listed {
	int nr[PULSE_EV_PMU + 1];
	char last[PULSE_EV_PMU + 1][128];
	int sorted;
	int saw_cs, saw_cycles, saw_l1d_misses, saw_mispredicts, saw_switch, saw_unit, saw_bad;
	int order_ok;
	int last_kind;
	int stop_after;
	int calls;
};

static int list_cb(enum pulse_event_kind kind, const char *name, const char *desc, void *arg)
{
	struct listed *l = arg;

	/* perf list's order: hardware, software, cache, PMU aliases, tracepoints */
	static const int rank[] = {
		[PULSE_EV_HARDWARE] = 0, [PULSE_EV_SOFTWARE] = 1, [PULSE_EV_HW_CACHE] = 2,
		[PULSE_EV_PMU] = 3, [PULSE_EV_TRACEPOINT] = 4,
	};

	l->calls++;
	if (rank[kind] < l->last_kind)
		l->order_ok = 0;
	l->last_kind = rank[kind];
	if (l->nr[kind] && strcmp(l->last[kind], name) >= 0)
		l->sorted = 0;
	snprintf(l->last[kind], sizeof(l->last[kind]), "%s", name);
	l->nr[kind]++;
	if (kind == PULSE_EV_SOFTWARE && !strcmp(name, "context-switches OR cs"))
		l->saw_cs = 1;
	if (kind == PULSE_EV_HARDWARE && !strcmp(name, "cpu-cycles OR cycles"))
		l->saw_cycles = 1;
	if (kind == PULSE_EV_HW_CACHE && !strcmp(name, "L1-dcache-load-misses"))
		l->saw_l1d_misses = 1;
	if (kind == PULSE_EV_PMU && !strcmp(name, "fakecpu/mispredicts/") && desc &&
	    !strcmp(desc, "event=0xc5,umask=0x1"))
		l->saw_mispredicts = 1;
	if (kind == PULSE_EV_TRACEPOINT && !strcmp(name, "sched:sched_switch"))
		l->saw_switch = 1;
	if (strstr(name, ".unit") || strstr(name, ".scale"))
		l->saw_unit = 1;
	if (strstr(name, "badfmt") || strstr(name, "not_an_event"))
		l->saw_bad = 1;
	return l->stop_after && l->calls == l->stop_after ? 77 : 0;
}

static void test_event__list(void)
{
	struct listed l = { .sorted = 1, .order_ok = 1 };

	setup();
	ASSERT_EQ(pulse_list_events(&fake_opts, list_cb, &l), 0);
	ASSERT_EQ(l.nr[PULSE_EV_HARDWARE], 10);
	ASSERT_EQ(l.nr[PULSE_EV_SOFTWARE], 12);
	/* perf list cache: 7 caches, L1I 2 ops, ITLB and BPU 1, the rest 3; x2 results */
	ASSERT_EQ(l.nr[PULSE_EV_HW_CACHE], 2 * (3 + 2 + 3 + 3 + 1 + 1 + 3));
	ASSERT_EQ(l.nr[PULSE_EV_PMU], 3);
	ASSERT_EQ(l.nr[PULSE_EV_TRACEPOINT], 10);
	ASSERT_TRUE(l.sorted);
	ASSERT_TRUE(l.order_ok);
	ASSERT_TRUE(l.saw_cs && l.saw_cycles && l.saw_l1d_misses && l.saw_mispredicts &&
		    l.saw_switch);
	ASSERT_TRUE(!l.saw_unit);
	ASSERT_TRUE(!l.saw_bad);
	ASSERT_STREQ(l.last[PULSE_EV_TRACEPOINT], "syscalls:sys_exit_getppid");
	ASSERT_STREQ(l.last[PULSE_EV_PMU], "fakeuncore/clockticks/");

	/* every listed name parses back */
	{
		static const char *const names[] = {
			"L1-dcache-load-misses", "L1-icache-loads", "node-prefetch-misses",
			"fakecpu/mispredicts/", "sched:sched_switch", "cgroup-switches",
		};
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			struct pulse_evlist evlist = {};

			ASSERT_EQ(parse(&evlist, names[i], NULL), 0);
			pulse_evlist__exit(&evlist);
		}
	}
}

static void test_event__list_stops(void)
{
	struct listed l = { .sorted = 1, .order_ok = 1, .stop_after = 3 };
	struct listed l2 = { .sorted = 1, .order_ok = 1, .stop_after = 10 + 12 + 32 + 3 + 4 };

	setup();
	ASSERT_EQ(pulse_list_events(&fake_opts, list_cb, &l), 77);
	ASSERT_EQ(l.calls, 3);
	/* stopping inside the tracepoints too */
	ASSERT_EQ(pulse_list_events(&fake_opts, list_cb, &l2), 77);
	ASSERT_EQ(l2.calls, 10 + 12 + 32 + 3 + 4);
}

static void test_event__list_real(void)
{
	struct listed l = { .sorted = 1, .order_ok = 1 };

	setup();
	ASSERT_EQ(pulse_list_events(NULL, list_cb, &l), 0);
	ASSERT_EQ(l.nr[PULSE_EV_SOFTWARE], 12);
	ASSERT_TRUE(l.sorted && l.order_ok);
	if (!pulse_tracefs_dir(NULL)) {
		test__skip = "no tracefs on this machine";
		return;
	}
	ASSERT_TRUE(l.nr[PULSE_EV_TRACEPOINT] > 0);
}

TEST_MAIN(TEST(test_event__unknown_suggestions),
	  TEST(test_event__ties_suggest_several),
	  TEST(test_event__no_err_is_fine),
	  TEST(test_event__fallback),
	  TEST(test_event__fallback_other_events),
	  TEST(test_event__list),
	  TEST(test_event__list_stops),
	  TEST(test_event__list_real))
