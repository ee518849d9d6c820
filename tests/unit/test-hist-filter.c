// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's sample filters (lib/hist/filter.c): comm, pid, tid, DSO and
 * symbol lists, cpu lists with ranges, and --time ranges as perf 6.1 parses
 * and applies them.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist-filter.h>
#include "test.h"

struct fixture {
	struct pulse_machine m;
	struct pulse_dso *libc;
	struct pulse_thread *t;
	struct pulse_symbol sym;
	struct pulse_addr_loc al;
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	pulse_machine__init(&f->m, NULL);
	f->libc = pulse_dsos__findnew(&f->m.dsos, "/lib/libc.so.6", PULSE_DSO_NOSYMS);
	f->t = pulse_machine__findnew_thread(&f->m, 10, 11);
	f->t->comm = pulse_machine__intern(&f->m, "app");
	f->sym = (struct pulse_symbol){ 0x1a0, 0x200, "memcpy", 6, STB_GLOBAL, STT_FUNC };
	f->al = (struct pulse_addr_loc){
		.thread = f->t, .dso = f->libc, .sym = &f->sym, .addr = 0x1b0, .level = '.',
	};
}

static enum pulse_filter_result match(const struct pulse_hist_filter *flt, struct fixture *f,
				      int cpu, uint64_t time)
{
	return pulse_hist_filter__match(flt, &f->al, f->t->comm, f->al.addr, cpu, time);
}

static void test_filter__lists(void)
{
	struct pulse_hist_filter flt = { 0 };
	struct fixture f;

	fixture_init(&f);
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	/* comms: whole names only, anywhere in the list */
	flt.comms = "zsh,app";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.comms = "ap,apps";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	flt.comms = NULL;
	/* --pid is the process, --tid the thread */
	flt.pids = "3,10";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.pids = "11";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	flt.pids = NULL;
	flt.tids = "11";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.tids = "10,1";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	flt.tids = NULL;
	/* DSOs by short or long name; a sample without a map passes */
	flt.dsos = "libc.so.6";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.dsos = "x,/lib/libc.so.6";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.dsos = "libc";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	f.al.dso = NULL;
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	f.al.dso = f.libc;
	flt.dsos = NULL;
	/* symbols by name; an unresolved sample never passes */
	flt.symbols = "main,memcpy";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	flt.symbols = "memcp";
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	flt.symbols = "memcpy";
	f.al.sym = NULL;
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_HIDE);
	pulse_machine__exit(&f.m);
}

static void test_filter__cpus(void)
{
	struct pulse_hist_filter flt = { .cpus = "0-2,5,7-7" };
	struct fixture f;
	static const int in[] = { 0, 1, 2, 5, 7 }, out[] = { 3, 4, 6, 8, -1 };

	fixture_init(&f);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ASSERT_EQ(match(&flt, &f, in[i], 1), PULSE_FILTER_KEEP);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		ASSERT_EQ(match(&flt, &f, out[i], 1), PULSE_FILTER_SKIP);
	/* --cpu wins over the lists: the sample is not counted at all */
	flt.comms = "zsh";
	ASSERT_EQ(match(&flt, &f, 3, 1), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 1, 1), PULSE_FILTER_HIDE);
	pulse_machine__exit(&f.m);
}

#define SEC 1000000000ULL

static void test_filter__time_one_range(void)
{
	struct pulse_hist_filter flt = { 0 };
	struct fixture f;

	fixture_init(&f);
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, "10.5,11.000001", 0, 0), 0);
	/* inclusive at both ends */
	ASSERT_EQ(match(&flt, &f, 0, 10 * SEC + 499999999), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 10 * SEC + 500000000), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 11 * SEC + 1000), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 11 * SEC + 1001), PULSE_FILTER_SKIP);
	/* a sample without a time passes */
	ASSERT_EQ(match(&flt, &f, 0, ~0ULL), PULSE_FILTER_KEEP);
	free(flt.time);

	/* open ends */
	memset(&flt, 0, sizeof(flt));
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, ",3", 0, 0), 0);
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 3 * SEC + 1), PULSE_FILTER_SKIP);
	free(flt.time);
	memset(&flt, 0, sizeof(flt));
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, "3,", 0, 0), 0);
	ASSERT_EQ(match(&flt, &f, 0, 3 * SEC - 1), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 300 * SEC), PULSE_FILTER_KEEP);
	free(flt.time);
	pulse_machine__exit(&f.m);
}

static void test_filter__time_ranges(void)
{
	struct pulse_hist_filter flt = { 0 };
	struct fixture f;

	fixture_init(&f);
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, "1,2 3,4 5,", 0, 0), 0);
	ASSERT_EQ(match(&flt, &f, 0, 1 * SEC), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 2 * SEC), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 2 * SEC + 1), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 3 * SEC + 5), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 4 * SEC + 5), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 50 * SEC), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, SEC - 1), PULSE_FILTER_SKIP);
	free(flt.time);
	pulse_machine__exit(&f.m);
}

