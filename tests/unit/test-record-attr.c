// SPDX-License-Identifier: GPL-2.0
/*
 * The attrs pulse record builds for each option, asserted field by field
 * against what perf 6.1 builds for the same command line (the values were
 * read from `perf evlist -v` on perf's own files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/event.h>
#include <pulse/record.h>
#include "test.h"

static char tracefs[4096];

static struct pulse_evlist parse(const char *spec)
{
	struct pulse_parse_opts po = { .sz = sizeof(po), .tracefs = tracefs };
	struct pulse_evlist l = { 0 };
	struct pulse_parse_error e;
	const char *top = getenv("PULSE_TOP");

	snprintf(tracefs, sizeof(tracefs), "%s/tests/data/tracefs", top ? top : ".");
	if (pulse_evlist__parse(&l, spec, &po, &e))
		printf("# parse '%s': %s\n", spec, e.msg);
	return l;
}

#define BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

static char *const cmd[] = { "true", NULL };

/* Configure like the recorder: the dummy joins system-wide lists and tracks. */
static void config(struct pulse_record_opts *o, struct pulse_evlist *l, struct pulse_evsel *dummy)
{
	struct pulse_evsel *v[8];
	int n = 0;

	for (int i = 0; i < l->nr && n < 7; i++)
		v[n++] = l->entries[i];
	if (dummy)
		v[n++] = dummy;
	pulse_record__config_attrs(o, v, n, dummy, dummy ? dummy : v[0]);
}

static void test_record_attr__command_default_freq(void)
{
	struct pulse_record_opts o = { .sz = sizeof(o), .argv = cmd };
	struct pulse_evlist l = parse("cpu-clock");
	const struct perf_event_attr *a;

	ASSERT_EQ(l.nr, 1);
	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->size, 128);
	ASSERT_EQ(a->freq, 1);
	ASSERT_EQ(a->sample_freq, 4000);
	ASSERT_EQ(a->sample_type, BASE | PERF_SAMPLE_PERIOD);
	ASSERT_EQ(a->read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
	ASSERT_EQ(a->disabled, 1);
	ASSERT_EQ(a->inherit, 1);
	ASSERT_EQ(a->enable_on_exec, 1);
	ASSERT_EQ(a->sample_id_all, 1);
	ASSERT_EQ(a->mmap && a->comm && a->task && a->mmap2 && a->comm_exec, 1);
	ASSERT_EQ(a->ksymbol && a->bpf_event, 1);
	ASSERT_EQ(a->exclude_guest, 1);
	pulse_evlist__exit(&l);
}

static void test_record_attr__period_and_freq(void)
{
	struct pulse_record_opts o = { .sz = sizeof(o), .argv = cmd, .period = 100000 };
	struct pulse_evlist l = parse("cpu-clock");
	const struct perf_event_attr *a;

	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->freq, 0);
	ASSERT_EQ(a->sample_period, 100000);
	ASSERT_EQ(a->sample_type, BASE); /* -c: no PERIOD, as perf */
	pulse_evlist__exit(&l);

	o.period = 0;
	o.freq = 999;
	l = parse("task-clock");
	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->freq, 1);
	ASSERT_EQ(a->sample_freq, 999);
	ASSERT_EQ(a->sample_type, BASE | PERF_SAMPLE_PERIOD);
	pulse_evlist__exit(&l);

	/* an event's period= term wins over -F */
	l = parse("cpu-clock/period=1234/");
	ASSERT_EQ(l.nr, 1);
	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->freq, 0);
	ASSERT_EQ(a->sample_period, 1234);
	pulse_evlist__exit(&l);
}

static void test_record_attr__tracepoint(void)
{
	struct pulse_record_opts o = { .sz = sizeof(o), .argv = cmd };
	struct pulse_evlist l = parse("syscalls:sys_enter_getppid");
	const struct perf_event_attr *a;

	ASSERT_EQ(l.nr, 1);
	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->type, PERF_TYPE_TRACEPOINT);
	ASSERT_EQ(a->freq, 0);
	ASSERT_EQ(a->sample_period, 1);
	ASSERT_EQ(a->sample_type, BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW);
	pulse_evlist__exit(&l);
}

static void test_record_attr__system_wide_dummy(void)
{
	struct pulse_record_opts o = { .sz = sizeof(o), .system_wide = true, .callchain = true };
	struct pulse_evsel dummy = { .attr = { .type = PERF_TYPE_SOFTWARE,
					       .config = PERF_COUNT_SW_DUMMY } };
	struct pulse_evlist l = parse("syscalls:sys_enter_getppid");
	const struct perf_event_attr *a, *d = &dummy.attr;

	config(&o, &l, &dummy);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->sample_type, BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW |
				  PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER);
	ASSERT_EQ(a->disabled, 1);
	ASSERT_EQ(a->enable_on_exec, 0);
	ASSERT_EQ(a->mmap, 0); /* side band goes to the dummy */
	ASSERT_EQ(d->sample_type, BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN |
				  PERF_SAMPLE_IDENTIFIER);
	ASSERT_EQ(d->sample_period, 1);
	ASSERT_EQ(d->disabled, 0); /* catches side band during synthesis */
	ASSERT_EQ(d->mmap && d->comm && d->task && d->mmap2 && d->comm_exec, 1);
	pulse_evlist__exit(&l);
}

