// SPDX-License-Identifier: GPL-2.0
/*
 * lib/offcpu: synthetic sched_switch SAMPLEs and SWITCH records built byte
 * by byte, as the kernel lays them out for pulse record's sched_switch
 * event (IDENTIFIER|TID|TIME|CALLCHAIN|RAW, sample_id_all), through the
 * bookkeeping, and the offcpu-time samples it writes read back with
 * lib/data's sample parser: exact periods, aggregation by (pid, tid,
 * stack, state), what does not count, out-of-order rings, damage.
 */
#include <errno.h>
#include <pulse/data.h>
#include <pulse/offcpu.h>
#include "test.h"

#define SW_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
#define STATE_OFF 32
/* sched_switch's RAW on 6.x kernels: 64 bytes of fields, padded to 68 so that size + data end 8-aligned */
#define RAW_SIZE 68
#define ID 77

static struct perf_event_attr sw_attr(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_TRACEPOINT };

	a.sample_type = SW_TYPE;
	a.sample_id_all = 1;
	a.context_switch = 1;
	return a;
}

struct rec {
	unsigned char b[1024];
	size_t len;
};

static void put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->len, p, n);
	r->len += n;
}

static void put64(struct rec *r, __u64 v)
{
	put(r, &v, 8);
}

static void put32x2(struct rec *r, __u32 a, __u32 b)
{
	put(r, &a, 4);
	put(r, &b, 4);
}

static void finish(struct rec *r, __u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = r->len };

	memcpy(r->b, &h, sizeof(h));
}

/* A switch-out of @tid at @t in @state with the user stack @ips[@nr]. */
static void out_rec(struct rec *r, __u32 pid, __u32 tid, __u64 t, __u64 state, const __u64 *ips,
		    int nr)
{
	unsigned char raw[RAW_SIZE] = { 0 };
	__u32 raw_size = RAW_SIZE;

	r->len = 8;
	put64(r, ID);
	put32x2(r, pid, tid);
	put64(r, t);
	put64(r, nr + 1);
	put64(r, (__u64)PERF_CONTEXT_USER);
	for (int i = 0; i < nr; i++)
		put64(r, ips[i]);
	memcpy(raw + STATE_OFF, &state, 8);
	/* RAW: u32 size, then the data */
	put(r, &raw_size, 4);
	put(r, raw, raw_size);
	finish(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
}

/* A SWITCH record: sample_id trailer TID, TIME, IDENTIFIER (in that order). */
static void switch_rec(struct rec *r, __u32 pid, __u32 tid, __u64 t, bool out)
{
	r->len = 8;
	put32x2(r, pid, tid);
	put64(r, t);
	put64(r, ID);
	finish(r, PERF_RECORD_SWITCH, out ? PERF_RECORD_MISC_SWITCH_OUT : 0);
}

static struct pulse_offcpu *new_oc(void)
{
	struct perf_event_attr a = sw_attr();
	struct pulse_offcpu_opts o = { .sz = sizeof(o), .attr = &a, .state_offset = STATE_OFF,
				       .state_size = 8 };
	struct pulse_offcpu *oc;

	return pulse_offcpu__new(&oc, &o) ? NULL : oc;
}

static int feed(struct pulse_offcpu *oc, struct rec *r)
{
	return pulse_offcpu__add_record(oc, r->b, r->len);
}

/* What pulse_offcpu__write() emitted, parsed back. */
struct got {
	int n;
	struct {
		__u32 pid, tid;
		__u64 period, time, ip, id, nr, ip1;
		__u16 misc;
	} s[8];
	int bad;
};

static struct perf_event_attr offcpu_attr(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_BPF_OUTPUT };

	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			PERF_SAMPLE_CPU;
	return a;
}

