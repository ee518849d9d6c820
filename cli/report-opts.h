/* SPDX-License-Identifier: GPL-2.0 */
/* cli/report-opts.c: pulse report's option callbacks */
#ifndef PULSE_REPORT_OPTS_H
#define PULSE_REPORT_OPTS_H

#include <stdbool.h>
#include <pulse/callchain.h>
#include "parse-options.h"

/*
 * --percent-limit: perf's parse_percent_limit() sets the callchain
 * threshold too (a later -g with a threshold, or a bare -g, resets it)
 */
struct percent_limit_opt {
	double *limit;
	struct pulse_callchain_param *cc;
};

struct cc_opt {
	struct pulse_callchain_param *p;
	bool given;		/* -g (with or without an argument) */
};

/* -g/--call-graph: perf's report_parse_callchain_opt() */
int parse_call_graph(const struct option *opt, const char *arg, int unset);
/* --percent-limit (a struct percent_limit_opt) */
int parse_percent_limit(const struct option *opt, const char *arg, int unset);
/* an int option that is 1 when given, 0 when negated, left alone otherwise */
int parse_children(const struct option *opt, const char *arg, int unset);
/* an int option counting how often it is given (perf's OPT_INCR) */
int parse_incr(const struct option *opt, const char *arg, int unset);
/*
 * perf's -g takes the next argument when it does not start with '-':
 * "-g x" and "--call-graph x" become "--call-graph=x" in @out (@owned
 * holds it, for the caller to free). Return: the number of arguments in
 * @out, or -ENOMEM.
 */
int join_call_graph_arg(int argc, const char **argv, const char **out, char **owned);

struct pulse_report;
/* -F and the hpp sort keys: 0, or the exit status (129) after the error line */
int report_setup_fields(struct pulse_report *rep, const char *user_sort, const char *user_fields,
			bool show_nr, bool show_period);

#endif
