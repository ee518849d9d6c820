// SPDX-License-Identifier: GPL-2.0
/*
 * Unit and model tests for the mmap page reader (lib/counter/page.c),
 * which no machine without a PMU can run for real: software events leave
 * the page's index at 0.
 *
 * Pages built by hand check the arithmetic: pmc_width sign extension, the
 * time extrapolation (time_offset, time_mult, time_shift), time_zero, a
 * short clock (time_cycles, time_mask), the scaling, the cases that fall
 * back (index 0, no cap_user_rdpmc).
 *
 * The model: a writer thread plays the kernel. It updates the page as
 * perf_event_update_userpage() and x86's arch_perf_update_userpage() do
 * (++lock, barrier, index, offset, time_enabled/running, capabilities,
 * pmc_width, time fields, barrier, ++lock), reprogramming a fake PMU's
 * counter inside that window (a new index, the counter set to -left as x86
 * programs a sampling period), and between updates it "counts": the fake
 * counter and clock go forward, the page stays. Readers call
 * pulse_counter_page__read() with hooks that read the fake counter and
 * clock, and check every value: the count never goes back and is never
 * more than the writer has counted, the times are exactly those of the
 * clock value the read used, running < enabled by one of the gaps the
 * writer wrote; at the end the count is exact. A read that mixed two
 * updates (a torn read) breaks these by up to 2^20. `make tsan` runs it
 * under ThreadSanitizer (PULSE_PAGE_UPDATES sets the number of updates).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/counter.h>
#include <pulse/evlist.h>

#include "test.h"

#define WIDTH		48
#define PMC_MASK	((1ULL << WIDTH) - 1)
#define JUNK		(0xabcdULL << WIDTH)	/* bits above the width a PMC read may carry */
#define MULT		1431655765U		/* ns = cyc * MULT >> SHIFT, ~2/3 ns a cycle */
#define SHIFT		31
#define TSC_MASK	0xffffffffULL		/* the model's clock is 32 bits wide */
#define TIME_ZERO	1000000000000ULL
#define GAP_STEP	10			/* running falls behind enabled by this each update */
#define NR_PMC		4

#define CAPS_ALL	((1ULL << 2) | (1ULL << 3) | (1ULL << 4) | (1ULL << 5))

static uint64_t ns_of(uint64_t cyc)
{
	uint64_t quot = cyc >> SHIFT, rem = cyc & ((1ULL << SHIFT) - 1);

	return quot * MULT + ((rem * MULT) >> SHIFT);
}

/* --- pages by hand --- */

struct fake_hw {
	uint64_t pmc[NR_PMC];
	uint64_t tsc;			/* full width; read as tsc & TSC_MASK */
	int tsc_reads, pmc_reads;
};

static uint64_t fake_rdpmc(void *arg, uint32_t counter)
{
	struct fake_hw *hw = arg;

	hw->pmc_reads++;
	return counter < NR_PMC ? hw->pmc[counter] | JUNK : 0;
}

static uint64_t fake_rdtsc(void *arg)
{
	struct fake_hw *hw = arg;

	hw->tsc_reads++;
	return hw->tsc & TSC_MASK;
}