static void test_record_attr__cpus_only_is_system_wide(void)
{
	static const int cpus[] = { 0 };
	static const pid_t pids[] = { 1 };
	struct pulse_record_opts o = { .sz = sizeof(o), .cpus = cpus, .nr_cpus = 1 };

	ASSERT_TRUE(pulse_record__is_system_wide(&o));
	o.pids = pids;
	o.nr_pids = 1;
	ASSERT_TRUE(!pulse_record__is_system_wide(&o));
}

static void test_record_attr__task_target_and_flags(void)
{
	static const pid_t pids[] = { 1 };
	struct pulse_record_opts o = { .sz = sizeof(o), .pids = pids, .nr_pids = 1,
				       .no_inherit = true, .raw = true, .sample_cpu = true };
	struct pulse_evlist l = parse("cpu-clock,page-faults");
	const struct perf_event_attr *a, *b;

	ASSERT_EQ(l.nr, 2);
	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	b = &l.entries[1]->attr;
	ASSERT_EQ(a->inherit, 0);
	ASSERT_EQ(a->enable_on_exec, 0); /* enabled after synthesis */
	ASSERT_EQ(a->disabled, 1);
	ASSERT_EQ(a->sample_type, BASE | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW |
				  PERF_SAMPLE_IDENTIFIER);
	ASSERT_EQ(a->mmap, 1);
	ASSERT_EQ(b->mmap, 0); /* one tracking event */
	ASSERT_EQ(b->sample_type & PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IDENTIFIER);
	pulse_evlist__exit(&l);
}

static void test_record_attr__modifiers_kept(void)
{
	struct pulse_record_opts o = { .sz = sizeof(o), .argv = cmd };
	struct pulse_evlist l = parse("cpu-clock:u");
	const struct perf_event_attr *a;

	config(&o, &l, NULL);
	a = &l.entries[0]->attr;
	ASSERT_EQ(a->exclude_kernel, 1);
	ASSERT_EQ(a->exclude_hv, 1);
	ASSERT_EQ(a->exclude_user, 0);
	ASSERT_EQ(a->freq, 1);
	pulse_evlist__exit(&l);
}

/*
 * An AUX event, as perf 6.1's intel_pt_recording_options() sets it: period
 * 1, no frequency, CPU in the samples; --aux-sample puts PERF_SAMPLE_AUX
 * and aux_sample_size on the other members of its group (the fake
 * intel_pt PMU of tests/data/sysfs-pt)
 */
static void test_record_attr__aux_event(void)
{
	char sysfs[4096];
	const char *top = getenv("PULSE_TOP");
	struct pulse_parse_opts po = { .sz = sizeof(po) };
	struct pulse_record_opts o = { .sz = sizeof(o), .argv = cmd, .aux_sample_size = 8192 };
	struct pulse_evlist l = { 0 };
	const struct perf_event_attr *pt, *clk;

	snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs-pt", top ? top : ".");
	po.sysfs = sysfs;
	ASSERT_EQ(pulse_evlist__parse(&l, "{intel_pt//,cpu-clock}", &po, NULL), 0);
	ASSERT_EQ(l.nr, 2);
	config(&o, &l, NULL);
	pt = &l.entries[0]->attr;
	clk = &l.entries[1]->attr;
	ASSERT_EQ(pt->type, 8);
	ASSERT_EQ(pt->config, 0x300e601);
	ASSERT_EQ(pt->freq, 0);
	ASSERT_EQ(pt->sample_period, 1);
	ASSERT_EQ(pt->sample_type, BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	ASSERT_EQ(clk->sample_type & PERF_SAMPLE_AUX, PERF_SAMPLE_AUX);
	ASSERT_EQ(clk->aux_sample_size, 8192);
	ASSERT_EQ(pt->sample_type & PERF_SAMPLE_AUX, 0);
	pulse_evlist__exit(&l);
}

TEST_MAIN(TEST(test_record_attr__aux_event), TEST(test_record_attr__command_default_freq), TEST(test_record_attr__period_and_freq),
	  TEST(test_record_attr__tracepoint), TEST(test_record_attr__system_wide_dummy),
	  TEST(test_record_attr__cpus_only_is_system_wide),
	  TEST(test_record_attr__task_target_and_flags), TEST(test_record_attr__modifiers_kept))
