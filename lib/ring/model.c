// SPDX-License-Identifier: GPL-2.0
/*
 * A user-space model of the kernel's perf ring buffer producer, written from
 * the rules in kernel/events/ring_buffer.c (perf_output_begin,
 * perf_output_put_handle) and include/uapi/linux/perf_event.h, to test the
 * consumer against.
 *
 * A writer increments rb->nest, reserves [head, head + size) by a cmpxchg
 * loop on the private rb->head after checking the space against data_tail,
 * writes its bytes, and on output_end only the outermost writer (nest == 1)
 * publishes rb->head to data_head, after the record bytes (release). A
 * nested writer (IRQ/NMI) reserves after, and completes before, the writer
 * it interrupted; its bytes become visible when the outer one publishes.
 * If rb->head moved between the outer writer reading it and dropping nest
 * to 0, it publishes again, so data_head never lags a completed record.
 *
 * A record that does not fit is dropped and counted in rb->lost; the next
 * reservation that fits is grown by a PERF_RECORD_LOST record which carries
 * the count, written ahead of the caller's bytes.
 *
 * Backward (write_backward on an overwrite buffer): rb->head moves down by
 * the record size, the record is written upwards from the new head, data_tail
 * is never read, and nothing is dropped.
 *
 * rb->head, rb->nest and rb->lost are only touched by the producer thread
 * (they are per-CPU in the kernel); their ordering against a simulated
 * interrupt is a compiler matter, hence signal fences, the user-space
 * barrier() against a handler on the same thread.
 */
#include <errno.h>
#include <stdlib.h>

#include <pulse/ring-model.h>
#include "core/internal.h"

struct pulse_ring_model {
	unsigned char *base;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	__u64 size;
	__u64 mask;
	bool backward;
	__u64 id;
	__u64 head;		/* rb->head */
	unsigned int nest;	/* rb->nest */
	__u64 lost;		/* rb->lost: drops not yet reported */
	struct pulse_ring_model_stats stats;
	pulse_ring_irq_fn irq;
	void *irq_arg;
	bool in_irq;
};

#define barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

int pulse_ring_model__new(struct pulse_ring_model **out, size_t data_size, bool backward)
{
	struct pulse_ring_model *m;

	*out = NULL;
	if (data_size < 8 || (data_size & (data_size - 1)))
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->base = aligned_alloc(PULSE_RING_MODEL_PAGE, PULSE_RING_MODEL_PAGE + data_size);
	if (!m->base) {
		free(m);
		return -ENOMEM;
	}
	/* Fresh kernel buffer pages are zeroed; backward readers rely on it. */
	memset(m->base, 0, PULSE_RING_MODEL_PAGE + data_size);
	m->pc = (struct perf_event_mmap_page *)m->base;
	m->data = m->base + PULSE_RING_MODEL_PAGE;
	m->size = data_size;
	m->mask = data_size - 1;
	m->backward = backward;
	m->pc->data_offset = PULSE_RING_MODEL_PAGE;
	m->pc->data_size = data_size;
	*out = m;
	return 0;
}

void pulse_ring_model__delete(struct pulse_ring_model *m)
{
	if (!m)
		return;
	free(m->base);
	free(m);
}

void *pulse_ring_model__base(struct pulse_ring_model *m)
{
	return m->base;
}

void pulse_ring_model__set_id(struct pulse_ring_model *m, __u64 id)
{
	m->id = id;
}

void pulse_ring_model__set_irq(struct pulse_ring_model *m, pulse_ring_irq_fn fn, void *arg)
{
	m->irq = fn;
	m->irq_arg = arg;
}

__u64 pulse_ring_model__lost(const struct pulse_ring_model *m)
{
	return m->stats.lost;
}

__u64 pulse_ring_model__head(const struct pulse_ring_model *m)
{
	return __atomic_load_n(&m->head, __ATOMIC_RELAXED);
}

void pulse_ring_model__stats(const struct pulse_ring_model *m, struct pulse_ring_model_stats *st)
{
	*st = m->stats;
}

/* An interrupt arriving here runs a whole nested writer. */
static void model_irq(struct pulse_ring_model *m, enum pulse_ring_irq_point at)
{
	if (!m->irq || m->in_irq)
		return;
	m->in_irq = true;
	barrier();
	m->irq(m, at, m->irq_arg);
	barrier();
	m->in_irq = false;
}

