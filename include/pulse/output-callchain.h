/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Callchains under perf report --stdio entries (lib/output/callchain.c),
 * as perf 6.1's ui/stdio/hist.c prints them in graph, fractal, flat and
 * folded modes.
 */
#ifndef PULSE_OUTPUT_CALLCHAIN_H
#define PULSE_OUTPUT_CALLCHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/callchain.h>

/**
 * pulse_callchain__fprintf - an entry's sorted chains (pulse_cc_root__sort())
 * @total: the event's total period (graph and flat percentages)
 * @parent: the entry's own period (children period in --children mode)
 * @skip_first: leave out the first frame of a lone chain (perf does when
 *              --sort starts with "sym": it is the entry's symbol)
 * Return: 0, or -EIO when @fp failed.
 */
int pulse_callchain__fprintf(FILE *fp, const struct pulse_cc_root *root,
			     const struct pulse_callchain_param *p, uint64_t total,
			     uint64_t parent, bool skip_first);

#endif
