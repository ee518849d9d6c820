/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to perf report -D's output (lib/output/dump*.c): bounded reads of
 * a record's fields, and the decoders the files share. Not part of the
 * public API.
 *
 * dump.c         the dump itself: init/exit, record and event names, hex dump
 * dump-record.c  record framing (offset, raw bytes, timestamp, name)
 * dump-sample.c  samples: parsing with perf's defaults, their "..." lines
 * dump-kernel.c  the other kernel records, and the script's side-band lines
 * dump-user.c    user records (ID_INDEX, cpu and thread maps, STAT, ...)
 * dump-aux.c     AUXTRACE_INFO's words, AUXTRACE with its Intel PT packets
 * dump-aux-spe.c ARM SPE packets
 * dump-aux-etm.c cs_etm's AUXTRACE_INFO
 * dump-stats.c   the per-type and per-event counts and their table
 */
#ifndef PULSE_OUTPUT_DUMP_INT_H
#define PULSE_OUTPUT_DUMP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include "core/internal.h"

/* ---- record field access, bounded by the record ------------------------ */

struct rec_view {
	const unsigned char *p;
	size_t size;		/* header.size */
};

static inline bool has(const struct rec_view *r, size_t off, size_t n)
{
	return off <= r->size && n <= r->size - off;
}

static inline __u64 u64_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 8) ? get_u64(r->p + off) : 0;
}

static inline __u32 u32_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 4) ? get_u32(r->p + off) : 0;
}

static inline __u16 u16_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 2) ? get_u16(r->p + off) : 0;
}

/* A string inside the record: its length up to the NUL or the record end. */
static inline int str_len(const struct rec_view *r, size_t off)
{
	if (off >= r->size)
		return 0;
	return (int)strnlen((const char *)r->p + off, r->size - off);
}

#define STR_AT(r, off) str_len(r, off), (const char *)(r)->p + ((off) < (r)->size ? (off) : 0)

/* dump.c: perf's evsel__name() of attr @idx, through dump->name */
const char *pulse_dump__event_name(const struct pulse_dump *dump, struct pulse_data *d, size_t idx);

/* dump-stats.c: room for the counts of attr @idx; false when out of memory */
bool pulse_dump__grow_counts(struct pulse_dump *dump, size_t idx);

/* dump-sample.c: parse @rec with perf's defaults for what it lacks */
int pulse_dump__parse_sample(struct pulse_data *d, const struct perf_event_header *rec,
			     struct pulse_sample *s, const struct perf_event_attr **attrp, int *idxp);

/* dump-sample.c: perf's __evlist__combined_sample_type() */
__u64 pulse_dump__combined_sample_type(struct pulse_dump *dump, struct pulse_data *d, size_t nr);

/* dump-sample.c: a sample's lines after its PERF_RECORD_SAMPLE */
void pulse_dump__sample_lines(FILE *out, struct pulse_dump *dump,
			      const struct perf_event_header *rec, const struct pulse_sample *s,
			      const struct perf_event_attr *attr, int idx);

/*
 * dump-user.c: what perf's report tool prints after the name of a user
 * record at file offset @off; -EBADMSG where perf stops (an AUXTRACE_INFO
 * it refuses)
 */
int pulse_dump__user_record(FILE *out, struct pulse_dump *dump, const struct rec_view *r,
			    __u32 type, __u64 off);

/* dump-aux.c: AUXTRACE_INFO's words (-EBADMSG where perf refuses it) */
int pulse_dump__auxtrace_info(FILE *out, struct pulse_dump *dump, const struct rec_view *r,
			      __u64 off);

/* dump-aux-etm.c: a cs_etm AUXTRACE_INFO's words; -EBADMSG where perf refuses it */
int pulse_dump__cs_etm_info(FILE *out, struct pulse_data *d, const struct rec_view *r, __u64 off);

/* dump-aux-spe.c: perf's ARM SPE packet dump of an AUXTRACE's data */
int pulse_dump__spe(FILE *out, const unsigned char *buf, size_t len);

/* dump-aux.c: perf script -D's words for an AUXTRACE_ERROR */
void pulse_dump__auxtrace_error(FILE *out, const struct rec_view *r);

/* dump-aux.c: AUXTRACE's line and, for intel_pt, the packets of its data */
int pulse_dump__auxtrace(FILE *out, struct pulse_dump *dump, const struct rec_view *r);

/* dump-kernel.c: what it prints after the name of a kernel record */
void pulse_dump__kernel_record(FILE *out, struct pulse_dump *dump, struct pulse_data *d,
			       const struct rec_view *r, const struct perf_event_header *rec,
			       const struct pulse_sample *s, const struct perf_event_attr *attr,
			       int idx);

/* dump-kernel.c: the fixed part of a kernel record, below which decoders read garbage */
size_t pulse_dump__min_size(__u32 type);

#endif
