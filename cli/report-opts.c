// SPDX-License-Identifier: GPL-2.0
/*
 * pulse report's option callbacks and argument rewriting, as perf 6.1's
 * builtin-report.c parses them (cli/report-opts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "report-opts.h"
#include <pulse/report.h>

int parse_percent_limit(const struct option *opt, const char *arg, int unset)
{
	struct percent_limit_opt *o = opt->value;
	char *end;
	double v;

	if (unset) {
		*o->limit = 0;
		return 0;
	}
	v = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%"))) {
		error("invalid --percent-limit '%s'", arg);
		return -1;
	}
	*o->limit = v;
	o->cc->min_percent = v;
	return 0;
}

/* an int option that is 1 when given, 0 when negated, left alone otherwise */
int parse_children(const struct option *opt, const char *arg, int unset)
{
	*(int *)opt->value = !unset;
	return 0;
}

/* an int option counting how often it is given (perf's OPT_INCR) */
int parse_incr(const struct option *opt, const char *arg, int unset)
{
	int *v = opt->value;

	*v = unset ? 0 : *v + 1;
	return 0;
}

/*
 * perf's -g takes the next argument when it does not start with '-'
 * (PARSE_OPT_LASTARG_DEFAULT), which the option parser does not do:
 * "-g x" and "--call-graph x" become "--call-graph=x" in @out.
 */
int join_call_graph_arg(int argc, const char **argv, const char **out, char **owned)
{
	int n = 0;

	*owned = NULL;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool is_g = !strcmp(a, "-g") ||
			    (strlen(a) > 3 && !strncmp("--call-graph", a, strlen(a)));

		if (!strcmp(a, "--"))
			is_g = false;
		if (is_g && !*owned && i + 1 < argc && argv[i + 1][0] != '-') {
			if (asprintf(owned, "--call-graph=%s", argv[i + 1]) < 0)
				return -ENOMEM;
			out[n++] = *owned;
			i++;
			continue;
		}
		out[n++] = a;
	}
	out[n] = NULL;
	return n;
}

/* -g/--call-graph: perf's report_parse_callchain_opt() */
int parse_call_graph(const struct option *opt, const char *arg, int unset)
{
	struct cc_opt *o = opt->value;

	if (unset) {
		o->p->enabled = false;
		o->given = false;
		return 0;
	}
	o->given = true;
	/* a bare -g is perf's callchain_default_opt */
	if (pulse_callchain_param__parse(o->p, arg ? arg : "graph,0.5,caller,function,percent")) {
		error("invalid --call-graph argument '%s'", arg);
		return -1;
	}
	return 0;
}

/* -F and the hpp sort keys: 0, or the exit status after the error line */
int report_setup_fields(struct pulse_report *rep, const char *user_sort, const char *user_fields,
			bool show_nr, bool show_period)
{
	const char *bad = "";
	size_t bad_len = 0;
	int err = pulse_report__setup_fields(rep, user_sort, user_fields, show_nr, show_period,
					     &bad, &bad_len);

	if (err == -ESRCH)
		error("unknown --fields key '%.*s' (known: %s)", (int)bad_len, bad,
		      pulse_sort_keys__known());
	else if (err == -EINVAL)
		error("invalid --fields key '%.*s'", (int)bad_len, bad);
	else if (err)
		error("too many --fields and --sort keys");
	return err ? PULSE_EXIT_USAGE : 0;
}
