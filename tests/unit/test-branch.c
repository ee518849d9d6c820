// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks: the flags word (decode, perf 6.1's byte swap), the
 * entries of a parsed sample with and without hw_idx, call-stack chains,
 * and branch mode's histograms and statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pulse/branch.h>
#include <pulse/data.h>
#include <pulse/hist-branch.h>
#include <pulse/reader.h>
#include "test.h"

/* mispred, in_tx, cycles 0x1234, type 15, spec 2, new_type 1, priv 5, reserved 0x41 */
#define FLAGS_LE (1ULL | 1ULL << 2 | 0x1234ULL << 4 | 15ULL << 20 | 2ULL << 24 | 1ULL << 26 | \
		  5ULL << 30 | 0x41ULL << 33)

static void test_branch__decode(void)
{
	struct pulse_branch_flags f;

	pulse_branch_flags__decode(FLAGS_LE, &f);
	ASSERT_EQ(f.mispred, 1);
	ASSERT_EQ(f.predicted, 0);
	ASSERT_EQ(f.in_tx, 1);
	ASSERT_EQ(f.abort, 0);
	ASSERT_EQ(f.cycles, 0x1234);
	ASSERT_EQ(f.type, 15);
	ASSERT_EQ(f.spec, 2);
	ASSERT_EQ(f.new_type, 1);
	ASSERT_EQ(f.priv, 5);
	ASSERT_EQ(f.reserved, 0x41);
	ASSERT_STREQ(pulse_branch__type_name(&f), "FAULT_DATA");
	ASSERT_EQ(pulse_branch__pred_char(&f), 'M');
	f.predicted = 1;
	ASSERT_EQ(pulse_branch__pred_char(&f), 'P');
	f.mispred = f.predicted = 0;
	ASSERT_EQ(pulse_branch__pred_char(&f), '-');
	f.new_type = 9;
	ASSERT_TRUE(pulse_branch__type_name(&f) == NULL);
	f.type = 0;
	ASSERT_STREQ(pulse_branch__type_name(&f), "");
	f.type = 12;
	ASSERT_STREQ(pulse_branch__type_name(&f), "IRQ");
	ASSERT_STREQ(pulse_branch__type_name_of(14), "NO_TX");
	ASSERT_TRUE(pulse_branch__type_name_of(15) == NULL);
	ASSERT_STREQ(pulse_branch__new_type_name(7), "ARCH_5");
}

static void test_branch__swap(void)
{
	/* a big-endian machine's word: fields from bit 63 down, then bytes swapped */
	__u64 be = 1ULL << 63 | 1ULL << 62 | 1ULL << 60 | 0xbeefULL << 44 | 6ULL << 40;
	__u64 raw = __builtin_bswap64(be), native;
	struct pulse_branch_flags f;

	native = pulse_branch_flags__swap(raw, true);
	pulse_branch_flags__decode(native, &f);
	ASSERT_EQ(f.mispred, 1);
	ASSERT_EQ(f.predicted, 1);
	ASSERT_EQ(f.in_tx, 0);
	ASSERT_EQ(f.abort, 1);
	ASSERT_EQ(f.cycles, 0xbeef);
	ASSERT_EQ(f.type, 6);
	/* there and back */
	ASSERT_EQ(pulse_branch_flags__swap(native, false), raw);
	ASSERT_EQ(pulse_branch_flags__swap(pulse_branch_flags__swap(FLAGS_LE, false), true),
		  FLAGS_LE);
	/*
	 * perf 6.1 moves the bits above type as one block: a big-endian
	 * new_type (bits 34..37 there) does not land in new_type
	 */
	be = 15ULL << 40 | 3ULL << 34;
	pulse_branch_flags__decode(pulse_branch_flags__swap(__builtin_bswap64(be), true), &f);
	ASSERT_EQ(f.type, 15);
	ASSERT_EQ(f.new_type, 0);
	ASSERT_EQ(f.reserved, 3ULL << 25);
}

/* a SAMPLE of IP | BRANCH_STACK, with @hw_idx when >= 0 */
static size_t make_sample(unsigned char *rec, long long hw_idx, __u64 nr)
{
	size_t off = 8;
	__u64 v;

#define PUT(x) (v = (x), memcpy(rec + off, &v, 8), off += 8)
	PUT(0x401000);
	PUT(nr);
	if (hw_idx >= 0)
		PUT(hw_idx);
	for (__u64 i = 0; i < nr; i++) {
		PUT(0x1000 + i);
		PUT(0x2000 + i);
		PUT(i ? FLAGS_LE : 2);
	}
#undef PUT
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, off };

	memcpy(rec, &h, sizeof(h));
	return off;
}

