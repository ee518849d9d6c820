/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small option parser in the manner of perf's tools/lib/subcmd: a table
 * of options with short and long names; long names may be abbreviated to
 * any unique prefix; `--` or the first non-option ends the options when
 * PARSE_OPT_STOP_AT_NON_OPTION is given. As in perf, --no-<long> clears a
 * boolean and calls a callback that takes no or an optional argument with
 * unset = 1 (not with PARSE_OPT_NONEG); an exact option named "no-..." wins.
 */
#ifndef PULSE_PARSE_OPTIONS_H
#define PULSE_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum option_type {
	OPTION_END,
	OPTION_BOOLEAN,		/* bool *; --no-<long> clears it */
	OPTION_STRING,		/* const char ** */
	OPTION_INTEGER,		/* int * */
	OPTION_U64,		/* uint64_t * */
	OPTION_CALLBACK,	/* int (*cb)(const struct option *, const char *arg, int unset) */
};

struct option {
	enum option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* argument name for help, NULL: no argument */
	const char *help;
	int (*callback)(const struct option *opt, const char *arg, int unset);
	bool optional_arg;	/* the argument may be omitted (--call-graph) */
	int flags;		/* PARSE_OPT_NONEG */
};

#define OPT_BOOLEAN(s, l, v, h) { OPTION_BOOLEAN, (s), (l), (v), NULL, (h) }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, (s), (l), (v), (a), (h) }
#define OPT_INTEGER(s, l, v, h) { OPTION_INTEGER, (s), (l), (v), "n", (h) }
#define OPT_U64(s, l, v, h) { OPTION_U64, (s), (l), (v), "n", (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) { OPTION_CALLBACK, (s), (l), (v), (a), (h), (cb) }
#define OPT_CALLBACK_NOOPT(s, l, v, h, cb) { OPTION_CALLBACK, (s), (l), (v), NULL, (h), (cb) }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, cb) \
	{ OPTION_CALLBACK, (s), (l), (v), (a), (h), (cb), true }
/*
 * A boolean that remembers whether it was given: the int is set to 1 by
 * --<long>, 0 by --no-<long>, and keeps the caller's -1 otherwise.
 */
#define OPT_TRISTATE(s, l, v, h) { OPTION_CALLBACK, (s), (l), (v), NULL, (h), parse_opt_tristate }
#define OPT_END() { OPTION_END }

#define PARSE_OPT_STOP_AT_NON_OPTION 1	/* parse_options() flag */
#define PARSE_OPT_NONEG 1			/* option flag: no --no-<long> */

/**
 * parse_options - parse argv against the table
 * Return: the number of remaining arguments (moved to the front of argv),
 * or -1 after printing one `error:` line naming the bad option (the caller
 * exits with 129, printing usage if it likes). -h and --help, when the table
 * has no such option, return -1 with no error line: the caller's usage is
 * then the answer, exit 129, as perf's. (`pulse CMD --help` with --help
 * first never gets here: the dispatcher shows the manual, as perf does.)
 */
int parse_options(int argc, const char **argv, const struct option *opts, int flags);

/* OPT_TRISTATE()'s callback */
int parse_opt_tristate(const struct option *opt, const char *arg, int unset);

void usage_with_options(const char *const *usage, const struct option *opts);

#endif
