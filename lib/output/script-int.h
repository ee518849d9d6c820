/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to perf script's output (lib/output/script*.c): the -F field
 * bits, the output types, the script state, and the number formatting the
 * per-sample path uses instead of printf. Not part of the public API.
 *
 * script.c        set-up, the record dispatch
 * script-name.c   how an event and a DSO are named (pulse_script__event_name())
 * script-fields.c -F parsing and the checks against the attrs
 * script-start.c  the columns a line starts with (comm, tid, cpu, misc, tod, time)
 * script-sample.c the sample line: symbols, callchain, addr, data_src, ...
 * script-side-band.c  --show-*-events lines
 */
#ifndef PULSE_OUTPUT_SCRIPT_INT_H
#define PULSE_OUTPUT_SCRIPT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pulse/session.h>
#include <pulse/event.h>
#include <pulse/script.h>

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
	F_SRCLINE = 1u << 24,
	F_IREGS = 1u << 25,
	F_UREGS = 1u << 26,
	F_FLAGS = 1u << 31,		/* not a perf field bit: perf's print_flags */
};

/* perf's output types (output_type()); SYNTH never matches an event here */
enum { OUT_HW, OUT_SW, OUT_TRACE, OUT_HW_CACHE, OUT_RAW, OUT_BREAK, OUT_SYNTH, OUT_OTHER,
       OUT_MAX };

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
	bool added_chain;		/* ... added by a trace decoder (--itrace=G) */
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
	uint32_t ip_flags;		/* a decoder's PERF_IP_FLAG_* for the next sample */
	size_t added_attrs;		/* --itrace=G: the attrs a decoder adds chains to */
	const uint64_t *added_ips;	/* ... and the next sample's chain */
	size_t added_nr;
	bool file_checked;		/* perf_session__check_output_opt() done */
	/* the PERF_SAMPLE_READ value the sample is printed for; NULL: none */
	const struct pulse_sample_value *value;
	unsigned long long nr_samples;
	char warn[1024];		/* pulse_script__set_fields()'s warnings */
	bool clock_loaded;
	bool has_clock;			/* CLOCK_DATA: the time of day of a time */
	uint64_t tod_ns, clockid_ns;
	uint64_t initial_time;		/* --reltime: the first time printed */
	uint64_t previous_time;		/* --deltatime: the last one */
	int data_src_width;		/* the widest data_src column so far (perf's maxlen) */
	char err[512];
	unsigned int max_stack;		/* callchain entries shown */
	struct pulse_srclines *srclines;	/* -F srcline: the DSOs' line tables */
	FILE **event_fp;		/* --per-event-dump: per attr, NULL: fp */
	unsigned long long *event_nr;	/* samples printed to each */
	size_t nr_event_fp;
	struct pulse_cc_cursor cursor;	/* the current sample's frames */
	__u64 *lbr_chain;		/* call-stack mode: the callchain LBR makes */
	size_t lbr_alloc;
};

/* script-fields.c: set up the attrs that arrived since the last call */
int pulse_script__prepare(struct pulse_script *s);

/* script-start.c: in file mode perf refuses tod up front */
int pulse_script__check_tod(struct pulse_script *s);

/* script-start.c: the columns a sample or side-band line starts with */
void pulse_script__print_start(struct pulse_script *s, const struct script_event *ev,
			       const struct pulse_sample *smp, const char *comm, __u32 type);

/* script-sample.c: one PERF_RECORD_SAMPLE */
int pulse_script__sample(struct pulse_script *s, const struct perf_event_header *rec);

/* script-side-band.c: --show-*-events: is this side-band record printed? */
bool pulse_script__side_band_shown(const struct pulse_script *s, __u32 type);

/* script-side-band.c: one side-band record's line */
int pulse_script__print_side_band(struct pulse_script *s, const struct perf_event_header *rec);

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
static inline void put_sdec(FILE *fp, int64_t v, int width)
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

static inline void put_udec(FILE *fp, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_dec(end, v);

	if (width > end - p)
		put_spaces(fp, width - (end - p));
	fwrite_unlocked(p, 1, end - p, fp);
}

/* "%*lx" */
static inline void put_hex(FILE *fp, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_hex(end, v);

	if (width > end - p)
		put_spaces(fp, width - (end - p));
	fwrite_unlocked(p, 1, end - p, fp);
}

/* "%*s" */
static inline void put_rstr(FILE *fp, const char *str, int width)
{
	int len = (int)strlen(str);

	if (width > len)
		put_spaces(fp, width - len);
	fwrite_unlocked(str, 1, len, fp);
}

/* script-itrace.c: instruction trace samples */
void pulse_script__print_ip_flags(FILE *fp, uint32_t flags);
bool pulse_script__is_bts(const struct perf_event_attr *attr);
void pulse_script__print_synth(FILE *fp, const struct perf_event_attr *attr, const void *raw,
			       uint32_t raw_size);

#endif
