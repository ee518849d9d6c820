// SPDX-License-Identifier: GPL-2.0
/* Option parsing for the commands; see parse-options.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "parse-options.h"

static int get_value(const struct option *o, const char *arg, int unset, const char *shown)
{
	char *end;

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_INTEGER: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end) {
			error("option '%s' expects a number, not '%s'", shown, arg);
			return -1;
		}
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPTION_U64: {
		unsigned long long v;

		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || arg[0] == '-') {
			error("option '%s' expects a number, not '%s'", shown, arg);
			return -1;
		}
		*(uint64_t *)o->value = v;
		return 0;
	}
	case OPTION_CALLBACK:
		return o->callback(o, arg, unset) ? -1 : 0;
	case OPTION_END:
		break;
	}
	return -1;
}

int parse_opt_tristate(const struct option *opt, const char *arg, int unset)
{
	*(int *)opt->value = !unset;
	return 0;
}

static bool negatable(const struct option *o)
{
	if (o->flags & PARSE_OPT_NONEG)
		return false;
	return o->type == OPTION_BOOLEAN ||
	       (o->type == OPTION_CALLBACK && (!o->argh || o->optional_arg));
}

static const struct option *find_long(const struct option *opts, const char *name, size_t len,
				      int *unset)
{
	const struct option *found = NULL;
	int nr = 0, neg = 0, neg_found = 0;

	if (len > 3 && !strncmp(name, "no-", 3))
		neg = 1;
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) {
			*unset = 0;
			return o;
		}
	}
	/* --no-foo: foo unset, when foo may be */
	for (const struct option *o = opts; neg && o->type != OPTION_END; o++) {
		if (o->long_name && strlen(o->long_name) == len - 3 &&
		    !strncmp(o->long_name, name + 3, len - 3) && negatable(o)) {
			*unset = 1;
			return o;
		}
	}
	/* abbreviations, of --foo or of --no-foo */
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		if (!o->long_name)
			continue;
		if (!strncmp(o->long_name, name, len)) {
			nr++;
			found = o;
			neg_found = 0;
		} else if (neg && negatable(o) && !strncmp(o->long_name, name + 3, len - 3)) {
			nr++;
			found = o;
			neg_found = 1;
		}
	}
	if (nr == 1) {
		*unset = neg_found;
		return found;
	}
	if (nr > 1) {
		*unset = -1; /* ambiguous */
		return NULL;
	}
	*unset = 0;
	return NULL;
}

/* -h and --help are the parser's own unless the table has them (perf's subcmd) */
static bool table_has(const struct option *opts, int short_name, const char *long_name)
{
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		if (short_name && o->short_name == short_name)
			return true;
		if (long_name && o->long_name && !strcmp(o->long_name, long_name))
			return true;
	}
	return false;
}

int parse_options(int argc, const char **argv, const struct option *opts, int flags)
{
	int out = 0, i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int unset;
			const struct option *o = find_long(opts, name, len, &unset);
			const char *arg = eq ? eq + 1 : NULL;

			if (!eq && !strcmp(name, "help") && !table_has(opts, 0, "help"))
				return -1;	/* the caller prints the usage */
			if (!o) {
				error(unset < 0 ? "ambiguous option '--%.*s'" :
						  "unknown option '--%.*s'", (int)len, name);
				return -1;
			}
			if (o->type == OPTION_BOOLEAN || (o->type == OPTION_CALLBACK && !o->argh) ||
			    unset) {
				if (arg) {
					error("option '--%s%s' takes no value", unset ? "no-" : "",
					      o->long_name);
					return -1;
				}
			} else if (!arg && !unset && !o->optional_arg) {
				if (i + 1 >= argc) {
					error("option '--%s' requires a value", o->long_name);
					return -1;
				}
				arg = argv[++i];
			}
			char shown[128];

			snprintf(shown, sizeof(shown), "--%s", o->long_name);
			if (get_value(o, arg, unset, shown))
				return -1;
			continue;
		}
		/* A cluster of short options: -ag, -e ev, -eev, -F99. */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o = opts;

			while (o->type != OPTION_END && o->short_name != *p)
				o++;
			if (o->type == OPTION_END && *p == 'h')
				return -1;	/* the caller prints the usage */
			if (o->type == OPTION_END) {
				error("unknown switch '%c'", *p);
				return -1;
			}
			char shown[4] = { '-', *p, 0 };

			if (o->type == OPTION_BOOLEAN || (o->type == OPTION_CALLBACK && !o->argh)) {
				if (get_value(o, NULL, 0, shown))
					return -1;
				continue;
			}
			const char *arg = p[1] ? p + 1 : NULL;

			if (!arg && !o->optional_arg) {
				if (i + 1 >= argc) {
					if (o->long_name)
						error("switch '-%c' (--%s) requires a value", *p,
						      o->long_name);
					else
						error("switch '-%c' requires a value", *p);
					return -1;
				}
				arg = argv[++i];
			}
			if (get_value(o, arg, 0, shown))
				return -1;
			break;
		}
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

void usage_with_options(const char *const *usage, const struct option *opts)
{
	fprintf(stderr, "\n usage: %s\n", usage[0]);
	for (int i = 1; usage[i]; i++)
		fprintf(stderr, "    or: %s\n", usage[i]);
	fputc('\n', stderr);
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		char buf[160];
		int n = 0;

		if (o->short_name)
			n += snprintf(buf + n, sizeof(buf) - n, "-%c%s", o->short_name,
				      o->long_name ? ", " : "");
		else
			n += snprintf(buf + n, sizeof(buf) - n, "    ");
		if (o->long_name)
			n += snprintf(buf + n, sizeof(buf) - n, "--%s", o->long_name);
		if (o->argh && o->optional_arg && o->long_name && n < (int)sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, "[=<%s>]", o->argh);
		else if (o->argh && n < (int)sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, " <%s>", o->argh);
		/* an option too wide for its column puts its help on the next line (perf) */
		if (strlen(buf) > 26)
			fprintf(stderr, "    %s\n    %-26s %s\n", buf, "", o->help);
		else
			fprintf(stderr, "    %-26s %s\n", buf, o->help);
	}
	fputc('\n', stderr);
}
