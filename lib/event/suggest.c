// SPDX-License-Identifier: GPL-2.0
/*
 * The "did you mean" hint for an unknown event or PMU: the names of this
 * machine (PMUs and their aliases, perf's symbolic names, cache events,
 * tracepoints) nearest to what was typed, by optimal string alignment
 * distance, at most three of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/parse-internal.h"

#define NO_SUCH_EVENT_HINT "run 'pulse list' to see the events of this machine"

struct suggest {
	const char *want;
	int limit;
	int best;
	int n;
	char names[3][128];
};

static void suggest_consider(struct suggest *s, const char *cand)
{
	int d;

	if (abs((int)strlen(cand) - (int)strlen(s->want)) > s->limit)
		return;
	d = pulse_edit_distance(s->want, cand);
	if (d > s->limit || d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->n = 0;
	}
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], cand))
			return;
	if (s->n < 3)
		snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", cand);
}

static int suggest_tp(const char *sys, const char *name, void *arg)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s:%s", sys, name);
	suggest_consider(arg, buf);
	return 0;
}

static int suggest_cache(const char *name, __u64 config, void *arg)
{
	suggest_consider(arg, name);
	return 0;
}

/* "did you mean 'cpu-clock'?" from the names of this machine nearest to @want. */
void pulse_event__suggest(const struct pulse_parse_opts *opts, const char *want, bool pmus_only,
			  char *hint, size_t size)
{
	struct suggest s = { .want = want, .best = 1 << 20 };
	const char *sysfs = pulse_sysfs_dir(opts);
	const char *tracefs;
	char **names;
	int n;

	s.limit = 1 + strlen(want) / 4;
	if (s.limit > 3)
		s.limit = 3;
	names = pulse_pmu__names(sysfs);
	for (char **n = names; n && *n; n++) {
		struct pulse_pmu *pmu;

		suggest_consider(&s, *n);
		if (pmus_only || pulse_pmu__new(&pmu, sysfs, *n, NULL))
			continue;
		for (int i = 0; i < pmu->nr_aliases; i++) {
			char buf[256];

			snprintf(buf, sizeof(buf), "%s/%s/", *n, pmu->aliases[i].name);
			suggest_consider(&s, buf);
			suggest_consider(&s, pmu->aliases[i].name);
		}
		pulse_pmu__delete(pmu);
	}
	pulse_strv_free(names);
	if (!pmus_only) {
		for (size_t i = 0; i < pulse_nr_event_symbols; i++) {
			suggest_consider(&s, pulse_event_symbols[i].name);
			if (pulse_event_symbols[i].alias)
				suggest_consider(&s, pulse_event_symbols[i].alias);
		}
		pulse_hw_cache__for_each(suggest_cache, &s);
		tracefs = pulse_tracefs_dir(opts);
		if (tracefs)
			pulse_tp__for_each(tracefs, suggest_tp, &s);
	}
	switch (s.n) {
	case 0:
		n = snprintf(hint, size, NO_SUCH_EVENT_HINT);
		break;
	case 1:
		n = snprintf(hint, size, "did you mean '%s'?", s.names[0]);
		break;
	case 2:
		n = snprintf(hint, size, "did you mean '%s' or '%s'?", s.names[0], s.names[1]);
		break;
	default:
		n = snprintf(hint, size, "did you mean '%s', '%s' or '%s'?", s.names[0],
			     s.names[1], s.names[2]);
		break;
	}
	/* long tracepoint names: one whole suggestion beats three cut ones */
	if (n >= (int)size && s.n > 1)
		snprintf(hint, size, "did you mean '%s'?", s.names[0]);
}
