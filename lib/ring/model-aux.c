// SPDX-License-Identifier: GPL-2.0
/*
 * A model of a PMU writing an AUX area, after kernel/events/ring_buffer.c
 * (v6.1): perf_aux_output_begin() takes rb->aux_head into handle->head
 * and, on a writable mapping, reads aux_tail from the user page and allows
 * CIRC_SPACE(aux_head, aux_tail, size) bytes, failing (and disabling the
 * event) when that is 0; the driver writes and sets flags with
 * perf_aux_output_flag(); perf_aux_output_end() moves rb->aux_head (adds
 * the size, or takes handle->head on an overwrite mapping), writes a
 * PERF_RECORD_AUX { aux_offset, aux_size, flags } when there is a size or a
 * flag other than OVERWRITE, stores aux_head in the user page, and
 * disables the event if the piece was TRUNCATED.
 *
 * One thread plays the PMU; the consumer may run on another.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include <pulse/ring-model.h>
#include "core/internal.h"

struct pulse_aux_model {
	struct pulse_ring_model *rm;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	__u64 size, mask;
	bool overwrite;
	bool masked;		/* overwrite: aux_head kept inside the area (PT, BTS) */
	bool stopped;		/* TRUNCATED: pending_disable happened */
	bool paused;		/* rb->paused */
	int busy;		/* a write is under way (the pause waits for it) */
	__u64 head;		/* rb->aux_head */
	unsigned char id[64];
	size_t id_len;
	struct pulse_aux_model_stats stats;
};

int pulse_aux_model__new(struct pulse_aux_model **out, struct pulse_ring_model *rm, size_t aux_size,
			 bool overwrite)
{
	struct pulse_aux_model *m;

	*out = NULL;
	if (!rm || aux_size < 8 || (aux_size & (aux_size - 1)))
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->data = aligned_alloc(PULSE_RING_MODEL_PAGE,
				(aux_size + PULSE_RING_MODEL_PAGE - 1) & ~(size_t)(PULSE_RING_MODEL_PAGE - 1));
	if (!m->data) {
		free(m);
		return -ENOMEM;
	}
	memset(m->data, 0, aux_size);
	m->rm = rm;
	m->pc = pulse_ring_model__base(rm);
	m->size = aux_size;
	m->mask = aux_size - 1;
	m->overwrite = overwrite;
	m->pc->aux_offset = PULSE_RING_MODEL_PAGE + m->pc->data_size;
	m->pc->aux_size = aux_size;
	*out = m;
	return 0;
}

void pulse_aux_model__delete(struct pulse_aux_model *m)
{
	if (!m)
		return;
	free(m->data);
	free(m);
}

void *pulse_aux_model__data(struct pulse_aux_model *m)
{
	return m->data;
}

int pulse_aux_model__set_sample_id(struct pulse_aux_model *m, const void *id, size_t len)
{
	if (len > sizeof(m->id) || len % 8)
		return -EINVAL;
	memcpy(m->id, id, len);
	m->id_len = len;
	return 0;
}

/*
 * The ioctl returns once the PMU is stopped: a write under way on the PMU's
 * thread ends before the pause does, and none starts after it.
 */
void pulse_aux_model__pause(struct pulse_aux_model *m, bool paused)
{
	__atomic_store_n(&m->paused, paused, __ATOMIC_SEQ_CST);
	while (paused && __atomic_load_n(&m->busy, __ATOMIC_SEQ_CST))
		sched_yield();
}

void pulse_aux_model__set_masked_head(struct pulse_aux_model *m)
{
	m->masked = true;
}

void pulse_aux_model__enable(struct pulse_aux_model *m)
{
	m->stopped = false;
}

bool pulse_aux_model__stopped(const struct pulse_aux_model *m)
{
	return m->stopped;
}

__u64 pulse_aux_model__head(const struct pulse_aux_model *m)
{
	return m->head;
}

void pulse_aux_model__stats(const struct pulse_aux_model *m, struct pulse_aux_model_stats *st)
{
	*st = m->stats;
}

