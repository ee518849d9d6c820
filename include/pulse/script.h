/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script's per-sample output (lib/output/script.c): one line per
 * sample as perf 6.1 prints it by default (comm, tid, cpu, time, period,
 * event, decoded tracepoint fields, ip, sym+off, dso, and the callchain
 * under it), perf's -F field selection, its sample filters, and the
 * side-band lines of --show-*-events.
 *
 * The caller drives the session (open, time ordering) and hands every
 * record, in time order, to pulse_script__record(), which applies the
 * side-band ones to the machine; with show_round_events, in file order
 * and FINISHED_ROUND records included. Fields are per event type (hw, sw, trace, ...),
 * checked against the first attr of each type as perf does: a default field
 * the samples cannot have is dropped; one the user asked for is an error.
 */
#ifndef PULSE_SCRIPT_H
#define PULSE_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct pulse_data;
struct pulse_hist_filter;
struct pulse_machine;
struct pulse_trace;
struct pulse_script;

struct pulse_script_opts {
	size_t sz;			/* sizeof(struct pulse_script_opts) */
	bool ns;			/* --ns: nanosecond timestamps */
	bool reltime;			/* --reltime: since the first line's time */
	bool deltatime;			/* --deltatime: since the line before's */
	bool hide_callchain;		/* -G: no callchains */
	bool show_task_events;		/* COMM, FORK, EXIT lines */
	bool show_mmap_events;		/* MMAP, MMAP2 lines */
	bool show_switch_events;	/* SWITCH, SWITCH_CPU_WIDE lines */
	bool show_namespace_events;	/* NAMESPACES lines */
	bool show_cgroup_events;	/* CGROUP lines */
	bool show_lost_events;		/* LOST lines */
	bool show_bpf_events;		/* KSYMBOL, BPF_EVENT lines */
	bool show_round_events;		/* FINISHED_ROUND lines (hand them in) */
	/* --max-stack: callchain entries shown (context markers aside); else perf's 127 */
	bool max_stack_set;
	unsigned int max_stack;
	bool no_inline;			/* --no-inline: no inline frames in callchains */
	/*
	 * --comms, --pid, --tid, --dsos, -S, --cpu, --time: samples outside
	 * are not printed; side-band lines only obey --cpu. May be NULL;
	 * must outlive the script.
	 */
	const struct pulse_hist_filter *filter;
};

/**
 * pulse_script__new - an output session
 * @d: the file; @m: its machine model; @t: tracepoint decoder, may be NULL
 * @fp: where lines go (the caller sets its buffering)
 * Return: 0 with *@s set, or -ENOMEM with *@s set to NULL. Free it with
 * pulse_script__delete().
 */
int pulse_script__new(struct pulse_script **s, struct pulse_data *d, struct pulse_machine *m,
		      struct pulse_trace *t, const struct pulse_script_opts *opts, FILE *fp);
void pulse_script__delete(struct pulse_script *s);

/*
 * pulse_script__set_trace - the tracepoint decoder, when it comes later than
 * pulse_script__new() (pipe mode: in-band, before the first sample)
 */
void pulse_script__set_trace(struct pulse_script *s, struct pulse_trace *t);

/**
 * pulse_script__set_fields - apply one -F argument (perf's syntax:
 * "f1,f2", "type:f1,f2", "+f", "-f"; types hw, sw, trace, raw, break)
 * Return: 0; -EINVAL with pulse_script__error() saying why.
 */
int pulse_script__set_fields(struct pulse_script *s, const char *spec);

/*
 * What the last pulse_script__set_fields() warned of, perf's lines
 * ("Overriding previous field request for ...", "'f' not valid for ...
 * events. Ignoring."), "" when nothing.
 */
const char *pulse_script__warnings(const struct pulse_script *s);

/**
 * pulse_script__record - handle one record in time order: SAMPLEs are
 * printed, side-band records applied to the machine (and printed when
 * asked)
 * Return: 0; -EINVAL when a requested field cannot be printed for the
 * file's events (see pulse_script__error()); -ENOMEM; -EIO on write errors.
 */
int pulse_script__record(struct pulse_script *s, const struct perf_event_header *rec);

struct pulse_sample_value;

/*
 * pulse_script__record_value - pulse_script__record() of a SAMPLE for one
 * of its PERF_SAMPLE_READ values (pulse_session__sample_value()): printed
 * as @v's event, with @v's period, as perf prints each value
 */
int pulse_script__record_value(struct pulse_script *s, const struct perf_event_header *rec,
			       const struct pulse_sample_value *v);

/* The last error's explanation (perf's wording), "" when none. */
const char *pulse_script__error(const struct pulse_script *s);

/* Samples printed so far. */
unsigned long long pulse_script__nr_samples(const struct pulse_script *s);

/**
 * pulse_script__set_event_fp - print attr @idx's samples to @fp instead
 * (perf script --per-event-dump); the caller opens and closes @fp
 * Return: 0 or -ENOMEM.
 */
int pulse_script__set_event_fp(struct pulse_script *s, size_t idx, FILE *fp);

/* Samples of attr @idx printed so far to its own file (pulse_script__set_event_fp()). */
unsigned long long pulse_script__nr_event_samples(const struct pulse_script *s, size_t idx);

/**
 * pulse_script__event_name - an attr's name as perf 6.1 shows it: the
 * EVENT_DESC name, else one derived from the attr ("cpu-clock:u",
 * "sched:sched_switch" through the tracing data)
 */
const char *pulse_script__event_name(struct pulse_data *d, struct pulse_trace *t, size_t idx,
				     char *buf, size_t size);

/*
 * pulse_script__set_ip_flags - the PERF_IP_FLAG_* bits of the sample a
 * trace decoder is about to deliver (what -F flags prints; perf keeps them
 * in the synthesized perf_sample); 0 once it is printed.
 */
void pulse_script__set_ip_flags(struct pulse_script *s, uint32_t flags);

/*
 * pulse_script__add_callchains - a trace decoder adds callchains to the
 * samples of the first @nr_attrs attrs that have none (--itrace=G, perf's
 * evsel->synth_sample_type): they print as callchains, -G or not.
 * pulse_script__set_callchain - the chain of the next such sample
 * (@ips valid until it is printed; @nr 0: empty).
 */
void pulse_script__add_callchains(struct pulse_script *s, size_t nr_attrs);
void pulse_script__set_callchain(struct pulse_script *s, const uint64_t *ips, size_t nr);

struct pulse_pt_error;
/* An AUX trace error as perf 6.1 prints it (perf_event__fprintf_auxtrace_error()). */
int pulse_script__auxtrace_error(struct pulse_script *s, const struct pulse_pt_error *e);

struct pulse_dso;

/* perf's map__fprintf_dsoname(): how script lines name a DSO, "[unknown]" for none */
const char *pulse_script__dso_name(const struct pulse_dso *dso);

#endif
