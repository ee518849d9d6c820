// SPDX-License-Identifier: GPL-2.0
/*
 * The evsel as a description: built by the parser, freed here, and
 * rewritten by perf's fallback when the event it names cannot be opened
 * on this machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/parse-internal.h"

/**
 * pulse_evsel__new - an evsel for one event, not yet in any evlist
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
	evsel->name = strdup(name);
	if (!evsel->name) {
		free(evsel);
		return -ENOMEM;
	}
	*out = evsel;
	return 0;
}


/**
 * pulse_evsel__delete - free an evsel, closing any fd the opener left open
 * @evsel: may be NULL
 */
void pulse_evsel__delete(struct pulse_evsel *evsel)
{
	size_t n;

	if (!evsel)
		return;
	/* An evsel deleted while open must not leak its fds. */
	n = (size_t)evsel->nr_cpus * evsel->nr_threads;
	for (size_t i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	free(evsel->fd);
	free(evsel->id);
	free(evsel->name);
	free(evsel->tp_system);
	free(evsel->tp_name);
	free(evsel->pmu_name);
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
