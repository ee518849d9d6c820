// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow metrics, the "# ..." column (perf 6.1's stat-shadow.c for the
 * software events): a clock event (task-clock, cpu-clock) shows how many
 * CPUs it kept busy, its count over the wall time; every other event, when
 * a clock was counted, its rate per second of that clock, with perf's K, M
 * and G steps.
 */
#include <string.h>
#include <stdio.h>

#include "stat/internal.h"

bool stat_evsel_is_clock(const struct pulse_evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		evsel->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The mean of the clock rows of the same key, 0 when none was counted. */
double stat_clock_ns(const struct pulse_stat *st, int key)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < st->evlist->nr; i++) {
		struct pulse_stat_row r;

		if (!stat_evsel_is_clock(st->evlist->entries[i]) ||
		    pulse_stat__row(st, i, key, &r) || !r.supported)
			continue;
		sum += r.val;
		n++;
	}
	return n ? sum / n : 0;
}

/* stat report -I takes the clock's mean over the rounds so far, as perf 6.1's */
static double clock_ns(const struct pulse_stat *st, int key)
{
	return st->clock_rounds ? st->clock_rounds[key].mean : stat_clock_ns(st, key);
}

void stat_shadow_metric(const struct pulse_stat *st, const struct pulse_stat_row *row,
			struct stat_metric *m)
{
	double total;
	char unit = ' ';

	memset(m, 0, sizeof(*m));
	if (stat_evsel_is_clock(row->evsel)) {
		if (!st->wall.mean)
			return;
		m->fmt = "%8.3f";
		strcpy(m->unit, "CPUs utilized");
		m->val = row->val / st->wall.mean;
		return;
	}
	total = clock_ns(st, row->key);
	if (!total)
		return;
	m->val = 1e9 * row->val / total;
	for (const char *u = "KMG"; *u && m->val > 1000.0; u++) {
		m->val /= 1000.0;
		unit = *u;
	}
	m->fmt = "%8.3f";
	if (unit == ' ')
		strcpy(m->unit, "/sec");
	else
		snprintf(m->unit, sizeof(m->unit), "%c/sec", unit);
}
