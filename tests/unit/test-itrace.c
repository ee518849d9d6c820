// SPDX-License-Identifier: GPL-2.0
/*
 * --itrace parsing (lib/aux/itrace.c) against what perf 6.1's
 * itrace_do_parse_synth_opts() sets: periods and their units, flags,
 * sizes, the defaults of perf script and perf report, and refusals.
 */
#include <errno.h>
#include <pulse/itrace.h>
#include "test.h"

static int parse(struct pulse_itrace_opts *o, const char *s)
{
	memset(o, 0, sizeof(*o));
	o->default_no_sample = true;
	return pulse_itrace__parse(o, s);
}

static void test_itrace__periods(void)
{
	struct pulse_itrace_opts o;

	ASSERT_EQ(parse(&o, "i"), 0);
	ASSERT_TRUE(o.instructions);
	ASSERT_EQ(o.period, 100000);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_NANOSECS);
	ASSERT_EQ(parse(&o, "i100us"), 0);
	ASSERT_EQ(o.period, 100000);
	ASSERT_EQ(parse(&o, "i10ms"), 0);
	ASSERT_EQ(o.period, 10000000);
	ASSERT_EQ(parse(&o, "i1ns"), 0);
	ASSERT_EQ(o.period, 1);
	ASSERT_EQ(parse(&o, "i10i"), 0);
	ASSERT_EQ(o.period, 10);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_INSTRUCTIONS);
	ASSERT_EQ(parse(&o, "i 5, t"), 0);
	ASSERT_EQ(o.period, 5);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_TICKS);
	/* a number at the end: the default unit */
	ASSERT_EQ(parse(&o, "i7"), 0);
	ASSERT_EQ(o.period, 7);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_NANOSECS);
	ASSERT_EQ(parse(&o, "ix"), 0);
	ASSERT_TRUE(o.transactions);
	ASSERT_EQ(o.period, 100000);
	ASSERT_EQ(parse(&o, "i10u"), -EINVAL);
	ASSERT_EQ(parse(&o, "i10m"), -EINVAL);
	ASSERT_EQ(parse(&o, "i10x"), -EINVAL);
}

static void test_itrace__letters(void)
{
	struct pulse_itrace_opts o;

	ASSERT_EQ(parse(&o, "c,r x"), 0);
	ASSERT_TRUE(o.branches && o.calls && o.returns && o.transactions);
	ASSERT_TRUE(!o.instructions && !o.errors);
	ASSERT_EQ(parse(&o, "e-o+l"), 0);
	ASSERT_TRUE(o.errors);
	ASSERT_EQ(o.error_minus_flags, 1U << ('o' - 'a'));
	ASSERT_EQ(o.error_plus_flags, 1U << ('l' - 'a'));
	ASSERT_EQ(parse(&o, "g8l3"), 0);
	ASSERT_TRUE(o.callchain && o.last_branch);
	ASSERT_EQ(o.callchain_sz, 8);
	ASSERT_EQ(o.last_branch_sz, 3);
	ASSERT_EQ(parse(&o, "G"), 0);
	ASSERT_TRUE(o.add_callchain && !o.callchain);
	ASSERT_EQ(o.callchain_sz, 16);
	ASSERT_EQ(parse(&o, "s 12qq"), 0);
	ASSERT_EQ(o.initial_skip, 12);
	ASSERT_EQ(o.quick, 2);
	ASSERT_EQ(parse(&o, ""), 0);
	ASSERT_TRUE(o.set && !o.branches);
	ASSERT_EQ(parse(&o, "g0"), -EINVAL);
	ASSERT_EQ(parse(&o, "l1025"), -EINVAL);
	ASSERT_EQ(parse(&o, "s"), -EINVAL);
	ASSERT_EQ(parse(&o, "e+"), -EINVAL);
	ASSERT_EQ(parse(&o, "d+A"), -EINVAL);
	ASSERT_EQ(parse(&o, "y"), -EINVAL);
}

static void test_itrace__defaults(void)
{
	struct pulse_itrace_opts o = { .default_no_sample = true };

	ASSERT_EQ(pulse_itrace__parse(&o, NULL), 0);
	ASSERT_TRUE(o.branches && o.calls && !o.returns && o.errors && o.pwr_events);
	ASSERT_TRUE(!o.instructions);
	ASSERT_EQ(o.period, 1);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_INSTRUCTIONS);
	memset(&o, 0, sizeof(o));
	pulse_itrace__set_default(&o, false);
	ASSERT_TRUE(o.instructions && o.branches && !o.calls);
	ASSERT_EQ(o.period, 100000);
	ASSERT_EQ(o.period_type, PULSE_ITRACE_PERIOD_NANOSECS);
	ASSERT_EQ(o.last_branch_sz, 64);
}

TEST_MAIN(TEST(test_itrace__periods),
	  TEST(test_itrace__letters),
	  TEST(test_itrace__defaults))
