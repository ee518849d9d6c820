// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the counting library (lib/counter/, <pulse/counter.h>)
 * on real software events of the calling thread: open, enable, reset and
 * read (one member, a whole group with PERF_FORMAT_GROUP), the read(2)
 * fallback the page reader takes for software events (their page's index
 * is 0), counts of workloads with a known number of page faults and
 * context switches, overflow signals with PERF_EVENT_IOC_REFRESH, and
 * prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pulse/core.h>
#include <pulse/counter.h>

#include "test.h"

/* The kernel's own noise: faults and switches the test did not ask for. */
#define NOISE 16

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/*
 * Fault in @n fresh anonymous pages, one fault each (no huge pages). Not
 * instrumented: under ASan each store would also fault in shadow pages.
 */
__attribute__((no_sanitize_address)) static int touch_pages(int n)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	madvise(p, n * psz, MADV_NOHUGEPAGE);
	for (int i = 0; i < n; i++)
		((volatile char *)p)[i * psz] = 1;
	munmap(p, n * psz);
	return 0;
}

static void spin(long ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec < ns);
}

static void test_counter__one(void)
{
	struct pulse_counter *c;
	struct pulse_counter_value v;

	ASSERT_EQ(pulse_counter__new(&c, "task-clock", NULL), 0);
	ASSERT_EQ(pulse_counter__nr(c), 1);
	ASSERT_STREQ(pulse_counter__name(c, 0), "task-clock");
	ASSERT_TRUE(pulse_counter__fd(c, 0) >= 0);
	ASSERT_EQ(pulse_counter__fd(c, 1), -ERANGE);
	/* opened disabled */
	spin(2000000);
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_EQ(v.val, 0);
	ASSERT_EQ(pulse_counter__enable(c), 0);
	spin(5000000);
	ASSERT_EQ(pulse_counter__disable(c), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_TRUE(v.val >= 5000000 && v.val < 500000000);
	ASSERT_TRUE(v.ena >= v.run && v.run > 0);
	ASSERT_EQ(v.scaled, v.val);
	ASSERT_TRUE(v.id != 0);
	ASSERT_EQ(v.source, PULSE_COUNTER_READ);
	ASSERT_EQ(pulse_counter__read(c, 1, &v), -ERANGE);
	ASSERT_EQ(pulse_counter__reset(c), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_EQ(v.val, 0);
	pulse_counter__delete(c);
	pulse_counter__delete(NULL);
}

static void test_counter__bad_input(void)
{
	struct pulse_counter *c = (void *)1;
	struct pulse_counter_opts o = { .sz = sizeof(o), .cpu_wide = true, .cpu = -1 };

	pulse_set_print(quiet);
	ASSERT_EQ(pulse_counter__new(&c, "task-clock,page-faults", NULL), -EINVAL);
	ASSERT_TRUE(c == NULL);
	ASSERT_EQ(pulse_counter__new(&c, "no-such-event", NULL), -ENOENT);
	ASSERT_EQ(pulse_counter__new(&c, "task-clock", &o), -EINVAL);
	o.sz = 1;
	ASSERT_EQ(pulse_counter__new(&c, "task-clock", &o), -EINVAL);
	ASSERT_EQ(pulse_counter__new_attr(&c, NULL, 0, NULL), -EINVAL);
}

/* A group read at once: page faults and context switches of known workloads. */
static void test_counter__group_counts(void)
{
	struct pulse_counter *c;
	struct pulse_counter_value v[3], one;
	int nr = 0;

	ASSERT_EQ(pulse_counter__new(&c, "{task-clock,page-faults,context-switches}", NULL), 0);
	ASSERT_EQ(pulse_counter__nr(c), 3);
	ASSERT_EQ(pulse_counter__read_group(c, v, 2, &nr), -ENOSPC);
	ASSERT_EQ(pulse_counter__enable(c), 0);
	ASSERT_EQ(touch_pages(200), 0);
	for (int i = 0; i < 30; i++)
		usleep(200); /* each sleep blocks: one switch out */
	ASSERT_EQ(pulse_counter__disable(c), 0);
	ASSERT_EQ(pulse_counter__read_group(c, v, 3, &nr), 0);
	ASSERT_EQ(nr, 3);
	printf("# task-clock %llu, page-faults %llu, context-switches %llu\n",
	       (unsigned long long)v[0].val, (unsigned long long)v[1].val,
	       (unsigned long long)v[2].val);
	ASSERT_TRUE(v[0].val > 0);
	ASSERT_TRUE(v[1].val >= 200 && v[1].val <= 200 + NOISE);
	ASSERT_TRUE(v[2].val >= 30 && v[2].val <= 30 + NOISE);
	/* one read(2): the members share the group's times */
	ASSERT_EQ(v[1].ena, v[0].ena);
	ASSERT_EQ(v[2].run, v[0].run);
	ASSERT_TRUE(v[0].id != v[1].id && v[1].id != v[2].id);
	/* one member read alone gives the same (the counters are stopped) */
	ASSERT_EQ(pulse_counter__read(c, 1, &one), 0);
	ASSERT_EQ(one.val, v[1].val);
	ASSERT_EQ(one.id, v[1].id);
	pulse_counter__delete(c);
}

/* Software events never sit on a PMU counter: the page says so, read(2) answers. */
static void test_counter__page_fallback(void)
{
	struct pulse_counter *c;
	struct pulse_counter_opts o = { .sz = sizeof(o), .enable = true };
	const struct perf_event_mmap_page *pc;
	struct pulse_counter_value v;

	ASSERT_EQ(pulse_counter__new(&c, "page-faults", &o), 0);
	pc = pulse_counter__page(c, 0);
	ASSERT_TRUE(pc != NULL);
	ASSERT_EQ(pc->index, 0);
	ASSERT_EQ(pulse_counter_page__read(pc, NULL, &v), -EAGAIN);
	ASSERT_EQ(touch_pages(100), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_EQ(v.source, PULSE_COUNTER_READ);
	ASSERT_TRUE(v.val >= 100 && v.val <= 100 + NOISE);
	pulse_counter__delete(c);

	o.no_mmap = true;
	ASSERT_EQ(pulse_counter__new(&c, "page-faults", &o), 0);
	ASSERT_TRUE(pulse_counter__page(c, 0) == NULL);
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_EQ(v.source, PULSE_COUNTER_READ);
	pulse_counter__delete(c);
}

static void test_counter__attr_and_cpu(void)
{
	struct perf_event_attr a[2] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS },
	};
	struct pulse_counter_opts o = { .sz = sizeof(o), .cpu_wide = true, .cpu = 0,
					.enable = true };
	struct pulse_counter *c;
	struct pulse_counter_value v[2];
	int nr;

	ASSERT_EQ(pulse_counter__new_attr(&c, a, 2, NULL), 0);
	/* named as perf names an attr: its modifiers from the exclude bits */
	ASSERT_TRUE(!strncmp(pulse_counter__name(c, 1), "page-faults", 11));
	ASSERT_EQ(pulse_counter__enable(c), 0);
	ASSERT_EQ(touch_pages(50), 0);
	ASSERT_EQ(pulse_counter__read_group(c, v, 2, &nr), 0);
	ASSERT_EQ(nr, 2);
	ASSERT_TRUE(v[1].val >= 50 && v[1].val <= 50 + NOISE);
	pulse_counter__delete(c);

	/* every task on CPU 0: no page to map (not self-monitoring) */
	ASSERT_EQ(pulse_counter__new(&c, "cpu-clock", &o), 0);
	ASSERT_TRUE(pulse_counter__page(c, 0) == NULL);
	usleep(20000);
	ASSERT_EQ(pulse_counter__read(c, 0, v), 0);
	ASSERT_TRUE(v[0].val >= 10000000 && v[0].ena >= 10000000);
	pulse_counter__delete(c);
}

static volatile sig_atomic_t nr_signals;

static void on_overflow(int sig)
{
	nr_signals++;
}

/* REFRESH n: exactly n overflow signals, then the counter is disabled. */
static void test_counter__refresh(void)
{
	struct pulse_counter_opts o = { .sz = sizeof(o), .sample_period = 1 };
	struct sigaction sa = { .sa_handler = on_overflow };
	int sig = SIGRTMIN + 1; /* queued: overflows close together are not merged */
	struct pulse_counter_value v, w;
	struct pulse_counter *c;

	sigaction(sig, &sa, NULL);
	ASSERT_EQ(pulse_counter__new(&c, "page-faults", NULL), 0);
	ASSERT_EQ(pulse_counter__set_signal(c, sig), -EINVAL);
	ASSERT_EQ(pulse_counter__refresh(c, 1), -EINVAL);
	pulse_counter__delete(c);

	ASSERT_EQ(pulse_counter__new(&c, "page-faults", &o), 0);
	ASSERT_EQ(pulse_counter__set_signal(c, sig), 0);
	ASSERT_EQ(pulse_counter__refresh(c, 0), -EINVAL);
	nr_signals = 0;
	ASSERT_EQ(pulse_counter__refresh(c, 3), 0);
	ASSERT_EQ(touch_pages(20), 0);
	usleep(10000);
	ASSERT_EQ(nr_signals, 3);
	/* stopped at the third overflow */
	ASSERT_EQ(pulse_counter__read(c, 0, &v), 0);
	ASSERT_EQ(touch_pages(20), 0);
	usleep(10000);
	ASSERT_EQ(nr_signals, 3);
	ASSERT_EQ(pulse_counter__read(c, 0, &w), 0);
	ASSERT_EQ(w.val, v.val);
	ASSERT_TRUE(v.val >= 3 && v.val <= 3 + NOISE);
	/* and again */
	ASSERT_EQ(pulse_counter__refresh(c, 2), 0);
	ASSERT_EQ(touch_pages(20), 0);
	usleep(10000);
	ASSERT_EQ(nr_signals, 5);
	pulse_counter__delete(c);
	signal(sig, SIG_DFL);
}

/* prctl: the task's counters stop, then go on. */
static void test_counter__prctl(void)
{
	struct pulse_counter_opts o = { .sz = sizeof(o), .enable = true };
	struct pulse_counter_value v0, v1, v2;
	struct pulse_counter *c;

	ASSERT_EQ(pulse_counter__new(&c, "page-faults", &o), 0);
	ASSERT_EQ(pulse_disable_task_counters(), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v0), 0);
	ASSERT_EQ(touch_pages(100), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v1), 0);
	ASSERT_EQ(v1.val, v0.val);
	ASSERT_EQ(pulse_enable_task_counters(), 0);
	ASSERT_EQ(touch_pages(100), 0);
	ASSERT_EQ(pulse_counter__read(c, 0, &v2), 0);
	ASSERT_TRUE(v2.val >= v1.val + 100 && v2.val <= v1.val + 100 + NOISE);
	pulse_counter__delete(c);
}

int main(void)
{
	static const struct test_case cases[] = {
		TEST(test_counter__one),
		TEST(test_counter__bad_input),
		TEST(test_counter__group_counts),
		TEST(test_counter__page_fallback),
		TEST(test_counter__attr_and_cpu),
		TEST(test_counter__refresh),
		TEST(test_counter__prctl),
	};

	return test__run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
