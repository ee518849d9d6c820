// SPDX-License-Identifier: GPL-2.0
/*
 * Printing a session's rows in perf 6.1's layouts (util/stat-display.c):
 *
 * default:  value (18 wide; msec with 2 decimals for clocks), unit (4),
 *           name (32; 25 for <not supported>/<not counted>), then the
 *           metric column, 35 wide: " # " %8.3f " " unit, or blanks;
 *           then "  ( +- x.xx% )" over -r runs and "  (xx.xx%)" when the
 *           counter ran for less time than it was enabled.
 * -x SEP:   value, unit, name, [noise%,] run ns, percent running, metric
 *           value, metric unit (empty fields kept).
 * -j:       one JSON object per row, perf's keys and number formats.
 *
 * -A, --per-thread and --per-core/... put the key's column first (aggr.c;
 * threads in order of their counts, highest first, as perf's
 * sort_aggr_thread(); topology aggregates key by key).
 * -I prefixes each row with the interval's time (perf's "%6lu.%09lu"),
 * after perf's "#   time   counts unit events" header line, and has no
 * footer. The header names the target and the footer gives the wall time (mean
 * +- stddev over -r runs) and, for one run of a workload, its user and
 * system time.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/internal.h"

#define METRIC_LEN 35
#define CNTR_NOT_SUPPORTED "<not supported>"
#define CNTR_NOT_COUNTED "<not counted>"

static double pct_running(const struct pulse_stat_row *r)
{
	return r->ena ? 100.0 * r->run / r->ena : 100.0;
}

/* The value as shown: clocks in msec, a PMU alias's count times its sysfs scale. */
static double shown(const struct pulse_stat_row *r)
{
	if (stat_evsel_is_clock(r->evsel))
		return r->val * 1e-6;
	return r->evsel->scale ? r->val * r->evsel->scale : r->val;
}

static const char *unit_of(const struct pulse_stat_row *r)
{
	return stat_evsel_is_clock(r->evsel) ? "msec" : r->evsel->unit;
}

/* perf's abs_printout(): two decimals for clocks and for a scaled value that is not whole */
static bool decimals(const struct pulse_stat_row *r)
{
	double v = shown(r);

	return stat_evsel_is_clock(r->evsel) || (r->evsel->scale && floor(v) != v);
}

/* perf's unit_width: 4, or the longest sysfs unit of the evlist */
static int unit_width(const struct pulse_stat *st)
{
	int w = 4;

	for (int i = 0; i < st->evlist->nr; i++) {
		int l = (int)strlen(st->evlist->entries[i]->unit);

		w = l > w ? l : w;
	}
	return w;
}

static void print_std_row(const struct pulse_stat *st, FILE *out, const struct pulse_stat_row *r,
			  const struct pulse_stat_print_opts *o)
{
	bool clock = decimals(r);
	struct stat_metric m;

	if (!r->supported || !r->run) {
		fprintf(out, "%18s %-*s %-25s%*s", r->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED,
			unit_width(st), unit_of(r), r->evsel->name, METRIC_LEN, "");
		if (r->supported && r->run != r->ena)
			fprintf(out, "  (%.2f%%)", pct_running(r));
		fputc('\n', out);
		return;
	}
	if (o->big_num)
		fprintf(out, clock ? "%'18.2f " : "%'18.0f ", shown(r));
	else
		fprintf(out, clock ? "%18.2f " : "%18.0f ", shown(r));
	fprintf(out, "%-*s %-32s", unit_width(st), unit_of(r), r->evsel->name);
	stat_shadow_metric(st, r, &m);
	if (m.fmt) {
		char num[64];
		int n = snprintf(num, sizeof(num), m.fmt, m.val) + 3;

		fprintf(out, " # %s %-*s", num, METRIC_LEN - n - 1, m.unit);
	} else {
		fprintf(out, "%-*s", METRIC_LEN, "");
	}
	if (st->nr_runs > 1 && r->noise)
		fprintf(out, "  ( +-%6.2f%% )", r->noise);
	if (r->run != r->ena)
		fprintf(out, "  (%.2f%%)", pct_running(r));
	fputc('\n', out);
}

static void print_csv_row(const struct pulse_stat *st, FILE *out, const struct pulse_stat_row *r,
			  const char *sep)
{
	struct stat_metric m;

	if (!r->supported || !r->run)
		fprintf(out, "%s", r->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED);
	else
		fprintf(out, decimals(r) ? "%.2f" : "%.0f", shown(r));
	fprintf(out, "%s%s%s%s", sep, unit_of(r), sep, r->evsel->name);
	if (st->nr_runs > 1)
		fprintf(out, "%s%.2f%%", sep, r->noise);
	fprintf(out, "%s%.0f%s%.2f%s", sep, r->run, sep, pct_running(r), sep);
	memset(&m, 0, sizeof(m));
	if (r->supported && r->run)
		stat_shadow_metric(st, r, &m);
	if (m.fmt)
		fprintf(out, "%.3f%s%s", m.val, sep, m.unit);
	else
		fprintf(out, "%s", sep);
	fputc('\n', out);
}

