// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's sample filters (--comms, --pid, --tid, --dsos, --symbols,
 * --cpu, --time), kept apart from the aggregation in hist.c: they decide
 * whether a sample reaches a histogram at all, and how it counts if not.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist-filter.h>

/* perf's strlist__has_entry() on a comma-separated list */
static bool list_has(const char *list, const char *s)
{
	size_t len = strlen(s);

	while (*list) {
		size_t n = strcspn(list, ",");

		if (n == len && !strncmp(list, s, n))
			return true;
		list += n;
		if (*list)
			list++;
	}
	return false;
}

/* perf's intlist: comma-separated numbers */
static bool intlist_has(const char *list, long v)
{
	while (*list) {
		char *end;
		long n = strtol(list, &end, 10);

		if (end != list && n == v)
			return true;
		list = end + strcspn(end, ",");
		if (*list)
			list++;
	}
	return false;
}

/* perf's cpu map syntax: "0-2,5" */
static bool cpulist_has(const char *list, int cpu)
{
	while (*list) {
		char *end;
		long lo = strtol(list, &end, 10), hi = lo;

		if (end == list)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		list = end + strcspn(end, ",");
		if (*list)
			list++;
	}
	return false;
}

/* perf's parse_timestr_sec_nsec(): "sec[.usec]", microseconds at most */
static int parse_time_point(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	*ns = 0;
	if (!len)
		return 0;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		sec = sec * 10 + (s[i] - '0');
	if (!i)
		return -EINVAL;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++, digits++)
			if (digits < 9)
				frac = frac * 10 + (s[i] - '0');
		while (digits < 9) {
			frac *= 10;
			digits++;
		}
	}
	if (i != len)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int pulse_hist_filter__parse_time(struct pulse_hist_filter *f, const char *str)
{
	const char *p = str;

	while (*p) {
		size_t n = strcspn(p, " ");
		const char *comma = memchr(p, ',', n);
		uint64_t *t;

		if (n) {
			if (!comma)
				return -EINVAL;
			t = realloc(f->time, (f->nr_time + 1) * 2 * sizeof(*t));
			if (!t)
				return -ENOMEM;
			f->time = t;
			t += f->nr_time * 2;
			if (parse_time_point(p, comma - p, &t[0]) ||
			    parse_time_point(comma + 1, p + n - comma - 1, &t[1]) ||
			    (t[1] && t[0] > t[1]))
				return -EINVAL;
			f->nr_time++;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	return 0;
}

enum pulse_filter_result pulse_hist_filter__match(const struct pulse_hist_filter *f,
						  const struct pulse_addr_loc *al,
						  const char *comm, int cpu, uint64_t time)
{
	if (f->nr_time && time != ~0ULL) {
		bool in = false;

		/* perf_time__ranges_skip_sample(): inclusive at both ends */
		for (size_t i = 0; i < f->nr_time && !in; i++)
			in = (!f->time[2 * i] || time >= f->time[2 * i]) &&
			     (!f->time[2 * i + 1] || time <= f->time[2 * i + 1]);
		if (!in)
			return PULSE_FILTER_SKIP;
	}
	if (f->cpus && !cpulist_has(f->cpus, cpu))
		return PULSE_FILTER_SKIP;
	/* machine__resolve(): thread__is_filtered(), then the DSO, then the symbol */
	if (f->comms && !list_has(f->comms, comm))
		return PULSE_FILTER_HIDE;
	if (f->pids && !intlist_has(f->pids, al->thread->pid))
		return PULSE_FILTER_HIDE;
	if (f->tids && !intlist_has(f->tids, al->thread->tid))
		return PULSE_FILTER_HIDE;
	if (f->dsos && al->dso && !list_has(f->dsos, al->dso->short_name) &&
	    !list_has(f->dsos, al->dso->long_name))
		return PULSE_FILTER_HIDE;
	if (f->symbols && (!al->sym || !list_has(f->symbols, al->sym->name)))
		return PULSE_FILTER_HIDE;
	return PULSE_FILTER_KEEP;
}