static void test_filter__time_malformed(void)
{
	static const char *const bad[] = {
		"abc", "1", "1,2,3", "2,1", "1.x,", ",1.5y", "1.0123456789,",
		/* out of order, overlapping, a trailing blank */
		"3,4 1,2", "1,3 2,4", "1,2 2,3", "1,2 ",
		/* percentages */
		"1%2,", "10%-", "5%/0", "10%/11", "0%/1", "-10%/1", "10%/-1", "10%/1 ",
		"x%-10%", "10%,20%", "10%-20%,30%", "101%",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pulse_hist_filter flt = { 0 };
		int err = pulse_hist_filter__parse_time(&flt, bad[i], 100 * SEC, 200 * SEC);

		free(flt.time);
		if (err != -EINVAL)
			TEST_FAIL("'%s': %d, not -EINVAL", bad[i], err);
	}
}

static void test_filter__time_blanks(void)
{
	struct pulse_hist_filter flt = { 0 };
	struct fixture f;

	fixture_init(&f);
	/* strtoul() skips leading blanks, and so does perf */
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, " 1, 2", 0, 0), 0);
	ASSERT_EQ(flt.nr_time, 1);
	ASSERT_EQ(flt.time[0], SEC);
	ASSERT_EQ(flt.time[1], 2 * SEC);
	/* several blanks between ranges; nine fraction digits at most */
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, "1,2   3.000000001,", 0, 0), 0);
	ASSERT_EQ(flt.nr_time, 2);
	ASSERT_EQ(flt.time[2], 3 * SEC + 1);
	ASSERT_EQ(flt.time[3], 0);
	ASSERT_EQ(match(&flt, &f, 0, 3 * SEC), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 3 * SEC + 1), PULSE_FILTER_KEEP);
	free(flt.time);
	pulse_machine__exit(&f.m);
}

/* the ranges parsed from @str for samples between 100 s and 200 s */
static int percent(struct pulse_hist_filter *flt, const char *str)
{
	return pulse_hist_filter__parse_time(flt, str, 100 * SEC, 200 * SEC);
}

static void test_filter__time_percent(void)
{
	struct pulse_hist_filter flt = { 0 };
	struct fixture f;

	fixture_init(&f);
	/* without the first and last sample times there is nothing to take a share of */
	ASSERT_EQ(pulse_hist_filter__parse_time(&flt, "10%/1", 0, 0), -ENODATA);

	/* a slice ends one nanosecond before the next begins, but the last at the end */
	ASSERT_EQ(percent(&flt, "10%/2"), 0);
	ASSERT_EQ(flt.nr_time, 1);
	ASSERT_EQ(flt.time[0], 110 * SEC);
	ASSERT_EQ(flt.time[1], 120 * SEC - 1);
	ASSERT_EQ(percent(&flt, "25%/4"), 0);
	ASSERT_EQ(flt.time[0], 175 * SEC);
	ASSERT_EQ(flt.time[1], 200 * SEC);
	ASSERT_EQ(percent(&flt, "10%"), 0);
	ASSERT_EQ(flt.time[0], 100 * SEC);
	ASSERT_EQ(flt.time[1], 110 * SEC - 1);
	ASSERT_EQ(percent(&flt, "0%-100%"), 0);
	ASSERT_EQ(flt.time[0], 100 * SEC);
	ASSERT_EQ(flt.time[1], 200 * SEC);
	/* perf rounds the share to the nanosecond */
	ASSERT_EQ(percent(&flt, "33.3%/2"), 0);
	ASSERT_EQ(flt.time[0], 133300000000ULL);
	ASSERT_EQ(flt.time[1], 166600000000ULL - 1);

	/* several slices, several ranges; inclusive ends */
	ASSERT_EQ(percent(&flt, "10%/1,10%/3"), 0);
	ASSERT_EQ(flt.nr_time, 2);
	ASSERT_EQ(match(&flt, &f, 0, 110 * SEC - 1), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 110 * SEC), PULSE_FILTER_SKIP);
	ASSERT_EQ(match(&flt, &f, 0, 120 * SEC), PULSE_FILTER_KEEP);
	ASSERT_EQ(match(&flt, &f, 0, 130 * SEC), PULSE_FILTER_SKIP);
	ASSERT_EQ(percent(&flt, "10%-20%,30%-40%"), 0);
	ASSERT_EQ(flt.nr_time, 2);
	ASSERT_EQ(flt.time[2], 130 * SEC);
	ASSERT_EQ(flt.time[3], 140 * SEC - 1);
	/* a trailing comma adds nothing; an empty dash range takes everything */
	ASSERT_EQ(percent(&flt, "10%/1,"), 0);
	ASSERT_EQ(flt.nr_time, 1);
	ASSERT_EQ(percent(&flt, "10%-20%,,30%-40%"), 0);
	ASSERT_EQ(flt.nr_time, 3);
	ASSERT_EQ(match(&flt, &f, 0, 190 * SEC), PULSE_FILTER_KEEP);
	/* start after end: no sample */
	ASSERT_EQ(percent(&flt, "20%-10%"), 0);
	ASSERT_EQ(match(&flt, &f, 0, 115 * SEC), PULSE_FILTER_SKIP);
	free(flt.time);
	pulse_machine__exit(&f.m);
}