static void test_branch__entries(void)
{
	struct perf_event_attr a = { .size = 128,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK };
	unsigned char rec[256];
	struct pulse_branch_entry e;
	struct pulse_sample s;
	size_t n;

	for (int hw = 0; hw < 2; hw++) {
		a.branch_sample_type = hw ? PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX :
			PERF_SAMPLE_BRANCH_ANY;
		n = make_sample(rec, hw ? 7 : -1, 2);
		ASSERT_EQ(pulse_sample__parse(rec, n, &a, &s), 0);
		ASSERT_EQ(s.branch_nr, 2);
		ASSERT_EQ(s.branch_hw_idx, hw ? 7 : 0);
		ASSERT_EQ(pulse_branch__entry(&s, 1, &e), 0);
		ASSERT_EQ(e.from, 0x1001);
		ASSERT_EQ(e.to, 0x2001);
		ASSERT_EQ(e.flags.cycles, 0x1234);
		ASSERT_EQ(pulse_branch__entry(&s, 2, &e), -ERANGE);

		/* to a big-endian file and back: the same entries */
		ASSERT_EQ(pulse_event__swap(rec, n, &a, false), 0);
		ASSERT_EQ(pulse_event__swap(rec, n, &a, true), 0);
		ASSERT_EQ(pulse_sample__parse(rec, n, &a, &s), 0);
		ASSERT_EQ(pulse_branch__entry(&s, 1, &e), 0);
		ASSERT_EQ(e.flags.cycles, 0x1234);
		ASSERT_EQ(e.flags.new_type, 1);
		ASSERT_EQ(pulse_branch__entry(&s, 0, &e), 0);
		ASSERT_EQ(e.flags.predicted, 1);
		ASSERT_EQ(s.branch_hw_idx, hw ? 7 : 0);
	}
	/* an entry count past the record's end */
	n = make_sample(rec, -1, 2);
	a.branch_sample_type = 0;
	ASSERT_EQ(pulse_sample__parse(rec, n - 8, &a, &s), -EBADMSG);
}

static void test_branch__lbr_callchain(void)
{
	const __u64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL, PERF_CONTEXT_USER,
				0x401234 };
	const __u64 entries[] = { 0x10, 0x20, 0, 0x30, 0x40, 0 };
	struct pulse_sample s = { .callchain = chain, .callchain_nr = 4, .branch = entries,
				  .branch_nr = 2 };
	__u64 *buf = NULL;
	size_t alloc = 0;

	ASSERT_EQ(pulse_branch__lbr_callchain(&s, &buf, &alloc), 1);
	ASSERT_EQ(s.callchain_nr, 6);
	ASSERT_EQ(buf[1], 0xffffffff81000000ULL);
	ASSERT_EQ(buf[2], PERF_CONTEXT_USER);
	ASSERT_EQ(buf[3], 0x20);	/* the first target */
	ASSERT_EQ(buf[4], 0x10);	/* then every source */
	ASSERT_EQ(buf[5], 0x30);
	/* no user part: left alone */
	s.callchain = chain;
	s.callchain_nr = 2;
	ASSERT_EQ(pulse_branch__lbr_callchain(&s, &buf, &alloc), 0);
	ASSERT_TRUE(s.callchain == chain);
	free(buf);
}

static void test_branch__hists(void)
{
	enum pulse_branch_sort_key keys[PULSE_BSORT_MAX_KEYS];
	const struct pulse_branch_hist_entry *he;
	struct pulse_thread t = { .pid = 1, .tid = 1, .comm = "foo" };
	struct pulse_branch_end from = { .addr = 0x10, .al_addr = 0x10, .level = 'H' };
	struct pulse_branch_end to = { .addr = 0x20, .al_addr = 0x20, .level = 'H' };
	struct pulse_branch_flags f = { 0 };
	struct pulse_branch_hists h;
	struct pulse_branch_type_stat st = { 0 };
	const char *bad;
	size_t bad_len;
	int nr;

	nr = pulse_branch_sort_keys__parse("overhead,cycles,dso_to,cycles", keys, 16, &bad,
					   &bad_len);
	ASSERT_EQ(nr, 2);
	ASSERT_EQ(pulse_branch_sort_keys__parse("cycles,srcline", keys, 16, &bad, &bad_len), -EINVAL);
	ASSERT_EQ(bad_len, 7);
	ASSERT_EQ(pulse_branch_sort_keys__parse(PULSE_BRANCH_DEFAULT_SORT, keys, 16, &bad,
						&bad_len), 5);
	nr = pulse_branch_sort_keys__parse("cycles", keys, 16, &bad, &bad_len);
	ASSERT_EQ(pulse_branch_hists__init(&h, keys, nr), 0);
	f.cycles = 5;
	ASSERT_EQ(pulse_branch_hists__add(&h, t.comm, &t, '.', &from, &to, &f, 1, false, &he), 0);
	f.cycles = 0;
	f.type = 1;	/* COND, forward */
	ASSERT_EQ(pulse_branch_hists__add(&h, t.comm, &t, '.', &from, &to, &f, 1, false, &he), 0);
	pulse_branch_type_stat__count(&st, &he->flags, he->from.addr, he->to.addr);
	ASSERT_EQ(pulse_branch_hists__add(&h, t.comm, &t, '.', &from, &to, &f, 1, false, &he), 0);
	ASSERT_EQ(h.nr_entries, 2);
	ASSERT_EQ(h.nr_samples, 3);
	ASSERT_EQ(pulse_branch_hists__sort(&h), 0);
	ASSERT_EQ(h.nr_order, 2);
	ASSERT_EQ(h.entries[h.order[0]].flags.cycles, 0);	/* period 2 first */
	ASSERT_EQ(h.entries[h.order[0]].period, 2);
	pulse_branch_hists__exit(&h);

	ASSERT_EQ(st.counts[1], 1);
	ASSERT_EQ(st.cond_fwd, 1);
	{
		char buf[256] = "";
		FILE *fp = fmemopen(buf, sizeof(buf), "w");

		pulse_branch_type_stat__fprintf(&st, fp);
		fclose(fp);
		ASSERT_STREQ(buf, "\n#\n# Branch Statistics:\n#\nCOND_FWD: 100.0%\n    COND: 100.0%");
	}
}

TEST_MAIN(TEST(test_branch__decode),
	  TEST(test_branch__swap),
	  TEST(test_branch__entries),
	  TEST(test_branch__lbr_callchain),
	  TEST(test_branch__hists))
