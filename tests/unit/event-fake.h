/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake sysfs and tracefs trees under tests/data that the event unit
 * tests (test-event.c, test-event-list.c) parse against, so that they do
 * not depend on this machine.
 */
#ifndef PULSE_TEST_EVENT_FAKE_H
#define PULSE_TEST_EVENT_FAKE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/event.h>

static char top[PATH_MAX], fake_sysfs[PATH_MAX], fake_tracefs[PATH_MAX];
static struct pulse_parse_opts fake_opts;

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void setup(void)
{
	const char *env = getenv("PULSE_TOP");
	char exe[PATH_MAX];
	ssize_t n;

	if (top[0])
		return;
	pulse_set_print(quiet);
	if (env) {
		snprintf(top, sizeof(top), "%s", env);
	} else if (!access("tests/data/sysfs", F_OK)) {
		snprintf(top, sizeof(top), ".");
	} else {
		/* build/tests/unit/test-event -> the source tree */
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		for (int i = 0; i < 4; i++) {
			char *s = strrchr(exe, '/');

			if (s)
				*s = '\0';
		}
		snprintf(top, sizeof(top), "%s", exe);
	}
	if (snprintf(fake_sysfs, sizeof(fake_sysfs), "%s/tests/data/sysfs", top) >=
		    (int)sizeof(fake_sysfs) ||
	    snprintf(fake_tracefs, sizeof(fake_tracefs), "%s/tests/data/tracefs", top) >=
		    (int)sizeof(fake_tracefs))
		abort();
	fake_opts = (struct pulse_parse_opts){
		.sz = sizeof(fake_opts),
		.sysfs = fake_sysfs,
		.tracefs = fake_tracefs,
	};
}

/* Parse @spec against the fake trees; the evlist must then hold @nr events. */
static int parse(struct pulse_evlist *evlist, const char *spec, struct pulse_parse_error *err)
{
	setup();
	return pulse_evlist__parse(evlist, spec, &fake_opts, err);
}

#endif
