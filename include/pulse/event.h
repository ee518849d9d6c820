/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events: parsing perf's event syntax into evsels (lib/event/parse.c,
 * modifier.c, names.c, pmu.c, tracepoint.c), the evsel and evlist as
 * descriptions (evsel.c, evlist.c) and the walk for pulse list (list.c).
 * Opening and reading them: <pulse/evlist.h> and <pulse/open.h>.
 *
 * Accepted (as perf record -e): software and hardware names
 * (cpu-clock, cs, cycles, ...), raw rNNNN, tracepoints sys:event with globs
 * (sched:*), dynamic PMUs pmu/term=value,.../ using the PMU's sysfs format
 * files, modifiers :u :k :h :H :G :I :p :pp :ppp :P :S :D :e :W, comma lists,
 * groups {a,b} and {a,b}:mods.
 */
#ifndef PULSE_EVENT_H
#define PULSE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

/*
 * One event: what the spec described (attr, name, modifiers) and where it
 * sits in its group. It holds no open state: the fds and kernel ids of an
 * opened event are its evlist's cells (<pulse/evlist.h>).
 */
struct pulse_evsel {
	struct perf_event_attr attr;	/* what the spec asked for; record adds sampling bits */
	char *name;			/* perf's name: "cpu-clock", "cycles:u", "sched:sched_switch" */
	char *tp_system;		/* tracepoints: "sched" (NULL otherwise) */
	char *tp_name;			/* tracepoints: "sched_switch" */
	char *pmu_name;			/* dynamic PMU events: "msr" */
	char *filter;			/* tracepoint filter (--filter), set on the fds after open */
	bool fell_back;			/* cycles replaced by cpu-clock (no PMU) */
	bool mod_precise_set;		/* a :p or :P modifier was given */
	bool precise_max;		/* :P — precise_ip starts at 3; the opener may lower it */
	bool sample_read;		/* :S — record adds PERF_SAMPLE_READ */
	bool weak_group;		/* :W */
	bool exclude_GH;		/* a G or H modifier was given (perf's evsel->exclude_GH) */
	bool period_from_term;		/* period=/freq= terms: they win over -c/-F, as perf's config terms */
	int idx;			/* position in the evlist */
	/* the group ("{a,b}"), set by the parser */
	struct pulse_evsel *leader;	/* the group's first event; the evsel itself when alone */
	int nr_members;			/* on a leader: its group's events, itself included (1 alone) */
	int group_idx;			/* position in the group: 0 for the leader */
	/* a PMU alias's sysfs events/<alias>.unit and .scale ("Joules", 2.3e-10): stat shows
	 * count * scale in that unit; "" and 0 when the alias has none (scale 1) */
	char unit[32];
	double scale;
};

/* An evlist's open state (lib/event/cells.c), reached through <pulse/evlist.h>. */
struct pulse_evlist_cells;

/*
 * The events of one or more -e lists, in order, and, once opened, their
 * cells. Zeroed, or pulse_evlist__init().
 */
struct pulse_evlist {
	struct pulse_evsel **entries;	/* owned */
	int nr;
	struct pulse_evlist_cells *cells;	/* owned; NULL while not open */
};

/* Where the parser looks; NULL fields mean the real system. */
struct pulse_parse_opts {
	size_t sz;
	const char *sysfs;		/* default "/sys"; tests point it at a fake tree */
	const char *tracefs;		/* tracefs mount; default: found (or mounted) via libtracefs */
	bool no_groups;			/* reject "{a,b}" as before groups were parsed */
};

/* What went wrong, for the CLI's error and hint lines. */
struct pulse_parse_error {
	char token[128];		/* the event or term that failed */
	char msg[256];			/* "unknown event 'cpu-clok'" */
	char hint[256];			/* "did you mean 'cpu-clock'?" (may be empty) */
};

/**
 * pulse_evlist__parse - parse an -e argument and append its events
 * @evlist: the list to append to
 * @spec: "cpu-clock,sched:sched_switch", "msr/tsc/u", "{task-clock,page-faults}:u"
 * @opts: may be NULL
 * @err: filled in on failure (may be NULL)
 *
 * A group "{a,b}" links its members to its first event (leader,
 * nr_members, group_idx); modifiers after the closing brace apply to every
 * member, on top of the member's own, as perf 6.1 applies them.
 * On failure @evlist is left as it was.
 *
 * Return: 0; -ENOENT unknown event/PMU/tracepoint; -EINVAL bad syntax or
 * term; -EACCES tracefs not readable; other -errno.
 */
int pulse_evlist__parse(struct pulse_evlist *evlist, const char *spec,
			const struct pulse_parse_opts *opts, struct pulse_parse_error *err);

/**
 * pulse_evsel__new - an evsel for one event, alone in its group, in no evlist
 * @out: set to the new evsel, NULL on failure
 * @type: attr.type
 * @config: attr.config
 * @name: its name (copied)
 *
 * Return: 0 or -ENOMEM. The caller owns *@out: pulse_evsel__delete().
 */
int pulse_evsel__new(struct pulse_evsel **out, __u32 type, __u64 config, const char *name);

/* Free @evsel (NULL is a no-op). An evlist it is in must be closed first. */
void pulse_evsel__delete(struct pulse_evsel *evsel);

