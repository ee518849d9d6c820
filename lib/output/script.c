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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/event.h>
#include <pulse/machine.h>
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
};

static const struct {
	const char *name;
	unsigned int field;
} field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVNAME }, { "trace", F_TRACE }, { "ip", F_IP },
	{ "sym", F_SYM }, { "dso", F_DSO }, { "addr", F_ADDR }, { "symoff", F_SYMOFFSET },
	{ "period", F_PERIOD },
};

/* perf's fields that pulse does not print yet: named as such, not "invalid" */
static const char *const unsupported_fields[] = {
	"srcline", "iregs", "uregs", "brstack", "brstacksym", "flags", "bpf-output",
	"brstackinsn", "brstackoff", "callindent", "insn", "insnlen", "synth", "phys_addr",
	"metric", "misc", "srccode", "ipc", "tod", "data_page_size", "code_page_size",
	"ins_lat", "weight", "data_src",
};

/* perf's output types (output_type()) */
enum { OUT_HW, OUT_SW, OUT_TRACE, OUT_HW_CACHE, OUT_RAW, OUT_BREAK, OUT_OTHER, OUT_MAX };

static const char *const out_type_names[OUT_MAX] = {
	"hw", "sw", "trace", "hw-cache", "raw", "break", "other",
};

#define DEFAULT_HW (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | F_SYMOFFSET | \
		    F_DSO | F_PERIOD)

struct out_type {
	unsigned int fields;
	unsigned int invalid;		/* fields this type never has */
	unsigned int user_set_fields;
	unsigned int user_unset_fields;
	bool user_set;
};

struct script_event {
	char name[256];			/* evsel__name() */
	int otype;			/* OUT_* */
	bool callchain;			/* PERF_SAMPLE_CALLCHAIN */
	struct tep_event *tp;		/* tracepoint format, NULL: none */
};

struct pulse_script {
	struct pulse_data *d;
	struct pulse_machine *m;
	struct pulse_trace *trace;
	struct pulse_script_opts opts;
	FILE *fp;
	struct out_type out[OUT_MAX];
	bool fields_set;		/* a -F without a type was given */
	struct script_event *ev;	/* one per attr, prepared so far */
	size_t nr_ev;
	int name_width;			/* widest event name; 0: not yet known */
	bool use_callchain;		/* symbol_conf.use_callchain */
	bool file_checked;		/* perf_session__check_output_opt() done */
	unsigned long long nr_samples;
	char err[512];
};

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
	s->out[OUT_RAW].fields |= F_ADDR;
	*sp = s;
	return 0;
}

void pulse_script__delete(struct pulse_script *s)
{
	if (!s)
		return;
	free(s->ev);
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

int pulse_script__set_fields(struct pulse_script *s, const char *spec)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	const char *colon = strchr(spec, ':'), *tok;
	int type = -1;

	s->err[0] = '\0';
	if (colon) {
		size_t n = colon - spec;

		for (int i = 0; i < OUT_MAX; i++)
			if (strlen(out_type_names[i]) == n && !strncmp(out_type_names[i], spec, n))
				type = i;
		if (type < 0) {
			snprintf(s->err, sizeof(s->err), "invalid event type '%.*s' in field string",
				 (int)n, spec);
			return -EINVAL;
		}
		tok = colon + 1;
		/* "type:" alone shows nothing for that type, as in perf */
		s->out[type].fields = 0;
		s->out[type].user_set = true;
		if (strchr(tok, '+') || strchr(tok, '-'))
			s->out[type].fields = 0;
	} else {
		tok = spec;
		if (!*spec) {
			snprintf(s->err, sizeof(s->err),
				 "cannot set fields to 'none' for all event types");
			return -EINVAL;
		}
		/* +field and -field change the defaults instead of replacing them */
		if (!strchr(spec, '+') && !strchr(spec, '-')) {
			for (int j = 0; j < OUT_MAX; j++) {
				s->out[j].fields = 0;
				s->out[j].user_set = true;
			}
		}
	}
	while (*tok) {
		const char *end = strchrnul(tok, ',');
		int f;

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
		f = field_of(tok, end - tok);
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
		for (int j = 0; j < OUT_MAX; j++) {
			struct out_type *o = &s->out[j];

			if (type >= 0 && j != type)
				continue;
			if (type < 0 && (o->invalid & f))
				continue;	/* perf warns "not valid for ... events. Ignoring." */
			if (change == REMOVE) {
				o->fields &= ~f;
				o->user_set_fields &= ~f;
				o->user_unset_fields |= f;
			} else {
				o->fields |= f;
				o->user_set_fields |= f;
				o->user_unset_fields &= ~f;
			}
			o->user_set = true;
		}
		tok = *end ? end + 1 : end;
	}
	return 0;
badmix:
	snprintf(s->err, sizeof(s->err), "cannot mix +-field with overridden fields");
	return -EINVAL;
}

