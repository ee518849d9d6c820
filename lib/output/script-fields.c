// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's -F field selection (perf 6.1's parse_output_fields()) with
 * the per-type defaults, and the checks perf runs against the first attr of
 * each event type (evsel__check_attr(), perf_session__check_output_opt()).
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pulse/branch.h>
#include <pulse/data-src.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/output-branch.h>
#include <pulse/pt-decode.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "script-int.h"

static const struct {
	const char *name;
	unsigned int field;
} field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVNAME }, { "trace", F_TRACE }, { "ip", F_IP },
	{ "sym", F_SYM }, { "dso", F_DSO }, { "addr", F_ADDR }, { "symoff", F_SYMOFFSET },
	{ "period", F_PERIOD }, { "weight", F_WEIGHT }, { "phys_addr", F_PHYS_ADDR },
	{ "misc", F_MISC }, { "data_page_size", F_DATA_PAGE_SIZE },
	{ "code_page_size", F_CODE_PAGE_SIZE }, { "ins_lat", F_INS_LAT }, { "tod", F_TOD },
	{ "data_src", F_DATA_SRC },
	{ "brstack", F_BRSTACK }, { "brstacksym", F_BRSTACKSYM }, { "brstackoff", F_BRSTACKOFF },
	{ "srcline", F_SRCLINE }, { "iregs", F_IREGS }, { "uregs", F_UREGS },
};

/* perf's fields that pulse does not print yet: named as such, not "invalid" */
static const char *const unsupported_fields[] = {
	"bpf-output",
	"brstackinsn", "brstackinsnlen", "callindent", "insn", "insnlen",
	"synth", "metric", "srccode", "ipc",
};

/* the "type:" prefixes -F takes (NULL: none names the type) */
static const char *const out_type_names[OUT_MAX] = {
	"hw", "sw", "trace", NULL, "raw", "break", "synth", NULL,
};

/* perf's event_type(), for its messages: it names only these four */
static const char *const out_type_desc[OUT_MAX] = {
	"hardware", "software", "tracepoint", "hardware-cache", "unknown", "unknown", "unknown",
	"unknown",
};

static int output_type(__u32 type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return OUT_HW;
	case PERF_TYPE_SOFTWARE: return OUT_SW;
	case PERF_TYPE_TRACEPOINT: return OUT_TRACE;
	case PERF_TYPE_HW_CACHE: return OUT_HW_CACHE;
	case PERF_TYPE_RAW: return OUT_RAW;
	case PERF_TYPE_BREAKPOINT: return OUT_BREAK;
	case PULSE_TYPE_SYNTH: return OUT_SYNTH;
	default: return OUT_OTHER;
	}
}

static int field_of(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, name, len))
			return (int)field_names[i].field;
	return 0;
}

static const char *field_name(unsigned int f)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (field_names[i].field == f)
			return field_names[i].name;
	return "?";
}

static void set_field(struct out_type *o, unsigned int f, bool remove, bool wildcard)
{
	if (remove) {
		o->fields &= ~f;
		if (wildcard) {
			o->user_set_fields &= ~f;
			o->user_unset_fields |= f;
		}
	} else {
		o->fields |= f;
		if (wildcard) {
			o->user_set_fields |= f;
			o->user_unset_fields &= ~f;
		}
	}
	o->user_set = true;
	o->wildcard_set = true;
}

/* a line for pulse_script__warnings(), as perf's pr_warning() */
static void script__warn(struct pulse_script *s, const char *fmt, ...)
{
	size_t n = strlen(s->warn);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->warn + n, sizeof(s->warn) - n, fmt, ap);
	va_end(ap);
}

const char *pulse_script__warnings(const struct pulse_script *s)
{
	return s->warn;
}

/* some type's fields were set by a -F before (perf's output_set_by_user()) */
static bool fields_set_by_user(const struct pulse_script *s)
{
	for (int j = 0; j < OUT_MAX; j++)
		if (s->out[j].user_set)
			return true;
	return false;
}

