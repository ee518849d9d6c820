// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's -e syntax into perf_event_attrs. A spec is a comma list of
 * events and groups "{a,b}[:mods]" (commas between a PMU's slashes belong
 * to its terms, those between braces to the group); each event is
 * a software or hardware name, a hardware cache name, a raw rNNNN, a PMU
 * alias name, "pmu/terms/" or "sys:event" (globs allowed), followed by
 * modifiers (":u", "/u" after a PMU's terms). The attrs and names match what
 * perf 6.1 builds and `perf evlist -v` shows: names are the spec as typed
 * except tracepoints ("sys:event") and cache events (no modifiers), an event
 * without modifiers gets exclude_guest (perf's event_attr_init()), one with
 * modifiers gets exactly the bits they ask for (get_event_modifier()).
 *
 * Modifiers are read in modifier.c, the "did you mean" hint is made in
 * suggest.c, and the PMU and tracepoint lookups below the parser (pmu.c,
 * tracepoint.c) take what they need as arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "event/parse-internal.h"

struct parse_ctx {
	struct pulse_evlist *evlist;
	const struct pulse_parse_opts *opts;
	struct pulse_parse_error *err;
	const char *sysfs;
	bool no_groups;			/* opts->no_groups */
};

static int bad_mods(struct parse_ctx *ctx, const char *mods, const char *token)
{
	return pulse_parse_err(ctx->err, -EINVAL, token,
			       "modifiers are u k h G H I p pp ppp P S D e W, each at most once",
			       "bad modifier '%s' in '%s'", mods, token);
}

/* Most events sample at the recorder's rate; these have their own. */
static void kind_sampling(struct pulse_evsel *evsel)
{
	struct perf_event_attr *a = &evsel->attr;

	/* perf: every tracepoint hit is a sample; bpf-output samples every output */
	if (a->type == PERF_TYPE_TRACEPOINT ||
	    (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT)) {
		a->sample_period = 1;
		a->freq = 0;
	}
}

static bool is_raw(const char *s)
{
	size_t n;

	if (s[0] != 'r')
		return false;
	n = strspn(s + 1, "0123456789abcdefABCDEF");
	return n >= 1 && n <= 16 && !s[1 + n];
}

/* Add the evsel for a fixed-attr event: symbol, cache or raw. */
static int add_fixed(struct parse_ctx *ctx, __u32 type, __u64 config, const char *name,
		     const struct pulse_mods *m, const char *terms, size_t terms_len)
{
	struct pulse_terms t = {};
	struct pulse_evsel *evsel;
	int ret;

	ret = pulse_evsel__new(&evsel, type, config, name);
	if (ret)
		return ret;
	kind_sampling(evsel);
	if (terms) {
		ret = pulse_terms__apply(NULL, terms, terms_len, &evsel->attr, &t, ctx->err);
		if (ret) {
			free(t.name);
			pulse_evsel__delete(evsel);
			return ret;
		}
		evsel->period_from_term = t.period_set;
		if (t.name) {
			free(evsel->name);
			evsel->name = t.name;
		}
	}
	pulse_mods__apply(m, evsel);
	return pulse_evlist__add(ctx->evlist, evsel);
}

/* "tsc" alone: the alias of whichever PMUs have one by that name. */
static int add_pmu_alias_events(struct parse_ctx *ctx, const char *alias, const struct pulse_mods *m,
				const char *token)
{
	char **names = pulse_pmu__names(ctx->sysfs);
	int found = 0, ret = 0;

	if (!names)
		return -ENOMEM;
	for (char **n = names; !ret && *n; n++) {
		struct pulse_pmu *pmu;
		struct pulse_evsel *evsel;
		struct pulse_terms t = {};

		if (pulse_pmu__new(&pmu, ctx->sysfs, *n, NULL))
			continue;
		if (!pulse_pmu__find_alias(pmu, alias)) {
			pulse_pmu__delete(pmu);
			continue;
		}
		ret = pulse_evsel__new(&evsel, pmu->type, 0, token);
		if (!ret)
			ret = pulse_terms__apply(pmu, alias, strlen(alias), &evsel->attr, &t,
						 ctx->err);
		if (!ret) {
			evsel->period_from_term = t.period_set;
			pulse_terms__unit_scale(&t, evsel);
			if (t.name) {
				free(evsel->name);
				evsel->name = t.name;
				t.name = NULL;
			}
			evsel->pmu_name = strdup(pmu->name);
			ret = evsel->pmu_name ? 0 : -ENOMEM;
		}
		free(t.name);
		if (!ret) {
			pulse_mods__apply(m, evsel);
			ret = pulse_evlist__add(ctx->evlist, evsel);
			found++;
		} else {
			pulse_evsel__delete(evsel);
		}
		pulse_pmu__delete(pmu);
	}
	pulse_strv_free(names);
	return ret ? ret : found ? 0 : -ENOENT;
}

/*
 * An event with no system part: @ev is the name, @mods what followed the
 * colon, @token the whole event as typed. Return: -ENOENT without touching
 * err when @ev is not such an event, so that the caller can try a
 * tracepoint.
 */
static int parse_named(struct parse_ctx *ctx, const char *ev, const char *mods, const char *token)
{
	const struct pulse_event_symbol *sym = pulse_event_symbol__find(ev);
	struct pulse_mods m;
	__u64 config;
	int ret;

	if (sym || is_raw(ev)) {
		if (pulse_mods__parse(mods, NULL, &m))
			return bad_mods(ctx, mods, token);
		if (sym)
			return add_fixed(ctx, sym->type, sym->config, token, &m, NULL, 0);
		return add_fixed(ctx, PERF_TYPE_RAW, strtoull(ev + 1, NULL, 16), token, &m,
				 NULL, 0);
	}
	ret = pulse_hw_cache__parse(ev, &config);
	if (ret == -EINVAL)
		return pulse_parse_err(ctx->err, -EINVAL, ev,
				       "run 'pulse list cache' for the valid combinations",
				       "invalid hardware cache event '%s'", ev);
	if (!ret) {
		if (pulse_mods__parse(mods, NULL, &m))
			return bad_mods(ctx, mods, token);
		/* perf names cache events by their name only, without modifiers */
		return add_fixed(ctx, PERF_TYPE_HW_CACHE, config, ev, &m, NULL, 0);
	}
	if (pulse_mods__parse(mods, NULL, &m))
		return -ENOENT;
	return add_pmu_alias_events(ctx, ev, &m, token);
}


static int unknown_event(struct parse_ctx *ctx, const char *want)
{
	char hint[256];

	pulse_event__suggest(ctx->opts, want, false, hint, sizeof(hint));
	return pulse_parse_err(ctx->err, -ENOENT, want, hint, "unknown event '%s'", want);
}

static bool tp_system_exists(const char *tracefs, const char *sys)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s", tracefs, sys);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int parse_tracepoint(struct parse_ctx *ctx, const char *sys, const char *name,
			    const char *mods, const char *token)
{
	const char *tracefs = pulse_tracefs_dir(ctx->opts);
	struct pulse_tp *tps;
	struct pulse_mods m;
	int nr, ret = 0;

	if (!tracefs) {
		ret = -errno;
		return pulse_parse_err(ctx->err, ret, token,
				       "tracepoints need tracefs: mount -t tracefs nodev /sys/kernel/tracing",
				       "cannot find tracefs (/sys/kernel/tracing) for '%s': %s", token,
				       strerror(-ret));
	}
	nr = pulse_tp__resolve(tracefs, sys, name, &tps, ctx->err);
	if (nr == -ENOENT) {
		char want[256];
		struct pulse_mods unused;

		if (strpbrk(sys, "*?[") || strpbrk(name, "*?["))
			return pulse_parse_err(ctx->err, -ENOENT, token,
					       "run 'pulse list tracepoint' to see the tracepoints",
					       "no tracepoint matches '%s:%s'", sys, name);
		/* "cpu-clok:u" is a misspelt event with modifiers, not a tracepoint */
		if (!*mods && !pulse_mods__parse(name, NULL, &unused) && !tp_system_exists(tracefs, sys))
			snprintf(want, sizeof(want), "%s", sys);
		else
			snprintf(want, sizeof(want), "%s:%s", sys, name);
		return unknown_event(ctx, want);
	}
	if (nr < 0)
		return nr;
	if (pulse_mods__parse(mods, NULL, &m)) {
		pulse_tp__free(tps, nr);
		return bad_mods(ctx, mods, token);
	}
	for (int i = 0; !ret && i < nr; i++) {
		char buf[512];
		struct pulse_evsel *evsel;

		snprintf(buf, sizeof(buf), "%s:%s", tps[i].sys, tps[i].name);
		ret = pulse_evsel__new(&evsel, PERF_TYPE_TRACEPOINT, tps[i].id, buf);
		if (ret)
			break;
		evsel->tp_system = strdup(tps[i].sys);
		evsel->tp_name = strdup(tps[i].name);
		if (!evsel->tp_system || !evsel->tp_name) {
			pulse_evsel__delete(evsel);
			ret = -ENOMEM;
			break;
		}
		kind_sampling(evsel);
		pulse_mods__apply(&m, evsel);
		ret = pulse_evlist__add(ctx->evlist, evsel);
	}
	pulse_tp__free(tps, nr);
	return ret;
}

/* "pmu/terms/mods", or "cpu-clock/period=1000/u" (builtin terms only). */
static int parse_pmu_event(struct parse_ctx *ctx, const char *s, const char *slash)
{
	const char *terms = slash + 1, *close, *mods;
	const struct pulse_event_symbol *sym;
	struct pulse_pmu *pmu = NULL;
	struct pulse_terms t = {};
	struct pulse_evsel *evsel;
	char *pmu_name;
	struct pulse_mods m;
	int ret;

	close = strchr(terms, '/');
	if (!close)
		return pulse_parse_err(ctx->err, -EINVAL, s,
				       "PMU events are written pmu/term=value,.../",
				       "missing '/' after the terms of '%s'", s);
	mods = close + 1;
	if (strchr(mods, '/') || pulse_mods__parse(mods, NULL, &m))
		return bad_mods(ctx, mods, s);
	pmu_name = strndup(s, slash - s);
	if (!pmu_name)
		return -ENOMEM;
	sym = pulse_event_symbol__find(pmu_name);
	if (sym) {
		free(pmu_name);
		return add_fixed(ctx, sym->type, sym->config, s, &m, terms, close - terms);
	}
	ret = pulse_pmu__new(&pmu, ctx->sysfs, pmu_name, ctx->err);
	if (ret == -ENOENT && pulse_aux_pmu__kind(pmu_name)) {
		const char *title = pulse_aux_pmu__title(pulse_aux_pmu__kind(pmu_name));
		char hint[160];

		snprintf(hint, sizeof(hint),
			 "%s is a CPU feature a VM rarely passes through; 'pulse list' shows what this machine has",
			 title);
		ret = pulse_parse_err(ctx->err, -ENOENT, pmu_name, hint,
				      "this CPU has no %s: no PMU '%s' in /sys/bus/event_source/devices",
				      title, pmu_name);
	} else if (ret == -ENOENT) {
		char hint[256];

		pulse_event__suggest(ctx->opts, pmu_name, true, hint, sizeof(hint));
		ret = pulse_parse_err(ctx->err, -ENOENT, pmu_name, hint,
				      "unknown PMU '%s' in '%s'", pmu_name, s);
	}
	free(pmu_name);
	if (ret)
		return ret;
	ret = pulse_evsel__new(&evsel, pmu->type, 0, s);
	if (ret) {
		pulse_pmu__delete(pmu);
		return ret;
	}
	if (close == terms && pulse_aux_pmu__kind(pmu->name) == PULSE_AUX_PMU_INTEL_PT) {
		/* intel_pt// gets perf's default terms */
		char def[256];

		ret = pulse_aux_pmu__default_config(ctx->opts, pmu->name, def, sizeof(def));
		if (!ret)
			ret = pulse_terms__apply(pmu, def, strlen(def), &evsel->attr, &t, ctx->err);
	} else {
		ret = pulse_terms__apply(pmu, terms, close - terms, &evsel->attr, &t, ctx->err);
	}
	if (!ret) {
		evsel->pmu_name = strdup(pmu->name);
		if (!evsel->pmu_name)
			ret = -ENOMEM;
	}
	pulse_pmu__delete(pmu);
	if (ret) {
		free(t.name);
		pulse_evsel__delete(evsel);
		return ret;
	}
	evsel->period_from_term = t.period_set;
	pulse_terms__unit_scale(&t, evsel);
	if (t.name) {
		free(evsel->name);
		evsel->name = t.name;
	}
	pulse_mods__apply(&m, evsel);
	return pulse_evlist__add(ctx->evlist, evsel);
}

static int parse_one(struct parse_ctx *ctx, const char *s)
{
	const char *slash, *colon, *colon2, *mods;
	char *ev, *name;
	int ret;

	if (!*s)
		return pulse_parse_err(ctx->err, -EINVAL, "", NULL, "empty event in the list");
	if (strpbrk(s, "{}") && ctx->no_groups)
		return pulse_parse_err(ctx->err, -EINVAL, s, "list the events without braces",
				       "event groups are not supported: '%s'", s);
	if (strpbrk(s, "{}"))
		return pulse_parse_err(ctx->err, -EINVAL, s,
				       "groups are written {a,b} or {a,b}:mods and do not nest",
				       "misplaced '{' or '}' in '%s'", s);
	slash = strchr(s, '/');
	if (slash)
		return parse_pmu_event(ctx, s, slash);
	colon = strchr(s, ':');
	if (!colon) {
		ret = parse_named(ctx, s, "", s);
		return ret == -ENOENT ? unknown_event(ctx, s) : ret;
	}
	if (colon == s)
		return pulse_parse_err(ctx->err, -EINVAL, s, NULL, "event name missing in '%s'", s);
	ev = strndup(s, colon - s);
	if (!ev)
		return -ENOMEM;
	ret = parse_named(ctx, ev, colon + 1, s);
	if (ret == -ENOENT) {
		/* sys:event[:mods] */
		colon2 = strchr(colon + 1, ':');
		mods = colon2 ? colon2 + 1 : "";
		name = colon2 ? strndup(colon + 1, colon2 - colon - 1) : strdup(colon + 1);
		ret = name ? parse_tracepoint(ctx, ev, name, mods, s) : -ENOMEM;
		free(name);
	}
	free(ev);
	return ret;
}

static int parse_list(struct parse_ctx *ctx, char *buf, bool top);

/*
 * "{a,b}" or "{a,b}:mods": the events, one group led by the first, then
 * the group's modifiers on every member (perf's parse_events__set_leader()
 * and parse_events__modifier_group()).
 */
static int parse_group(struct parse_ctx *ctx, char *s)
{
	char *close = strchr(s, '}'), *mods;
	int first = ctx->evlist->nr, ret;
	char token[128];

	snprintf(token, sizeof(token), "%s", s);
	if (!close)
		return pulse_parse_err(ctx->err, -EINVAL, token, NULL, "missing '}' in '%s'", token);
	mods = close + 1;
	if (*mods && *mods != ':')
		return pulse_parse_err(ctx->err, -EINVAL, token,
				       "groups are written {a,b} or {a,b}:mods and do not nest",
				       "unexpected '%s' after the group in '%s'", mods, token);
	if (*mods == ':') {
		struct pulse_mods m;

		if (pulse_mods__parse(++mods, NULL, &m) || !*mods)
			return bad_mods(ctx, mods, token);
	}
	*close = '\0';
	if (!s[1])
		return pulse_parse_err(ctx->err, -EINVAL, token, NULL, "empty group '%s'", token);
	ret = parse_list(ctx, s + 1, false);
	if (ret)
		return ret;
	pulse_evlist__set_leader(ctx->evlist, first, ctx->evlist->nr - first);
	for (int i = first; *mods && i < ctx->evlist->nr; i++) {
		struct pulse_evsel *e = ctx->evlist->entries[i];
		struct pulse_mods m;

		if (pulse_mods__parse(mods, e, &m))
			return bad_mods(ctx, mods, token);
		pulse_mods__apply(&m, e);
	}
	return 0;
}

/*
 * A comma list: commas between a PMU's slashes separate its terms, and at
 * the top level commas inside braces separate a group's events.
 */
static int parse_list(struct parse_ctx *ctx, char *buf, bool top)
{
	bool groups = top && !ctx->no_groups;
	int slashes = 0, depth = 0, ret = 0;
	char *start = buf;

	for (char *p = buf;; p++) {
		if (*p == '/')
			slashes++;
		else if (groups && !(slashes % 2) && *p == '{')
			depth++;
		else if (groups && !(slashes % 2) && *p == '}' && depth)
			depth--;
		if (*p && (*p != ',' || slashes % 2 || depth))
			continue;
		if (slashes % 2)
			return pulse_parse_err(ctx->err, -EINVAL, start,
					       "PMU events are written pmu/term=value,.../",
					       "missing '/' after the terms of '%s'", start);
		bool last = !*p;

		*p = '\0';
		if (groups && *start == '{')
			ret = parse_group(ctx, start);
		else
			ret = parse_one(ctx, start);
		if (ret || last)
			return ret;
		start = p + 1;
		slashes = 0;
	}
}

/**
 * pulse_evlist__parse - parse an -e argument and append its events
 * @evlist: the list to append to
 * @spec: "cpu-clock,sched:sched_switch", "msr/tsc/u", "{task-clock,page-faults}:u"
 * @opts: where sysfs and tracefs are (may be NULL: the real ones)
 * @err: filled in on failure (may be NULL)
 *
 * On failure @evlist is left as it was.
 *
 * Return: 0; -ENOENT unknown event/PMU/tracepoint; -EINVAL bad syntax or
 * term; -EACCES tracefs not readable; other -errno.
 */
int pulse_evlist__parse(struct pulse_evlist *evlist, const char *spec,
			const struct pulse_parse_opts *opts, struct pulse_parse_error *err)
{
	struct parse_ctx ctx = { .evlist = evlist, .opts = opts, .err = err };
	int nr_before = evlist->nr, ret;
	char *buf;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!spec || !*spec)
		return pulse_parse_err(err, -EINVAL, "", NULL, "empty event list");
	ctx.sysfs = pulse_sysfs_dir(opts);
	ctx.no_groups = opts && (!opts->sz || opts->sz >= offsetof(struct pulse_parse_opts, no_groups) +
							   sizeof(opts->no_groups)) &&
			opts->no_groups;
	buf = strdup(spec);
	if (!buf)
		return -ENOMEM;
	ret = parse_list(&ctx, buf, true);
	free(buf);
	if (ret) {
		while (evlist->nr > nr_before)
			pulse_evsel__delete(evlist->entries[--evlist->nr]);
	}
	return ret;
}
