/* SPDX-License-Identifier: GPL-2.0 */
/* Inside lib/diff: the rows diff.c makes and print.c prints. */
#ifndef PULSE_DIFF_INT_H
#define PULSE_DIFF_INT_H

#include <pulse/diff.h>

/*
 * One row: an entry of the baseline, or of a later file when the
 * baseline lacks it (perf's dummy entry, with no period of its own).
 */
struct diff_row {
	const struct pulse_hist_entry *e;	/* the entry whose keys are printed */
	bool dummy;				/* not in the baseline */
	uint64_t period;			/* the baseline's period (0: dummy) */
	uint32_t born;				/* creation order: the last tie-break */
};

struct pulse_diff {
	struct pulse_diff_opts opts;		/* as given */
	size_t nr_files;			/* the baseline and the others */
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];	/* the hists' keys */
	size_t nr_keys;
	struct pulse_hists *const *hists;	/* borrowed, nr_files (NULL: no such event) */
	struct diff_row *rows;			/* in output order after diff__sort() */
	size_t nr_rows;
	/* per row and file (row * nr_files + file), slot 0 unused */
	const struct pulse_hist_entry **pair;	/* the file's entry, or NULL */
	uint64_t *pperiod;			/* its period, with those merged into it */
	double *value;				/* delta or ratio of that pair */
	int64_t *wdiff;				/* the weighted diff of that pair */
	/*
	 * The totals the percentages divide by: per file as the samples
	 * summed (perf's stats before output_resort, which the computed
	 * values use), and the baseline's after -b dropped rows (perf's
	 * output_resort sums, which the Baseline column uses)
	 */
	uint64_t *total;
	uint64_t base_total;
};

#endif
