/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space model of the kernel's perf ring buffer PRODUCER
 * (kernel/events/ring_buffer.c), for testing the consumer (lib/ring/mmap.c)
 * without a kernel. It owns memory laid out as the real mapping (a 4096-byte
 * struct perf_event_mmap_page, then 2^n data bytes): give
 * pulse_ring_model__base() to pulse_mmap__init_mem().
 *
 * One producer thread; interrupts/NMIs are simulated on it: a writer may
 * start a complete nested record between its own begin and end, or from the
 * irq hook, which the model calls where the kernel notes that an IRQ/NMI can
 * strike (between reading rb->head and the cmpxchg that reserves, and
 * between reading rb->head and publishing it).
 *
 *	if (pulse_ring_model__output_begin(m, &h, size) == 0) {
 *		pulse_ring_model__output_copy(&h, rec, size);
 *		pulse_ring_model__output_end(&h);
 *	}
 */
#ifndef PULSE_RING_MODEL_H
#define PULSE_RING_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#define PULSE_RING_MODEL_PAGE 4096

struct pulse_ring_model;

/* As struct perf_output_handle: one reservation being written. */
struct pulse_ring_handle {
	struct pulse_ring_model *m;
	__u64 pos;		/* free-running position of the next byte */
	size_t size;		/* bytes of the reservation not yet written */
};

enum pulse_ring_irq_point {
	PULSE_RING_IRQ_RESERVE,	/* in output_begin, before the cmpxchg of rb->head */
	PULSE_RING_IRQ_PUBLISH,	/* in put_handle, after reading rb->head */
};

typedef void (*pulse_ring_irq_fn)(struct pulse_ring_model *m, enum pulse_ring_irq_point at,
				  void *arg);

struct pulse_ring_model_stats {
	__u64 records;		/* successful output_begin calls */
	__u64 lost;		/* records dropped for want of space */
	__u64 lost_records;	/* PERF_RECORD_LOST records written */
	__u64 reserve_retries;	/* cmpxchg of rb->head that failed */
	__u64 publishes;	/* stores to data_head */
	__u64 publish_retries;	/* put_handle found rb->head moved and looped */
};

/**
 * pulse_ring_model__new - a zeroed ring with its header page
 * @data_size: data bytes, a power of two >= 8
 * @backward: write_backward on an overwrite (read-only) mapping: data_head
 *	moves down, data_tail is ignored, nothing is ever dropped
 *
 * @m: set to the model (NULL on failure)
 * Return: 0, -EINVAL for a bad size, -ENOMEM.
 */
int pulse_ring_model__new(struct pulse_ring_model **m, size_t data_size, bool backward);
void pulse_ring_model__delete(struct pulse_ring_model *m);

/* The header page; the data follow at + PULSE_RING_MODEL_PAGE. */
void *pulse_ring_model__base(struct pulse_ring_model *m);
/* The id written in PERF_RECORD_LOST records (default 0). */
void pulse_ring_model__set_id(struct pulse_ring_model *m, __u64 id);
/* Call @fn at the interrupt points (not while @fn itself runs). */
void pulse_ring_model__set_irq(struct pulse_ring_model *m, pulse_ring_irq_fn fn, void *arg);

/**
 * pulse_ring_model__output_begin - reserve @size bytes (perf_output_begin)
 * @m: the model
 * @h: the handle to fill
 * @size: record bytes
 *
 * When records were dropped since the last reservation, a PERF_RECORD_LOST
 * {header, u64 id, u64 lost} is written first, inside this reservation.
 *
 * Return: 0; -ENOSPC when the record is dropped (and counted); -EINVAL.
 */
int pulse_ring_model__output_begin(struct pulse_ring_model *m, struct pulse_ring_handle *h,
				   size_t size);
/* Copy into the reservation. Return: bytes that did not fit (0). */
size_t pulse_ring_model__output_copy(struct pulse_ring_handle *h, const void *buf, size_t len);
/* Finish the reservation; data_head is published by the outermost writer. */
void pulse_ring_model__output_end(struct pulse_ring_handle *h);