static const char *field_name(unsigned int f)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (field_names[i].field == f)
			return field_names[i].name;
	return "?";
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
	if (o->fields & F_PERIOD)
		err = err ?: check_stype(s, ev, attr, PERF_SAMPLE_PERIOD, "PERIOD", F_PERIOD);
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
			if (s->use_callchain && (combined & PERF_SAMPLE_CALLCHAIN)) {
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
	for (int t = 0; t < OUT_MAX; t++) {
		for (size_t i = 0; i < nr; i++) {
			if (ev[i].otype != t)
				continue;
			if (s->out[t].fields) {
				err = check_attr(s, &ev[i], pulse_data__attr(s->d, i));
				if (err)
					return err;
			}
			break;
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

/* perf_sample__fprintf_start() */
static void print_start(struct pulse_script *s, const struct script_event *ev,
			const struct pulse_sample *smp, const char *comm)
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
	if (fields & F_TIME) {
		uint64_t secs = smp->time / 1000000000ULL, nsecs = smp->time % 1000000000ULL;
		char buf[48], *end = buf + sizeof(buf), *p;

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

static const char *dso_name(const struct pulse_dso *dso)
{
	if (!dso)
		return "[unknown]";
	return dso->kind == PULSE_DSO_KERNEL ? dso->short_name : dso->long_name;
}

/*
 * pulse_machine__resolve(), plus perf's reach into the kernel beyond the
 * recorded kernel MMAP: perf maps the kernel from /proc/kcore, which covers
 * .init.text (start_kernel, x86_64_start_kernel in the idle task's chain),
 * while the MMAP record ends at _etext.
 */
static int resolve(struct pulse_script *s, const struct pulse_sample *smp, uint8_t cpumode,
		   uint64_t ip, struct pulse_addr_loc *al)
{
	struct pulse_machine *m = s->m;
	const struct pulse_symbol *sym;
	int err;

	err = pulse_machine__resolve(m, smp->pid, smp->tid, cpumode, ip, al);
	if (err || al->dso || cpumode != PERF_RECORD_MISC_KERNEL || !m->kernel_dso)
		return err;
	for (size_t i = 0; i < m->kmaps.nr; i++) {
		if (m->kmaps.maps[i].dso != m->kernel_dso)
			continue;
		if (ip < m->kmaps.maps[i].start)
			return 0;
		break;
	}
	sym = pulse_dso__find_symbol(&m->dsos, m->kernel_dso, ip);
	if (sym) {
		al->dso = m->kernel_dso;
		al->sym = sym;
		al->addr = ip;
	}
	return 0;
}

/* sample__fprintf_callchain(): callee first, PERF_CONTEXT_* switch modes */
static int print_callchain(struct pulse_script *s, unsigned int fields,
			   const struct pulse_sample *smp)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	FILE *fp = s->fp;
	unsigned int shown = 0;

	for (__u64 i = 0; i < smp->callchain_nr && shown < 127; i++) {
		struct pulse_addr_loc al;
		uint64_t ip;
		int err;

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
				return 0;
			}
		}
		shown++;
		err = resolve(s, smp, cpumode, ip, &al);
		if (err)
			return err;
		if (fields & F_IP) {
			putc_unlocked('\t', fp);
			put_hex(fp, al.dso && al.dso->kind != PULSE_DSO_KERNEL ? al.addr : ip, 16);
		}
		if (fields & F_SYM) {
			putc_unlocked(' ', fp);
			put_sym(fp, &al, fields & F_SYMOFFSET);
		}
		if (fields & F_DSO) {
			put_str(fp, " (");
			put_str(fp, dso_name(al.dso));
			putc_unlocked(')', fp);
		}
		putc_unlocked('\n', fp);
	}
	return 0;
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
	ev = &s->ev[idx];
	fields = s->out[ev->otype].fields;
	if (!fields)
		return 0;
	err = resolve(s, &smp, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &al);
	if (err)
		return err;
	if (!s->name_width) {
		for (size_t i = 0; i < s->nr_ev; i++) {
			int n = (int)strlen(s->ev[i].name);

			if (n > s->name_width)
				s->name_width = n;
		}
	}
	s->nr_samples++;
	print_start(s, ev, &smp, al.thread->comm);
	if (fields & F_PERIOD) {
		put_udec(fp, smp.period, 10);
		putc_unlocked(' ', fp);
	}
	if (fields & F_EVNAME) {
		put_rstr(fp, ev->name, s->name_width);
		put_str(fp, ": ");
	}
	if ((fields & F_TRACE) && smp.raw && ev->tp)
		pulse_trace__fprintf(s->trace, ev->tp, (int)smp.cpu, smp.raw, smp.raw_size, fp);
	if (fields & F_ADDR)
		put_hex(fp, smp.addr, 16);
	if (fields & F_IP) {
		if (s->use_callchain && ev->callchain) {
			putc_unlocked('\n', fp);
			err = callchain_valid(&smp) ? print_callchain(s, fields, &smp) : 0;
			if (err)
				return err;
		} else {
			putc_unlocked(' ', fp);
			put_hex(fp, smp.ip, 16);
			if (fields & F_SYM) {
				putc_unlocked(' ', fp);
				put_sym(fp, &al, fields & F_SYMOFFSET);
			}
			if (fields & F_DSO) {
				put_str(fp, " (");
				put_str(fp, dso_name(al.dso));
				putc_unlocked(')', fp);
			}
		}
	}
	putc_unlocked('\n', fp);
	return ferror(fp) ? -EIO : 0;
}

int pulse_script__record(struct pulse_script *s, const struct perf_event_header *rec)
{
	int err;

	if (!s->file_checked && !pulse_data__is_pipe(s->d)) {
		err = script__prepare(s);
		if (err)
			return err;
	}
	if (rec->type == PERF_RECORD_SAMPLE)
		return script__sample(s, rec);
	return pulse_machine__process(s->m, rec);
}
