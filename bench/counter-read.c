// SPDX-License-Identifier: GPL-2.0
/*
 * bench/counter-read: what one read of one counter costs through
 * <pulse/counter.h>, in ns per read (bench/counter-read.sh runs it).
 *
 *   counter-read [READS] [EVENT]      (default 1000000 task-clock)
 *
 * Times, on the calling thread, READS reads of EVENT each way:
 *   - read(2) of the counter's fd, bare (the system call alone)
 *   - pulse_counter__read() without the page: read(2) and scaling
 *   - pulse_counter__read() with the page mapped: the page is tried first;
 *     it prints which path ran (a software event is never on a PMU
 *     counter, so its page has index 0 and the read falls back)
 *   - pulse_counter_page__read() on a model page that says index 1 and
 *     cap_user_rdpmc|cap_user_time, with the CPU's own rdtsc and a stub
 *     for rdpmc: the seqlock loop and the arithmetic, what the mmap path
 *     costs on a machine with a PMU apart from the rdpmc instruction
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pulse/counter.h>

#include "counter/arch.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t stub_rdpmc(void *arg, uint32_t counter)
{
	return *(volatile uint64_t *)arg;
}

static uint64_t cpu_rdtsc(void *arg)
{
	return pulse_arch_rdtsc();
}

static const char *source_name(enum pulse_counter_source s)
{
	return s == PULSE_COUNTER_MMAP ? "mmap page" : "read(2)";
}

/* READS calls of pulse_counter__read(); prints ns/read and the path. */
static int time_counter(const char *event, bool mmap, long reads, const char *what)
{
	struct pulse_counter_opts o = { .sz = sizeof(o), .enable = true, .no_mmap = !mmap };
	struct pulse_counter_value v = {};
	struct pulse_counter *c;
	double t0, t1;
	int err = pulse_counter__new(&c, event, &o);

	if (err) {
		fprintf(stderr, "error: cannot open '%s': %s\n", event, strerror(-err));
		return 1;
	}
	t0 = now_ns();
	for (long i = 0; i < reads && !err; i++)
		err = pulse_counter__read(c, 0, &v);
	t1 = now_ns();
	if (err) {
		fprintf(stderr, "error: cannot read '%s': %s\n", event, strerror(-err));
		pulse_counter__delete(c);
		return 1;
	}
	printf("  %-40s %8.1f ns/read  (ran: %s%s)\n", what, (t1 - t0) / reads,
	       source_name(v.source),
	       mmap && pulse_counter__page(c, 0) && !pulse_counter__page(c, 0)->index ?
	       "; the page's index is 0" : "");
	if (!mmap) {
		uint64_t buf[8];
		int fd = pulse_counter__fd(c, 0);

		t0 = now_ns();
		for (long i = 0; i < reads; i++)
			if (read(fd, buf, sizeof(buf)) < 0)
				break;
		t1 = now_ns();
		printf("  %-40s %8.1f ns/read\n", "bare read(2) of the fd", (t1 - t0) / reads);
	}
	pulse_counter__delete(c);
	return 0;
}

static void time_model(long reads)
{
	static struct perf_event_mmap_page pc;
	static volatile uint64_t pmc = 12345;
	struct pulse_counter_page_hooks hooks = { stub_rdpmc, cpu_rdtsc, (void *)&pmc };
	struct pulse_counter_value v;
	double t0, t1;
	uint64_t sum = 0;

	pc.capabilities = (1ULL << 2) | (1ULL << 3);
	pc.index = 1;
	pc.pmc_width = 48;
	pc.time_mult = 1431655765;
	pc.time_shift = 31;
	pc.time_enabled = 1000;
	pc.time_running = 500;
	t0 = now_ns();
	for (long i = 0; i < reads; i++) {
		pulse_counter_page__read(&pc, &hooks, &v);
		sum += v.scaled;
	}
	t1 = now_ns();
	printf("  %-40s %8.1f ns/read  (ran: mmap page; model, rdpmc stubbed%s)\n",
	       "pulse_counter_page__read, model page", (t1 - t0) / reads,
	       sum ? "" : "!");
}

int main(int argc, char **argv)
{
	long reads = argc > 1 ? atol(argv[1]) : 1000000;
	const char *event = argc > 2 ? argv[2] : "task-clock";

	if (reads <= 0)
		reads = 1;
	printf("counter-read: %s on the calling thread, %ld reads each way\n", event, reads);
	if (time_counter(event, false, reads, "pulse_counter__read, no page") ||
	    time_counter(event, true, reads, "pulse_counter__read, page mapped"))
		return 1;
	time_model(reads);
	return 0;
}
