// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a counter from its perf_event_mmap_page, without a system call.
 *
 * The kernel updates the page (kernel/events/core.c
 * perf_event_update_userpage(), with arch_perf_update_userpage() filling
 * the time fields on x86) as a seqcount writer: ++lock, barrier, the
 * fields, barrier, ++lock. The reader is the loop the UAPI header
 * documents above struct perf_event_mmap_page:
 *
 *   seq = lock; enabled, running; (cap_user_time) cyc = rdtsc(), time_mult,
 *   time_shift, time_offset [, time_cycles, time_mask]; index, count =
 *   offset; (cap_user_rdpmc && index) pmc = rdpmc(index - 1), pmc_width;
 *   again while lock != seq.
 *
 * then: pmc sign-extended from pmc_width and added to offset; the clock
 * read converted to the ns elapsed since the page was written (delta =
 * time_offset + cyc * time_mult >> time_shift, in quot/rem form so it does
 * not overflow) and added to enabled, and to running when the event is on
 * a counter; the count scaled by them (pulse_counts__scale()).
 *
 * Two choices beyond the UAPI's loop, both safe with the real kernel:
 * - An odd lock is retried. The kernel writes the page on the reader's own
 *   CPU from the scheduler or an interrupt, so a self-monitoring reader is
 *   never running while the page is half written; a writer on another CPU
 *   (the model tests drive one) can be caught mid-update with lock the same
 *   before and after the read.
 * - The clock is read whenever cap_user_time, not only when enabled !=
 *   running as the UAPI's sample does, so that the times returned are those
 *   of the read, not of the last update; the scaled count is the same.
 *
 * Every load of the page is an atomic one (relaxed, between an acquire of
 * lock and an acquire fence before lock is read again): on x86 these are
 * plain loads, and ThreadSanitizer can check the protocol against a writer.
 */
#include <errno.h>
#include <pulse/counter.h>
#include <pulse/evlist.h>

#include "counter/arch.h"

#define CAP_USER_RDPMC		(1ULL << 2)
#define CAP_USER_TIME		(1ULL << 3)
#define CAP_USER_TIME_ZERO	(1ULL << 4)
#define CAP_USER_TIME_SHORT	(1ULL << 5)

#define LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

static uint64_t cpu_rdpmc(void *arg, uint32_t counter)
{
	return pulse_arch_rdpmc(counter);
}

static uint64_t cpu_rdtsc(void *arg)
{
	return pulse_arch_rdtsc();
}

static const struct pulse_counter_page_hooks cpu_hooks = {
	.rdpmc = cpu_rdpmc,
	.rdtsc = cpu_rdtsc,
};

/* cyc converted by mult/shift, the UAPI's quot/rem form (no overflow of cyc * mult). */
static uint64_t cyc_to_ns(uint64_t cyc, uint32_t mult, uint16_t shift)
{
	uint64_t quot = cyc >> shift, rem = cyc & ((1ULL << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
}

/* The page's fields one pass of the loop reads. */
struct page_snap {
	uint64_t ena, run, caps, cyc, time_offset, time_zero, time_cycles, time_mask;
	uint32_t index, time_mult;
	uint16_t time_shift, width;
	int64_t count, pmc;
};

int pulse_counter_page__read(const struct perf_event_mmap_page *pc,
			     const struct pulse_counter_page_hooks *hooks,
			     struct pulse_counter_value *v)
{
	struct perf_event_mmap_page *p = (struct perf_event_mmap_page *)pc;
	struct pulse_counts counts;
	struct page_snap s;
	uint32_t seq;

	if (!hooks) {
		if (!pulse_arch_has_rdpmc)
			return -EAGAIN;
		hooks = &cpu_hooks;
	}
	do {
		seq = __atomic_load_n(&p->lock, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue; /* mid-update (see above): __atomic ordering re-reads lock */
		s = (struct page_snap){};
		s.ena = LOAD(p->time_enabled);
		s.run = LOAD(p->time_running);
		s.caps = LOAD(p->capabilities);
		if (s.caps & CAP_USER_TIME) {
			s.cyc = hooks->rdtsc(hooks->arg);
			s.time_offset = LOAD(p->time_offset);
			s.time_mult = LOAD(p->time_mult);
			s.time_shift = LOAD(p->time_shift);
			if (s.caps & CAP_USER_TIME_ZERO)
				s.time_zero = LOAD(p->time_zero);
			if (s.caps & CAP_USER_TIME_SHORT) {
				s.time_cycles = LOAD(p->time_cycles);
				s.time_mask = LOAD(p->time_mask);
			}
		}
		s.index = LOAD(p->index);
		s.count = LOAD(p->offset);
		if (!(s.caps & CAP_USER_RDPMC) || !s.index)
			return -EAGAIN; /* the page holds no current count */
		s.width = LOAD(p->pmc_width);
		s.pmc = hooks->rdpmc(hooks->arg, s.index - 1);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || __atomic_load_n(&p->lock, __ATOMIC_RELAXED) != seq);

	/* the PMC is pmc_width bits wide; the kernel starts it at -left to overflow */
	if (s.width > 0 && s.width < 64)
		s.pmc = (int64_t)((uint64_t)s.pmc << (64 - s.width)) >> (64 - s.width);
	s.count += s.pmc;
	*v = (struct pulse_counter_value){ .source = PULSE_COUNTER_MMAP };
	if (s.caps & CAP_USER_TIME) {
		uint64_t delta;

		/* a clock narrower than 64 bits: the form that keeps cap_user_time right */
		if (s.caps & CAP_USER_TIME_SHORT)
			s.cyc = s.time_cycles + ((s.cyc - s.time_cycles) & s.time_mask);
		delta = s.time_offset + cyc_to_ns(s.cyc, s.time_mult, s.time_shift);
		s.ena += delta;
		s.run += delta; /* index != 0 here: it is on the PMU */
		if (s.caps & CAP_USER_TIME_ZERO)
			v->time = s.time_zero + cyc_to_ns(s.cyc, s.time_mult, s.time_shift);
	}
	v->val = s.count;
	v->ena = s.ena;
	v->run = s.run;
	counts = (struct pulse_counts){ .val = v->val, .ena = v->ena, .run = v->run };
	pulse_counts__scale(&counts);
	v->scaled = counts.val;
	return 0;
}