/* perf_event_aux_event(): PERF_RECORD_AUX into the normal ring */
static void aux_event(struct pulse_aux_model *m, __u64 offset, __u64 size, __u64 flags)
{
	struct pulse_ring_handle h;
	struct {
		struct perf_event_header header;
		__u64 offset, size, flags;
	} rec = {
		.header = { PERF_RECORD_AUX, 0, (__u16)(sizeof(rec) + m->id_len) },
		.offset = offset, .size = size, .flags = flags,
	};

	if (pulse_ring_model__output_begin(m->rm, &h, rec.header.size)) {
		m->stats.aux_lost++;
		return;
	}
	pulse_ring_model__output_copy(&h, &rec, sizeof(rec));
	pulse_ring_model__output_copy(&h, m->id, m->id_len);
	pulse_ring_model__output_end(&h);
	m->stats.records++;
	m->stats.truncated += !!(flags & PERF_AUX_FLAG_TRUNCATED);
	m->stats.partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
	m->stats.collision += !!(flags & PERF_AUX_FLAG_COLLISION);
}

/* The driver's copy into the area at free-running @pos. */
static void area_copy(struct pulse_aux_model *m, __u64 pos, const unsigned char *buf, size_t len)
{
	size_t off = pos & m->mask, first = m->size - off;

	if (len <= first) {
		memcpy(m->data + off, buf, len);
		return;
	}
	memcpy(m->data + off, buf, first);
	memcpy(m->data, buf + first, len - first);
}

static size_t do_write(struct pulse_aux_model *m, const void *buf, size_t len, __u64 flags)
{
	const unsigned char *p = buf;
	__u64 space, n, aux_head;

	if (!len && !flags)
		return 0;
	/* perf_aux_output_begin(): paused or disabled, nothing is written */
	if (__atomic_load_n(&m->paused, __ATOMIC_SEQ_CST) || m->stopped) {
		m->stats.dropped += len;
		return 0;
	}
	if (m->overwrite) {
		/* the newest size bytes survive */
		n = len;
		if (len > m->size) {
			p += len - m->size;
			m->head += len - m->size;
			len = m->size;
		}
		area_copy(m, m->head, p, len);
		m->head += len;
		m->stats.written += n;	/* the head moved by all of it */
		/*
		 * perf_aux_output_end(): rb->aux_head = handle->head, which
		 * the PT and BTS drivers keep inside the area in this mode
		 */
		aux_event(m, m->masked ? m->head & m->mask : m->head, n,
			  flags | PERF_AUX_FLAG_OVERWRITE);
		__atomic_store_n(&m->pc->aux_head, m->masked ? m->head & m->mask : m->head,
				 __ATOMIC_RELEASE);
		return n;
	}
	/* read aux_tail before writing (pairs with the consumer's release) */
	{
		__u64 tail = __atomic_load_n(&m->pc->aux_tail, __ATOMIC_ACQUIRE);

		space = m->head - tail < m->size ? ((tail - (m->head + 1)) & m->mask) : 0;
	}
	if (!space) {
		/* begin fails: pending_disable, no record */
		m->stopped = true;
		m->stats.dropped += len;
		return 0;
	}
	n = len < space ? len : space;
	if (n < len) {
		flags |= PERF_AUX_FLAG_TRUNCATED;
		m->stats.dropped += len - n;
	}
	area_copy(m, m->head, p, n);
	aux_head = m->head;
	m->head += n;
	m->stats.written += n;
	aux_event(m, aux_head, n, flags & ~(__u64)PERF_AUX_FLAG_OVERWRITE);
	__atomic_store_n(&m->pc->aux_head, m->head, __ATOMIC_RELEASE);
	if (flags & PERF_AUX_FLAG_TRUNCATED)
		m->stopped = true;
	return n;
}

size_t pulse_aux_model__write(struct pulse_aux_model *m, const void *buf, size_t len, __u64 flags)
{
	size_t n;

	__atomic_store_n(&m->busy, 1, __ATOMIC_SEQ_CST);
	n = do_write(m, buf, len, flags);
	__atomic_store_n(&m->busy, 0, __ATOMIC_SEQ_CST);
	return n;
}
