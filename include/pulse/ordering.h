/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time ordering of records (lib/session/ordering.c), as perf's
 * ordered_events: records with a timestamp are queued; a FINISHED_ROUND
 * delivers every queued record not newer than the newest timestamp seen
 * before the previous round ended (later rounds may still bring older
 * records from other CPUs up to that point); the end delivers the rest.
 * That newest timestamp is perf's max_timestamp: the newest pending record,
 * or, once a flush has emptied the queue, the first record queued after
 * it (even one older than what was delivered); a round that finds the
 * queue empty changes nothing. Equal timestamps keep their queueing order.
 * A file without rounds is thus sorted whole at its end.
 *
 * Records without a usable timestamp (0 or ~0: synthesized records, attrs
 * without PERF_SAMPLE_TIME) are not queued: pulse_ordered__queue() says so
 * and the caller delivers them at once, as perf does.
 */
#ifndef PULSE_ORDERING_H
#define PULSE_ORDERING_H

#include <stdint.h>
#include <linux/perf_event.h>

struct pulse_ordered;

/* Called for each record in time order; a non-zero return stops the flush. */
typedef int (*pulse_ordered_fn)(const struct perf_event_header *rec, uint64_t file_offset,
				void *arg);

/**
 * pulse_ordered__new - an empty queue delivering to @fn
 * @q: set to the queue (free with pulse_ordered__delete()), NULL on failure
 * Return: 0 or -ENOMEM.
 */
int pulse_ordered__new(struct pulse_ordered **q, pulse_ordered_fn fn, void *arg);
void pulse_ordered__delete(struct pulse_ordered *q);

/**
 * pulse_ordered__queue - queue a copy of a record
 * Return: 0; -ETIME when @timestamp is 0 or ~0 (deliver it yourself, now);
 * -ENOMEM.
 */
int pulse_ordered__queue(struct pulse_ordered *q, const struct perf_event_header *rec,
			 uint64_t timestamp, uint64_t file_offset);

/*
 * pulse_ordered__queue() of a record read from the file @from (a directory
 * input's DIR/data.N; kept, not copied), which pulse_ordered__from() gives
 * back while the record is delivered, as perf's ordered_event.file_path.
 */
int pulse_ordered__queue_from(struct pulse_ordered *q, const struct perf_event_header *rec,
			      uint64_t timestamp, uint64_t file_offset, const char *from);

/*
 * pulse_ordered__queue_from() of a record that outlives the queue (one
 * pulse_data__record_stays() says so): queued by reference, not copied.
 */
int pulse_ordered__queue_ref(struct pulse_ordered *q, const struct perf_event_header *rec,
			     uint64_t timestamp, uint64_t file_offset, const char *from);

/* Lets go of a record queued with pulse_ordered__queue_pinned(). */
typedef void (*pulse_ordered_unpin_fn)(void *arg, void *pin);

/* How the queue lets go of pinned records (before any is queued). */
void pulse_ordered__set_unpin(struct pulse_ordered *q, pulse_ordered_unpin_fn fn, void *arg);

/*
 * pulse_ordered__queue_ref() of a record that stays where it is while
 * @pin holds it (pulse_data__record_pin()): the queue unpins it once it
 * is delivered, or when the queue is deleted. On an error (-ETIME too)
 * the pin stays the caller's. -EINVAL without pulse_ordered__set_unpin().
 */
int pulse_ordered__queue_pinned(struct pulse_ordered *q, const struct perf_event_header *rec,
				uint64_t timestamp, uint64_t file_offset, const char *from, void *pin);

/* The @from of the record being delivered; NULL outside a delivery. */
const char *pulse_ordered__from(const struct pulse_ordered *q);

/* FINISHED_ROUND. Return: 0 or the callback's non-zero return. */
int pulse_ordered__flush_round(struct pulse_ordered *q);

/* End of input: deliver everything. Return: 0 or the callback's return. */
int pulse_ordered__flush(struct pulse_ordered *q);

/* Records queued and not yet delivered. */
uint64_t pulse_ordered__nr_queued(const struct pulse_ordered *q);

/*
 * Records queued with a time older than the last one delivered: what perf
 * warns about as "N out of order events recorded". They are still
 * delivered, at the next flush.
 */
uint64_t pulse_ordered__nr_unordered(const struct pulse_ordered *q);

#endif
