// SPDX-License-Identifier: GPL-2.0
/*
 * Time ordering of records, perf's ordered_events semantics (see
 * include/pulse/ordering.h). Queued records are copied (the reader's bytes
 * live only during its callback) into large slabs; a flush sorts what is
 * pending by (timestamp, arrival) and hands out the prefix up to the limit.
 * Slabs are recycled once everything in them has been delivered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/ordering.h>
#include "core/internal.h"

#define SLAB_SIZE (1024 * 1024)

struct queued {
	uint64_t ts;		/* sort key */
	uint64_t seq;		/* arrival order, for equal timestamps */
	uint64_t file_offset;	/* where the record was read */
	struct slab *slab;	/* holds the copy */
	const struct perf_event_header *rec;	/* the copy */
};

struct slab {
	struct slab *next;	/* free list or the list of slabs */
	size_t used;		/* bytes handed out */
	size_t live;		/* records not yet delivered */
	size_t size;		/* bytes in data */
	char data[];		/* record copies, 8-aligned */
};

struct pulse_ordered {
	pulse_ordered_fn fn;	/* delivery */
	void *arg;		/* for fn */
	struct queued *q;	/* pending records; [0, nr_sorted) sorted */
	size_t nr;		/* pending */
	size_t alloc;		/* allocated */
	size_t nr_sorted;	/* sorted prefix */
	uint64_t seq;		/* next arrival number */
	uint64_t max_ts;	/* newest timestamp queued */
	uint64_t next_flush;	/* a round delivers up to here */
	struct slab *cur;	/* slab being filled */
	struct slab *free;	/* empty slabs */
};

struct pulse_ordered *pulse_ordered__new(pulse_ordered_fn fn, void *arg)
{
	struct pulse_ordered *q = calloc(1, sizeof(*q));

	if (q) {
		q->fn = fn;
		q->arg = arg;
	}
	return q;
}

static void slab__release(struct pulse_ordered *q, struct slab *s)
{
	if (--s->live || s == q->cur)
		return;
	s->used = 0;
	if (s->size == SLAB_SIZE) {
		s->next = q->free;
		q->free = s;
	} else {
		free(s);
	}
}

void pulse_ordered__delete(struct pulse_ordered *q)
{
	struct slab *s, *next;

	if (!q)
		return;
	for (size_t i = 0; i < q->nr; i++)
		if (q->q[i].slab != q->cur)
			slab__release(q, q->q[i].slab);
	free(q->cur);
	for (s = q->free; s; s = next) {
		next = s->next;
		free(s);
	}
	free(q->q);
	free(q);
}

static void *ordered__alloc(struct pulse_ordered *q, size_t len, struct slab **slab)
{
	struct slab *s = q->cur;
	void *p;

	len = PULSE_ALIGN(len, 8);
	if (!s || s->used + len > s->size) {
		if (s && !s->live)
			s->used = 0;
		else if (s) {
			/* the slab now only waits for its records to go */
			q->cur = NULL;
			s = NULL;
		}
		if (!s) {
			if (len <= SLAB_SIZE && q->free) {
				s = q->free;
				q->free = s->next;
			} else {
				size_t sz = len > SLAB_SIZE ? len : SLAB_SIZE;

				s = malloc(sizeof(*s) + sz);
				if (!s)
					return NULL;
				s->size = sz;
			}
			s->used = 0;
			s->live = 0;
			q->cur = s;
		}
	}
	p = s->data + s->used;
	s->used += len;
	s->live++;
	*slab = s;
	return p;
}

int pulse_ordered__queue(struct pulse_ordered *q, const struct perf_event_header *rec,
			 uint64_t timestamp, uint64_t file_offset)
{
	struct queued *e;
	struct slab *slab;
	void *copy;

	if (!timestamp || timestamp == ~0ULL)
		return -ETIME;
	if (q->nr == q->alloc) {
		size_t n = q->alloc ? q->alloc * 2 : 4096;
		struct queued *nq = realloc(q->q, n * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		q->q = nq;
		q->alloc = n;
	}
	copy = ordered__alloc(q, rec->size, &slab);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	e = &q->q[q->nr];
	e->ts = timestamp;
	e->seq = q->seq++;
	e->file_offset = file_offset;
	e->slab = slab;
	e->rec = copy;
	/* an in-order arrival keeps the sorted prefix growing */
	if (q->nr_sorted == q->nr &&
	    (!q->nr || q->q[q->nr - 1].ts <= timestamp))
		q->nr_sorted++;
	q->nr++;
	if (timestamp > q->max_ts)
		q->max_ts = timestamp;
	return 0;
}

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int ordered__flush_upto(struct pulse_ordered *q, uint64_t limit)
{
	size_t i;
	int ret = 0;

	if (q->nr_sorted < q->nr)
		qsort(q->q, q->nr, sizeof(*q->q), cmp_queued);
	q->nr_sorted = q->nr;
	for (i = 0; i < q->nr && q->q[i].ts <= limit; i++) {
		ret = q->fn(q->q[i].rec, q->q[i].file_offset, q->arg);
		slab__release(q, q->q[i].slab);
		if (ret) {
			i++;
			break;
		}
	}
	if (i && q->nr > i)
		memmove(q->q, q->q + i, (q->nr - i) * sizeof(*q->q));
	q->nr -= i;
	q->nr_sorted -= i;
	return ret;
}

int pulse_ordered__flush_round(struct pulse_ordered *q)
{
	int ret = ordered__flush_upto(q, q->next_flush);

	q->next_flush = q->max_ts;
	return ret;
}

int pulse_ordered__flush(struct pulse_ordered *q)
{
	return ordered__flush_upto(q, ~0ULL);
}

uint64_t pulse_ordered__nr_queued(const struct pulse_ordered *q)
{
	return q->nr;
}
