// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's sample lines, as perf 6.1's builtin-script.c prints them
 * (perf_sample__fprintf_start(), process_event(), sample__fprintf_sym()
 * and sample__fprintf_callchain()), and its -F field selection with the
 * per-type defaults and the checks perf runs against the first attr of each
 * event type.
 *
 * The per-sample path allocates nothing and formats numbers itself: the
 * output of a big file is millions of lines, and printf's format parsing
 * would be most of the time spent.
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
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"

/* perf's PERF_OUTPUT_* bits, in perf's all_output_options order */
enum {
	F_COMM = 1u << 0,
	F_TID = 1u << 1,
	F_PID = 1u << 2,
	F_TIME = 1u << 3,
	F_CPU = 1u << 4,
	F_EVNAME = 1u << 5,
	F_TRACE = 1u << 6,
	F_IP = 1u << 7,
	F_SYM = 1u << 8,
	F_DSO = 1u << 9,
	F_ADDR = 1u << 10,
	F_SYMOFFSET = 1u << 11,
	F_PERIOD = 1u << 12,
	F_WEIGHT = 1u << 13,
	F_PHYS_ADDR = 1u << 14,
	F_MISC = 1u << 15,
	F_DATA_PAGE_SIZE = 1u << 16,
	F_CODE_PAGE_SIZE = 1u << 17,
	F_INS_LAT = 1u << 18,
	F_TOD = 1u << 19,
	F_DATA_SRC = 1u << 20,
	F_BRSTACK = 1u << 21,
	F_BRSTACKSYM = 1u << 22,
	F_BRSTACKOFF = 1u << 23,
	F_FLAGS = 1u << 31,		/* not a perf field bit: perf's print_flags */
};

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
};

/* perf's fields that pulse does not print yet: named as such, not "invalid" */
static const char *const unsupported_fields[] = {
	"srcline", "iregs", "uregs", "bpf-output",
	"brstackinsn", "brstackinsnlen", "callindent", "insn", "insnlen",
	"synth", "metric", "srccode", "ipc",
};

/* perf's output types (output_type()); SYNTH never matches an event here */
enum { OUT_HW, OUT_SW, OUT_TRACE, OUT_HW_CACHE, OUT_RAW, OUT_BREAK, OUT_SYNTH, OUT_OTHER,
       OUT_MAX };

/* the "type:" prefixes -F takes (NULL: none names the type) */
static const char *const out_type_names[OUT_MAX] = {
	"hw", "sw", "trace", NULL, "raw", "break", "synth", NULL,
};

/* perf's event_type(), for its messages: it names only these four */
static const char *const out_type_desc[OUT_MAX] = {
	"hardware", "software", "tracepoint", "hardware-cache", "unknown", "unknown", "unknown",
	"unknown",
};

#define DEFAULT_HW (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | F_SYMOFFSET | \
		    F_DSO | F_PERIOD)

struct out_type {
	unsigned int fields;
	unsigned int invalid;		/* fields this type never has */
	unsigned int user_set_fields;	/* asked for without a type: must be in the samples */
	unsigned int user_unset_fields;	/* removed with -field without a type */
	bool user_set;			/* a -F changed this type */
	bool wildcard_set;		/* ... and named a field (else "type:" alone) */
};

struct script_event {
	char name[256];			/* evsel__name() */
	int otype;			/* OUT_* */
	bool callchain;			/* PERF_SAMPLE_CALLCHAIN */
	struct tep_event *tp;		/* tracepoint format, NULL: none */
};

/*
 * A callchain's lines, built in memory and written in one call: callchain
 * frames are most of a script's output, and a stdio call per field was a
 * third of its time.
 */
struct linebuf {
	FILE *fp;
	size_t n;
	char b[8192];
};