static void get_handle(struct pulse_ring_model *m)
{
	__atomic_store_n(&m->nest, __atomic_load_n(&m->nest, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	barrier();
}

static void put_handle(struct pulse_ring_model *m)
{
	unsigned int nest = __atomic_load_n(&m->nest, __ATOMIC_RELAXED);
	__u64 head;

	/* A nested writer leaves publishing to the one it interrupted. */
	if (nest > 1) {
		__atomic_store_n(&m->nest, nest - 1, __ATOMIC_RELAXED);
		return;
	}
	for (;;) {
		/* Read head only after nest is up, or an IRQ's head is missed. */
		barrier();
		head = __atomic_load_n(&m->head, __ATOMIC_RELAXED);
		model_irq(m, PULSE_RING_IRQ_PUBLISH);	/* may advance head */
		/* (B): the record bytes before data_head; pairs with the acquire load. */
		__atomic_store_n(&m->pc->data_head, head, __ATOMIC_RELEASE);
		m->stats.publishes++;
		/*
		 * Publish before dropping nest, else a later IRQ publishes a
		 * newer head that our store then takes back.
		 */
		barrier();
		__atomic_store_n(&m->nest, 0, __ATOMIC_RELAXED);
		/* Drop nest before re-reading head, to catch the last nested writer. */
		barrier();
		if (head == __atomic_load_n(&m->head, __ATOMIC_RELAXED))
			break;
		__atomic_store_n(&m->nest, 1, __ATOMIC_RELAXED);
		m->stats.publish_retries++;
	}
}

/* CIRC_SPACE: the kernel always leaves a byte, so head never reaches tail + size. */
static bool has_space(__u64 head, __u64 tail, __u64 size, __u64 need)
{
	return ((tail - (head + 1)) & (size - 1)) >= need;
}

size_t pulse_ring_model__output_copy(struct pulse_ring_handle *h, const void *buf, size_t len)
{
	struct pulse_ring_model *m = h->m;
	size_t n = len < h->size ? len : h->size;
	size_t off = h->pos & m->mask;
	size_t first = m->size - off;

	if (n <= first) {
		memcpy(m->data + off, buf, n);
	} else {
		memcpy(m->data + off, buf, first);
		memcpy(m->data, (const unsigned char *)buf + first, n - first);
	}
	h->pos += n;
	h->size -= n;
	return len - n;
}

int pulse_ring_model__output_begin(struct pulse_ring_model *m, struct pulse_ring_handle *h,
				   size_t size)
{
	struct {
		struct perf_event_header header;
		__u64 id;
		__u64 lost;
	} lost_event;
	__u64 have_lost, offset, head, tail;

	if (!size || size > 0xffff || (m->backward && size > m->size))
		return -EINVAL;

	have_lost = __atomic_load_n(&m->lost, __ATOMIC_RELAXED);
	if (have_lost)
		size += sizeof(lost_event);

	get_handle(m);

	offset = __atomic_load_n(&m->head, __ATOMIC_RELAXED);
	for (;;) {
		head = offset;
		if (!m->backward) {
			/*
			 * (A): the kernel's control dependency orders this load
			 * before the data stores below; acquire says as much to
			 * the compiler and to TSan. Pairs with the reader's
			 * release of data_tail.
			 */
			tail = __atomic_load_n(&m->pc->data_tail, __ATOMIC_ACQUIRE);
			if (!has_space(head, tail, m->size, size))
				goto fail;
		}
		model_irq(m, PULSE_RING_IRQ_RESERVE);	/* may move head under us */
		head = m->backward ? head - size : head + size;
		if (__atomic_compare_exchange_n(&m->head, &offset, head, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
		m->stats.reserve_retries++;
	}
	barrier();	/* no data store may be hoisted above the reservation */

	h->m = m;
	h->pos = m->backward ? head : offset;
	h->size = size;
	m->stats.records++;

	if (have_lost) {
		lost_event.header.type = PERF_RECORD_LOST;
		lost_event.header.misc = 0;
		lost_event.header.size = sizeof(lost_event);
		lost_event.id = m->id;
		/* Drops since have_lost was read (by a nested writer) are taken too. */
		lost_event.lost = __atomic_exchange_n(&m->lost, 0, __ATOMIC_RELAXED);
		pulse_ring_model__output_copy(h, &lost_event, sizeof(lost_event));
		m->stats.lost_records++;
	}
	return 0;

fail:
	__atomic_store_n(&m->lost, __atomic_load_n(&m->lost, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	m->stats.lost++;
	put_handle(m);
	return -ENOSPC;
}

void pulse_ring_model__output_end(struct pulse_ring_handle *h)
{
	put_handle(h->m);
}