static void test_filter__symbol_addresses(void)
{
	struct pulse_hist_filter flt = { .symbols = "0x1b0, main,1C0 ,add,0x,memcpy" };
	const char *bad = NULL;
	struct fixture f;

	fixture_init(&f);
	/* whole hex numbers are addresses, even "add"; "0x" is a name */
	ASSERT_EQ(pulse_hist_filter__setup(&flt, &bad), 0);
	ASSERT_EQ(flt.nr_sym_addrs, 3);
	ASSERT_EQ(flt.sym_addrs[0], 0x1b0);
	ASSERT_EQ(flt.sym_addrs[1], 0x1c0);
	ASSERT_EQ(flt.sym_addrs[2], 0xadd);
	ASSERT_STREQ(flt.sym_names, " main,0x,memcpy");
	/* a name passes whatever the address; an address passes its own sample */
	ASSERT_EQ(match(&flt, &f, 0, 1), PULSE_FILTER_KEEP);
	f.sym = (struct pulse_symbol){ 0x1a0, 0x200, "other", 5, STB_GLOBAL, STT_FUNC };
	ASSERT_EQ(pulse_hist_filter__match(&flt, &f.al, "app", 0x1b0, 0, 1), PULSE_FILTER_KEEP);
	ASSERT_EQ(pulse_hist_filter__match(&flt, &f.al, "app", 0x1b4, 0, 1), PULSE_FILTER_HIDE);
	/* not the symbol's start, and not without a map */
	ASSERT_EQ(pulse_hist_filter__match(&flt, &f.al, "app", 0x1a0, 0, 1), PULSE_FILTER_HIDE);
	f.al.dso = NULL;
	ASSERT_EQ(pulse_hist_filter__match(&flt, &f.al, "app", 0x1b0, 0, 1), PULSE_FILTER_HIDE);
	pulse_hist_filter__exit(&flt);

	/* perf refuses an entry twice */
	flt = (struct pulse_hist_filter){ .comms = "a,b", .symbols = "x,y,x" };
	ASSERT_EQ(pulse_hist_filter__setup(&flt, &bad), -EINVAL);
	ASSERT_STREQ(bad, "symbol");
	flt = (struct pulse_hist_filter){ .pids = "1,01", .dsos = "a,a" };
	ASSERT_EQ(pulse_hist_filter__setup(&flt, &bad), -EINVAL);
	ASSERT_STREQ(bad, "dso");
	flt = (struct pulse_hist_filter){ .pids = "1,01" };
	ASSERT_EQ(pulse_hist_filter__setup(&flt, &bad), -EINVAL);
	ASSERT_STREQ(bad, "pid");
	pulse_machine__exit(&f.m);
}

static void test_filter__parent(void)
{
	struct pulse_symbol syms[] = {
		{ 0x100, 0x200, "do_syscall_64", 13, STB_GLOBAL, STT_FUNC },
		{ 0x200, 0x300, "__x64_sys_getppid", 17, STB_GLOBAL, STT_FUNC },
		{ 0x300, 0x400, "sys_read", 8, STB_GLOBAL, STT_FUNC },
	};
	struct pulse_cc_loc chain[] = {
		{ 0x110, NULL, &syms[0], 'k' }, { 0x999, NULL, NULL, 'k' },
		{ 0x210, NULL, &syms[1], 'k' }, { 0x310, NULL, &syms[2], 'k' },
	};
	regex_t re;

	/* perf's default: the first frame in chain order that matches */
	ASSERT_EQ(regcomp(&re, "^sys_|^do_page_fault", REG_EXTENDED), 0);
	ASSERT_TRUE(pulse_hist_filter__parent(&re, chain, 4) == &syms[2]);
	ASSERT_TRUE(pulse_hist_filter__parent(&re, chain, 3) == NULL);
	regfree(&re);
	ASSERT_EQ(regcomp(&re, "sys", REG_EXTENDED), 0);
	ASSERT_TRUE(pulse_hist_filter__parent(&re, chain, 4) == &syms[0]);
	ASSERT_TRUE(pulse_hist_filter__parent(&re, chain + 1, 3) == &syms[1]);
	regfree(&re);
}

TEST_MAIN(TEST(test_filter__lists), TEST(test_filter__cpus), TEST(test_filter__time_one_range),
	  TEST(test_filter__time_ranges), TEST(test_filter__time_malformed),
	  TEST(test_filter__time_blanks), TEST(test_filter__time_percent),
	  TEST(test_filter__symbol_addresses), TEST(test_filter__parent))
