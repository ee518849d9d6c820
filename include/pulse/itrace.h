/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --itrace=OPTS: which events a decoder of AUX area trace synthesizes, as
 * perf 6.1 parses them (tools/perf/util/auxtrace.c,
 * itrace_do_parse_synth_opts(); tools/perf/Documentation/itrace.txt):
 *
 *   i[N(i|t|ns|us|ms)]  instructions, every N (default 100us)
 *   b branches  c calls  r returns  x transactions  w ptwrites
 *   p power events  o other events  I interrupt events
 *   e[+|-flag...] errors  d[+|-flag...] debug log  (flags: a lowercase letter)
 *   g[N] / G[N] callchain of N (1..1024, default 16), synthesized / added
 *   l[N] / L[N] last branch entries (1..1024, default 64)
 *   sN skip the first N events
 *   f m t a M   first/last level cache, TLB, remote access, memory events
 *   q quicker (less detailed) decoding, counted   A approximate IPC
 *   Z timeless decoding   ' ' and ',' separate
 */
#ifndef PULSE_ITRACE_H
#define PULSE_ITRACE_H

#include <stdbool.h>
#include <stdint.h>

enum pulse_itrace_period {
	PULSE_ITRACE_PERIOD_TICKS,
	PULSE_ITRACE_PERIOD_INSTRUCTIONS,
	PULSE_ITRACE_PERIOD_NANOSECS,
};

#define PULSE_ITRACE_DEFAULT_PERIOD 100000	/* with PERIOD_NANOSECS: 100us */
#define PULSE_ITRACE_DEFAULT_CALLCHAIN_SZ 16
#define PULSE_ITRACE_MAX_CALLCHAIN_SZ 1024
#define PULSE_ITRACE_DEFAULT_LAST_BRANCH_SZ 64
#define PULSE_ITRACE_MAX_LAST_BRANCH_SZ 1024

/* perf's struct itrace_synth_opts, the fields its parser sets */
struct pulse_itrace_opts {
	bool set;		/* --itrace or --no-itrace was given */
	bool dont_decode;	/* --no-itrace */
	bool default_no_sample;	/* the command's default is perf script's (see below) */
	bool instructions, branches, transactions, ptwrites, pwr_events, other_events;
	bool intr_events, errors, log, calls, returns, callchain, add_callchain;
	bool last_branch, add_last_branch, flc, llc, tlb, remote_access, mem;
	bool approx_ipc, timeless_decoding;
	unsigned int quick;
	unsigned int callchain_sz, last_branch_sz;
	unsigned long initial_skip;
	uint64_t period;
	enum pulse_itrace_period period_type;
	unsigned int error_plus_flags, error_minus_flags;	/* bit c - 'a' */
	unsigned int log_plus_flags, log_minus_flags;
};

/**
 * pulse_itrace__parse - parse an --itrace argument as perf 6.1 does
 * @o: updated (options given twice add up, as in perf)
 * @str: the argument; NULL: the command's default (see
 *       pulse_itrace__set_default()) with @o->default_no_sample
 *
 * Return: 0, or -EINVAL for a bad string (perf: "Bad Instruction Tracing
 * options '%s'", a usage error).
 */
int pulse_itrace__parse(struct pulse_itrace_opts *o, const char *str);

/**
 * pulse_itrace__set_default - perf's itrace_synth_opts__set_default()
 * @no_sample: perf script's default (branches filtered to calls, no
 *             instructions: "--itrace=ce" plus power, ptwrite, ...); false:
 *             perf report's (instructions every 100us)
 */
void pulse_itrace__set_default(struct pulse_itrace_opts *o, bool no_sample);

#endif