static int collect(void *arg, const void *rec, size_t size)
{
	struct got *g = arg;
	struct perf_event_attr a = offcpu_attr();
	struct pulse_sample s;

	if (g->n >= 8 || pulse_sample__parse(rec, size, &a, &s)) {
		g->bad++;
		return 0;
	}
	g->s[g->n].pid = s.pid;
	g->s[g->n].tid = s.tid;
	g->s[g->n].period = s.period;
	g->s[g->n].time = s.time;
	g->s[g->n].ip = s.ip;
	g->s[g->n].id = s.id;
	g->s[g->n].nr = s.callchain_nr;
	g->s[g->n].misc = s.misc;
	if (s.callchain_nr > 1)
		memcpy(&g->s[g->n].ip1, (const char *)s.callchain + 8, 8);
	g->n++;
	return 0;
}

static const __u64 stack_a[] = { 0x401000, 0x402000 };
static const __u64 stack_b[] = { 0x401000, 0x403000 };

static void test_offcpu__exact_periods_and_aggregation(void)
{
	struct pulse_offcpu *oc = new_oc();
	struct perf_event_attr a = offcpu_attr();
	struct pulse_offcpu_stats st;
	struct got g = { 0 };
	struct rec r;

	ASSERT_TRUE(oc);
	/* three blocks in A (300, 200, 100 ns... scaled), one in B */
	out_rec(&r, 10, 11, 1000, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 10, 11, 1300, false);
	feed(oc, &r);
	out_rec(&r, 10, 11, 2000, PULSE_OFFCPU_STATE_D, stack_b, 2);
	feed(oc, &r);
	switch_rec(&r, 10, 11, 2100, false);
	feed(oc, &r);
	out_rec(&r, 10, 11, 3000, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 10, 11, 3200, false);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.switch_out, 3);
	ASSERT_EQ(st.switch_in, 3);
	ASSERT_EQ(st.intervals, 3);
	ASSERT_EQ(st.total_ns, 600);
	ASSERT_EQ(st.entries, 2);
	ASSERT_EQ(st.stacks, 2);
	ASSERT_EQ(pulse_offcpu__write(oc, &a, 99, collect, &g), 0);
	ASSERT_EQ(g.bad, 0);
	ASSERT_EQ(g.n, 2);
	ASSERT_EQ(g.s[0].period, 500);
	ASSERT_EQ(g.s[1].period, 100);
	ASSERT_EQ(g.s[0].pid, 10);
	ASSERT_EQ(g.s[0].tid, 11);
	ASSERT_EQ(g.s[0].id, 99);
	/* perf's stand-in times: after everything, in order */
	ASSERT_EQ(g.s[0].time, 0xffffffff00000000ULL);
	ASSERT_EQ(g.s[1].time, 0xffffffff00000001ULL);
	/* ip = the first entry after the context marker, cpumode from the marker */
	ASSERT_EQ(g.s[0].ip, 0x401000);
	ASSERT_EQ(g.s[0].misc, PERF_RECORD_MISC_USER);
	ASSERT_EQ(g.s[0].nr, 3);
	ASSERT_EQ(g.s[1].ip1, 0x401000);
	pulse_offcpu__delete(oc);
}

static void test_offcpu__what_does_not_count(void)
{
	struct pulse_offcpu *oc = new_oc();
	struct pulse_offcpu_stats st;
	struct rec r;

	ASSERT_TRUE(oc);
	/* preempted (R+: 0x100), stopped (T), dead (X): no interval */
	out_rec(&r, 1, 1, 100, 0x100, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 1, 1, 150, false);
	feed(oc, &r);
	out_rec(&r, 1, 1, 200, 0x4, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 1, 1, 250, false);
	feed(oc, &r);
	/* a switch-in with nothing open (the first after enable) */
	switch_rec(&r, 2, 2, 260, false);
	feed(oc, &r);
	/* SWITCH_OUT records are no switch-ins */
	out_rec(&r, 3, 3, 300, PULSE_OFFCPU_STATE_S, stack_b, 2);
	feed(oc, &r);
	switch_rec(&r, 3, 3, 300, true);
	feed(oc, &r);
	/* still blocked at the end: no end, not counted (as perf) */
	out_rec(&r, 1, 1, 400, 0x10, stack_a, 2);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.intervals, 0);
	ASSERT_EQ(st.entries, 0);
	ASSERT_EQ(st.switch_in, 3);
	/* a preemption keeps no stack */
	ASSERT_EQ(st.stacks, 1);
	pulse_offcpu__delete(oc);
}