struct pulse_script {
	struct linebuf lb;		/* print_callchain()'s output */
	struct pulse_data *d;
	struct pulse_machine *m;
	struct pulse_trace *trace;
	struct pulse_script_opts opts;
	FILE *fp;
	struct out_type out[OUT_MAX];
	struct script_event *ev;	/* one per attr, prepared so far */
	size_t nr_ev;
	int name_width;			/* widest event name; 0: not yet known */
	bool use_callchain;		/* symbol_conf.use_callchain */
	bool print_flags;		/* -F flags */
	bool file_checked;		/* perf_session__check_output_opt() done */
	unsigned long long nr_samples;
	char warn[1024];		/* pulse_script__set_fields()'s warnings */
	bool clock_loaded;
	bool has_clock;			/* CLOCK_DATA: the time of day of a time */
	uint64_t tod_ns, clockid_ns;
	uint64_t initial_time;		/* --reltime: the first time printed */
	uint64_t previous_time;		/* --deltatime: the last one */
	int data_src_width;		/* the widest data_src column so far (perf's maxlen) */
	char err[512];
	__u64 *lbr_chain;		/* call-stack mode: the callchain LBR makes */
	size_t lbr_alloc;
};

static int script__check_tod(struct pulse_script *s);

/* ---- event names ---------------------------------------------------------- */

const char *pulse_script__event_name(struct pulse_data *d, struct pulse_trace *t, size_t idx,
				     char *buf, size_t size)
{
	const struct perf_event_attr *attr = pulse_data__attr(d, idx);
	const char *name = pulse_data__attr_name(d, idx);

	if (name) {
		snprintf(buf, size, "%s", name);
		return buf;
	}
	if (!attr) {
		snprintf(buf, size, "unknown");
		return buf;
	}
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return pulse_attr__name(attr, buf, size);
	if (!pulse_trace__event_name(t, attr->config, buf, size))
		snprintf(buf, size, "unknown tracepoint");
	return buf;
}

/* ---- set-up --------------------------------------------------------------- */

static int output_type(__u32 type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return OUT_HW;
	case PERF_TYPE_SOFTWARE: return OUT_SW;
	case PERF_TYPE_TRACEPOINT: return OUT_TRACE;
	case PERF_TYPE_HW_CACHE: return OUT_HW_CACHE;
	case PERF_TYPE_RAW: return OUT_RAW;
	case PERF_TYPE_BREAKPOINT: return OUT_BREAK;
	default: return OUT_OTHER;
	}
}

int pulse_script__new(struct pulse_script **sp, struct pulse_data *d, struct pulse_machine *m,
		      struct pulse_trace *t, const struct pulse_script_opts *opts, FILE *fp)
{
	struct pulse_script *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->d = d;
	s->m = m;
	s->trace = t;
	s->fp = fp;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	/* perf 6.1's output[] defaults */
	for (int i = 0; i < OUT_MAX; i++) {
		s->out[i].fields = DEFAULT_HW;
		s->out[i].invalid = F_TRACE;
	}
	s->out[OUT_TRACE].fields = F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_TRACE;
	s->out[OUT_TRACE].invalid = 0;
	s->out[OUT_RAW].fields |= F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR |
				   F_DATA_PAGE_SIZE | F_CODE_PAGE_SIZE | F_INS_LAT;
	s->out[OUT_SYNTH].fields &= ~F_PERIOD;
	*sp = s;
	return 0;
}

void pulse_script__delete(struct pulse_script *s)
{
	if (!s)
		return;
	free(s->ev);
	free(s->lbr_chain);
	free(s);
}

void pulse_script__set_trace(struct pulse_script *s, struct pulse_trace *t)
{
	s->trace = t;
	/* events named and looked up before the decoder came are redone */
	for (size_t i = 0; i < s->nr_ev; i++) {
		const struct perf_event_attr *attr = pulse_data__attr(s->d, i);

		pulse_script__event_name(s->d, t, i, s->ev[i].name, sizeof(s->ev[i].name));
		if (attr->type == PERF_TYPE_TRACEPOINT)
			s->ev[i].tp = pulse_trace__event(t, attr->config);
	}
}

const char *pulse_script__error(const struct pulse_script *s)
{
	return s->err;
}

