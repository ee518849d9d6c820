// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's -e syntax into perf_event_attrs. A spec is a comma list of
 * events (commas between a PMU's slashes belong to its terms); each event is
 * a software or hardware name, a hardware cache name, a raw rNNNN, a PMU
 * alias name, "pmu/terms/" or "sys:event" (globs allowed), followed by
 * modifiers (":u", "/u" after a PMU's terms). The attrs and names match what
 * perf 6.1 builds and `perf evlist -v` shows: names are the spec as typed
 * except tracepoints ("sys:event") and cache events (no modifiers), an event
 * without modifiers gets exclude_guest (perf's event_attr_init()), one with
 * modifiers gets exactly the bits they ask for (get_event_modifier()).
 *
 * Also here: the cycles -> cpu-clock fallback, the "did you mean" hint for
 * an unknown event, and the walk over every event of the machine for
 * `pulse list`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "event/parse-internal.h"

#define NO_SUCH_EVENT_HINT "run 'pulse list' to see the events of this machine"

int pulse_parse_err(struct pulse_parse_error *err, int ret, const char *token,
		    const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return ret;
	snprintf(err->token, sizeof(err->token), "%s", token ? token : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
	pr_debug("event parser: %s\n", err->msg);
	return ret;
}

void pulse_strv_free(char **strv)
{
	for (char **s = strv; s && *s; s++)
		free(*s);
	free(strv);
}

struct parse_ctx {
	struct pulse_evlist *evlist;
	const struct pulse_parse_opts *opts;
	struct pulse_parse_error *err;
	const char *sysfs;
};

/* opts->sz lets the struct grow; 0 (unset) means "every field is there". */
#define OPT(opts, field)                                                         \
	((opts) && (!(opts)->sz ||                                               \
		    (opts)->sz >= offsetof(struct pulse_parse_opts, field) +     \
					  sizeof((opts)->field)) ? (opts)->field : NULL)

static const char *sysfs_dir(const struct pulse_parse_opts *opts)
{
	const char *dir = OPT(opts, sysfs);

	return dir ? dir : "/sys";
}

/* What the letters after the colon asked for (perf's struct event_modifier). */
struct mods {
	bool any;
	bool eu, ek, eh, eH, eG, eI;
	int precise;
	bool precise_max, sample_read, pinned, exclusive, weak;
};

/*
 * perf 6.1's check_modifier() and get_event_modifier() for an event of
 * its own (no group), so every bit starts at 0: the first of u/k/h
 * excludes all three contexts and each letter re-includes its own, the
 * first of G/H likewise for guest/host, and u or p alone also exclude the
 * guest.
 */
static int parse_mods(const char *s, struct mods *m)
{
	bool exclude = false, exclude_GH = false;

	memset(m, 0, sizeof(*m));
	if (strlen(s) > strlen("ukhGHpppPSDIWe"))
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p != 'p' && strchr(p + 1, *p))
			return -EINVAL;
	m->any = *s;
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			if (!exclude_GH)
				m->eG = true;
			m->eu = false;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->ek = false;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->eh = false;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = m->eG = m->eH = true;
			m->eG = false;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = m->eG = m->eH = true;
			m->eH = false;
			break;
		case 'I':
			m->eI = true;
			break;
		case 'p':
			m->precise++;
			/* perf: precise sampling implies not sampling the guest */
			if (!exclude_GH)
				m->eG = true;
			break;
		case 'P':
			m->precise_max = true;
			break;
		case 'S':
			m->sample_read = true;
			break;
		case 'D':
			m->pinned = true;
			break;
		case 'e':
			m->exclusive = true;
			break;
		case 'W':
			m->weak = true;
			break;
		default:
			return -EINVAL;
		}
	}
	return m->precise > 3 ? -EINVAL : 0;
}

static int bad_mods(struct parse_ctx *ctx, const char *mods, const char *token)
{
	return pulse_parse_err(ctx->err, -EINVAL, token,
			       "modifiers are u k h G H I p pp ppp P S D e W, each at most once",
			       "bad modifier '%s' in '%s'", mods, token);
}

static void apply_mods(struct pulse_evsel *evsel, const struct mods *m)
{
	struct perf_event_attr *a = &evsel->attr;

	if (!m->any) {
		/* perf's event_attr_init() when perf is not told about guests */
		a->exclude_guest = 1;
		return;
	}
	a->exclude_user = m->eu;
	a->exclude_kernel = m->ek;
	a->exclude_hv = m->eh;
	a->exclude_host = m->eH;
	a->exclude_guest = m->eG;
	a->exclude_idle = m->eI;
	a->precise_ip = m->precise;
	/* perf's evsel__config() starts :P at 3; its opener lowers it on failure */
	if (m->precise_max)
		a->precise_ip = 3;
	a->pinned = m->pinned;
	a->exclusive = m->exclusive;
	evsel->precise_max = m->precise_max;
	evsel->mod_precise_set = m->precise || m->precise_max;
	evsel->sample_read = m->sample_read;
	evsel->weak_group = m->weak;
}

static struct pulse_evsel *evsel__new(__u32 type, __u64 config, const char *name)
{
	struct pulse_evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->attr.type = type;
	evsel->attr.config = config;
	evsel->name = strdup(name);
	if (!evsel->name) {
		free(evsel);
		return NULL;
	}
	return evsel;
}

static int evlist__add(struct pulse_evlist *evlist, struct pulse_evsel *evsel)
{
	struct pulse_evsel **e = realloc(evlist->entries, (evlist->nr + 1) * sizeof(*e));

	if (!e) {
		pulse_evsel__delete(evsel);
		return -ENOMEM;
	}
	evlist->entries = e;
	evsel->idx = evlist->nr;
	e[evlist->nr++] = evsel;
	return 0;
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
		     const struct mods *m, const char *terms, size_t terms_len)
{
	struct pulse_terms t = {};
	struct pulse_evsel *evsel;
	int ret;

	evsel = evsel__new(type, config, name);
	if (!evsel)
		return -ENOMEM;
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
	apply_mods(evsel, m);
	return evlist__add(ctx->evlist, evsel);
}

/* "tsc" alone: the alias of whichever PMUs have one by that name. */
static int add_pmu_alias_events(struct parse_ctx *ctx, const char *alias, const struct mods *m,
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

		if (pulse_pmu__load(ctx->sysfs, *n, &pmu, NULL))
			continue;
		if (!pulse_pmu__find_alias(pmu, alias)) {
			pulse_pmu__delete(pmu);
			continue;
		}
		evsel = evsel__new(pmu->type, 0, token);
		ret = evsel ? pulse_terms__apply(pmu, alias, strlen(alias), &evsel->attr, &t,
						 ctx->err) : -ENOMEM;
		if (!ret) {
			evsel->period_from_term = t.period_set;
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
			apply_mods(evsel, m);
			ret = evlist__add(ctx->evlist, evsel);
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
	struct mods m;
	__u64 config;
	int ret;

	if (sym || is_raw(ev)) {
		if (parse_mods(mods, &m))
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
		if (parse_mods(mods, &m))
			return bad_mods(ctx, mods, token);
		/* perf names cache events by their name only, without modifiers */
		return add_fixed(ctx, PERF_TYPE_HW_CACHE, config, ev, &m, NULL, 0);
	}
	if (parse_mods(mods, &m))
		return -ENOENT;
	return add_pmu_alias_events(ctx, ev, &m, token);
}

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
static void suggest(struct parse_ctx *ctx, const char *want, bool pmus_only, char *hint,
		    size_t size)
{
	struct suggest s = { .want = want, .best = 1 << 20 };
	const char *tracefs;
	char **names;
	int n;

	s.limit = 1 + strlen(want) / 4;
	if (s.limit > 3)
		s.limit = 3;
	names = pulse_pmu__names(ctx->sysfs);
	for (char **n = names; n && *n; n++) {
		struct pulse_pmu *pmu;

		suggest_consider(&s, *n);
		if (pmus_only || pulse_pmu__load(ctx->sysfs, *n, &pmu, NULL))
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
		tracefs = pulse_tracefs_dir(ctx->opts);
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

static int unknown_event(struct parse_ctx *ctx, const char *want)
{
	char hint[256];

	suggest(ctx, want, false, hint, sizeof(hint));
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
	struct mods m;
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
		struct mods unused;

		if (strpbrk(sys, "*?[") || strpbrk(name, "*?["))
			return pulse_parse_err(ctx->err, -ENOENT, token,
					       "run 'pulse list tracepoint' to see the tracepoints",
					       "no tracepoint matches '%s:%s'", sys, name);
		/* "cpu-clok:u" is a misspelt event with modifiers, not a tracepoint */
		if (!*mods && !parse_mods(name, &unused) && !tp_system_exists(tracefs, sys))
			snprintf(want, sizeof(want), "%s", sys);
		else
			snprintf(want, sizeof(want), "%s:%s", sys, name);
		return unknown_event(ctx, want);
	}
	if (nr < 0)
		return nr;
	if (parse_mods(mods, &m)) {
		pulse_tp__free(tps, nr);
		return bad_mods(ctx, mods, token);
	}
	for (int i = 0; !ret && i < nr; i++) {
		char buf[512];
		struct pulse_evsel *evsel;

		snprintf(buf, sizeof(buf), "%s:%s", tps[i].sys, tps[i].name);
		evsel = evsel__new(PERF_TYPE_TRACEPOINT, tps[i].id, buf);
		if (!evsel) {
			ret = -ENOMEM;
			break;
		}
		evsel->tp_system = strdup(tps[i].sys);
		evsel->tp_name = strdup(tps[i].name);
		if (!evsel->tp_system || !evsel->tp_name) {
			pulse_evsel__delete(evsel);
			ret = -ENOMEM;
			break;
		}
		kind_sampling(evsel);
		apply_mods(evsel, &m);
		ret = evlist__add(ctx->evlist, evsel);
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
	struct mods m;
	int ret;

	close = strchr(terms, '/');
	if (!close)
		return pulse_parse_err(ctx->err, -EINVAL, s,
				       "PMU events are written pmu/term=value,.../",
				       "missing '/' after the terms of '%s'", s);
	mods = close + 1;
	if (strchr(mods, '/') || parse_mods(mods, &m))
		return bad_mods(ctx, mods, s);
	pmu_name = strndup(s, slash - s);
	if (!pmu_name)
		return -ENOMEM;
	sym = pulse_event_symbol__find(pmu_name);
	if (sym) {
		free(pmu_name);
		return add_fixed(ctx, sym->type, sym->config, s, &m, terms, close - terms);
	}
	ret = pulse_pmu__load(ctx->sysfs, pmu_name, &pmu, ctx->err);
	if (ret == -ENOENT) {
		char hint[256];

		suggest(ctx, pmu_name, true, hint, sizeof(hint));
		ret = pulse_parse_err(ctx->err, -ENOENT, pmu_name, hint,
				      "unknown PMU '%s' in '%s'", pmu_name, s);
	}
	free(pmu_name);
	if (ret)
		return ret;
	evsel = evsel__new(pmu->type, 0, s);
	if (!evsel) {
		pulse_pmu__delete(pmu);
		return -ENOMEM;
	}
	ret = pulse_terms__apply(pmu, terms, close - terms, &evsel->attr, &t, ctx->err);
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
	if (t.name) {
		free(evsel->name);
		evsel->name = t.name;
	}
	apply_mods(evsel, &m);
	return evlist__add(ctx->evlist, evsel);
}

static int parse_one(struct parse_ctx *ctx, const char *s)
{
	const char *slash, *colon, *colon2, *mods;
	char *ev, *name;
	int ret;

	if (!*s)
		return pulse_parse_err(ctx->err, -EINVAL, "", NULL, "empty event in the list");
	if (strpbrk(s, "{}"))
		return pulse_parse_err(ctx->err, -EINVAL, s, "list the events without braces",
				       "event groups are not supported: '%s'", s);
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

/**
 * pulse_evlist__parse - parse an -e argument and append its events
 * @evlist: the list to append to
 * @spec: "cpu-clock,sched:sched_switch", "msr/tsc/u", ...
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
	int nr_before = evlist->nr, ret = 0, slashes = 0;
	char *buf, *start;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!spec || !*spec)
		return pulse_parse_err(err, -EINVAL, "", NULL, "empty event list");
	ctx.sysfs = sysfs_dir(opts);
	buf = strdup(spec);
	if (!buf)
		return -ENOMEM;
	start = buf;
	for (char *p = buf;; p++) {
		if (*p == '/')
			slashes++;
		/* a comma between a PMU's slashes separates its terms */
		if (*p && (*p != ',' || slashes % 2))
			continue;
		if (slashes % 2) {
			ret = pulse_parse_err(err, -EINVAL, start, "PMU events are written pmu/term=value,.../",
					      "missing '/' after the terms of '%s'", start);
			break;
		}
		bool last = !*p;

		*p = '\0';
		ret = parse_one(&ctx, start);
		if (ret || last)
			break;
		start = p + 1;
		slashes = 0;
	}
	free(buf);
	if (ret) {
		while (evlist->nr > nr_before)
			pulse_evsel__delete(evlist->entries[--evlist->nr]);
	}
	return ret;
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
 * pulse_evlist__delete_entries - delete every evsel; the evlist is then empty
 * @evlist: the list, itself not freed (it is usually on the caller's stack)
 */
void pulse_evlist__delete_entries(struct pulse_evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		pulse_evsel__delete(evlist->entries[i]);
	free(evlist->entries);
	evlist->entries = NULL;
	evlist->nr = 0;
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

struct list_sym {
	char name[96];
	const char *desc;
};

static int cmp_list_sym(const void *a, const void *b)
{
	return strcmp(((const struct list_sym *)a)->name, ((const struct list_sym *)b)->name);
}

static int list_symbols(__u32 type, enum pulse_event_kind kind, pulse_list_cb cb, void *arg)
{
	struct list_sym syms[64];
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < pulse_nr_event_symbols && n < ARRAY_SIZE(syms); i++) {
		const struct pulse_event_symbol *s = &pulse_event_symbols[i];

		if (s->type != type)
			continue;
		if (s->alias)
			snprintf(syms[n].name, sizeof(syms[n].name), "%s OR %s", s->name, s->alias);
		else
			snprintf(syms[n].name, sizeof(syms[n].name), "%s", s->name);
		syms[n++].desc = s->desc;
	}
	qsort(syms, n, sizeof(syms[0]), cmp_list_sym);
	for (size_t i = 0; i < n && !ret; i++)
		ret = cb(kind, syms[i].name, syms[i].desc, arg);
	return ret;
}

struct list_arg {
	pulse_list_cb cb;
	void *arg;
	int stopped;			/* the callback's non-zero return */
};

static int list_cache(const char *name, __u64 config, void *arg)
{
	struct list_arg *la = arg;

	return la->cb(PULSE_EV_HW_CACHE, name, NULL, la->arg);
}

static int list_tp(const char *sys, const char *name, void *arg)
{
	struct list_arg *la = arg;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%s", sys, name);
	la->stopped = la->cb(PULSE_EV_TRACEPOINT, buf, NULL, la->arg);
	return la->stopped;
}

static int list_pmus(const char *sysfs, pulse_list_cb cb, void *arg)
{
	char **names = pulse_pmu__names(sysfs);
	int ret = 0;

	if (!names)
		return -ENOMEM;
	for (char **n = names; !ret && *n; n++) {
		struct pulse_pmu *pmu;

		if (pulse_pmu__load(sysfs, *n, &pmu, NULL)) {
			pr_debug("pulse list: skipping PMU %s\n", *n);
			continue;
		}
		for (int i = 0; !ret && i < pmu->nr_aliases; i++) {
			char buf[512];

			snprintf(buf, sizeof(buf), "%s/%s/", pmu->name, pmu->aliases[i].name);
			ret = cb(PULSE_EV_PMU, buf, pmu->aliases[i].terms, arg);
		}
		pulse_pmu__delete(pmu);
	}
	pulse_strv_free(names);
	return ret;
}

/**
 * pulse_list_events - every event of this machine, in perf list's order
 * @opts: where sysfs and tracefs are (may be NULL)
 * @cb: called for each event; a non-zero return stops the walk
 * @arg: passed to @cb
 *
 * Hardware, software and hardware cache events, then each PMU's sysfs
 * aliases as "pmu/alias/", then every tracepoint as "sys:event". Without
 * a readable tracefs the tracepoints are left out.
 *
 * Return: 0, the callback's non-zero return, or -errno.
 */
int pulse_list_events(const struct pulse_parse_opts *opts, pulse_list_cb cb, void *arg)
{
	struct list_arg la = { cb, arg, 0 };
	const char *tracefs;
	int ret;

	ret = list_symbols(PERF_TYPE_HARDWARE, PULSE_EV_HARDWARE, cb, arg);
	if (!ret)
		ret = list_symbols(PERF_TYPE_SOFTWARE, PULSE_EV_SOFTWARE, cb, arg);
	if (!ret)
		ret = pulse_hw_cache__for_each(list_cache, &la);
	if (!ret)
		ret = list_pmus(sysfs_dir(opts), cb, arg);
	if (ret)
		return ret;
	tracefs = pulse_tracefs_dir(opts);
	if (!tracefs) {
		pr_debug("pulse list: no tracefs: %s\n", strerror(errno));
		return 0;
	}
	ret = pulse_tp__for_each(tracefs, list_tp, &la);
	if (la.stopped)
		return la.stopped;
	if (ret < 0 && ret != -ENOMEM) {
		pr_debug("pulse list: cannot read %s/events: %s\n", tracefs, strerror(-ret));
		return 0;
	}
	return ret;
}
