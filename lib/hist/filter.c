// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's sample filters (--comms, --pid, --tid, --dsos, --symbols,
 * --cpu, --time), kept apart from the aggregation in hist.c: they decide
 * whether a sample reaches a histogram at all, and how it counts if not.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
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

/*
 * --time as perf 6.1's util/time-utils.c reads it, quirks included (strtoul
 * skips leading blanks; nine fraction digits at most; an empty percent
 * range takes every sample). perf crashes on a dash range without its dash
 * ("10%-20%,30%"); that is an error here.
 */

/* perf's parse_nsec_time(): "sec[.frac]" */
static int parse_nsec_time(const char *str, uint64_t *ns)
{
	unsigned long sec, nsec = 0;
	char buf[10], *end;
	size_t n;

	sec = strtoul(str, &end, 10);
	if (*end != '.' && *end)
		return -EINVAL;
	if (*end == '.') {
		n = strlen(++end);
		if (n > 9)
			return -EINVAL;
		memcpy(buf, end, n);
		memset(buf + n, '0', 9 - n);
		buf[9] = '\0';
		nsec = strtoul(buf, &end, 10);
		if (*end)
			return -EINVAL;
	}
	*ns = (uint64_t)sec * 1000000000ULL + nsec;
	return 0;
}

/* perf_time__parse_str(): "start,end" (@s modified), either side may be empty */
static int parse_range(char *s, uint64_t *r)
{
	char *comma = strchr(s, ',');

	r[0] = r[1] = 0;
	if (comma)
		*comma = '\0';
	if (*s && parse_nsec_time(s, &r[0]))
		return -EINVAL;
	if (comma && comma[1] && parse_nsec_time(comma + 1, &r[1]))
		return -EINVAL;
	return r[1] && r[1] < r[0] ? -EINVAL : 0;
}

/* perf_time__parse_strs(): ranges separated by blanks, in order, disjoint */
static int parse_ranges(char *str, uint64_t *r, size_t num)
{
	char *p = str, *arg;
	size_t i;

	if (!num)
		return -EINVAL;
	for (i = 0; i < num - 1; i++) {
		arg = p;
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -EINVAL;
		if (*p)
			*p++ = '\0';
		if (parse_range(arg, r + 2 * i))
			return -EINVAL;
	}
	if (parse_range(p, r + 2 * i))
		return -EINVAL;
	for (i = 0; i + 1 < num; i++)
		if (r[2 * i + 1] >= r[2 * (i + 1)])
			return -EINVAL;
	return 0;
}

/* perf's parse_percent(): "N%" (anything after the '%' ignored), as a fraction */
static int parse_percent(char *s, double *pcnt)
{
	char *c = s ? strchr(s, '%') : NULL, *end;
	double d;

	if (!c)
		return -EINVAL;
	*c = '\0';
	d = strtod(s, &end);
	if (end != s + strlen(s))
		return -EINVAL;
	*pcnt = d / 100.0;
	return 0;
}

/* perf's set_percent_time(), in its arithmetic (u64 plus a rounded double) */
static int set_percent_time(uint64_t *r, double start_pcnt, double end_pcnt, uint64_t first,
			    uint64_t last)
{
	uint64_t total = last - first;

	if (start_pcnt < 0.0 || start_pcnt > 1.0 || end_pcnt < 0.0 || end_pcnt > 1.0)
		return -EINVAL;
	r[0] = first + round(start_pcnt * total);
	r[1] = first + round(end_pcnt * total);
	if (r[1] > r[0] && r[1] != last)
		r[1] -= 1;
	return 0;
}

/* "10%/2": the second tenth */
static int percent_slash(char *s, uint64_t *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double pcnt;
	int i;

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (parse_percent(s, &pcnt))
		return -EINVAL;
	i = (int)strtol(slash + 1, &end, 10);
	if (*end || pcnt <= 0.0)
		return -EINVAL;
	return set_percent_time(r, pcnt * (i - 1), pcnt * i, first, last);
}

/* "0%-10%" */
static int percent_dash(char *s, uint64_t *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(s, '-');
	double start_pcnt, end_pcnt;

	if (!*s)
		return 0;
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (parse_percent(s, &start_pcnt) || parse_percent(dash + 1, &end_pcnt))
		return -EINVAL;
	return set_percent_time(r, start_pcnt, end_pcnt, first, last);
}