/*
 * pulse_evsel__append_filter - add a tracepoint filter to @evsel's, joined
 * as perf does: "(old) && (new)" (lib/event/filter.c). Return: 0 or -ENOMEM.
 */
int pulse_evsel__append_filter(struct pulse_evsel *evsel, const char *filter);

/* Whether @evsel leads its group (an event alone leads a group of one). */
static inline bool pulse_evsel__is_leader(const struct pulse_evsel *evsel)
{
	return !evsel->leader || evsel->leader == evsel;
}

/* An empty evlist. Return: 0. */
int pulse_evlist__init(struct pulse_evlist *evlist);

/* Close and delete every evsel; the evlist is then empty (and may be reused). */
void pulse_evlist__exit(struct pulse_evlist *evlist);

/**
 * pulse_evlist__add - append an evsel, which the evlist then owns
 *
 * Add before pulse_evlist__open(): an open evlist has cells for the evsels
 * it had when it was opened.
 *
 * Return: 0 or -ENOMEM (then @evsel has been deleted).
 */
int pulse_evlist__add(struct pulse_evlist *evlist, struct pulse_evsel *evsel);

/**
 * pulse_evsel__fallback - replace a hardware cycles event by cpu-clock, as
 * perf 6.1 does on machines without a PMU (keeps the modifiers' exclude bits).
 * Return: true if the event was changed.
 */
bool pulse_evsel__fallback(struct pulse_evsel *evsel);

/**
 * pulse_attr__name - an event's name from its attr, as perf 6.1 names an
 * event whose file carries no name (lib/event/attr-name.c)
 * Return: @buf, or NULL for a tracepoint (named by its format, by the caller).
 */
const char *pulse_attr__name(const struct perf_event_attr *attr, char *buf, size_t size);

/* pulse list: every event name that exists here, by kind. */
enum pulse_event_kind {
	PULSE_EV_HARDWARE,
	PULSE_EV_SOFTWARE,
	PULSE_EV_HW_CACHE,
	PULSE_EV_TRACEPOINT,
	PULSE_EV_PMU,
};
/*
 * @name is what perf list prints, aliases included ("context-switches OR cs",
 * "msr/tsc/", "sched:sched_switch"); @desc may be NULL. A non-zero return
 * from the callback stops the walk and is returned by pulse_list_events().
 * Hardware and cache events are listed whether or not this CPU counts them.
 */
typedef int (*pulse_list_cb)(enum pulse_event_kind kind, const char *name, const char *desc,
			     void *arg);
int pulse_list_events(const struct pulse_parse_opts *opts, pulse_list_cb cb, void *arg);

/* The tracefs mount point, mounted when missing and root (libtracefs). NULL + errno. */
const char *pulse_tracefs_dir(const struct pulse_parse_opts *opts);

/* ---- AUX-area PMUs (lib/event/aux-pmu.c) -------------------------------- */

/* perf's enum auxtrace_type values */
enum pulse_aux_pmu_kind {
	PULSE_AUX_PMU_NONE = 0,
	PULSE_AUX_PMU_INTEL_PT = 1,
	PULSE_AUX_PMU_INTEL_BTS = 2,
	PULSE_AUX_PMU_CS_ETM = 3,
	PULSE_AUX_PMU_ARM_SPE = 4,
};

/* Which AUX PMU a sysfs PMU name is (intel_pt, intel_bts, cs_etm, arm_spe_N), or NONE. */
int pulse_aux_pmu__kind(const char *pmu_name);
/* "Intel PT", "ARM SPE", ... or NULL */
const char *pulse_aux_pmu__title(int kind);
/* Whether @evsel is on an AUX-area PMU. */
bool pulse_evsel__is_aux(const struct pulse_evsel *evsel);
/*
 * pulse_aux_pmu__cap - read caps/@cap of @pmu (hex, as the drivers print it)
 * Return: 0, or -errno (-ENOENT: no such PMU or cap).
 */
int pulse_aux_pmu__cap(const struct pulse_parse_opts *opts, const char *pmu, const char *cap,
		       __u64 *val);
/* A number in file @file of @pmu's sysfs directory ("max_nonturbo_ratio"), in @base. */
int pulse_aux_pmu__read_u64(const struct pulse_parse_opts *opts, const char *pmu, const char *file,
			    int base, __u64 *val);
/* The attr.config bits of format term @term ("tsc": 1 << 10), as perf_pmu__format_bits(). */
int pulse_aux_pmu__format_bits(const struct pulse_parse_opts *opts, const char *pmu,
			       const char *term, __u64 *mask);
/* intel_pt's caps/tsc_art_ratio "N:D" (0:0 when absent). Return: 0 or -errno. */
int pulse_aux_pmu__tsc_art_ratio(const struct pulse_parse_opts *opts, __u32 *n, __u32 *d);
/*
 * The terms perf puts in an intel_pt// written with none ("tsc,mtc,
 * mtc_period=3,psb_period=3,pt,branch" on most CPUs); empty for other PMUs.
 * Return: 0 or -ENOSPC.
 */
int pulse_aux_pmu__default_config(const struct pulse_parse_opts *opts, const char *pmu,
				  char *buf, size_t size);

#endif