/* perf's parse_output_fields() */
int pulse_script__set_fields(struct pulse_script *s, const char *spec)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	const char *colon = strchr(spec, ':'), *tok;
	int type = -1;

	s->err[0] = '\0';
	s->warn[0] = '\0';
	if (colon) {
		size_t n = colon - spec;

		for (int i = 0; i < OUT_MAX; i++)
			if (out_type_names[i] && strlen(out_type_names[i]) == n &&
			    !strncmp(out_type_names[i], spec, n))
				type = i;
		if (type < 0) {
			snprintf(s->err, sizeof(s->err), "invalid event type '%.*s' in field string",
				 (int)n, spec);
			return -EINVAL;
		}
		tok = colon + 1;
		if (s->out[type].user_set)
			script__warn(s, "Overriding previous field request for %s events.\n",
				     out_type_desc[type]);
		/* +field and -field change the defaults instead of replacing them */
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			s->out[type].fields = 0;
			s->out[type].user_set = true;
			s->out[type].wildcard_set = false;
		}
	} else {
		tok = spec;
		if (!*spec) {
			snprintf(s->err, sizeof(s->err),
				 "cannot set fields to 'none' for all event types");
			return -EINVAL;
		}
		if (!strchr(spec, '+') && !strchr(spec, '-')) {
			if (fields_set_by_user(s))
				script__warn(s, "Overriding previous field request for all events.\n");
			for (int j = 0; j < OUT_MAX; j++) {
				s->out[j].fields = 0;
				s->out[j].user_set = true;
				s->out[j].wildcard_set = true;
			}
		}
	}
	while (*tok) {
		const char *end = strchrnul(tok, ',');
		bool remove;
		int f;

		if (end == tok) {	/* strtok_r() skips empty tokens */
			tok++;
			continue;
		}
		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok == '+' ? ADD : REMOVE;
			tok++;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		remove = change == REMOVE;
		if (end - tok == 5 && !strncmp(tok, "flags", 5)) {
			f = F_FLAGS;
		} else {
			f = field_of(tok, end - tok);
		}
		if (!f) {
			for (size_t i = 0; i < ARRAY_SIZE(unsupported_fields); i++)
				if (strlen(unsupported_fields[i]) == (size_t)(end - tok) &&
				    !strncmp(unsupported_fields[i], tok, end - tok)) {
					snprintf(s->err, sizeof(s->err),
						 "field '%s' is not supported by pulse yet",
						 unsupported_fields[i]);
					return -EINVAL;
				}
			snprintf(s->err, sizeof(s->err), "invalid field requested: '%.*s'",
				 (int)(end - tok), tok);
			return -EINVAL;
		}
		if (f == F_FLAGS) {
			/* a switch of its own in perf, for every type */
			s->print_flags = !remove;
		} else if (type < 0) {
			for (int j = 0; j < OUT_MAX; j++) {
				if (s->out[j].invalid & f)
					script__warn(s, "'%s' not valid for %s events. Ignoring.\n",
						     field_name(f), out_type_desc[j]);
				else
					set_field(&s->out[j], f, remove, true);
			}
		} else {
			if (s->out[type].invalid & f) {
				snprintf(s->err, sizeof(s->err), "'%s' not valid for %s events",
					 field_name(f), out_type_desc[type]);
				return -EINVAL;
			}
			/* a typed field is dropped quietly when the samples lack it */
			set_field(&s->out[type], f, remove, false);
		}
		tok = *end ? end + 1 : end;
	}
	return 0;
badmix:
	snprintf(s->err, sizeof(s->err), "cannot mix +-field with overridden fields");
	return -EINVAL;
}

/* perf's evsel__do_check_stype() */
static int check_stype(struct pulse_script *s, struct script_event *ev,
		       const struct perf_event_attr *attr, __u64 bit, const char *msg,
		       unsigned int field)
{
	struct out_type *o = &s->out[ev->otype];

	if (attr->sample_type & bit)
		return 0;
	if (o->user_set_fields & field) {
		/* perf's allow_user_set: a file with AUX area data may ask anyway */
		if (pulse_data__has_feat(s->d, PULSE_FEAT_AUXTRACE))
			return 0;
		snprintf(s->err, sizeof(s->err),
			 "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.",
			 ev->name, msg, field_name(field));
		return -EINVAL;
	}
	o->fields &= ~field;
	return 0;
}

/* perf's evsel__check_attr(), for the first attr of each type */
static int check_attr(struct pulse_script *s, struct script_event *ev,
		      const struct perf_event_attr *attr)
{
	struct out_type *o = &s->out[ev->otype];
	int err = 0;

	if (attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY)
		return 0;
	if ((o->fields & F_TRACE) && !pulse_data__tracing_data(s->d, &(size_t){ 0 }) &&
	    !s->trace) {
		snprintf(s->err, sizeof(s->err), "Samples do not contain tracing data: 'trace' field");
		return -EINVAL;
	}
	if (o->fields & F_IP)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_IP, "IP", F_IP);
	if (o->fields & F_ADDR)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_ADDR, "ADDR", F_ADDR);
	if (o->fields & F_DATA_SRC)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_DATA_SRC, "DATA_SRC", F_DATA_SRC);
	if (o->fields & F_WEIGHT)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
					 "WEIGHT", F_WEIGHT);
	if (err)
		return err;
	if ((o->fields & (F_SYM | F_DSO)) &&
	    !(attr->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		snprintf(s->err, sizeof(s->err),
			 "Display of %s requested but neither sample IP nor sample address available.",
			 o->fields & F_SYM ? "symbols" : "DSO");
		return -EINVAL;
	}
	if ((o->fields & F_SYMOFFSET) && !(o->fields & F_SYM)) {
		snprintf(s->err, sizeof(s->err),
			 "Display of offsets requested but symbol is not selected.");
		return -EINVAL;
	}
	if ((o->fields & F_SRCLINE) && !(o->fields & F_IP)) {
		snprintf(s->err, sizeof(s->err),
			 "Display of source line number requested but sample IP is not selected. "
			 "Hence, no address to lookup the source line number.");
		return -EINVAL;
	}
	if (o->fields & (F_PID | F_TID)) {
		err = check_stype(s, ev, attr, PERF_SAMPLE_TID, "TID",
				  o->fields & (F_PID | F_TID));
		if (err)
			return err;
	}
	if (o->fields & F_TIME)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_TIME, "TIME", F_TIME);
	if (o->fields & F_CPU)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_CPU, "CPU", F_CPU);
	if (o->fields & F_IREGS)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_REGS_INTR, "IREGS", F_IREGS);
	if (o->fields & F_UREGS)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_REGS_USER, "UREGS", F_UREGS);
	if (o->fields & F_PHYS_ADDR)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR",
					 F_PHYS_ADDR);
	if (o->fields & F_DATA_PAGE_SIZE)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
					 F_DATA_PAGE_SIZE);
	if (o->fields & F_CODE_PAGE_SIZE)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
					 F_CODE_PAGE_SIZE);
	if (o->fields & F_INS_LAT)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT",
					 F_INS_LAT);
	return err;
}

