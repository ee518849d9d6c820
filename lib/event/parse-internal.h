/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to lib/event: the symbol tables (names.c), the sysfs PMU and
 * tracefs readers (pmu.c, tracepoint.c), the modifiers (modifier.c), the
 * hint (suggest.c) and the error helper they all share (parse-error.c).
 * Not part of the public API.
 */
#ifndef PULSE_EVENT_PARSE_INTERNAL_H
#define PULSE_EVENT_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <pulse/event.h>

/* names.c: perf's software and hardware event names. */
struct pulse_event_symbol {
	const char *name;
	const char *alias;		/* perf's second spelling, or NULL */
	__u32 type;
	__u64 config;
	const char *desc;
};

extern const struct pulse_event_symbol pulse_event_symbols[];
extern const size_t pulse_nr_event_symbols;

const struct pulse_event_symbol *pulse_event_symbol__find(const char *name);

/*
 * Parse a hardware cache name ("L1-dcache-load-misses", "dTLB-stores").
 * Return: 0 with *config set, -ENOENT when @name is not cache syntax at all,
 * -EINVAL for a cache name whose operation the cache does not have.
 */
int pulse_hw_cache__parse(const char *name, __u64 *config);

typedef int (*pulse_hw_cache_cb)(const char *name, __u64 config, void *arg);
/* Every valid cache event, under perf's canonical name, in strcmp order. */
int pulse_hw_cache__for_each(pulse_hw_cache_cb cb, void *arg);

/* perf's evsel__add_modifiers(): the ":uH" suffix perf derives from an attr. */
void pulse_attr__modifier_suffix(const struct perf_event_attr *attr, char *buf, size_t size);

/* Optimal string alignment distance (Levenshtein plus transpositions). */
int pulse_edit_distance(const char *a, const char *b);

/* pmu.c: a PMU under <sysfs>/bus/event_source/devices/<name>. */
struct pulse_pmu_format {
	char *name;
	int field;			/* 0: config, 1: config1, 2: config2 */
	__u64 bits;			/* where the value's bits go, low bit first */
};

struct pulse_pmu_alias {
	char *name;
	char *terms;			/* "event=0x3c,umask=0x1" */
	char unit[32];			/* events/<name>.unit, "" none */
	double scale;			/* events/<name>.scale, 0 none */
};

struct pulse_pmu {
	char *name;
	__u32 type;
	struct pulse_pmu_format *formats;
	int nr_formats;
	struct pulse_pmu_alias *aliases;	/* sorted by name */
	int nr_aliases;
};

/*
 * Read <sysfs>/bus/event_source/devices/<name>. Return: 0 with *@out set
 * (free with pulse_pmu__delete()), -ENOENT no such PMU, -EINVAL bad sysfs
 * files (@err says which), -ENOMEM; *@out is NULL on failure.
 */
int pulse_pmu__new(struct pulse_pmu **out, const char *sysfs, const char *name,
		   struct pulse_parse_error *err);
void pulse_pmu__delete(struct pulse_pmu *pmu);
const struct pulse_pmu_alias *pulse_pmu__find_alias(const struct pulse_pmu *pmu,
						    const char *name);

/* The PMU directory names of @sysfs, sorted; NULL-terminated, free with pulse_strv_free(). */
char **pulse_pmu__names(const char *sysfs);

/* What the builtin terms set besides attr bits. */
struct pulse_terms {
	char *name;			/* name=, owned by the caller afterwards */
	bool period_set;		/* period= or freq= was given */
	char unit[32];			/* the last alias's sysfs unit and scale (perf's) */
	double scale;
};

/*
 * Apply "term=value,term2,..." (@len bytes of @str) to @attr. @pmu NULL
 * allows only the builtin terms (config, config1, config2, period, freq,
 * name), as for "cpu-clock/period=1000/".
 */
/* Give @evsel the unit and scale of the alias @t came from (pmu.c). */
void pulse_terms__unit_scale(const struct pulse_terms *t, struct pulse_evsel *evsel);
int pulse_terms__apply(const struct pulse_pmu *pmu, const char *str, size_t len,
		       struct perf_event_attr *attr, struct pulse_terms *out,
		       struct pulse_parse_error *err);

/* tracepoint.c */
struct pulse_tp {
	char *sys;
	char *name;
	__u64 id;
};

/*
 * Resolve "sys:name" where either part may be a glob, into tracepoints in
 * sorted order. Return: the number found (>0) or -errno (-ENOENT: none).
 */
int pulse_tp__resolve(const char *tracefs, const char *sys, const char *name,
		      struct pulse_tp **tps, struct pulse_parse_error *err);
void pulse_tp__free(struct pulse_tp *tps, int nr);

typedef int (*pulse_tp_cb)(const char *sys, const char *name, void *arg);
/* Every tracepoint of @tracefs, sorted by system then name. */
int pulse_tp__for_each(const char *tracefs, pulse_tp_cb cb, void *arg);

/* modifier.c: what the letters after the colon asked for (perf's struct event_modifier). */
struct pulse_mods {
	bool any;			/* some letter was given */
	bool eu, ek, eh, eH, eG, eI;	/* exclude_user, _kernel, _hv, _host, _guest, _idle */
	int precise;			/* number of p */
	bool precise_max;		/* P */
	bool sample_read;		/* S */
	bool pinned;			/* D */
	bool exclusive;			/* e */
	bool weak;			/* W */
	bool exclude_GH;		/* G or H was given (here or, for a group, before) */
};

/*
 * Read @s, starting from @from's bits for a group's modifiers (NULL for an
 * event's own). Return: 0 or -EINVAL for a letter perf does not know, one
 * given twice, or more than 3 p.
 */
int pulse_mods__parse(const char *s, const struct pulse_evsel *from, struct pulse_mods *m);
/* Set @evsel's attr bits and flags from @m (exclude_guest alone when @m is empty). */
void pulse_mods__apply(const struct pulse_mods *m, struct pulse_evsel *evsel);

/* evlist.c: make evlist->entries[first .. first + nr) one group, led by the first. */
void pulse_evlist__set_leader(struct pulse_evlist *evlist, int first, int nr);

/* suggest.c: "did you mean 'cpu-clock'?" into @hint (PMU names only when @pmus_only). */
void pulse_event__suggest(const struct pulse_parse_opts *opts, const char *want, bool pmus_only,
			  char *hint, size_t size);

/* pmu.c: opts->sysfs, or "/sys". */
const char *pulse_sysfs_dir(const struct pulse_parse_opts *opts);

/* parse-error.c: fill in @err (may be NULL) and return @ret. */
int pulse_parse_err(struct pulse_parse_error *err, int ret, const char *token,
		    const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void pulse_strv_free(char **strv);

#endif
