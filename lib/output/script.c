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
 *
 * This file holds the set-up and the record dispatch; script-int.h says
 * where the rest lives.
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
#include <pulse/srcline.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "script-int.h"

#define DEFAULT_HW (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | F_SYMOFFSET | \
		    F_DSO | F_PERIOD)

/* ---- set-up --------------------------------------------------------------- */

int pulse_script__new(struct pulse_script **sp, struct pulse_data *d, struct pulse_machine *m,
		      struct pulse_trace *t, const struct pulse_script_opts *opts, FILE *fp)
{
	struct pulse_script *s = calloc(1, sizeof(*s));

	*sp = NULL;
	if (!s)
		return -ENOMEM;
	s->d = d;
	s->m = m;
	if (m)
		m->no_inline = s->opts.no_inline;
	s->trace = t;
	s->fp = fp;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	s->max_stack = s->opts.max_stack_set ? s->opts.max_stack : 127;
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
	pulse_cc_cursor__exit(&s->cursor);
	pulse_srclines__delete(s->srclines);
	free(s->event_fp);
	free(s->event_nr);
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

int pulse_script__set_event_fp(struct pulse_script *s, size_t idx, FILE *fp)
{
	if (idx >= s->nr_event_fp) {
		FILE **f = realloc(s->event_fp, (idx + 1) * sizeof(*f));
		unsigned long long *n;

		if (!f)
			return -ENOMEM;
		s->event_fp = f;
		n = realloc(s->event_nr, (idx + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->event_nr = n;
		for (size_t i = s->nr_event_fp; i <= idx; i++) {
			s->event_fp[i] = NULL;
			s->event_nr[i] = 0;
		}
		s->nr_event_fp = idx + 1;
	}
	s->event_fp[idx] = fp;
	return 0;
}

unsigned long long pulse_script__nr_event_samples(const struct pulse_script *s, size_t idx)
{
	return idx < s->nr_event_fp ? s->event_nr[idx] : 0;
}

/* --per-event-dump: a sample goes to its event's file */
static int script__event_sample(struct pulse_script *s, const struct perf_event_header *rec)
{
	int idx = s->value ? (int)s->value->idx : pulse_data__attr_of(s->d, rec, rec->size);
	unsigned long long before = s->nr_samples;
	FILE *fp = s->fp;
	int err;

	if (idx < 0 || (size_t)idx >= s->nr_event_fp || !s->event_fp[idx])
		return pulse_script__sample(s, rec);
	s->fp = s->event_fp[idx];
	err = pulse_script__sample(s, rec);
	s->fp = fp;
	s->event_nr[idx] += s->nr_samples - before;
	return err;
}

int pulse_script__record_value(struct pulse_script *s, const struct perf_event_header *rec,
			       const struct pulse_sample_value *v)
{
	int err;

	s->value = v;
	err = pulse_script__record(s, rec);
	s->value = NULL;
	return err;
}

int pulse_script__record(struct pulse_script *s, const struct perf_event_header *rec)
{
	bool show;
	int err;

	if (!s->file_checked && !pulse_data__is_pipe(s->d)) {
		err = pulse_script__prepare(s);
		if (err)
			return err;
	}
	if (rec->type == PERF_RECORD_SAMPLE)
		return s->nr_event_fp ? script__event_sample(s, rec) : pulse_script__sample(s, rec);
	show = pulse_script__side_band_shown(s, rec->type);
	/* EXIT is printed before the thread goes, the others once applied */
	if (show && rec->type == PERF_RECORD_EXIT) {
		err = pulse_script__print_side_band(s, rec);
		if (err)
			return err;
		show = false;
	}
	if (rec->type < PERF_RECORD_USER_TYPE_START) {
		err = pulse_machine__process(s->m, rec);
		if (err)
			return err;
	}
	return show ? pulse_script__print_side_band(s, rec) : 0;
}