/* Set up the attrs that arrived since the last call (all of them in file mode). */
int pulse_script__prepare(struct pulse_script *s)
{
	size_t nr = pulse_data__nr_attrs(s->d), first = s->nr_ev;
	bool pipe = pulse_data__is_pipe(s->d);
	struct script_event *ev;
	int err;

	if (nr <= s->nr_ev)
		return 0;
	ev = realloc(s->ev, nr * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	s->ev = ev;
	for (size_t i = first; i < nr; i++) {
		const struct perf_event_attr *attr = pulse_data__attr(s->d, i);

		memset(&ev[i], 0, sizeof(ev[i]));
		pulse_script__event_name(s->d, s->trace, i, ev[i].name, sizeof(ev[i].name));
		ev[i].otype = output_type(attr->type);
		ev[i].callchain = attr->sample_type & PERF_SAMPLE_CALLCHAIN;
		ev[i].added_chain = !ev[i].callchain && i < s->added_attrs;
		ev[i].callchain |= ev[i].added_chain;
		if (attr->type == PERF_TYPE_TRACEPOINT)
			ev[i].tp = pulse_trace__event(s->trace, attr->config);
	}
	s->nr_ev = nr;

	if (pipe) {
		/* perf's process_attr(): each new type is checked as it comes */
		__u64 combined = 0;

		s->use_callchain = !s->opts.hide_callchain;
		for (size_t i = 0; i < nr; i++)
			combined |= pulse_data__attr(s->d, i)->sample_type;
		for (size_t i = first; i < nr; i++) {
			const struct perf_event_attr *attr = pulse_data__attr(s->d, i);
			struct out_type *o = &s->out[ev[i].otype];
			bool seen = false;

			for (size_t j = 0; j < i; j++)
				seen |= ev[j].otype == ev[i].otype;
			if (seen)
				continue;
			if (attr->sample_type) {
				err = check_attr(s, &ev[i], attr);
				if (err)
					return err;
			}
			/* branch stacks count as callchains here (perf's process_attr()) */
			if (s->use_callchain &&
			    (combined & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK))) {
				if (!(o->user_unset_fields & F_IP))
					o->fields |= F_IP;
				if (!(o->user_unset_fields & F_SYM))
					o->fields |= F_SYM;
			}
		}
		return 0;
	}
	if (s->file_checked)
		return 0;
	/* perf_session__check_output_opt() */
	s->file_checked = true;
	err = pulse_script__check_tod(s);
	if (err)
		return err;
	for (int t = 0; t < OUT_MAX; t++) {
		size_t i;

		for (i = 0; i < nr; i++)
			if (ev[i].otype == t)
				break;
		/* "type:" with no field still needs events of that type */
		if (i == nr && s->out[t].user_set && !s->out[t].wildcard_set && t != OUT_SYNTH) {
			snprintf(s->err, sizeof(s->err),
				 "%s events do not exist. Remove corresponding -F option to proceed.",
				 out_type_desc[t]);
			return -EINVAL;
		}
		if (i < nr && s->out[t].fields) {
			err = check_attr(s, &ev[i], pulse_data__attr(s->d, i));
			if (err)
				return err;
		}
	}
	s->use_callchain = false;
	for (size_t i = 0; i < nr; i++)
		s->use_callchain |= ev[i].callchain;
	if (s->opts.hide_callchain)
		s->use_callchain = false;
	/* perf's decoder turns callchains back on for the chains it adds */
	if (s->added_attrs)
		s->use_callchain = true;
	/* tracepoints with callchains show them (file mode, default fields) */
	if (s->use_callchain && !s->out[OUT_TRACE].user_set) {
		for (size_t i = 0; i < nr; i++) {
			if (ev[i].otype == OUT_TRACE && ev[i].callchain) {
				s->out[OUT_TRACE].fields |= F_IP | F_SYM | F_SYMOFFSET | F_DSO;
				break;
			}
		}
	}
	return 0;
}
