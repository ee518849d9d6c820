/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PULSE_BUILTIN_H
#define PULSE_BUILTIN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

/*
 * Each command returns its exit status. Usage errors exit with 129 (git and
 * perf's subcmd value), runtime errors with 1.
 */
#define PULSE_EXIT_USAGE 129

/*
 * A command that reads a recording runs itself again, once, with glibc's
 * heap in 2 MiB pages (hugepages.c); returns when it does not.
 */
void malloc_hugepages(const char **argv);

int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_data(int argc, const char **argv);

/*
 * cli/report-dump.c: `pulse report -D`, perf's --dump-raw-trace of @input
 * on @out; returns the exit status. Weak: a build without that file has
 * no -D (cmd_report() checks for NULL).
 */
int report_dump_raw(const char *input, FILE *out, int branch_mode) __attribute__((weak));
/* cli/report-dump.c: --stats, the counts -D closes with (perf report --stats) */
int report_stats(const char *input, FILE *out);

/*
 * cli/data-pprof.c: `pulse data convert --to-pprof @output [-i @input]
 * [--force]` (@input NULL: perf.data); prints its own error and hint
 * lines, returns the exit status. Weak: cmd-data.c checks for NULL.
 */
int data_convert_pprof(const char *input, const char *output, bool force) __attribute__((weak));

/* cli/strerror-hints.c: one `hint:` line of advice for an errno, or NULL. */
const char *hint_for_open_error(int err, const char *event);
const char *hint_for_mmap_error(int err);
struct pulse_parse_error;
/*
 * An -e that did not parse: its error (and hint) lines; the exit status:
 * usage (129), or 1 for a tracefs we may not read
 */
int event_parse_failed(const char *arg, int err, const struct pulse_parse_error *perr);

struct pulse_data;
/* cli/data-messages.c: the damage table's error and warning lines. */
void data_error(const char *verb, const char *input, int err);
void data_warn_damage(const struct pulse_data *d);
/* -EPERM (error and hint printed) for a file of another user, unless @force */
int data_check_owner(const char *input, bool force);
/* perf's "N out of order events recorded." warning, if any were */
void data_warn_unordered(uint64_t nr_unordered);
struct pulse_aux_stats;
/* perf's "AUX data lost N times out of M!" and "N instruction trace errors" warnings */
void data_warn_aux(const struct pulse_aux_stats *st);
void data_warn_lost(uint64_t lost, uint64_t nr_samples);

/*
 * cli/data-messages.c: the input when no -i is given: "-" (perf's rule)
 * when stdin is a pipe, else "perf.data".
 */
const char *default_input(void);

/*
 * cli/output-file.c: an output that is whole or absent. open() prints the
 * error (and hint) line and returns the exit status, or 0 with @fp to
 * write to; close(@err: the writer's 0 or -errno) flushes, renames the
 * temporary file over the output, prints the error line on failure and
 * returns the exit status; abort() drops what was written.
 */
#define OUTPUT_STDOUT	1	/* "-" is standard output */
#define OUTPUT_EXCL	2	/* an output that exists is refused (no --force) */
struct output_file {
	FILE *fp;
	const char *path;	/* as given */
	char *target;		/* a symlink's target, written instead */
	char *tmp;		/* the temporary file, NULL when writing in place */
};
int output_file__open(struct output_file *of, const char *path, unsigned int flags);
int output_file__close(struct output_file *of, int err);
void output_file__abort(struct output_file *of);

struct pulse_hist_filter;
struct pulse_session;
/*
 * cli/data-messages.c: perf's --time for @s (percentages of its sample
 * time span), with the error lines; returns 0 or the negative errno.
 */
int parse_time_filter(struct pulse_hist_filter *f, struct pulse_session *s, const char *str);
/*
 * cli/data-messages.c: pulse_hist_filter__setup() with its error line;
 * returns 0 or the exit status
 */
int setup_filter(struct pulse_hist_filter *f);

/*
 * cli/pager.c: setup_pager() pipes stdout (and a terminal stderr) into
 * $PULSE_PAGER, $PAGER or less when stdout is a terminal; pager_finish()
 * waits for it; pager_disable() is --no-pager. program_in_path(): the first
 * word of @cmdline names an executable (a path, or found in $PATH).
 */
void setup_pager(void);
void pager_finish(void);
void pager_disable(void);
bool program_in_path(const char *cmdline);

/*
 * cli/help.c: show pulse-@cmd(1) (pulse(1) for NULL) through man, or as
 * plain text through the pager; returns the exit status.
 */
int show_man_page(const char *cmd);

/* cli/perf-hints.c: for a perf command pulse lacks, the hint line in @buf */
bool perf_command_hint(const char *cmd, char *buf, size_t sz);

/* Print "error: ..." on stderr (git's error()). */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
