/* SPDX-License-Identifier: GPL-2.0 */
/* lib/output/stdio-mem.c, for stdio.c: the memory keys' columns */
#ifndef PULSE_OUTPUT_STDIO_MEM_H
#define PULSE_OUTPUT_STDIO_MEM_H

#include <stddef.h>
#include <pulse/hist.h>

/* the memory keys' widths, indexed by key, from @h's shown entries */
void pulse_stdio_mem__widths(const struct pulse_hists *h, int *widths);

/* one memory key's column for @e, padded as perf pads it */
int pulse_stdio_mem__snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
			      enum pulse_sort_key key, int width);

#endif
