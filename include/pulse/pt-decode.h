/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding Intel PT AUX data into perf's itrace events (lib/aux/pt*.c), for
 * a tool walking a session: perf 6.1's intel-pt.c with its decoder's walk.
 *
 * The tool hands the decoder every record before it handles it itself:
 * user records (AUXTRACE_INFO, AUXTRACE) as read, kernel records in time
 * order; before a record with a time, the trace is decoded up to that
 * time and what it yields is delivered through pulse_session__deliver_synth()
 * (SAMPLE records of the events the decoder adds to the file's attrs:
 * "branches", "instructions", "transactions", "ptwrite", "cbr", "psb", ...),
 * and errors through @error. At the end of the input, pulse_pt__flush()
 * decodes the rest.
 */
#ifndef PULSE_PT_DECODE_H
#define PULSE_PT_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pulse/itrace.h>

struct pulse_session;
struct pulse_pt;

/* perf's PERF_TYPE_SYNTH and PERF_SYNTH_INTEL_* (the synthesized events' attrs) */
#define PULSE_TYPE_SYNTH 0x80000000u
enum {
	PULSE_SYNTH_INTEL_PTWRITE, PULSE_SYNTH_INTEL_MWAIT, PULSE_SYNTH_INTEL_PWRE,
	PULSE_SYNTH_INTEL_EXSTOP, PULSE_SYNTH_INTEL_PWRX, PULSE_SYNTH_INTEL_CBR,
	PULSE_SYNTH_INTEL_PSB, PULSE_SYNTH_INTEL_EVT, PULSE_SYNTH_INTEL_IFLAG_CHG,
};

/* an AUX trace error, as perf's perf_record_auxtrace_error carries it */
struct pulse_pt_error {
	uint32_t type;		/* 1: instruction trace */
	uint32_t code;		/* perf's INTEL_PT_ERR_* */
	int32_t cpu, pid, tid;
	uint64_t ip;
	uint64_t time;		/* perf time, ns; 0: none */
	const char *msg;
};

typedef int (*pulse_pt_error_fn)(const struct pulse_pt_error *e, void *arg);

struct pulse_pt_opts {
	size_t sz;				/* sizeof(struct pulse_pt_opts) */
	const struct pulse_itrace_opts *itrace;	/* NULL or !set: the default (default_no_sample) */
	bool default_no_sample;			/* perf script's default, else report's */
	pulse_pt_error_fn error;		/* NULL: errors are dropped */
	void *arg;
};

/**
 * pulse_pt__new - a decoder for the session's AUX data
 * @pt: set to the decoder, or NULL when the input has no Intel PT
 *      AUXTRACE_INFO (a pipe: the decoder is made and waits for one)
 *
 * A file's AUXTRACE_INFO and AUXTRACE buffers are read here, before the
 * walk, as perf reads them from the file's index; the synthesized events
 * are added to the file's attrs at once.
 * Return: 0, -ENOMEM, -EINVAL for a malformed AUXTRACE_INFO.
 */
int pulse_pt__new(struct pulse_pt **pt, struct pulse_session *s, const struct pulse_pt_opts *o);
void pulse_pt__delete(struct pulse_pt *pt);

/* a record the walk delivers, before the tool handles it: 0 or an error */
int pulse_pt__process(struct pulse_pt *pt, const struct perf_event_header *rec);

/*
 * The PERF_IP_FLAG_* bits of the sample being delivered (perf keeps them in
 * the perf_sample; a SAMPLE record has no room for them); 0 outside one.
 */
uint32_t pulse_pt__sample_flags(const struct pulse_pt *pt);

/*
 * pulse_pt__sample_callchain - with --itrace=G (part of perf report's
 * default), the callchain the decoder's thread stack gives a SAMPLE record
 * of the file that has none (perf's intel_pt_add_callchain()); call after
 * pulse_pt__process() of @rec.
 * Return: the number of entries at *@ips (valid until the next call), 0
 * for none.
 */
size_t pulse_pt__sample_callchain(struct pulse_pt *pt, const struct perf_event_header *rec,
				  const uint64_t **ips);

/* the end of the input: decode what is left */
int pulse_pt__flush(struct pulse_pt *pt);

/* "the AUX area is of a PMU pulse cannot decode": the auxtrace type, 0 if none */
uint32_t pulse_pt__unsupported(const struct pulse_pt *pt);

#endif
