/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pulse diff (lib/diff/): the histograms of one event in several files
 * (the report tool's, one per file, lib/report/) compared as perf 6.1's
 * `perf diff` compares them: the first file is the baseline; each entry of
 * another file is paired with the baseline's entry of the same keys (DSOs
 * by short name, symbols by name, unresolved addresses by address: perf's
 * hists__match()), and one the baseline lacks becomes a row of its own
 * with no baseline (perf's hists__link() dummy entry). Each pair gets a
 * delta of percentages, a ratio or a weighted difference of periods; the
 * rows are ordered by perf's sort list in diff mode and printed as
 * `perf diff` prints them.
 *
 *  lib/diff/diff.c   the rows: pairing, the computed values, the order
 *  lib/diff/print.c  the table: titles, widths, the cells
 *  lib/diff/process.c the files' walks, on a thread each
 *
 * Usage: pulse_diff__new() with the files' hists of one event (those of
 * files without that event NULL), pulse_diff__fprintf(), pulse_diff__delete().
 */
#ifndef PULSE_DIFF_H
#define PULSE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/hist.h>

struct pulse_data;

/* perf's -c/--compute */
enum pulse_diff_compute {
	PULSE_DIFF_DELTA,	/* "delta": new% - old%, column "Delta" */
	PULSE_DIFF_DELTA_ABS,	/* "delta-abs" (the default): the same, ordered by |delta| */
	PULSE_DIFF_RATIO,	/* "ratio": new period / old period */
	PULSE_DIFF_WDIFF,	/* "wdiff:w1,w2": new period * w2 - old period * w1 */
};

struct pulse_diff_opts {
	size_t sz;			/* sizeof(struct pulse_diff_opts) */
	enum pulse_diff_compute compute;	/* -c */
	int64_t w1, w2;			/* wdiff's weights (non-zero) */
	/*
	 * -o: the file whose computed column orders the rows first (perf's
	 * sort_compute, default 1); 0: the baseline's period first
	 */
	unsigned int order;
	bool show_period;		/* -p: "Base period" and "Period" columns */
	bool show_formula;		/* -F: a "Formula" column per file */
	bool baseline_only;		/* -b: only entries the baseline has and another file too */
	bool relative;			/* --percentage relative: of what the filters let through */
	bool quiet;			/* -q: no event line, no titles */
	/* bit k set: sort key keys[k] is not a column (perf's sort__setup_elide()) */
	uint32_t hidden_keys;
	bool list_files;		/* -v: "# Data files:" with two files too */
};
#define pulse_diff_opts__last_field list_files

struct pulse_diff;

/**
 * pulse_diff__new - pair the entries of one event across files
 * @hists: @nr_files hists (complete: shards merged), the baseline first; a
 * NULL is a file without the event. Borrowed: they must outlive the diff.
 * @keys, @nr_keys: the sort keys the hists were made with (comm, pid, dso,
 * sym and cpu pair across files; see pulse_diff__key_ok())
 * Return: 0 and *@out, or -EINVAL (no baseline, bad options, a key that
 * cannot pair), -ENOMEM.
 */
int pulse_diff__new(struct pulse_diff **out, struct pulse_hists *const *hists, size_t nr_files,
		    const enum pulse_sort_key *keys, size_t nr_keys,
		    const struct pulse_diff_opts *opts);
void pulse_diff__delete(struct pulse_diff *diff);

/* Can entries of different files be paired by @key? */
bool pulse_diff__key_ok(enum pulse_sort_key key);

/* Rows the table has (those a filter hides included). */
size_t pulse_diff__nr_rows(const struct pulse_diff *diff);

/**
 * pulse_diff__fprintf - the table as perf diff prints it: unless quiet,
 * "# Event 'NAME'" (after a blank line unless @first), "# Data files:"
 * with more than two files (or opts' list_files), the column titles and dots; then the rows
 * @paths: the files' names, for "# Data files:"
 * Return: 0, or -EIO when writing to @fp failed.
 */
int pulse_diff__fprintf(const struct pulse_diff *diff, FILE *fp, const char *evname, bool first,
			const char *const *paths);

struct pulse_report;

/**
 * pulse_diff__process - pulse_report__process() of each report, each on
 * its own thread (the reports, their sessions and machines apart)
 * @errs: @nr results, each report's
 * Return: 0, the first report's error in order, or -ENOMEM.
 */
int pulse_diff__process(struct pulse_report *const *reps, size_t nr, int *errs);

/**
 * pulse_diff__match_event - perf's evsel__match2(): the first event of
 * @other with the type and config of event @idx of @base
 * Return: its index, or -ENOENT.
 */
int pulse_diff__match_event(const struct pulse_data *base, size_t idx,
			    const struct pulse_data *other);

#endif
