/* SPDX-License-Identifier: GPL-2.0 */
/* What the session reads from a file before and while it walks it (session-file.c). */
#ifndef PULSE_SESSION_INTERNAL_H
#define PULSE_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include <pulse/session.h>

/*
 * The timestamp a record carries, for ordering: ~0ULL when its attr samples
 * no time (or the record carries no sample_id), "deliver at once".
 */
__u64 session__record_time(struct pulse_data *d, const struct perf_event_header *rec);

/* perf's places to look for symbols, where @opts leaves them unset; @buf outlives @opts. */
void session__symbol_defaults(struct pulse_data *d, struct pulse_symbol_opts *opts, char *buf,
			      size_t size);

/* Hand the BUILD_ID feature's entries to @dsos. */
void session__load_build_ids(struct pulse_data *d, struct pulse_dsos *dsos);

/* The SAMPLE_TIME feature: 0 or -ENODATA. */
int session__sample_time(struct pulse_data *d, uint64_t *first, uint64_t *last);

/*
 * PERF_SAMPLE_READ delivery (sample-read.c): each id's value at its last
 * sample (perf's sid->period), the value being delivered.
 */
struct read_slot;
struct session_read {
	struct read_slot *slots;	/* open addressing by id */
	size_t size, nr;		/* slots, in use */
	struct pulse_sample_value cur;	/* the value the tool is handed */
	bool active;			/* a value is being delivered */
	uint64_t nr_unknown_id;		/* values of ids no event has */
};

/* Deliver a PERF_SAMPLE_READ sample of @attr once per value (see sample-read.c). */
int session_read__deliver(struct session_read *r, struct pulse_data *d,
			  const struct perf_event_attr *attr, pulse_tool_fn sample,
			  struct pulse_session *s, const struct perf_event_header *rec,
			  uint64_t file_offset, void *arg);
void session_read__exit(struct session_read *r);

#endif
