/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PULSE_BUILTIN_H
#define PULSE_BUILTIN_H

#include <stdbool.h>
#include <stdio.h>
#include <pulse/hist-branch.h>

/*
 * Each command returns its exit status. Usage errors exit with 129 (git and
 * perf's subcmd value), runtime errors with 1.
 */
#define PULSE_EXIT_USAGE 129

int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_list(int argc, const char **argv);

/*
 * cli/report-dump.c: `pulse report -D`, perf's --dump-raw-trace of @input
 * on @out; returns the exit status. Weak: a build without that file has
 * no -D (cmd_report() checks for NULL).
 */
int report_dump_raw(const char *input, FILE *out, int branch_mode) __attribute__((weak));
/* cli/report-dump.c: --stats, the counts -D closes with (perf report --stats) */
int report_stats(const char *input, FILE *out);

struct pulse_data;
/*
 * cli/report-branch.c: does report run in branch mode? @forced is
 * --branch-stack (1), --no-branch-stack (0) or neither (-1).
 */
bool report_branch_mode(struct pulse_data *d, int forced);

/* cli/report-branch.c: report in branch mode, one hists per event */
struct report_branch {
	bool on;
	enum pulse_branch_sort_key keys[PULSE_BSORT_MAX_KEYS];
	size_t nr_keys;
	struct pulse_branch_hists *hists;
	size_t nr_hists;
	struct pulse_branch_type_stat stat;
	struct pulse_branch_print_state print_state;
	__u64 *lbr_chain;		/* call-stack mode callchains, in any mode */
	size_t lbr_alloc;
};
struct pulse_machine;
struct pulse_sample;
struct pulse_addr_loc;
struct pulse_stdio_opts;
/* --branch-stack on a file without branch stacks: the error line, true */
bool report_branch__no_data(struct pulse_data *d);
/* the sort keys (perf's default, or --sort's): 0 or the exit status */
int report_branch__setup(struct report_branch *rb, const char *user_sort);
void report_branch__exit(struct report_branch *rb);
/* @hidden: a filter hides the sample (its branches count in the totals only) */
int report_branch__sample(struct report_branch *rb, struct pulse_machine *m, size_t idx,
			  const struct pulse_sample *s, const struct pulse_addr_loc *al, bool hidden);
/* "# comm: NAME" and the comm column hidden, for a --comms of one name (dso, symbol too) */
void report_branch__elide(struct report_branch *rb, FILE *fp, const char *comms,
			  const char *dsos, const char *symbols);
bool report_branch__has_samples(const struct report_branch *rb);
/* event @idx's table, if it has branches: header, rows, two newlines */
int report_branch__print_event(struct report_branch *rb, size_t idx, FILE *fp, const char *evname,
			       const struct pulse_stdio_opts *sopts, bool relative);

/* cli/strerror-hints.c: one `hint:` line of advice for an errno, or NULL. */
const char *hint_for_open_error(int err, const char *event);
const char *hint_for_mmap_error(int err);

struct pulse_data;
/* cli/data-messages.c: the damage table's error and warning lines. */
void data_error(const char *verb, const char *input, int err);
void data_warn_damage(const struct pulse_data *d);
/* perf's "N out of order events recorded." warning, if any were */
struct pulse_ordered;
void data_warn_unordered(const struct pulse_ordered *oq);

struct pulse_hist_filter;
/*
 * cli/data-messages.c: perf's --time for @d (percentages of its sample
 * time span), with the error lines; returns 0 or the negative errno.
 */
int parse_time_filter(struct pulse_hist_filter *f, struct pulse_data *d, const char *str);
/*
 * cli/data-messages.c: pulse_hist_filter__setup() with its error line;
 * returns 0 or the exit status
 */
int setup_filter(struct pulse_hist_filter *f);

/* Print "error: ..." on stderr (git's error()). */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
