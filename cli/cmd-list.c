// SPDX-License-Identifier: GPL-2.0
/*
 * pulse list: the events of this machine, printed as perf list prints them
 * (name padded to 50 columns, then its kind in brackets). Hardware,
 * software and cache events are shown only when this machine can open them,
 * as perf does, so a VM without a PMU shows no hardware events. An argument
 * restricts the output: a kind (hw, sw, cache, pmu, tracepoint), a
 * "sys:event" glob, or a word or glob matched against every name.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/event.h>
#include <pulse/open.h>

#include "builtin.h"
#include "parse-options.h"

struct listed_event {
	enum pulse_event_kind kind;
	char *name;
};

struct event_table {
	struct listed_event *ev;
	size_t nr;
};

static const char *const list_usage[] = {
	"pulse list [hw|sw|cache|pmu|tracepoint|<glob>...]",
	NULL,
};

static const char *const kind_desc[] = {
	[PULSE_EV_HARDWARE] = "Hardware event",
	[PULSE_EV_SOFTWARE] = "Software event",
	[PULSE_EV_HW_CACHE] = "Hardware cache event",
	[PULSE_EV_TRACEPOINT] = "Tracepoint event",
	[PULSE_EV_PMU] = "Kernel PMU event",
};

static int collect(enum pulse_event_kind kind, const char *name, const char *desc, void *arg)
{
	struct event_table *t = arg;
	struct listed_event *ev = realloc(t->ev, (t->nr + 1) * sizeof(*ev));

	if (!ev)
		return -ENOMEM;
	t->ev = ev;
	ev[t->nr].kind = kind;
	ev[t->nr].name = strdup(name);
	if (!ev[t->nr].name)
		return -ENOMEM;
	t->nr++;
	return 0;
}

/* perf list treats a bare word as a substring: "switch" is "*switch*". */
static char *as_glob(const char *arg)
{
	char *g;

	if (strpbrk(arg, "*?["))
		return strdup(arg);
	if (asprintf(&g, "*%s*", arg) < 0)
		return NULL;
	return g;
}

/* Does any " OR "-separated spelling of @name match @glob? */
static bool match_names(const char *name, const char *glob)
{
	char buf[256], *p, *sep;

	snprintf(buf, sizeof(buf), "%s", name);
	for (p = buf;; p = sep + 4) {
		sep = strstr(p, " OR ");
		if (sep)
			*sep = '\0';
		if (!fnmatch(glob, p, 0))
			return true;
		if (!sep)
			return false;
	}
}

static bool matches(const struct listed_event *ev, const char *glob, const char *tp_sys_glob)
{
	const char *colon, *slash;
	char buf[256];

	if (tp_sys_glob) {
		/* "sched:sched_sw*": system and event globbed separately */
		if (ev->kind != PULSE_EV_TRACEPOINT)
			return false;
		colon = strchr(ev->name, ':');
		snprintf(buf, sizeof(buf), "%.*s", (int)(colon - ev->name), ev->name);
		return !fnmatch(tp_sys_glob, buf, 0) && !fnmatch(glob, colon + 1, 0);
	}
	switch (ev->kind) {
	case PULSE_EV_TRACEPOINT:
		/* perf matches a tracepoint's event name, not its system */
		colon = strchr(ev->name, ':');
		return !fnmatch(glob, colon + 1, 0);
	case PULSE_EV_PMU:
		/* "msr/tsc/" is found by "tsc" as well as by its whole name */
		slash = strchr(ev->name, '/');
		snprintf(buf, sizeof(buf), "%s", slash + 1);
		buf[strcspn(buf, "/")] = '\0';
		return !fnmatch(glob, buf, 0) || !fnmatch(glob, ev->name, 0);
	default:
		return match_names(ev->name, glob);
	}
}

static void print_event(const struct listed_event *ev)
{
	printf("  %-50s [%s]\n", ev->name, kind_desc[ev->kind]);
}