static void test_counter_page__arithmetic(void)
{
	static struct perf_event_mmap_page pc;
	struct fake_hw hw = {};
	struct pulse_counter_page_hooks hooks = { fake_rdpmc, fake_rdtsc, &hw };
	struct pulse_counter_value v;

	/* no time: the page's times as they are, the count sign-extended */
	pc.capabilities = 1ULL << 2;
	pc.index = 2;
	pc.pmc_width = WIDTH;
	pc.offset = 1000;
	pc.time_enabled = 500;
	pc.time_running = 250;
	hw.pmc[1] = PMC_MASK - 9;	/* -10 */
	ASSERT_EQ(pulse_counter_page__read(&pc, &hooks, &v), 0);
	ASSERT_EQ(v.val, 990);
	ASSERT_EQ(v.ena, 500);
	ASSERT_EQ(v.run, 250);
	ASSERT_EQ(v.scaled, 1980);
	ASSERT_EQ(v.source, PULSE_COUNTER_MMAP);
	ASSERT_EQ(v.time, 0);
	ASSERT_EQ(hw.tsc_reads, 0);
	ASSERT_EQ(hw.pmc_reads, 1);
	/* a positive count */
	hw.pmc[1] = 5;
	ASSERT_EQ(pulse_counter_page__read(&pc, &hooks, &v), 0);
	ASSERT_EQ(v.val, 1005);

	/* time: delta = time_offset + ns(cyc), added to both; a 32-bit clock that wrapped */
	pc.capabilities = CAPS_ALL;
	pc.time_mult = MULT;
	pc.time_shift = SHIFT;
	pc.time_cycles = 0x1fffffff0ULL;	/* the full clock at the update */
	pc.time_mask = TSC_MASK;
	pc.time_offset = -ns_of(pc.time_cycles);
	pc.time_zero = TIME_ZERO;
	hw.tsc = pc.time_cycles + 0x30;		/* wrapped: the hook returns 0x20 */
	ASSERT_EQ(pulse_counter_page__read(&pc, &hooks, &v), 0);
	ASSERT_EQ(v.ena, 500 + ns_of(hw.tsc) - ns_of(pc.time_cycles));
	ASSERT_EQ(v.run, 250 + ns_of(hw.tsc) - ns_of(pc.time_cycles));
	ASSERT_EQ(v.time, TIME_ZERO + ns_of(hw.tsc));
	ASSERT_EQ(v.scaled, (uint64_t)((double)1005 * v.ena / v.run));

	/* the page holds no count: read(2) instead */
	pc.index = 0;
	ASSERT_EQ(pulse_counter_page__read(&pc, &hooks, &v), -EAGAIN);
	pc.index = 1;
	pc.capabilities = 1ULL << 3;
	ASSERT_EQ(pulse_counter_page__read(&pc, &hooks, &v), -EAGAIN);
}

/* --- the model --- */

static struct perf_event_mmap_page page __attribute__((aligned(4096)));
static uint64_t hw_pmc[NR_PMC];		/* the fake PMU's counters, raw */
static uint64_t hw_tsc;			/* the fake clock, full width */
static uint64_t true_count;		/* what has been counted: never behind the PMC */
static int writer_done;
static uint64_t start_ns;

#define STORE(field, val) __atomic_store_n(&(field), (val), __ATOMIC_RELAXED)

static uint64_t sext(uint64_t raw)
{
	return (uint64_t)((int64_t)(raw << (64 - WIDTH)) >> (64 - WIDTH));
}

/*
 * One update, the kernel's way: ++lock, barrier, the fields, barrier,
 * ++lock. The counter is reprogrammed (new index, -left) inside the window,
 * as x86 does while the task cannot run.
 */
static void update_page(unsigned int u, uint64_t left)
{
	uint32_t lock = __atomic_load_n(&page.lock, __ATOMIC_RELAXED);
	uint32_t index = 1 + u % NR_PMC;
	uint64_t raw = -left & PMC_MASK, tsc = __atomic_load_n(&hw_tsc, __ATOMIC_RELAXED);
	uint64_t now = ns_of(tsc), ena = now - start_ns;
	uint64_t count = __atomic_load_n(&true_count, __ATOMIC_RELAXED);

	STORE(page.lock, lock + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&hw_pmc[index - 1], raw, __ATOMIC_RELEASE);
	STORE(page.index, index);
	STORE(page.offset, (int64_t)(count - sext(raw)));
	STORE(page.time_enabled, ena);
	STORE(page.time_running, ena - (uint64_t)u * GAP_STEP);
	STORE(page.capabilities, CAPS_ALL);
	STORE(page.pmc_width, WIDTH);
	STORE(page.time_shift, SHIFT);
	STORE(page.time_mult, MULT);
	STORE(page.time_offset, -now);
	STORE(page.time_zero, TIME_ZERO);
	STORE(page.time_cycles, tsc);
	STORE(page.time_mask, TSC_MASK);
	__atomic_store_n(&page.lock, lock + 2, __ATOMIC_RELEASE);
}

static unsigned int nr_updates(void)
{
	const char *s = getenv("PULSE_PAGE_UPDATES");

	return s ? strtoul(s, NULL, 0) : 200000;
}