static void test_offcpu__out_of_order_rings(void)
{
	struct pulse_offcpu *oc = new_oc();
	struct pulse_offcpu_stats st;
	struct rec r;

	ASSERT_TRUE(oc);
	/* CPU 1's ring (the switch-ins) read before CPU 0's (the switch-outs) */
	switch_rec(&r, 5, 6, 500, false);
	feed(oc, &r);
	switch_rec(&r, 5, 6, 900, false);
	feed(oc, &r);
	out_rec(&r, 5, 6, 300, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	out_rec(&r, 5, 6, 700, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.intervals, 2);
	ASSERT_EQ(st.total_ns, 400);
	/* across passes: the switch-in read a pass before its switch-out */
	switch_rec(&r, 5, 6, 1500, false);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	out_rec(&r, 5, 6, 1000, PULSE_OFFCPU_STATE_D, stack_a, 2);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.intervals, 3);
	ASSERT_EQ(st.total_ns, 900);
	/* (pid, tid, stack, state): S and D are two samples */
	ASSERT_EQ(st.entries, 2);
	pulse_offcpu__delete(oc);
}

static void test_offcpu__damaged_records(void)
{
	struct pulse_offcpu *oc = new_oc();
	struct pulse_offcpu_stats st;
	struct rec r;

	ASSERT_TRUE(oc);
	out_rec(&r, 1, 1, 100, PULSE_OFFCPU_STATE_S, stack_a, 2);
	/* cut short: the header says more than there is */
	ASSERT_EQ(pulse_offcpu__add_record(oc, r.b, r.len - 8), 0);
	/* a callchain nr past the end */
	{
		struct rec bad = r;
		__u64 nr = 1000;

		memcpy(bad.b + 32, &nr, 8);
		ASSERT_EQ(feed(oc, &bad), 0);
	}
	/* RAW too short for prev_state */
	{
		struct rec bad = r;
		__u32 raw_size = 8;

		memcpy(bad.b + 32 + 8 * 4, &raw_size, 4);
		ASSERT_EQ(feed(oc, &bad), 0);
	}
	ASSERT_EQ(pulse_offcpu__add_record(oc, r.b, 4), 0);
	switch_rec(&r, 1, 1, 200, false);
	/* a SWITCH record without its sample_id */
	{
		struct perf_event_header h = { PERF_RECORD_SWITCH, 0, 8 };

		ASSERT_EQ(pulse_offcpu__add_record(oc, &h, 8), 0);
	}
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.bad, 5);
	ASSERT_EQ(st.switch_out, 0);
	pulse_offcpu__delete(oc);
}

static void test_offcpu__lost_records_counted(void)
{
	struct pulse_offcpu *oc = new_oc();
	struct pulse_offcpu_stats st;
	struct rec r;

	ASSERT_TRUE(oc);
	/* LOST: id, lost, then the sample_id trailer */
	r.len = 8;
	put64(&r, ID);
	put64(&r, 42);
	put32x2(&r, 1, 1);
	put64(&r, 10);
	put64(&r, ID);
	finish(&r, PERF_RECORD_LOST, 0);
	ASSERT_EQ(feed(oc, &r), 0);
	ASSERT_EQ(feed(oc, &r), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.lost, 84);
	ASSERT_EQ(st.lost_chunks, 2);
	ASSERT_EQ(st.bad, 0);
	pulse_offcpu__delete(oc);
}