static void print_json_row(const struct pulse_stat *st, FILE *out, const struct pulse_stat_row *r)
{
	struct stat_metric m;
	bool counted = r->supported && r->run;

	if (counted)
		fprintf(out, "\"counter-value\" : \"%f\", ", shown(r));
	else
		fprintf(out, "\"counter-value\" : \"%s\", ",
			r->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED);
	fprintf(out, "\"unit\" : \"%s\", \"event\" : \"%s\", ", unit_of(r), r->evsel->name);
	if (st->nr_runs > 1)
		fprintf(out, "\"variance\" : %.2f, ", r->noise);
	fprintf(out, "\"event-runtime\" : %.0f, \"pcnt-running\" : %.2f, ", r->run, pct_running(r));
	memset(&m, 0, sizeof(m));
	if (counted)
		stat_shadow_metric(st, r, &m);
	/* perf 6.1 prints a NULL metric unit of a counted event with %s: "(null)" */
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", m.fmt ? m.val : 0.0,
		m.fmt ? m.unit : counted ? "(null)" : "");
}

/* perf's get_precision(): digits enough to show @num. */
static int precision_of(double num)
{
	return num > 1 ? 0 : (int)lround(ceil(-log10(num)));
}

static void print_footer(const struct pulse_stat *st, FILE *out,
			 const struct pulse_stat_print_opts *o)
{
	double avg = st->wall.mean / 1e9;

	if (!o->null_run)
		fputc('\n', out);
	if (st->nr_runs <= 1) {
		fprintf(out, " %17.9f seconds time elapsed", avg);
		if (o->rusage) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n",
				st->last.utime.tv_sec + st->last.utime.tv_usec / 1e6);
			fprintf(out, " %17.9f seconds sys\n",
				st->last.stime.tv_sec + st->last.stime.tv_usec / 1e6);
		}
	} else {
		double sd = pulse_stat_stats__stddev(&st->wall) / 1e9;
		int prec = precision_of(sd) + 2;
		double pct = pulse_stat_rel_stddev(sd, avg);

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", prec, avg, prec, sd);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
}

/* -I: each row starts with the interval's time */
static void print_ts(FILE *out, const struct pulse_stat_print_opts *o)
{
	unsigned long sec = o->ts_ns / 1000000000ULL, ns = o->ts_ns % 1000000000ULL;

	if (o->format == PULSE_STAT_FMT_JSON)
		fprintf(out, "{\"interval\" : %lu.%09lu, ", sec, ns);
	else
		fprintf(out, "%6lu.%09lu%s", sec, ns,
			o->format == PULSE_STAT_FMT_CSV ? (o->sep ? o->sep : ",") : " ");
}

/* --per-thread: perf lists an event's threads by count, highest first */
static void sort_keys(const struct pulse_stat *st, int idx, int *keys, int n)
{
	for (int i = 1; i < n; i++) {
		struct pulse_stat_row a, b;
		int k = keys[i], j = i;

		pulse_stat__row(st, idx, k, &a);
		for (; j > 0; j--) {
			pulse_stat__row(st, idx, keys[j - 1], &b);
			if (b.val >= a.val)
				break;
			keys[j] = keys[j - 1];
		}
		keys[j] = k;
	}
}

static void print_row(const struct pulse_stat *st, FILE *out,
		      const struct pulse_stat_print_opts *o, int idx, int key)
{
	struct pulse_stat_row r;

	if (pulse_stat__row(st, idx, key, &r))
		return;
	if (o->interval)
		print_ts(out, o);
	if (o->format == PULSE_STAT_FMT_JSON && !o->interval)
		fputc('{', out);
	stat_aggr_print_key(st, out, o, key, r.supported);
	if (o->format == PULSE_STAT_FMT_CSV)
		print_csv_row(st, out, &r, o->sep ? o->sep : ",");
	else if (o->format == PULSE_STAT_FMT_JSON)
		print_json_row(st, out, &r);
	else
		print_std_row(st, out, &r, o);
}

int pulse_stat__print(const struct pulse_stat *st, FILE *out, const struct pulse_stat_print_opts *o)
{
	int keys = st->nr_keys ? st->nr_keys : 1, *order;

	if (!o || o->sz < sizeof(*o))
		return -EINVAL;
	if (o->quiet)
		return 0;
	if (o->interval && o->interval_header && o->format == PULSE_STAT_FMT_STD)
		fprintf(out, "%s\n", stat_aggr_interval_header(st));
	if (o->format == PULSE_STAT_FMT_STD && !o->interval) {
		fprintf(out, "\n Performance counter stats for %s", o->target ? o->target : "");
		if (st->nr_runs > 1)
			fprintf(out, " (%d runs)", st->nr_runs);
		fprintf(out, ":\n\n");
	}
	order = calloc(keys, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (int i = 0; !o->null_run && i < st->evlist->nr; i++) {
		for (int k = 0; k < keys; k++)
			order[k] = k;
		if (st->aggr == PULSE_STAT_AGGR_THREAD)
			sort_keys(st, i, order, keys);
		/* topology modes go key by key (print_aggr()), the others event by event */
		for (int n = 0; n < keys && !stat_aggr_key_major(st); n++)
			print_row(st, out, o, i, order[n]);
	}
	for (int k = 0; !o->null_run && stat_aggr_key_major(st) && k < keys; k++)
		for (int i = 0; i < st->evlist->nr; i++)
			print_row(st, out, o, i, k);
	free(order);
	if (o->format == PULSE_STAT_FMT_STD && !o->interval)
		print_footer(st, out, o);
	fflush(out);
	return ferror(out) ? -EIO : 0;
}