static void *writer(void *arg)
{
	unsigned int n = nr_updates(), seed = 1;

	for (unsigned int u = 1; u <= n; u++) {
		uint32_t index;

		update_page(u, 1 + rand_r(&seed) % (1 << 20));
		index = __atomic_load_n(&page.index, __ATOMIC_RELAXED);
		/* count between updates: what was counted first, then the PMC (release) */
		for (int k = 0; k < 3; k++) {
			uint64_t d = 1 + rand_r(&seed) % 100;

			__atomic_fetch_add(&true_count, d, __ATOMIC_RELAXED);
			__atomic_fetch_add(&hw_pmc[index - 1], d, __ATOMIC_RELEASE);
			__atomic_fetch_add(&hw_tsc, 100 + rand_r(&seed) % 1000, __ATOMIC_RELAXED);
		}
	}
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct model_reader {
	uint64_t cyc;			/* the full clock value of the last rdtsc */
	uint64_t reads, errors;
	char why[160];			/* the first error */
};

static uint64_t model_rdpmc(void *arg, uint32_t counter)
{
	/* acquire: the count a read sees, true_count has already reached */
	return __atomic_load_n(&hw_pmc[counter % NR_PMC], __ATOMIC_ACQUIRE) | JUNK;
}

static uint64_t model_rdtsc(void *arg)
{
	struct model_reader *r = arg;

	r->cyc = __atomic_load_n(&hw_tsc, __ATOMIC_RELAXED);
	return r->cyc & TSC_MASK;
}

#define MODEL_CHECK(r, cond, ...)                                                   \
	do {                                                                        \
		if (!(cond) && !(r)->errors++)                                      \
			snprintf((r)->why, sizeof((r)->why), __VA_ARGS__);          \
	} while (0)

static void *reader(void *arg)
{
	struct model_reader *r = arg;
	struct pulse_counter_page_hooks hooks = { model_rdpmc, model_rdtsc, r };
	uint64_t last_val = 0, last_ena = 0, last_gap = 0;
	int done;

	do {
		struct pulse_counter_value v;
		uint64_t hi, gap;
		int ret;

		done = __atomic_load_n(&writer_done, __ATOMIC_ACQUIRE);
		ret = pulse_counter_page__read(&page, &hooks, &v);
		hi = __atomic_load_n(&true_count, __ATOMIC_ACQUIRE);
		r->reads++;
		MODEL_CHECK(r, !ret, "read: %d", ret);
		if (ret)
			continue;
		gap = v.ena - v.run;
		MODEL_CHECK(r, v.val >= last_val && v.val <= hi,
			    "count %llu: last %llu, counted %llu", (unsigned long long)v.val,
			    (unsigned long long)last_val, (unsigned long long)hi);
		MODEL_CHECK(r, v.ena == ns_of(r->cyc) - start_ns && v.ena >= last_ena,
			    "enabled %llu at cyc %llu", (unsigned long long)v.ena,
			    (unsigned long long)r->cyc);
		MODEL_CHECK(r, v.run <= v.ena && gap % GAP_STEP == 0 && gap >= last_gap,
			    "running %llu enabled %llu", (unsigned long long)v.run,
			    (unsigned long long)v.ena);
		MODEL_CHECK(r, v.time == TIME_ZERO + ns_of(r->cyc), "time %llu",
			    (unsigned long long)v.time);
		last_val = v.val;
		last_ena = v.ena;
		last_gap = gap;
		if (done)
			MODEL_CHECK(r, v.val == hi, "final count %llu, counted %llu",
				    (unsigned long long)v.val, (unsigned long long)hi);
	} while (!done);
	return NULL;
}

static void test_counter_page__model(void)
{
	struct model_reader r[2] = {};
	pthread_t w, t[2];

	hw_tsc = TSC_MASK - 5000000;	/* the 32-bit clock wraps early in the run */
	start_ns = ns_of(hw_tsc) - 12345;
	true_count = 777;
	update_page(0, 1000);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(pthread_create(&t[i], NULL, reader, &r[i]), 0);
	ASSERT_EQ(pthread_create(&w, NULL, writer, NULL), 0);
	pthread_join(w, NULL);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		printf("# reader %d: %llu reads, %llu wrong%s%s\n", i,
		       (unsigned long long)r[i].reads, (unsigned long long)r[i].errors,
		       r[i].errors ? ", first: " : "", r[i].why);
	}
	ASSERT_EQ(r[0].errors, 0);
	ASSERT_EQ(r[1].errors, 0);
	ASSERT_TRUE(hw_tsc > TSC_MASK);
}

int main(void)
{
	static const struct test_case cases[] = {
		TEST(test_counter_page__arithmetic),
		TEST(test_counter_page__model),
	};

	return test__run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