static void test_offcpu__bad_opts(void)
{
	struct perf_event_attr a = sw_attr();
	struct pulse_offcpu_opts o = { .sz = sizeof(o), .attr = &a, .state_offset = 32,
				       .state_size = 3 };
	struct pulse_offcpu *oc;
	struct got g = { 0 };
	struct perf_event_attr wide = offcpu_attr();

	ASSERT_EQ(pulse_offcpu__new(&oc, &o), -EINVAL);
	ASSERT_TRUE(!oc);
	o.state_size = 8;
	a.sample_type &= ~(__u64)PERF_SAMPLE_TIME;
	ASSERT_EQ(pulse_offcpu__new(&oc, &o), -EINVAL);
	oc = new_oc();
	ASSERT_TRUE(oc);
	wide.sample_type |= PERF_SAMPLE_RAW;
	ASSERT_EQ(pulse_offcpu__write(oc, &wide, 1, collect, &g), -EINVAL);
	pulse_offcpu__delete(oc);
	pulse_offcpu__delete(NULL);
}

static void test_offcpu__format(void)
{
	const char *fmt =
		"name: sched_switch\nID: 372\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n";
	unsigned int off = 0, size = 0;

	ASSERT_EQ(pulse_offcpu__parse_format(fmt, &off, &size), 0);
	ASSERT_EQ(off, 32);
	ASSERT_EQ(size, 8);
	ASSERT_EQ(pulse_offcpu__parse_format("field:long prev_state;\toffset:32;\tsize:3;\n", &off,
					     &size), -ENOENT);
	ASSERT_EQ(pulse_offcpu__parse_format("name: x\n", &off, &size), -ENOENT);
	ASSERT_EQ(pulse_offcpu__parse_format("", &off, &size), -ENOENT);
}

/* opts.exclude_pid: that process's switches are left out (the recorder's own under -a) */
static void test_offcpu__exclude_pid(void)
{
	struct perf_event_attr a = sw_attr();
	struct pulse_offcpu_opts o = { .sz = sizeof(o), .attr = &a, .state_offset = STATE_OFF,
				       .state_size = 8, .exclude_pid = 7 };
	struct pulse_offcpu *oc;
	struct pulse_offcpu_stats st;
	struct rec r;

	ASSERT_EQ(pulse_offcpu__new(&oc, &o), 0);
	out_rec(&r, 7, 8, 100, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 7, 8, 200, false);
	feed(oc, &r);
	out_rec(&r, 1, 1, 100, PULSE_OFFCPU_STATE_S, stack_a, 2);
	feed(oc, &r);
	switch_rec(&r, 1, 1, 300, false);
	feed(oc, &r);
	ASSERT_EQ(pulse_offcpu__flush(oc), 0);
	pulse_offcpu__stats(oc, &st);
	ASSERT_EQ(st.intervals, 1);
	ASSERT_EQ(st.entries, 1);
	ASSERT_EQ(st.total_ns, 200);
	pulse_offcpu__delete(oc);
}

/* perf 6.1's off_cpu_config() attr; the fields it does not set are left alone */
static void test_offcpu__event_attr(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .inherit = 1 };

	pulse_offcpu__event_attr(&a);
	ASSERT_EQ(a.type, PERF_TYPE_SOFTWARE);
	ASSERT_EQ(a.config, PERF_COUNT_SW_BPF_OUTPUT);
	ASSERT_EQ(a.freq, 1);
	ASSERT_EQ(a.sample_period, 1);
	ASSERT_EQ(a.sample_type, PERF_SAMPLE_CALLCHAIN);
	ASSERT_EQ(a.inherit, 1);
	ASSERT_EQ(a.size, sizeof(a));
}

int main(void)
{
	static const struct test_case cases[] = {
		TEST(test_offcpu__exact_periods_and_aggregation),
		TEST(test_offcpu__what_does_not_count),
		TEST(test_offcpu__out_of_order_rings),
		TEST(test_offcpu__damaged_records),
		TEST(test_offcpu__lost_records_counted),
		TEST(test_offcpu__bad_opts),
		TEST(test_offcpu__format),
		TEST(test_offcpu__exclude_pid),
		TEST(test_offcpu__event_attr),
	};

	return test__run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