/* Records dropped so far (the sum the LOST records report, once emitted). */
__u64 pulse_ring_model__lost(const struct pulse_ring_model *m);
/* rb->head: the producer's private head (published or not). */
__u64 pulse_ring_model__head(const struct pulse_ring_model *m);
void pulse_ring_model__stats(const struct pulse_ring_model *m, struct pulse_ring_model_stats *st);

/* ---- the AUX area (lib/ring/model-aux.c) --------------------------------- */

/*
 * A model of a PMU writing the AUX area of a ring (perf_aux_output_begin,
 * perf_aux_output_end, perf_aux_output_flag in kernel/events/ring_buffer.c):
 * it sets aux_offset/aux_size in @rm's user page, owns the area, and writes
 * a PERF_RECORD_AUX into @rm for each piece it stores.
 *
 * Full mode (@overwrite false, a writable mapping): the space is
 * CIRC_SPACE(aux_head, aux_tail); a piece that does not fit is cut, the
 * AUX record says TRUNCATED and the event stops (pending_disable): later
 * writes are dropped until pulse_aux_model__enable() (the tool's ioctl).
 * With no space at all nothing is written and no record made, as
 * perf_aux_output_begin() fails.
 *
 * Overwrite mode (a read-only mapping): the PMU writes on over the oldest
 * bytes; the record's offset is the new head (as perf_aux_output_end() takes
 * handle->head) and its flags carry OVERWRITE.
 *
 * Paused (PERF_EVENT_IOC_PAUSE_OUTPUT), the begin fails: writes are dropped
 * and counted.
 */
struct pulse_aux_model;

struct pulse_aux_model_stats {
	__u64 written;		/* bytes stored in the area */
	__u64 dropped;		/* bytes offered and not stored (full, stopped, paused) */
	__u64 records;		/* PERF_RECORD_AUX written */
	__u64 aux_lost;		/* PERF_RECORD_AUX the normal ring had no room for */
	__u64 truncated;	/* records with TRUNCATED */
	__u64 partial;		/* records with PARTIAL */
	__u64 collision;	/* records with COLLISION */
};

/**
 * pulse_aux_model__new - an AUX area of @aux_size bytes beside @rm
 * @rm: the normal ring (its user page is shared; not owned)
 * @aux_size: bytes, a power of two >= 8
 * @overwrite: snapshot mode
 * Return: 0, -EINVAL, -ENOMEM.
 */
int pulse_aux_model__new(struct pulse_aux_model **m, struct pulse_ring_model *rm, size_t aux_size,
			 bool overwrite);
void pulse_aux_model__delete(struct pulse_aux_model *m);
/* The area (give it to pulse_aux__init_mem() with pulse_ring_model__base()). */
void *pulse_aux_model__data(struct pulse_aux_model *m);
/* Bytes appended to each AUX record (its sample_id trailer), at most 64. */
int pulse_aux_model__set_sample_id(struct pulse_aux_model *m, const void *id, size_t len);
/**
 * pulse_aux_model__write - the PMU outputs @len bytes
 * @flags: PERF_AUX_FLAG_PARTIAL, PERF_AUX_FLAG_COLLISION, ... for the record
 * Return: bytes stored.
 */
size_t pulse_aux_model__write(struct pulse_aux_model *m, const void *buf, size_t len, __u64 flags);
void pulse_aux_model__pause(struct pulse_aux_model *m, bool paused);
/*
 * Overwrite mode as the Intel PT and BTS drivers run it: aux_head (and
 * the AUX records' offset) is the offset inside the area, not a
 * free-running count (pulse_aux_model__head() stays free-running).
 */
void pulse_aux_model__set_masked_head(struct pulse_aux_model *m);
/* Re-enable after a TRUNCATED stop. */
void pulse_aux_model__enable(struct pulse_aux_model *m);
bool pulse_aux_model__stopped(const struct pulse_aux_model *m);
/* rb->aux_head */
__u64 pulse_aux_model__head(const struct pulse_aux_model *m);
void pulse_aux_model__stats(const struct pulse_aux_model *m, struct pulse_aux_model_stats *st);

#endif
