/* SPDX-License-Identifier: GPL-2.0 */
/* Inside lib/output: what stdio.c (the rows) and stdio-rows.c (two threads) share. */
#ifndef PULSE_OUTPUT_STDIO_INT_H
#define PULSE_OUTPUT_STDIO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pulse/hist.h>
#include <pulse/output-stdio.h>

/* The columns' widths of a table (perf's hists__calc_col_len()). */
struct widths {
	int comm;	/* Command */
	int pid;	/* Pid:Command */
	int dso;	/* Shared Object */
	int sym;	/* Symbol */
	int trace;	/* Trace output */
	int parent;	/* Parent symbol */
	int srcline;	/* Source:Line */
	int mem[PULSE_SORT_INS_LAT + 1];	/* the memory keys' (stdio-mem.c) */
	bool verbose;	/* -v: DSOs' long names, symbols after their address */
	const char *sep;	/* -t: the field separator, or NULL */
};

/* the rows of entries [@from, @to) with their callchains */
void pulse_stdio__print_rows(const struct pulse_hists *h, const struct pulse_stdio_opts *opts,
			     const struct widths *wp, FILE *fp, size_t from, size_t to);

/*
 * The rows on this thread and a second one. Return: 0, or -EAGAIN when the
 * caller should print on its own (small tables, no thread).
 */
int pulse_stdio__print_rows_parallel(const struct pulse_hists *h,
				     const struct pulse_stdio_opts *opts, const struct widths *w,
				     FILE *fp);

#endif