/* Print the events of @kind (-1: every kind) that match @arg (NULL: all). */
static int print_kind(const struct event_table *t, int kind, const char *arg)
{
	char *glob = NULL, *sys_glob = NULL;

	if (arg) {
		const char *colon = strchr(arg, ':');

		if (colon) {
			sys_glob = strndup(arg, colon - arg);
			glob = strdup(colon + 1);
		} else {
			glob = as_glob(arg);
		}
		if (!glob || (colon && !sys_glob)) {
			free(glob);
			free(sys_glob);
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < t->nr; i++) {
		const struct listed_event *ev = &t->ev[i];

		if (kind >= 0 && (int)ev->kind != kind)
			continue;
		if (glob && !matches(ev, glob, sys_glob))
			continue;
		if ((ev->kind == PULSE_EV_HARDWARE || ev->kind == PULSE_EV_SOFTWARE ||
		     ev->kind == PULSE_EV_HW_CACHE) && !pulse_event__probe(ev->name, NULL))
			continue;
		print_event(ev);
	}
	free(glob);
	free(sys_glob);
	return 0;
}

static void print_raw_descriptors(void)
{
	printf("  %-50s [%s]\n", "rNNN", "Raw hardware event descriptor");
	printf("  %-50s [%s]\n", "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
	       "Raw hardware event descriptor");
}

static int print_all(const struct event_table *t)
{
	static const int order[] = {
		PULSE_EV_HARDWARE, PULSE_EV_SOFTWARE, PULSE_EV_HW_CACHE, PULSE_EV_PMU,
	};
	int ret = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && !ret; i++)
		ret = print_kind(t, order[i], NULL);
	if (ret)
		return ret;
	print_raw_descriptors();
	return print_kind(t, PULSE_EV_TRACEPOINT, NULL);
}

static int kind_of(const char *arg)
{
	static const struct { const char *name; int kind; } kinds[] = {
		{ "hw", PULSE_EV_HARDWARE }, { "hardware", PULSE_EV_HARDWARE },
		{ "sw", PULSE_EV_SOFTWARE }, { "software", PULSE_EV_SOFTWARE },
		{ "cache", PULSE_EV_HW_CACHE }, { "hwcache", PULSE_EV_HW_CACHE },
		{ "pmu", PULSE_EV_PMU }, { "tracepoint", PULSE_EV_TRACEPOINT },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(arg, kinds[i].name))
			return kinds[i].kind;
	return -1;
}

int cmd_list(int argc, const char **argv)
{
	static const int every_kind[] = {
		PULSE_EV_HARDWARE, PULSE_EV_SOFTWARE, PULSE_EV_HW_CACHE, PULSE_EV_PMU,
		PULSE_EV_TRACEPOINT,
	};
	struct event_table t = {};
	bool help = false;
	const struct option options[] = {
		OPT_BOOLEAN('h', "help", &help, "show this help"),
		OPT_END(),
	};
	int ret, nr;

	nr = parse_options(argc - 1, argv + 1, options, 0);
	if (nr < 0 || help) {
		usage_with_options(list_usage, options);
		return PULSE_EXIT_USAGE;
	}
	ret = pulse_list_events(NULL, collect, &t);
	if (!ret && !nr)
		ret = print_all(&t);
	for (int i = 0; !ret && i < nr; i++) {
		const char *arg = argv[1 + i];
		int kind = kind_of(arg);

		if (kind >= 0) {
			ret = print_kind(&t, kind, NULL);
			continue;
		}
		for (size_t k = 0; k < sizeof(every_kind) / sizeof(every_kind[0]) && !ret; k++)
			ret = print_kind(&t, every_kind[k], arg);
	}
	for (size_t i = 0; i < t.nr; i++)
		free(t.ev[i].name);
	free(t.ev);
	if (ret) {
		error("cannot list the events: %s", strerror(-ret));
		return 1;
	}
	return 0;
}
