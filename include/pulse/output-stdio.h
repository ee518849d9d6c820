/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's --stdio tables (lib/output/stdio.c), byte for byte as perf
 * 6.1 prints them. Column widths come from every entry (also those the
 * percent limit hides): the longest comm (the thread's latest comm, as perf
 * measures it), DSO short name, "[x] " plus symbol name, 16 hex digits for
 * unresolved addresses; never narrower than the column's title. Columns are
 * separated by two spaces; every column but the last is padded.
 */
#ifndef PULSE_OUTPUT_STDIO_H
#define PULSE_OUTPUT_STDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/hist.h>

struct pulse_stdio_opts {
	size_t sz;		/* sizeof(struct pulse_stdio_opts) */
	bool show_nr_samples;	/* -n: a Samples column */
	bool show_total_period;	/* --show-total-period: a Period column */
	double percent_limit;	/* hide entries below this percentage */
	bool sort_starts_with_sym;	/* --sort sym...: lone chains skip their first frame */
	const char *time_slices;	/* --time as given: "(time slices: ...)" in the header */
	/*
	 * --mem-mode: the sort order, printed with the total weight in place
	 * of the event count; NULL otherwise
	 */
	const char *mem_sort_order;
	bool quiet;		/* -q: no event header, no column titles */
	bool verbose;		/* -v: DSOs' long names, symbols after address and origin */
	/*
	 * -t: columns joined by this string, not blanks: the numbers unpadded
	 * after a blank (then padded to their width but in the last column),
	 * its first character in a key's text made '.'; no dotted titles line
	 */
	const char *field_sep;
	/*
	 * "of events": the event leads a group of more than one (perf says it
	 * with --no-group too)
	 */
	bool group_leader;
};

/* Is the field @f of @opts given (set by a caller that knows it)? */
#define PULSE_STDIO_OPT(opts, f) \
	((opts) && (opts)->sz >= offsetof(struct pulse_stdio_opts, f) + sizeof((opts)->f))

/**
 * pulse_stdio__event_header - "# Samples: 4K of event 'x'" and the event count
 * @nr_samples: printed with perf's K/M/G scaling
 * @opts: may be NULL
 * Return: 0, or -EIO when @fp failed.
 */
int pulse_stdio__event_header(FILE *fp, const char *evname, uint64_t nr_samples,
			      uint64_t total_period, const struct pulse_stdio_opts *opts);

/*
 * The two title lines of a table: "# Overhead" (with @children "Children
 * Self"), -n's and --show-total-period's columns, then @n titles padded to
 * their widths; the dots under them; a "#" line.
 */
void pulse_stdio__fprintf_titles(FILE *fp, const struct pulse_stdio_opts *opts, bool children,
				 const char *const *titles, const int *widths, size_t n);

/**
 * pulse_hists__fprintf - the column titles and one line per entry of sorted
 * hists (pulse_hists__sort(), pulse_hists__sort_chains()), a Children
 * column in cumulate mode, each entry's callchains under it
 * @opts: may be NULL
 * Return: 0, or -EIO when @fp failed.
 */
int pulse_hists__fprintf(const struct pulse_hists *h, FILE *fp,
			 const struct pulse_stdio_opts *opts);

#endif
