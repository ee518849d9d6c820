// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the event parser (lib/event/parse.c, names.c, pmu.c,
 * tracepoint.c): the attr and name of each kind of -e spec, checked against
 * what perf 6.1 builds for it (`perf evlist -v`), modifiers, comma lists,
 * tracepoint globs and PMU terms against the fake trees in tests/data
 * (sysfs/ and tracefs/) so that they do not depend on this machine. The
 * hints, fallbacks and listing are in test-event-list.c, groups and opening
 * in test-evlist.c. A few cases use the real tracefs and msr PMU and skip
 * without them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/event.h>

#include "test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "event-fake.h"

static void test_event__software(void)
{
	static const struct { const char *spec; __u64 config; } cases[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY },
		{ "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct perf_event_attr *a;

		ASSERT_EQ(parse(&evlist, cases[i].spec, NULL), 0);
		ASSERT_EQ(evlist.nr, 1);
		a = &evlist.entries[0]->attr;
		ASSERT_EQ(a->type, PERF_TYPE_SOFTWARE);
		ASSERT_EQ(a->config, cases[i].config);
		ASSERT_EQ(a->size, sizeof(struct perf_event_attr));
		/* perf evlist -v: "cs: type: 1, size: 128, config: 0x3, ... exclude_guest: 1" */
		ASSERT_EQ(a->exclude_guest, 1);
		ASSERT_EQ(a->exclude_user | a->exclude_kernel | a->exclude_hv | a->exclude_host |
			  a->exclude_idle, 0);
		ASSERT_EQ(a->precise_ip, 0);
		/* sampling is the recorder's business for these */
		ASSERT_EQ(a->sample_period, 0);
		ASSERT_EQ(a->freq, 0);
		ASSERT_STREQ(evlist.entries[0]->name, cases[i].spec);
		ASSERT_TRUE(!evlist.entries[0]->tp_system && !evlist.entries[0]->pmu_name);
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__bpf_output_samples_every_event(void)
{
	struct pulse_evlist evlist = {};

	ASSERT_EQ(parse(&evlist, "bpf-output", NULL), 0);
	ASSERT_EQ(evlist.entries[0]->attr.config, PERF_COUNT_SW_BPF_OUTPUT);
	ASSERT_EQ(evlist.entries[0]->attr.sample_period, 1);
	ASSERT_EQ(evlist.entries[0]->attr.freq, 0);
	pulse_evlist__exit(&evlist);
}

static void test_event__hardware(void)
{
	static const struct { const char *spec; __u64 config; } cases[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};

		ASSERT_EQ(parse(&evlist, cases[i].spec, NULL), 0);
		ASSERT_EQ(evlist.nr, 1);
		ASSERT_EQ(evlist.entries[0]->attr.type, PERF_TYPE_HARDWARE);
		ASSERT_EQ(evlist.entries[0]->attr.config, cases[i].config);
		ASSERT_EQ(evlist.entries[0]->attr.exclude_guest, 1);
		ASSERT_EQ(evlist.entries[0]->attr.sample_period, 0);
		ASSERT_STREQ(evlist.entries[0]->name, cases[i].spec);
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__hw_cache(void)
{
	/* configs from perf stat -vv on perf 6.1 */
	static const struct { const char *spec; __u64 config; const char *name; } cases[] = {
		{ "L1-dcache-loads", 0x0, "L1-dcache-loads" },
		{ "L1-dcache-load-misses", 0x10000, "L1-dcache-load-misses" },
		{ "L1-dcache-loads-misses", 0x10000, "L1-dcache-loads-misses" },
		{ "l1d-load-miss", 0x10000, "l1d-load-miss" },
		{ "L1-dcache", 0x0, "L1-dcache" },
		{ "L1-dcache-stores", 0x100, "L1-dcache-stores" },
		{ "L1-icache-load-misses", 0x10001, "L1-icache-load-misses" },
		{ "LLC-prefetches", 0x202, "LLC-prefetches" },
		{ "LLC-load-misses", 0x10002, "LLC-load-misses" },
		{ "dTLB-speculative-read-ops", 0x203, "dTLB-speculative-read-ops" },
		{ "iTLB-load-misses", 0x10004, "iTLB-load-misses" },
		{ "branch-loads", 0x5, "branch-loads" },
		{ "branch-load-misses", 0x10005, "branch-load-misses" },
		{ "node-stores", 0x106, "node-stores" },
		{ "misses-L1-dcache", 0, NULL },
		/* perf names cache events without their modifiers */
		{ "L1-dcache-loads:u", 0x0, "L1-dcache-loads" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		int ret = parse(&evlist, cases[i].spec, NULL);

		if (!cases[i].name) {
			ASSERT_EQ(ret, -ENOENT);
			continue;
		}
		ASSERT_EQ(ret, 0);
		ASSERT_EQ(evlist.entries[0]->attr.type, PERF_TYPE_HW_CACHE);
		ASSERT_EQ(evlist.entries[0]->attr.config, cases[i].config);
		ASSERT_STREQ(evlist.entries[0]->name, cases[i].name);
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__hw_cache_invalid_op(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;

	/* L1I has no stores, ITLB only reads */
	ASSERT_EQ(parse(&evlist, "L1-icache-stores", &err), -EINVAL);
	ASSERT_TRUE(strstr(err.msg, "L1-icache-stores") != NULL);
	ASSERT_EQ(parse(&evlist, "iTLB-prefetches", NULL), -EINVAL);
	ASSERT_EQ(evlist.nr, 0);
}

static void test_event__raw(void)
{
	struct pulse_evlist evlist = {};

	ASSERT_EQ(parse(&evlist, "r1a2b,rFF:k", NULL), 0);
	ASSERT_EQ(evlist.nr, 2);
	ASSERT_EQ(evlist.entries[0]->attr.type, PERF_TYPE_RAW);
	ASSERT_EQ(evlist.entries[0]->attr.config, 0x1a2b);
	ASSERT_STREQ(evlist.entries[0]->name, "r1a2b");
	ASSERT_EQ(evlist.entries[1]->attr.config, 0xff);
	ASSERT_EQ(evlist.entries[1]->attr.exclude_user, 1);
	ASSERT_STREQ(evlist.entries[1]->name, "rFF:k");
	pulse_evlist__exit(&evlist);
	/* perf: "r0x1a" is a syntax error; 17 digits do not fit */
	ASSERT_EQ(parse(&evlist, "r0x1a", NULL), -ENOENT);
	ASSERT_EQ(parse(&evlist, "r12345678901234567", NULL), -ENOENT);
	ASSERT_EQ(evlist.nr, 0);
}

/* Each row is what `perf record -e <spec>; perf evlist -v` printed on perf 6.1. */
static void test_event__modifiers(void)
{
	static const struct {
		const char *spec;
		int eu, ek, eh, eH, eG, eI, precise;
	} cases[] = {
		{ "cpu-clock:u", 0, 1, 1, 0, 1, 0, 0 },
		{ "cpu-clock:k", 1, 0, 1, 0, 0, 0, 0 },
		{ "cpu-clock:h", 1, 1, 0, 0, 0, 0, 0 },
		{ "cpu-clock:uk", 0, 0, 1, 0, 1, 0, 0 },
		{ "cpu-clock:kh", 1, 0, 0, 0, 0, 0, 0 },
		{ "cpu-clock:H", 0, 0, 0, 0, 1, 0, 0 },
		{ "cpu-clock:G", 0, 0, 0, 1, 0, 0, 0 },
		{ "cpu-clock:HG", 0, 0, 0, 0, 0, 0, 0 },
		{ "cpu-clock:uG", 0, 1, 1, 1, 0, 0, 0 },
		{ "cpu-clock:Gu", 0, 1, 1, 1, 0, 0, 0 },
		{ "cpu-clock:I", 0, 0, 0, 0, 0, 1, 0 },
		{ "cpu-clock:S", 0, 0, 0, 0, 0, 0, 0 },
		{ "cpu-clock:p", 0, 0, 0, 0, 1, 0, 1 },
		{ "cpu-clock:pp", 0, 0, 0, 0, 1, 0, 2 },
		{ "cpu-clock:ppp", 0, 0, 0, 0, 1, 0, 3 },
		{ "cpu-clock:up", 0, 1, 1, 0, 1, 0, 1 },
		{ "cpu-clock:P", 0, 0, 0, 0, 0, 0, 3 },
		{ "cpu-clock:pP", 0, 0, 0, 0, 1, 0, 3 },
		{ "cycles:u", 0, 1, 1, 0, 1, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct perf_event_attr *a;

		printf("# %s\n", cases[i].spec);
		ASSERT_EQ(parse(&evlist, cases[i].spec, NULL), 0);
		a = &evlist.entries[0]->attr;
		ASSERT_EQ(a->exclude_user, cases[i].eu);
		ASSERT_EQ(a->exclude_kernel, cases[i].ek);
		ASSERT_EQ(a->exclude_hv, cases[i].eh);
		ASSERT_EQ(a->exclude_host, cases[i].eH);
		ASSERT_EQ(a->exclude_guest, cases[i].eG);
		ASSERT_EQ(a->exclude_idle, cases[i].eI);
		ASSERT_EQ(a->precise_ip, cases[i].precise);
		ASSERT_EQ(evlist.entries[0]->mod_precise_set, cases[i].precise != 0);
		ASSERT_EQ(a->pinned | a->exclusive, 0);
		ASSERT_STREQ(evlist.entries[0]->name, cases[i].spec);
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__modifier_flags(void)
{
	struct pulse_evlist evlist = {};

	ASSERT_EQ(parse(&evlist, "cpu-clock:D,cpu-clock:e,cpu-clock:S,cpu-clock:W,cycles:P", NULL), 0);
	ASSERT_EQ(evlist.nr, 5);
	ASSERT_EQ(evlist.entries[0]->attr.pinned, 1);
	ASSERT_EQ(evlist.entries[0]->attr.exclusive, 0);
	ASSERT_EQ(evlist.entries[1]->attr.exclusive, 1);
	ASSERT_EQ(evlist.entries[1]->attr.pinned, 0);
	ASSERT_TRUE(evlist.entries[2]->sample_read);
	ASSERT_TRUE(!evlist.entries[1]->sample_read);
	ASSERT_TRUE(evlist.entries[3]->weak_group);
	ASSERT_TRUE(evlist.entries[4]->precise_max);
	ASSERT_TRUE(!evlist.entries[3]->precise_max);
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(evlist.entries[i]->idx, i);
	pulse_evlist__exit(&evlist);
}

static void test_event__bad_modifiers(void)
{
	static const char *const bad[] = {
		"cpu-clock:pppp", "cpu-clock:uu", "cpu-clock:x", "cpu-clock:u:k", "cycles:kk",
		"cpu-clock:b", "sched:sched_switch:z", "fakecpu/event=1/q", "cpu-clock:",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct pulse_evlist evlist = {};
		struct pulse_parse_error err;
		int ret = parse(&evlist, bad[i], &err);

		printf("# %s: %d %s\n", bad[i], ret, err.msg);
		if (!strcmp(bad[i], "cpu-clock:")) {
			/* an empty modifier list is just no modifiers (perf accepts it too) */
			ASSERT_EQ(ret, 0);
			pulse_evlist__exit(&evlist);
			continue;
		}
		ASSERT_EQ(ret, -EINVAL);
		ASSERT_TRUE(strstr(err.msg, "modifier") != NULL);
		ASSERT_EQ(evlist.nr, 0);
	}
}

static void test_event__comma_list(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;

	ASSERT_EQ(parse(&evlist, "cpu-clock,cs:u,fakecpu/event=0x3c,umask=1/k,sched:sched_switch",
			&err), 0);
	ASSERT_EQ(evlist.nr, 4);
	ASSERT_STREQ(evlist.entries[0]->name, "cpu-clock");
	ASSERT_STREQ(evlist.entries[1]->name, "cs:u");
	ASSERT_EQ(evlist.entries[1]->attr.exclude_kernel, 1);
	/* the comma between the slashes was a term separator */
	ASSERT_STREQ(evlist.entries[2]->name, "fakecpu/event=0x3c,umask=1/k");
	ASSERT_EQ(evlist.entries[2]->attr.config, 0x13c);
	ASSERT_EQ(evlist.entries[2]->attr.exclude_user, 1);
	ASSERT_STREQ(evlist.entries[3]->name, "sched:sched_switch");
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(evlist.entries[i]->idx, i);

	/* a second -e appends; a failing one leaves the list as it was */
	ASSERT_EQ(parse(&evlist, "faults", NULL), 0);
	ASSERT_EQ(evlist.nr, 5);
	ASSERT_EQ(evlist.entries[4]->idx, 4);
	ASSERT_EQ(parse(&evlist, "task-clock,nosuchevent", &err), -ENOENT);
	ASSERT_EQ(evlist.nr, 5);
	ASSERT_EQ(parse(&evlist, "task-clock,", &err), -EINVAL);
	ASSERT_EQ(parse(&evlist, ",task-clock", &err), -EINVAL);
	ASSERT_EQ(parse(&evlist, "", &err), -EINVAL);
	ASSERT_EQ(parse(&evlist, "{cycles,cs", &err), -EINVAL);
	ASSERT_EQ(evlist.nr, 5);
	/* a consumer that writes no groups gets the old refusal */
	{
		struct pulse_parse_opts po = fake_opts;

		po.no_groups = true;
		ASSERT_EQ(pulse_evlist__parse(&evlist, "cs,{cycles,cs}", &po, &err), -EINVAL);
		ASSERT_STREQ(err.msg, "event groups are not supported: '{cycles'");
		ASSERT_STREQ(err.hint, "list the events without braces");
		ASSERT_EQ(evlist.nr, 5);
	}
	pulse_evlist__exit(&evlist);
	ASSERT_EQ(evlist.nr, 0);
	ASSERT_TRUE(evlist.entries == NULL);
}

static void test_event__tracepoint_fake(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_evsel *e;

	ASSERT_EQ(parse(&evlist, "sched:sched_switch,irq:irq_handler_entry:k", NULL), 0);
	ASSERT_EQ(evlist.nr, 2);
	e = evlist.entries[0];
	ASSERT_EQ(e->attr.type, PERF_TYPE_TRACEPOINT);
	ASSERT_EQ(e->attr.config, 316);
	/* perf: "{ sample_period, sample_freq }: 1" and no freq bit */
	ASSERT_EQ(e->attr.sample_period, 1);
	ASSERT_EQ(e->attr.freq, 0);
	ASSERT_EQ(e->attr.exclude_guest, 1);
	ASSERT_EQ(e->attr.size, sizeof(struct perf_event_attr));
	ASSERT_STREQ(e->name, "sched:sched_switch");
	ASSERT_STREQ(e->tp_system, "sched");
	ASSERT_STREQ(e->tp_name, "sched_switch");
	e = evlist.entries[1];
	ASSERT_EQ(e->attr.config, 100);
	ASSERT_EQ(e->attr.exclude_user, 1);
	ASSERT_EQ(e->attr.exclude_hv, 1);
	ASSERT_EQ(e->attr.exclude_guest, 0);
	/* perf names a tracepoint sys:event, modifiers or not */
	ASSERT_STREQ(e->name, "irq:irq_handler_entry");
	pulse_evlist__exit(&evlist);
}

static void test_event__tracepoint_globs(void)
{
	static const struct {
		const char *spec;
		int nr;
		const char *first, *last;
	} cases[] = {
		{ "sched:*", 3, "sched:sched_switch", "sched:sched_waking" },
		{ "sched:sched_wak*", 2, "sched:sched_wakeup", "sched:sched_waking" },
		{ "syscalls:sys_enter_get*", 3, "syscalls:sys_enter_getpid", "syscalls:sys_enter_gettid" },
		{ "*:sys_enter_getppid", 1, "syscalls:sys_enter_getppid", "syscalls:sys_enter_getppid" },
		{ "sys*:sys_?xit_*", 1, "syscalls:sys_exit_getppid", "syscalls:sys_exit_getppid" },
		{ "*:*", 10, "fib6:fib6_table_lookup", "syscalls:sys_exit_getppid" },
		/* perf's order is strcmp() of "sys:event": fib6: sorts before fib: */
		{ "fib*:fib*", 2, "fib6:fib6_table_lookup", "fib:fib_table_lookup" },
		{ "sched:*:u", 3, "sched:sched_switch", "sched:sched_waking" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};

		printf("# %s\n", cases[i].spec);
		ASSERT_EQ(parse(&evlist, cases[i].spec, NULL), 0);
		ASSERT_EQ(evlist.nr, cases[i].nr);
		ASSERT_STREQ(evlist.entries[0]->name, cases[i].first);
		ASSERT_STREQ(evlist.entries[evlist.nr - 1]->name, cases[i].last);
		for (int j = 0; j < evlist.nr; j++) {
			ASSERT_EQ(evlist.entries[j]->attr.type, PERF_TYPE_TRACEPOINT);
			ASSERT_EQ(evlist.entries[j]->attr.sample_period, 1);
			ASSERT_EQ(evlist.entries[j]->idx, j);
			if (j)
				ASSERT_TRUE(strcmp(evlist.entries[j - 1]->name,
						   evlist.entries[j]->name) < 0);
		}
		if (strstr(cases[i].spec, ":u"))
			ASSERT_EQ(evlist.entries[0]->attr.exclude_kernel, 1);
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__tracepoint_glob_no_match(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;

	ASSERT_EQ(parse(&evlist, "sched:nothing*", &err), -ENOENT);
	ASSERT_TRUE(strstr(err.msg, "sched:nothing*") != NULL);
	ASSERT_EQ(parse(&evlist, "nosys*:*", &err), -ENOENT);
	/* a directory without an id is not a tracepoint */
	ASSERT_EQ(parse(&evlist, "sched:not_an_event", &err), -ENOENT);
	ASSERT_EQ(parse(&evlist, "sched:not_an_*", &err), -ENOENT);
	ASSERT_EQ(parse(&evlist, "..:..", &err), -ENOENT);
	ASSERT_EQ(evlist.nr, 0);
}

static void test_event__tracepoint_real(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;
	char path[PATH_MAX], buf[32] = "";
	const char *dir;
	FILE *f;

	setup();
	dir = pulse_tracefs_dir(NULL);
	if (!dir) {
		test__skip = "no tracefs on this machine";
		return;
	}
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid/id", dir);
	f = fopen(path, "r");
	if (!f) {
		test__skip = "no syscalls:sys_enter_getppid tracepoint";
		return;
	}
	ASSERT_TRUE(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	ASSERT_EQ(pulse_evlist__parse(&evlist, "syscalls:sys_enter_getppid", NULL, &err), 0);
	ASSERT_EQ(evlist.nr, 1);
	ASSERT_EQ(evlist.entries[0]->attr.type, PERF_TYPE_TRACEPOINT);
	ASSERT_EQ(evlist.entries[0]->attr.config, strtoull(buf, NULL, 10));
	ASSERT_EQ(evlist.entries[0]->attr.sample_period, 1);
	ASSERT_STREQ(evlist.entries[0]->name, "syscalls:sys_enter_getppid");
	pulse_evlist__exit(&evlist);
	/* the same glob on the real tree: at least getppid and getpid */
	ASSERT_EQ(pulse_evlist__parse(&evlist, "syscalls:sys_enter_getp*", NULL, &err), 0);
	ASSERT_TRUE(evlist.nr >= 2);
	pulse_evlist__exit(&evlist);
}

/* Root reads everything, so a child that drops to nobody sees the EACCES. */
static void test_event__tracefs_unreadable(void)
{
	char dir[] = "/tmp/pulse-test-event-XXXXXX", path[PATH_MAX];
	int status = -1;
	pid_t pid;

	setup();
	if (geteuid()) {
		test__skip = "needs root to make a tree nobody can read";
		return;
	}
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	chmod(dir, 0755);
	snprintf(path, sizeof(path), "%s/events", dir);
	ASSERT_EQ(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/events/sched", dir);
	ASSERT_EQ(mkdir(path, 0700), 0);
	pid = fork();
	if (pid == 0) {
		struct pulse_parse_opts opts = { .sz = sizeof(opts), .sysfs = fake_sysfs,
						 .tracefs = dir };
		struct pulse_evlist evlist = {};
		struct pulse_parse_error err;
		char want[PATH_MAX];
		int ret, ok = 1;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		ret = pulse_evlist__parse(&evlist, "sched:sched_switch", &opts, &err);
		snprintf(want, sizeof(want), "%s/events/sched/sched_switch/id", dir);
		ok &= ret == -EACCES && strstr(err.msg, want) != NULL;
		ret = pulse_evlist__parse(&evlist, "sched:*", &opts, &err);
		snprintf(want, sizeof(want), "%s/events", dir);
		ok &= ret == -EACCES && strstr(err.msg, want) != NULL;
		_exit(ok ? 0 : 1);
	}
	ASSERT_TRUE(pid > 0);
	waitpid(pid, &status, 0);
	snprintf(path, sizeof(path), "%s/events/sched", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/events", dir);
	rmdir(path);
	rmdir(dir);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(WEXITSTATUS(status), 0);
}

static void test_event__pmu_terms(void)
{
	static const struct {
		const char *spec;
		__u64 config, config1, config2;
	} cases[] = {
		{ "fakecpu/event=0x3c,umask=0x1/", 0x13c, 0, 0 },
		{ "fakecpu/event=60,umask=1/", 0x13c, 0, 0 },
		{ "fakecpu//", 0, 0, 0 },
		/* a format term without a value is 1 */
		{ "fakecpu/event=0xc0,edge/", 0x400c0, 0, 0 },
		{ "fakecpu/inv,cmask=0xff/", 0xff800000, 0, 0 },
		/* split range config1:0-3,8-11: low nibble in 0-3, next in 8-11 */
		{ "fakecpu/split=0xff/", 0, 0xf0f, 0 },
		{ "fakecpu/split=0x5a/", 0, 0x50a, 0 },
		{ "fakecpu/split=1/", 0, 0x1, 0 },
		{ "fakecpu/split=0x10/", 0, 0x100, 0 },
		/* config2:0-1,32-33,62-63 */
		{ "fakecpu/wide=0x3f/", 0, 0, 0xc000000300000003ULL },
		{ "fakecpu/wide=0x24/", 0, 0, 0x8000000100000000ULL },
		{ "fakecpu/ldlat=0xffff/", 0, 0xffff, 0 },
		/* builtin terms go first, format fields on top */
		{ "fakecpu/config=0x1234,config1=5,config2=6/", 0x1234, 5, 6 },
		{ "fakecpu/event=0x1,config=0xff00/", 0xff01, 0, 0 },
		/* sysfs aliases */
		{ "fakecpu/mispredicts/", 0x1c5, 0, 0 },
		{ "fakecpu/loads/", 0x1cd, 3, 0 },
		{ "fakecpu/mispredicts,umask=2/", 0x2c5, 0, 0 },
		{ "fakecpu/loads,edge/", 0x401cd, 3, 0 },
		{ "fakeuncore/event=0xffffffffffffffff/", ~0ULL, 0, 0 },
		{ "fakeuncore/clockticks/", 2, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct pulse_parse_error err;
		struct pulse_evsel *e;

		printf("# %s\n", cases[i].spec);
		ASSERT_EQ(parse(&evlist, cases[i].spec, &err), 0);
		ASSERT_EQ(evlist.nr, 1);
		e = evlist.entries[0];
		ASSERT_EQ(e->attr.type, strncmp(cases[i].spec, "fakecpu", 7) ? 43 : 42);
		ASSERT_EQ(e->attr.config, cases[i].config);
		ASSERT_EQ(e->attr.config1, cases[i].config1);
		ASSERT_EQ(e->attr.config2, cases[i].config2);
		ASSERT_EQ(e->attr.exclude_guest, 1);
		ASSERT_EQ(e->attr.sample_period, 0);
		ASSERT_EQ(e->attr.size, sizeof(struct perf_event_attr));
		ASSERT_STREQ(e->name, cases[i].spec);
		ASSERT_STREQ(e->pmu_name, strncmp(cases[i].spec, "fakecpu", 7) ? "fakeuncore" : "fakecpu");
		pulse_evlist__exit(&evlist);
	}
}

static void test_event__pmu_builtin_terms(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_evsel *e;

	ASSERT_EQ(parse(&evlist, "fakecpu/event=1,period=1000,name=foo/u,fakecpu/freq=99/,"
			"cpu-clock/period=5000/,cs/period=10,name=x/u", NULL), 0);
	ASSERT_EQ(evlist.nr, 4);
	e = evlist.entries[0];
	ASSERT_STREQ(e->name, "foo");
	ASSERT_EQ(e->attr.sample_period, 1000);
	ASSERT_EQ(e->attr.freq, 0);
	ASSERT_TRUE(e->period_from_term);
	ASSERT_EQ(e->attr.exclude_kernel, 1);
	e = evlist.entries[1];
	ASSERT_EQ(e->attr.freq, 1);
	ASSERT_EQ(e->attr.sample_freq, 99);
	ASSERT_TRUE(e->period_from_term);
	e = evlist.entries[2];
	ASSERT_EQ(e->attr.type, PERF_TYPE_SOFTWARE);
	ASSERT_EQ(e->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_EQ(e->attr.sample_period, 5000);
	ASSERT_STREQ(e->name, "cpu-clock/period=5000/");
	ASSERT_TRUE(e->pmu_name == NULL);
	e = evlist.entries[3];
	ASSERT_EQ(e->attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	ASSERT_STREQ(e->name, "x");
	ASSERT_EQ(e->attr.exclude_kernel, 1);
	ASSERT_TRUE(!evlist.entries[2]->attr.exclude_kernel);
	pulse_evlist__exit(&evlist);
	/* format terms are for PMUs, not for symbols */
	ASSERT_EQ(parse(&evlist, "cpu-clock/event=1/", NULL), -EINVAL);
}

static void test_event__pmu_errors(void)
{
	static const struct {
		const char *spec;
		int ret;
		const char *token, *msg, *hint;
	} cases[] = {
		{ "fakecpu/bogus=1/", -EINVAL, "bogus", "unknown term 'bogus' for PMU 'fakecpu'",
		  "valid terms: " },
		{ "fakecpu/eventt=1/", -EINVAL, "eventt", "unknown term", "umask" },
		{ "fakecpu/bogus/", -EINVAL, "bogus", "unknown term", "mispredicts" },
		/* aliases take no value */
		{ "fakecpu/mispredicts=2/", -EINVAL, "mispredicts", "unknown term", "config1" },
		{ "fakecpu/event=0x100/", -EINVAL, "event", "too big", NULL },
		{ "fakecpu/split=0x100/", -EINVAL, "split", "too big", NULL },
		{ "fakecpu/edge=2/", -EINVAL, "edge", "too big", NULL },
		{ "fakecpu/wide=0x40/", -EINVAL, "wide", "too big", NULL },
		{ "fakecpu/event=abc/", -EINVAL, "event", "expected a number", NULL },
		{ "fakecpu/event=0x/", -EINVAL, "event", "expected a number", NULL },
		{ "fakecpu/event=99999999999999999999999/", -EINVAL, "event", "expected a number", NULL },
		{ "fakecpu/event=/", -EINVAL, "event", "empty term", NULL },
		{ "fakecpu/event=1,/", -EINVAL, "", "empty term", NULL },
		{ "fakecpu/period/", -EINVAL, "period", "needs a value", NULL },
		{ "fakecpu/event=1", -EINVAL, NULL, "missing '/'", NULL },
		{ "fakecpu/event=1,umask=1", -EINVAL, NULL, "missing '/'", NULL },
		{ "fakcpu/event=1/", -ENOENT, "fakcpu", "unknown PMU 'fakcpu'",
		  "did you mean 'fakecpu'?" },
		{ "nosuchpmuatall/event=1/", -ENOENT, "nosuchpmuatall", "unknown PMU",
		  "run 'pulse list'" },
		{ "badfmt/event=1/", -EINVAL, NULL, "bad format 'configX:0-7'", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pulse_evlist evlist = {};
		struct pulse_parse_error err;

		ASSERT_EQ(parse(&evlist, cases[i].spec, &err), cases[i].ret);
		printf("# %s: token '%s' msg '%s' hint '%s'\n", cases[i].spec, err.token, err.msg,
		       err.hint);
		ASSERT_EQ(evlist.nr, 0);
		if (cases[i].token)
			ASSERT_STREQ(err.token, cases[i].token);
		ASSERT_TRUE(strstr(err.msg, cases[i].msg) != NULL);
		if (cases[i].hint)
			ASSERT_TRUE(strstr(err.hint, cases[i].hint) != NULL);
	}
}

static void test_event__pmu_alias_alone(void)
{
	struct pulse_evlist evlist = {};

	/* perf accepts a PMU's sysfs alias without the PMU: "tsc" is msr/tsc/ */
	ASSERT_EQ(parse(&evlist, "mispredicts:u,clockticks", NULL), 0);
	ASSERT_EQ(evlist.nr, 2);
	ASSERT_EQ(evlist.entries[0]->attr.type, 42);
	ASSERT_EQ(evlist.entries[0]->attr.config, 0x1c5);
	ASSERT_EQ(evlist.entries[0]->attr.exclude_kernel, 1);
	ASSERT_STREQ(evlist.entries[0]->name, "mispredicts:u");
	ASSERT_STREQ(evlist.entries[0]->pmu_name, "fakecpu");
	ASSERT_EQ(evlist.entries[1]->attr.type, 43);
	ASSERT_EQ(evlist.entries[1]->attr.config, 2);
	pulse_evlist__exit(&evlist);
}

static void test_event__pmu_unit_scale(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_evsel **e;

	/* events/<alias>.unit and .scale, with and without the PMU; none on a raw term */
	ASSERT_EQ(parse(&evlist, "fakeuncore/clockticks/,clockticks,mispredicts,fakecpu/loads/,"
			"fakecpu/event=1/", NULL), 0);
	ASSERT_EQ(evlist.nr, 5);
	e = evlist.entries;
	ASSERT_STREQ(e[0]->unit, "MiB");
	ASSERT_TRUE(e[0]->scale == 6.103515625e-5);
	ASSERT_STREQ(e[1]->unit, "MiB");
	ASSERT_TRUE(e[1]->scale == 6.103515625e-5);
	ASSERT_STREQ(e[2]->unit, "Samples");
	ASSERT_TRUE(e[2]->scale == 0);
	ASSERT_STREQ(e[3]->unit, "");
	ASSERT_TRUE(e[3]->scale == 1.0);
	ASSERT_STREQ(e[4]->unit, "");
	ASSERT_TRUE(e[4]->scale == 0);
	pulse_evlist__exit(&evlist);
}

static void test_event__msr_real(void)
{
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;
	char buf[32] = "";
	FILE *f;

	f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	if (!f) {
		test__skip = "no msr PMU on this machine";
		return;
	}
	ASSERT_TRUE(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	if (access("/sys/bus/event_source/devices/msr/events/tsc", F_OK)) {
		test__skip = "msr PMU without a tsc event";
		return;
	}
	setup();
	ASSERT_EQ(pulse_evlist__parse(&evlist, "msr/tsc/,msr/event=0x1/u", NULL, &err), 0);
	ASSERT_EQ(evlist.nr, 2);
	/* perf stat -vv -e msr/tsc/: type 9, no config, exclude_guest 1 */
	ASSERT_EQ(evlist.entries[0]->attr.type, strtoul(buf, NULL, 10));
	ASSERT_EQ(evlist.entries[0]->attr.config, 0);
	ASSERT_EQ(evlist.entries[0]->attr.exclude_guest, 1);
	ASSERT_STREQ(evlist.entries[0]->name, "msr/tsc/");
	ASSERT_STREQ(evlist.entries[0]->pmu_name, "msr");
	ASSERT_EQ(evlist.entries[1]->attr.config, 1);
	ASSERT_EQ(evlist.entries[1]->attr.exclude_kernel, 1);
	ASSERT_STREQ(evlist.entries[1]->name, "msr/event=0x1/u");
	pulse_evlist__exit(&evlist);
	ASSERT_EQ(pulse_evlist__parse(&evlist, "msr/aperf/", NULL, &err), -EINVAL);
	ASSERT_STREQ(err.msg, "unknown term 'aperf' for PMU 'msr'");
	ASSERT_TRUE(strstr(err.hint, "event") && strstr(err.hint, "tsc"));
}

static void test_event__tracefs_dir_override(void)
{
	struct pulse_parse_opts opts = { .sz = sizeof(opts), .tracefs = "/nonexistent/tracefs" };
	struct pulse_evlist evlist = {};
	struct pulse_parse_error err;

	ASSERT_STREQ(pulse_tracefs_dir(&opts), "/nonexistent/tracefs");
	/* nothing there: an unknown tracepoint, not a crash */
	ASSERT_EQ(pulse_evlist__parse(&evlist, "sched:sched_switch", &opts, &err), -ENOENT);
	ASSERT_EQ(pulse_evlist__parse(&evlist, "sched:*", &opts, &err), -ENOENT);
	ASSERT_EQ(evlist.nr, 0);
}

TEST_MAIN(TEST(test_event__software),
	  TEST(test_event__bpf_output_samples_every_event),
	  TEST(test_event__hardware),
	  TEST(test_event__hw_cache),
	  TEST(test_event__hw_cache_invalid_op),
	  TEST(test_event__raw),
	  TEST(test_event__modifiers),
	  TEST(test_event__modifier_flags),
	  TEST(test_event__bad_modifiers),
	  TEST(test_event__comma_list),
	  TEST(test_event__tracepoint_fake),
	  TEST(test_event__tracepoint_globs),
	  TEST(test_event__tracepoint_glob_no_match),
	  TEST(test_event__tracepoint_real),
	  TEST(test_event__tracefs_unreadable),
	  TEST(test_event__pmu_terms),
	  TEST(test_event__pmu_builtin_terms),
	  TEST(test_event__pmu_errors),
	  TEST(test_event__pmu_alias_alone),
	  TEST(test_event__pmu_unit_scale),
	  TEST(test_event__msr_real),
	  TEST(test_event__tracefs_dir_override))