/* perf_time__percent_parse_str(); the number of ranges or -EINVAL */
static int parse_percent_ranges(char *str, uint64_t *r, size_t size, uint64_t first,
				uint64_t last)
{
	int (*split)(char *, uint64_t *, uint64_t, uint64_t);
	char *p = str, *end = str + strlen(str), *pct;
	size_t i = 0;

	if (strchr(str, '/')) {
		split = percent_slash;
	} else if (strchr(str, '-')) {
		split = percent_dash;
	} else {
		/* perf's one_percent_convert(): "N%" alone is "N%/1" */
		double pcnt;

		pct = strchr(str, '%');
		if (!pct || pct != end - 1 || parse_percent(str, &pcnt) || pcnt <= 0.0 ||
		    set_percent_time(r, 0.0, pcnt, first, last))
			return -EINVAL;
		return 1;
	}
	while (p < end) {
		char *comma = strchr(p, ',');

		if (i >= size)
			return -EINVAL;
		if (comma)
			*comma = '\0';
		if (split(p, r + 2 * i, first, last))
			return -EINVAL;
		i++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return i;
}

int pulse_hist_filter__parse_time(struct pulse_hist_filter *f, const char *str, uint64_t first,
				  uint64_t last)
{
	size_t size = 1;
	char *s;
	int n;

	for (const char *c = str; (c = strchr(c, ',')); c++)
		size++;
	if (strchr(str, '%') && !first && !last)
		return -ENODATA;
	s = strdup(str);
	free(f->time);
	f->time = calloc(size, 2 * sizeof(*f->time));
	f->nr_time = 0;
	if (!s || !f->time) {
		free(s);
		return -ENOMEM;
	}
	if (strchr(str, '%'))
		n = parse_percent_ranges(s, f->time, size, first, last);
	else
		n = parse_ranges(s, f->time, size - 1) ?: (int)size - 1;
	free(s);
	if (n < 0)
		return n;
	f->nr_time = n;
	return 0;
}

/* perf's setup_addrlist(): a whole hex number, blanks after it allowed */
static bool parse_sym_addr(const char *s, size_t len, unsigned long *addr)
{
	char buf[64], *end;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*addr = strtoul(buf, &end, 16);
	if (errno || end == buf)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return !*end;
}

/* strlist__add() refuses a string twice, intlist__add() a number twice */
static bool list_has_dup(const char *list, bool numbers)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		for (const char *q = p + len; *q;) {
			size_t qlen;

			q++;
			qlen = strcspn(q, ",");
			if (numbers ? strtol(p, NULL, 10) == strtol(q, NULL, 10) :
				      (qlen == len && !strncmp(p, q, len)))
				return true;
			q += qlen;
		}
		p += len;
		if (*p)
			p++;
	}
	return false;
}

int pulse_hist_filter__setup(struct pulse_hist_filter *f, const char **bad)
{
	const struct {
		const char *list, *name;
		bool numbers;
	} lists[] = {
		{ f->dsos, "dso" }, { f->comms, "comm" }, { f->pids, "pid", true },
		{ f->tids, "tid", true }, { f->symbols, "symbol" },
	};
	const char *p = f->symbols;
	size_t n = 0;

	/* in perf's symbol__init() order */
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (lists[i].list && list_has_dup(lists[i].list, lists[i].numbers)) {
			*bad = lists[i].name;
			return -EINVAL;
		}
	}
	if (!p)
		return 0;
	f->sym_names = calloc(1, strlen(p) + 1);
	f->sym_addrs = calloc(strlen(p) / 2 + 1, sizeof(*f->sym_addrs));
	if (!f->sym_names || !f->sym_addrs)
		return -ENOMEM;
	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned long addr;

		if (parse_sym_addr(p, len, &addr)) {
			f->sym_addrs[f->nr_sym_addrs++] = addr;
		} else {
			if (n)
				f->sym_names[n++] = ',';
			memcpy(f->sym_names + n, p, len);
			n += len;
			f->sym_names[n] = '\0';
		}
		/* perf's strlist__parse_list(): nothing after a last comma */
		if (!p[len] || !p[len + 1])
			break;
		p += len + 1;
	}
	return 0;
}

void pulse_hist_filter__exit(struct pulse_hist_filter *f)
{
	free(f->time);
	free(f->sym_names);
	free(f->sym_addrs);
	f->time = NULL;
	f->sym_names = NULL;
	f->sym_addrs = NULL;
	f->nr_time = f->nr_sym_addrs = 0;
}

/* machine__resolve()'s symbol filter: the name, else the sample's address */
static bool symbol_passes(const struct pulse_hist_filter *f, const struct pulse_addr_loc *al,
			  uint64_t ip)
{
	const char *names = f->sym_names ? f->sym_names : f->symbols;

	if (al->sym && list_has(names, al->sym->name))
		return true;
	if (!al->dso)
		return false;
	for (size_t i = 0; i < f->nr_sym_addrs; i++)
		if (f->sym_addrs[i] == ip)
			return true;
	return false;
}

const struct pulse_symbol *pulse_hist_filter__parent(const regex_t *re,
						     const struct pulse_cc_loc *chain,
						     size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (chain[i].sym && !regexec(re, chain[i].sym->name, 0, NULL, 0))
			return chain[i].sym;
	return NULL;
}

void pulse_hists__set_parent(struct pulse_hists *h, const struct pulse_symbol *parent,
			     bool filtered)
{
	h->cur_parent = parent;
	h->cur_filtered = filtered;
}

enum pulse_filter_result pulse_hist_filter__match(const struct pulse_hist_filter *f,
						  const struct pulse_addr_loc *al,
						  const char *comm, uint64_t ip, int cpu,
						  uint64_t time)
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
	if (f->symbols && !symbol_passes(f, al, ip))
		return PULSE_FILTER_HIDE;
	return PULSE_FILTER_KEEP;
}
