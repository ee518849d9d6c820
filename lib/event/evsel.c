// SPDX-License-Identifier: GPL-2.0
/*
 * The evsel as a description: built by the parser, freed here, and
 * rewritten by perf's fallbacks when the event it names cannot be opened
 * on this machine (no PMU: cycles becomes cpu-clock; perf_event_paranoid:
 * user only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pulse/open.h>

#include "event/parse-internal.h"

/**
 * pulse_evsel__new - an evsel for one event, alone in its group, in no evlist
 * @out: set to the new evsel, NULL on failure
 * @type: attr.type
 * @config: attr.config
 * @name: its name (copied)
 *
 * Every other attr field is 0.
 *
 * Return: 0 or -ENOMEM. The caller owns *@out: pulse_evsel__delete().
 */
int pulse_evsel__new(struct pulse_evsel **out, __u32 type, __u64 config, const char *name)
{
	struct pulse_evsel *evsel = calloc(1, sizeof(*evsel));

	*out = NULL;
	if (!evsel)
		return -ENOMEM;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->attr.type = type;
	evsel->attr.config = config;
	evsel->leader = evsel;
	evsel->nr_members = 1;
	evsel->name = strdup(name);
	if (!evsel->name) {
		free(evsel);
		return -ENOMEM;
	}
	*out = evsel;
	return 0;
}


/**
 * pulse_evsel__delete - free an evsel
 * @evsel: may be NULL
 *
 * The evsel holds no fd: an evlist it was opened in keeps those, and must
 * be closed first.
 */
void pulse_evsel__delete(struct pulse_evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->tp_system);
	free(evsel->tp_name);
	free(evsel->pmu_name);
	free(evsel->filter);
	free(evsel);
}

/**
 * pulse_evsel__fallback - replace a hardware cycles event by cpu-clock
 * @evsel: the event whose open failed
 *
 * perf 6.1's evsel__fallback(): the attr keeps its exclude bits and
 * precise_ip, and the event is renamed the way perf names an event it made
 * itself, "cpu-clock" plus the modifiers the attr implies ("cpu-clock:uH"
 * for cycles:u, "cpu-clock:ppp" for the default cycles:P).
 *
 * Return: true if the event was changed.
 */
bool pulse_evsel__fallback(struct pulse_evsel *evsel)
{
	char name[64], suffix[32];
	char *n;

	if (evsel->attr.type != PERF_TYPE_HARDWARE ||
	    evsel->attr.config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	evsel->attr.type = PERF_TYPE_SOFTWARE;
	evsel->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	evsel->fell_back = true;
	pulse_attr__modifier_suffix(&evsel->attr, suffix, sizeof(suffix));
	snprintf(name, sizeof(name), "cpu-clock%s", suffix);
	n = strdup(name);
	if (n) {
		free(evsel->name);
		evsel->name = n;
	}
	return true;
}

static int perf_event_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/**
 * pulse_evsel__fallback_user_only - exclude the kernel after EACCES/EPERM
 * @evsel: the event whose open failed with @err
 * @err: the -errno of that open
 * @paranoid: set to perf_event_paranoid when it was read
 *
 * perf 6.1's evsel__fallback(): under perf_event_paranoid > 1 an event
 * that may not count the kernel excludes it and gets "u" appended to its
 * name.
 *
 * Return: true if @evsel changed and the open is worth retrying.
 */
bool pulse_evsel__fallback_user_only(struct pulse_evsel *evsel, int err, int *paranoid)
{
	const char *sep = ":";
	char *name;

	/* perf 6.1 evsel__fallback(): without the right to profile the kernel, exclude it. */
	if ((err != -EACCES && err != -EPERM) || evsel->attr.exclude_kernel ||
	    evsel->attr.exclude_user)
		return false;
	*paranoid = perf_event_paranoid();
	if (*paranoid <= 1)
		return false;
	if (strchr(evsel->name, '/') || strchr(evsel->name, ':'))
		sep = "";
	if (asprintf(&name, "%s%su", evsel->name, sep) < 0)
		return false;
	free(evsel->name);
	evsel->name = name;
	/* perf 6.1 leaves exclude_hv alone here (its name then reads ":uh") */
	evsel->attr.exclude_kernel = 1;
	return true;
}
