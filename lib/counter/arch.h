/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU instructions the page reader needs (lib/counter/page.c): rdpmc
 * reads performance counter @counter (the page's index - 1) and rdtsc the
 * clock cap_user_time converts to ns. x86 only, as the kernel sets
 * cap_user_rdpmc there (arch/x86/events/core.c); elsewhere
 * pulse_arch_has_rdpmc is false and the reader falls back to read(2).
 * The #if lives here so that no .c file needs one.
 */
#ifndef PULSE_COUNTER_ARCH_H
#define PULSE_COUNTER_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
static const bool pulse_arch_has_rdpmc = true;

static inline uint64_t pulse_arch_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	/* faults (SIGSEGV) unless CR4.PCE: only call it when cap_user_rdpmc says so */
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t pulse_arch_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#else
static const bool pulse_arch_has_rdpmc = false;

static inline uint64_t pulse_arch_rdpmc(uint32_t counter)
{
	return 0;
}

static inline uint64_t pulse_arch_rdtsc(void)
{
	return 0;
}
#endif

#endif