unsigned long long pulse_script__nr_samples(const struct pulse_script *s)
{
	return s->nr_samples;
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
static int script__prepare(struct pulse_script *s)
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
	err = script__check_tod(s);
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

/* ---- formatting ------------------------------------------------------------ */

static inline void put_str(FILE *fp, const char *str)
{
	fputs_unlocked(str, fp);
}

static inline void put_spaces(FILE *fp, int n)
{
	while (n-- > 0)
		putc_unlocked(' ', fp);
}

/* @v in decimal into the end of @end's buffer; returns the first digit */
static inline char *fmt_dec(char *end, uint64_t v)
{
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

static inline char *fmt_hex(char *end, uint64_t v)
{
	do {
		*--end = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	return end;
}

/* "%*d" (width > 0) or "%-*d" (width < 0) */
static void put_sdec(FILE *fp, int64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p;
	int len;

	p = fmt_dec(end, v < 0 ? -(uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	len = end - p;
	if (width > len)
		put_spaces(fp, width - len);
	fwrite_unlocked(p, 1, len, fp);
	if (-width > len)
		put_spaces(fp, -width - len);
}

static void put_udec(FILE *fp, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_dec(end, v);

	if (width > end - p)
		put_spaces(fp, width - (end - p));
	fwrite_unlocked(p, 1, end - p, fp);
}

/* "%*lx" */
static void put_hex(FILE *fp, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_hex(end, v);

	if (width > end - p)
		put_spaces(fp, width - (end - p));
	fwrite_unlocked(p, 1, end - p, fp);
}

/* "%*s" */
static void put_rstr(FILE *fp, const char *str, int width)
{
	int len = (int)strlen(str);

	if (width > len)
		put_spaces(fp, width - len);
	fwrite_unlocked(str, 1, len, fp);
}

/* the MISC field: cpumode letters, then the record type's own flags */
static void print_misc(FILE *fp, __u16 misc, __u32 type)
{
	int n = 0;

#define HAS(m) ((misc & PERF_RECORD_MISC_##m) == PERF_RECORD_MISC_##m)
	static const struct {
		__u16 bits;
		char c;
	} modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};

	/* perf tests each mode as a bit mask, so USER (2) also matches HYPERVISOR (3) */
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if ((misc & modes[i].bits) == modes[i].bits) {
			putc_unlocked(modes[i].c, fp);
			n++;
		}
	}
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (HAS(MMAP_DATA)) {
			putc_unlocked('M', fp);
			n++;
		}
		break;
	case PERF_RECORD_COMM:
		if (HAS(COMM_EXEC)) {
			putc_unlocked('E', fp);
			n++;
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (HAS(SWITCH_OUT)) {
			putc_unlocked('S', fp);
			n++;
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
				putc_unlocked('p', fp);
				n++;
			}
		}
		break;
	default:
		break;
	}
#undef HAS
	/* "%*s" of " " in 6 - n: at least one space */
	put_spaces(fp, n < 5 ? 6 - n : 1);
}

/*
 * tod needs the file's CLOCK_DATA (perf record -k): the wall clock at a
 * reference time of the sampling clock
 */
static void script__load_clock(struct pulse_script *s)
{
	const unsigned char *p;
	size_t len = 0;
	uint32_t ver;

	s->clock_loaded = true;
	p = pulse_data__feat(s->d, PULSE_FEAT_CLOCK_DATA, &len);
	if (p && len >= 24) {
		memcpy(&ver, p, 4);
		memcpy(&s->tod_ns, p + 8, 8);
		memcpy(&s->clockid_ns, p + 16, 8);
		s->has_clock = ver == 1;
	}
}

/* in file mode perf refuses tod up front; a pipe's lines say "disabled" */
static int script__check_tod(struct pulse_script *s)
{
	bool want = false;

	for (int t = 0; t < OUT_MAX; t++)
		want |= (s->out[t].fields & F_TOD) != 0;
	if (!want)
		return 0;
	script__load_clock(s);
	if (s->has_clock)
		return 0;
	snprintf(s->err, sizeof(s->err), "Can't provide 'tod' time, missing clock data. "
		 "Please record with -k/--clockid option.");
	return -EINVAL;
}

/* perf's tod_scnprintf(): the sample's time on the wall clock, local time */
static void print_tod(struct pulse_script *s, uint64_t t)
{
	uint64_t tod;
	char date[64], buf[128];
	struct tm tm;
	time_t sec;
	unsigned long nsec;

	/* a pipe's CLOCK_DATA comes in band, before the samples */
	if (!s->clock_loaded)
		script__load_clock(s);
	if (!s->has_clock) {
		put_str(s->fp, "disabled ");
		return;
	}
	tod = s->tod_ns;
	if (t > s->clockid_ns)
		tod += t - s->clockid_ns;
	else
		tod -= s->clockid_ns - t;
	sec = (time_t)(tod / 1000000000ULL);
	nsec = tod - (uint64_t)sec * 1000000000ULL;
	if (!localtime_r(&sec, &tm)) {
		snprintf(buf, sizeof(buf), "failed");
	} else {
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
		if (s->opts.ns)
			snprintf(buf, sizeof(buf), "%s.%09lu", date, nsec);
		else
			snprintf(buf, sizeof(buf), "%s.%06lu", date, nsec / 1000);
	}
	put_str(s->fp, buf);
	putc_unlocked(' ', s->fp);
}

/* perf_sample__fprintf_start() */
static void print_start(struct pulse_script *s, const struct script_event *ev,
			const struct pulse_sample *smp, const char *comm, __u32 type)
{
	unsigned int fields = s->out[ev->otype].fields;
	FILE *fp = s->fp;

	if (fields & F_COMM) {
		if ((fields & F_IP) && ev->callchain && s->use_callchain) {
			put_str(fp, comm);
			putc_unlocked(' ', fp);
		} else {
			put_rstr(fp, comm, 16);
			putc_unlocked(' ', fp);
		}
	}
	if ((fields & F_PID) && (fields & F_TID)) {
		put_sdec(fp, (int32_t)smp->pid, 5);
		putc_unlocked('/', fp);
		put_sdec(fp, (int32_t)smp->tid, -5);
		putc_unlocked(' ', fp);
	} else if (fields & (F_PID | F_TID)) {
		put_sdec(fp, (int32_t)(fields & F_PID ? smp->pid : smp->tid), 5);
		putc_unlocked(' ', fp);
	}
	if (fields & F_CPU) {
		char buf[16], *end = buf + sizeof(buf), *p = fmt_dec(end, smp->cpu);

		putc_unlocked('[', fp);
		for (int n = end - p; n < 3; n++)
			putc_unlocked('0', fp);
		fwrite_unlocked(p, 1, end - p, fp);
		put_str(fp, "] ");
	}
	if (fields & F_MISC)
		print_misc(fp, smp->misc, type);
	if (fields & F_TOD)
		print_tod(s, smp->time);
	if (fields & F_TIME) {
		uint64_t t = smp->time, secs, nsecs;
		char buf[48], *end = buf + sizeof(buf), *p;

		/* perf's: a first time of 0 is no first time; a first delta is 0 */
		if (s->opts.reltime) {
			if (!s->initial_time)
				s->initial_time = smp->time;
			t = smp->time - s->initial_time;
		} else if (s->opts.deltatime) {
			t = s->previous_time ? smp->time - s->previous_time : 0;
			s->previous_time = smp->time;
		}
		secs = t / 1000000000ULL;
		nsecs = t % 1000000000ULL;

		/* "%lu.%06lu" in 12 (usecs, truncated) or "%5lu.%09llu" */
		if (s->opts.ns) {
			p = fmt_dec(end, nsecs + 1000000000ULL);
			*p = '.';
			p = fmt_dec(p, secs);
			if (end - p < 15)
				put_spaces(fp, 15 - (end - p));
		} else {
			p = fmt_dec(end, nsecs / 1000 + 1000000);
			*p = '.';
			p = fmt_dec(p, secs);
			if (end - p < 12)
				put_spaces(fp, 12 - (end - p));
		}
		fwrite_unlocked(p, 1, end - p, fp);
		put_str(fp, ": ");
	}
}

/* symbol+0xoff, [unknown] */
static void put_sym(FILE *fp, const struct pulse_addr_loc *al, bool offset)
{
	if (!al->sym) {
		put_str(fp, "[unknown]");
		return;
	}
	put_str(fp, al->sym->name);
	if (offset) {
		put_str(fp, "+0x");
		put_hex(fp, al->addr - al->sym->start, 0);
	}
}

const char *pulse_script__dso_name(const struct pulse_dso *dso)
{
	if (!dso)
		return "[unknown]";
	if (dso->kind == PULSE_DSO_KERNEL ||
	    (dso->kind == PULSE_DSO_MODULE && !dso->kmod_named_by_path))
		return dso->short_name;
	return dso->long_name;
}

/* " sym+0xoff (dso)" as the fields ask */
static void put_sym_dso(FILE *fp, const struct pulse_addr_loc *al, unsigned int fields)
{
	if (fields & F_SYM) {
		putc_unlocked(' ', fp);
		put_sym(fp, al, fields & F_SYMOFFSET);
	}
	if (fields & F_DSO) {
		put_str(fp, " (");
		put_str(fp, pulse_script__dso_name(al->dso));
		putc_unlocked(')', fp);
	}
}

/* the machine places kernel addresses past the kernel MMAP as perf does */
static int resolve(struct pulse_script *s, const struct pulse_sample *smp, uint8_t cpumode,
		   uint64_t ip, struct pulse_addr_loc *al)
{
	return pulse_machine__resolve(s->m, smp->pid, smp->tid, cpumode, ip, al);
}

static void lb_flush(struct linebuf *lb)
{
	if (lb->n)
		fwrite_unlocked(lb->b, 1, lb->n, lb->fp);
	lb->n = 0;
}

static void lb_write(struct linebuf *lb, const char *p, size_t len)
{
	if (lb->n + len > sizeof(lb->b)) {
		lb_flush(lb);
		if (len > sizeof(lb->b)) {
			fwrite_unlocked(p, 1, len, lb->fp);
			return;
		}
	}
	memcpy(lb->b + lb->n, p, len);
	lb->n += len;
}

static inline void lb_putc(struct linebuf *lb, char c)
{
	if (lb->n == sizeof(lb->b))
		lb_flush(lb);
	lb->b[lb->n++] = c;
}

static inline void lb_str(struct linebuf *lb, const char *str)
{
	lb_write(lb, str, strlen(str));
}

/* "%*lx" */
static void lb_hex(struct linebuf *lb, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_hex(end, v);

	while (width-- > end - p)
		lb_putc(lb, ' ');
	lb_write(lb, p, end - p);
}

/* sample__fprintf_callchain(): callee first, PERF_CONTEXT_* switch modes */
static int print_callchain(struct pulse_script *s, unsigned int fields,
			   const struct pulse_sample *smp)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	struct linebuf *lb = &s->lb;
	unsigned int shown = 0;
	int err = 0;

	/* one thread lookup for the chain, as perf's thread__resolve_callchain() */
	struct pulse_thread *t = pulse_machine__findnew_thread(s->m, smp->pid, smp->tid);
	const struct pulse_dso *last_dso = NULL;
	const char *last_name = NULL;
	size_t last_len = 0;

	if (!t)
		return -ENOMEM;
	lb->fp = s->fp;
	for (__u64 i = 0; i < smp->callchain_nr && shown < 127; i++) {
		struct pulse_addr_loc al;
		uint64_t ip;

		memcpy(&ip, (const char *)smp->callchain + i * 8, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			switch (ip) {
			case (uint64_t)PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				continue;
			case (uint64_t)PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				continue;
			case (uint64_t)PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				continue;
			default:
				/* perf resets the chain it has built */
				lb_flush(lb);
				return 0;
			}
		}
		shown++;
		pulse_machine__resolve_thread(s->m, t, cpumode, ip, &al);
		if (fields & F_IP) {
			lb_putc(lb, '\t');
			lb_hex(lb, al.dso && al.dso->kind != PULSE_DSO_KERNEL &&
					   al.dso->kind != PULSE_DSO_MODULE ? al.addr : ip, 16);
		}
		if (fields & F_SYM) {
			lb_putc(lb, ' ');
			if (!al.sym) {
				lb_str(lb, "[unknown]");
			} else {
				lb_write(lb, al.sym->name, al.sym->namelen);
				if (fields & F_SYMOFFSET) {
					lb_str(lb, "+0x");
					lb_hex(lb, al.addr - al.sym->start, 0);
				}
			}
		}
		if (fields & F_DSO) {
			/* a chain's frames mostly share their DSO: its name's length once */
			if (al.dso != last_dso || !last_name) {
				last_dso = al.dso;
				last_name = pulse_script__dso_name(al.dso);
				last_len = strlen(last_name);
			}
			lb_write(lb, " (", 2);
			lb_write(lb, last_name, last_len);
			lb_putc(lb, ')');
		}
		lb_putc(lb, '\n');
	}
	lb_flush(lb);
	return err;
}

/*
 * perf prints the callchain it has built only when the whole chain could
 * be walked; an invalid context marker empties it.
 */
static bool callchain_valid(const struct pulse_sample *smp)
{
	unsigned int shown = 0;

	for (__u64 i = 0; i < smp->callchain_nr && shown < 127; i++) {
		uint64_t ip;

		memcpy(&ip, (const char *)smp->callchain + i * 8, 8);
		if (ip < (uint64_t)PERF_CONTEXT_MAX)
			shown++;
		else if (ip != (uint64_t)PERF_CONTEXT_HV && ip != (uint64_t)PERF_CONTEXT_KERNEL &&
			 ip != (uint64_t)PERF_CONTEXT_USER)
			return false;
	}
	return true;
}

/* get_page_size_name(): " 4K", " N/A" */
static void put_page_size(FILE *fp, uint64_t size)
{
	static const char units[] = "BKMG";
	int i = 0;

	putc_unlocked(' ', fp);
	if (!size) {
		put_str(fp, "N/A");
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	put_udec(fp, size, 0);
	putc_unlocked(units[i], fp);
}

/* perf's sample_addr_correlates_sym(): the address is code or data of the task */
static bool addr_correlates_sym(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/*
 * perf_sample__fprintf_addr(): the address, and for page faults where it
 * lands (thread__resolve(): the sample's cpumode, else the other one)
 */
static int print_addr(struct pulse_script *s, unsigned int fields,
		      const struct perf_event_attr *attr, const struct pulse_sample *smp,
		      uint8_t cpumode)
{
	struct pulse_addr_loc al;
	FILE *fp = s->fp;
	int err;

	put_hex(fp, smp->addr, 16);
	if (!addr_correlates_sym(attr))
		return 0;
	err = pulse_machine__resolve(s->m, smp->pid, smp->tid, cpumode, smp->addr, &al);
	if (!err && !al.dso)
		err = pulse_machine__resolve(s->m, smp->pid, smp->tid,
					     cpumode == PERF_RECORD_MISC_KERNEL ?
					     PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL,
					     smp->addr, &al);
	if (err)
		return err;
	put_sym_dso(fp, &al, fields);
	return 0;
}

/*
 * perf's data_src__fprintf(): left-aligned to the widest column printed
 * so far in the run, so a short one after a long one is padded
 */
static void print_data_src(struct pulse_script *s, uint64_t ds)
{
	char col[100];
	int len = pulse_data_src__script_column(col, ds);

	if (len > s->data_src_width)
		s->data_src_width = len;
	put_str(s->fp, col);
	put_spaces(s->fp, s->data_src_width - len);
}

static int script__sample(struct pulse_script *s, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct script_event *ev;
	struct pulse_sample smp;
	struct pulse_addr_loc al;
	unsigned int fields;
	FILE *fp = s->fp;
	int idx, err;

	idx = pulse_data__attr_of(s->d, rec, rec->size);
	if (idx < 0)
		return 0;
	if ((size_t)idx >= s->nr_ev) {
		err = script__prepare(s);
		if (err)
			return err;
		if ((size_t)idx >= s->nr_ev)
			return 0;
	}
	attr = pulse_data__attr(s->d, idx);
	if (pulse_sample__parse(rec, rec->size, attr, &smp))
		return 0;
	/* perf has no PERIOD check: a fixed period (-c) is the attr's */
	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		smp.period = attr->sample_period;
	ev = &s->ev[idx];
	fields = s->out[ev->otype].fields;
	if (!fields)
		return 0;
	err = resolve(s, &smp, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &al);
	if (err)
		return err;
	/* perf's --time, --cpu, then machine__resolve()'s al->filtered */
	if (s->opts.filter &&
	    pulse_hist_filter__match(s->opts.filter, &al, al.thread->comm, smp.ip,
				     attr->sample_type & PERF_SAMPLE_CPU ? (int)smp.cpu : -1,
				     attr->sample_type & PERF_SAMPLE_TIME ? smp.time : ~0ULL) !=
	    PULSE_FILTER_KEEP)
		return 0;
	if (!s->name_width) {
		for (size_t i = 0; i < s->nr_ev; i++) {
			int n = (int)strlen(s->ev[i].name);

			if (n > s->name_width)
				s->name_width = n;
		}
	}
	s->nr_samples++;
	print_start(s, ev, &smp, al.thread->comm, PERF_RECORD_SAMPLE);
	if (fields & F_PERIOD) {
		put_udec(fp, smp.period, 10);
		putc_unlocked(' ', fp);
	}
	if (fields & F_EVNAME) {
		put_rstr(fp, ev->name, s->name_width);
		put_str(fp, ": ");
	}
	/* perf_sample__fprintf_flags(): no flags outside instruction traces */
	if (s->print_flags)
		put_spaces(fp, 24);
	if ((fields & F_TRACE) && smp.raw && ev->tp)
		pulse_trace__fprintf(s->trace, ev->tp, (int)smp.cpu, smp.raw, smp.raw_size, fp);
	if (fields & F_ADDR) {
		err = print_addr(s, fields, attr, &smp, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		if (err)
			return err;
	}
	if (fields & F_DATA_SRC)
		print_data_src(s, smp.data_src);
	if (fields & F_WEIGHT) {
		/* WEIGHT_STRUCT: var1_dw is the weight, var2_w the instruction latency */
		put_udec(fp, attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT ?
			 (uint32_t)smp.weight : smp.weight, 16);
	}
	if (fields & F_INS_LAT)
		put_udec(fp, (uint16_t)(smp.weight >> 32), 16);
	if (fields & F_IP) {
		if (s->use_callchain && ev->callchain) {
			if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK &&
			    pulse_branch__lbr_callchain(&smp, &s->lbr_chain, &s->lbr_alloc) < 0)
				return -ENOMEM;
			putc_unlocked('\n', fp);
			err = callchain_valid(&smp) ? print_callchain(s, fields, &smp) : 0;
			if (err)
				return err;
		} else {
			putc_unlocked(' ', fp);
			put_hex(fp, smp.ip, 16);
			put_sym_dso(fp, &al, fields);
		}
	}
	if (fields & (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF)) {
		err = pulse_branch__fprintf_script(fp, s->m, &smp,
						   rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
						   fields & F_BRSTACK ? PULSE_BRSTACK_ADDR :
						   fields & F_BRSTACKSYM ? PULSE_BRSTACK_SYM :
						   PULSE_BRSTACK_OFF, fields & F_DSO);
		if (err)
			return err;
	}
	if (fields & F_PHYS_ADDR)
		put_hex(fp, smp.phys_addr, 16);
	if (fields & F_DATA_PAGE_SIZE)
		put_page_size(fp, smp.data_page_size);
	if (fields & F_CODE_PAGE_SIZE)
		put_page_size(fp, smp.code_page_size);
	putc_unlocked('\n', fp);
	return ferror(fp) ? -EIO : 0;
}

/* --show-*-events: is this side-band record printed? */
static bool shown(const struct pulse_script *s, __u32 type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return s->opts.show_task_events;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return s->opts.show_mmap_events;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return s->opts.show_switch_events;
	case PERF_RECORD_NAMESPACES:
		return s->opts.show_namespace_events;
	case PERF_RECORD_CGROUP:
		return s->opts.show_cgroup_events;
	case PERF_RECORD_LOST:
		return s->opts.show_lost_events;
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
		return s->opts.show_bpf_events;
	case PERF_RECORD_FINISHED_ROUND:
		return s->opts.show_round_events;
	default:
		return false;
	}
}

/*
 * perf's print_event_with_time(): the sample columns from the record's
 * sample_id (without sample_id_all: cpu 0, the record's pid/tid and its
 * own time, 0 but for FORK and EXIT), then perf_event__fprintf()
 */
static int print_side_band(struct pulse_script *s, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr = NULL;
	struct pulse_thread *thread = NULL;
	struct pulse_sample smp;
	int32_t pid, tid;
	__u32 u32s[2];
	int idx = -1;

	if (rec->type == PERF_RECORD_FINISHED_ROUND)
		return pulse_dump__fprintf_event(s->fp, rec);
	memset(&smp, 0, sizeof(smp));
	smp.pid = smp.tid = smp.cpu = (__u32)-1;
	smp.time = ~0ULL;
	if (pulse_data__nr_attrs(s->d)) {
		idx = pulse_data__attr_of(s->d, rec, rec->size);
		if (idx >= 0 && (size_t)idx >= s->nr_ev) {
			int err = script__prepare(s);

			if (err)
				return err;
			if ((size_t)idx >= s->nr_ev)
				idx = -1;
		}
		if (idx >= 0)
			attr = pulse_data__attr(s->d, idx);
	}
	if (attr && attr->sample_id_all) {
		__u64 st = attr->sample_type;

		if (pulse_sample__parse(rec, rec->size, attr, &smp))
			return 0;
		if (!(st & PERF_SAMPLE_TID))
			smp.pid = smp.tid = (__u32)-1;
		if (!(st & PERF_SAMPLE_CPU))
			smp.cpu = (__u32)-1;
		if (!(st & PERF_SAMPLE_TIME))
			smp.time = ~0ULL;
	}
	smp.misc = rec->misc;
	/* the thread the line names: the record's own, else the sample's */
	switch (rec->type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
		if (rec->size < 16)
			return 0;
		memcpy(u32s, (const char *)rec + 8, 8);
		pid = (int32_t)u32s[0];
		tid = (int32_t)u32s[1];
		/* FORK and EXIT: pid, ppid, tid, ptid */
		if (rec->type == PERF_RECORD_FORK || rec->type == PERF_RECORD_EXIT) {
			if (rec->size < 20)
				return 0;
			memcpy(&u32s[1], (const char *)rec + 16, 4);
			tid = (int32_t)u32s[1];
		}
		break;
	default:
		pid = (int32_t)smp.pid;
		tid = (int32_t)smp.tid;
		break;
	}
	if (attr && !attr->sample_id_all) {
		smp.cpu = 0;
		smp.time = 0;
		if (rec->type == PERF_RECORD_FORK || rec->type == PERF_RECORD_EXIT) {
			if (rec->size < 32)
				return 0;
			memcpy(&smp.time, (const char *)rec + 24, 8);
		}
		smp.pid = (__u32)pid;
		smp.tid = (__u32)tid;
	}
	if (s->opts.filter && s->opts.filter->cpus) {
		struct pulse_hist_filter cpus = { .cpus = s->opts.filter->cpus };

		if (smp.cpu != (__u32)-1 &&
		    pulse_hist_filter__match(&cpus, NULL, NULL, 0, (int)smp.cpu, ~0ULL) !=
		    PULSE_FILTER_KEEP)
			return 0;
	}
	if (tid != -1) {
		thread = pulse_machine__findnew_thread(s->m, pid, tid);
		if (!thread)
			return -ENOMEM;
	}
	if (attr)
		print_start(s, &s->ev[idx], &smp, thread ? thread->comm : ":-1", rec->type);
	return pulse_dump__fprintf_event(s->fp, rec);
}

int pulse_script__record(struct pulse_script *s, const struct perf_event_header *rec)
{
	bool show;
	int err;

	if (!s->file_checked && !pulse_data__is_pipe(s->d)) {
		err = script__prepare(s);
		if (err)
			return err;
	}
	if (rec->type == PERF_RECORD_SAMPLE)
		return script__sample(s, rec);
	show = shown(s, rec->type);
	/* EXIT is printed before the thread goes, the others once applied */
	if (show && rec->type == PERF_RECORD_EXIT) {
		err = print_side_band(s, rec);
		if (err)
			return err;
		show = false;
	}
	if (rec->type < PERF_RECORD_USER_TYPE_START) {
		err = pulse_machine__process(s->m, rec);
		if (err)
			return err;
	}
	return show ? print_side_band(s, rec) : 0;
}
