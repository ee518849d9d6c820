// SPDX-License-Identifier: GPL-2.0
/*
 * Time ordering of records, perf's ordered_events semantics (see
 * include/pulse/ordering.h). Queued records are copied (the reader's bytes
 * live only during its callback) into large slabs, so there is no malloc
 * per record; slabs are recycled once everything in them has been
 * delivered, which bounds memory by what two rounds hold. A record that
 * outlives the queue (read in place from a mapped file) is queued by
 * reference: copying the 205 MB of bench/mkdata.sh's recording was 5% of
 * a flame graph's walk.
 *
 * The pending array is a sorted prefix (what earlier flushes left) and the
 * records queued since, in arrival order. A round of a recording is a few
 * runs already in time order (one per CPU ring read), so a flush sorts the
 * new records with a natural merge sort, O(n log runs) rather than qsort's
 * O(n log n) with a comparison call each, and merges them into the prefix
 * from the back. Every merge is stable, so equal timestamps keep their
 * arrival order without a sequence number. Delivered records are dropped
 * by moving a head index, not by shifting the array.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/ordering.h>
#include "core/internal.h"

#define SLAB_SIZE (1024 * 1024)

struct queued {
	uint64_t ts;		/* sort key */
	uint64_t file_offset;	/* where the record was read */
	const char *from;	/* and in which file (a directory input), or NULL */
	struct slab *slab;	/* holds the copy; NULL: queued by reference */
	void *pin;		/* the reader's hold on the record, or NULL */
	const struct perf_event_header *rec;	/* the copy, or the record */
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
	struct queued *q;	/* pending records: q[head, head + nr) */
	struct queued *tmp;	/* merge scratch, tmp_alloc entries */
	size_t head;		/* first pending */
	size_t nr;		/* pending */
	size_t alloc;		/* entries allocated in q */
	size_t tmp_alloc;	/* entries allocated in tmp */
	size_t nr_sorted;	/* sorted prefix of the pending */
	uint64_t max_ts;	/* newest queued since the queue was last empty */
	uint64_t next_flush;	/* a round delivers up to here */
	uint64_t last_flush;	/* time of the last record delivered */
	uint64_t nr_unordered;	/* queued older than last_flush */
	struct slab *cur;	/* slab being filled */
	struct slab *free;	/* empty slabs */
	const char *from;	/* the file of the record being delivered */
	pulse_ordered_unpin_fn unpin;	/* lets go of a pinned record */
	void *unpin_arg;
};

int pulse_ordered__new(struct pulse_ordered **out, pulse_ordered_fn fn, void *arg)
{
	struct pulse_ordered *q = calloc(1, sizeof(*q));

	*out = q;
	if (!q)
		return -ENOMEM;
	q->fn = fn;
	q->arg = arg;
	return 0;
}

static void slab__release(struct pulse_ordered *q, struct slab *s)
{
	if (!s)		/* queued by reference */
		return;
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

void pulse_ordered__set_unpin(struct pulse_ordered *q, pulse_ordered_unpin_fn fn, void *arg)
{
	q->unpin = fn;
	q->unpin_arg = arg;
}

void pulse_ordered__delete(struct pulse_ordered *q)
{
	struct slab *s, *next;

	if (!q)
		return;
	for (size_t i = q->head; i < q->head + q->nr; i++) {
		if (q->q[i].pin)
			q->unpin(q->unpin_arg, q->q[i].pin);
		if (q->q[i].slab != q->cur)
			slab__release(q, q->q[i].slab);
	}
	free(q->cur);
	for (s = q->free; s; s = next) {
		next = s->next;
		free(s);
	}
	free(q->q);
	free(q->tmp);
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
	return pulse_ordered__queue_from(q, rec, timestamp, file_offset, NULL);
}

/* @copy: into a slab; else @rec itself outlives the queue, or @pin holds it */
static int ordered__queue(struct pulse_ordered *q, const struct perf_event_header *rec,
			  uint64_t timestamp, uint64_t file_offset, const char *from, bool copy_it,
			  void *pin)
{
	struct slab *slab = NULL;
	const void *copy = rec;
	struct queued *e;

	if (!timestamp || timestamp == ~0ULL)
		return -ETIME;
	if (timestamp < q->last_flush)
		q->nr_unordered++;
	if (q->head + q->nr == q->alloc) {
		if (q->head && q->head >= q->alloc / 2) {
			/* at least half is free: slide down rather than grow */
			memmove(q->q, q->q + q->head, q->nr * sizeof(*q->q));
			q->head = 0;
		} else {
			size_t n = q->alloc ? q->alloc * 2 : 4096;
			struct queued *nq = realloc(q->q, n * sizeof(*nq));

			if (!nq)
				return -ENOMEM;
			q->q = nq;
			q->alloc = n;
		}
	}
	if (copy_it) {
		void *p = ordered__alloc(q, rec->size, &slab);

		if (!p)
			return -ENOMEM;
		memcpy(p, rec, rec->size);
		copy = p;
	}
	e = &q->q[q->head + q->nr];
	e->ts = timestamp;
	e->file_offset = file_offset;
	e->from = from;
	e->slab = slab;
	e->pin = pin;
	e->rec = copy;
	/* an in-order arrival keeps the sorted prefix growing */
	if (q->nr_sorted == q->nr &&
	    (!q->nr || e[-1].ts <= timestamp))
		q->nr_sorted++;
	/*
	 * perf's max_timestamp follows the newest pending record and starts
	 * again from the first record queued once a flush has emptied the
	 * queue, even when that record is older than what was delivered.
	 */
	if (!q->nr || timestamp > q->max_ts)
		q->max_ts = timestamp;
	q->nr++;
	return 0;
}

int pulse_ordered__queue_from(struct pulse_ordered *q, const struct perf_event_header *rec,
			      uint64_t timestamp, uint64_t file_offset, const char *from)
{
	return ordered__queue(q, rec, timestamp, file_offset, from, true, NULL);
}

int pulse_ordered__queue_ref(struct pulse_ordered *q, const struct perf_event_header *rec,
			     uint64_t timestamp, uint64_t file_offset, const char *from)
{
	return ordered__queue(q, rec, timestamp, file_offset, from, false, NULL);
}

int pulse_ordered__queue_pinned(struct pulse_ordered *q, const struct perf_event_header *rec,
				uint64_t timestamp, uint64_t file_offset, const char *from, void *pin)
{
	if (!q->unpin)
		return -EINVAL;
	return ordered__queue(q, rec, timestamp, file_offset, from, false, pin);
}

/* End of the ascending run starting at @i (equal timestamps continue it). */
static size_t run_end(const struct queued *a, size_t i, size_t n)
{
	for (i++; i < n && a[i - 1].ts <= a[i].ts; i++)
		;
	return i;
}

/* Stable merge of a[0, na) and b[0, nb) into out. */
static void merge(const struct queued *a, size_t na, const struct queued *b, size_t nb,
		  struct queued *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = b[j].ts < a[i].ts ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	out += na - i;
	memcpy(out, b + j, (nb - j) * sizeof(*b));
}

/*
 * Natural merge sort of a[0, n) with scratch of n entries: passes merge
 * neighbouring runs until one is left. Return: where the sorted entries
 * ended up, @a or @tmp.
 */
static struct queued *natural_sort(struct queued *a, struct queued *tmp, size_t n)
{
	for (;;) {
		size_t i = 0, j, k;
		struct queued *swap;

		if (run_end(a, 0, n) == n)
			return a;
		while (i < n) {
			j = run_end(a, i, n);
			if (j == n) {
				memcpy(tmp + i, a + i, (n - i) * sizeof(*a));
				break;
			}
			k = run_end(a, j, n);
			merge(a + i, j - i, a + j, k - j, tmp + i);
			i = k;
		}
		swap = a;
		a = tmp;
		tmp = swap;
	}
}

/*
 * Merge the sorted b[0, nb) after a[0, na) into a[0, na + nb), from the
 * back: the write position never passes the next unread entry of @a. On
 * equal timestamps @b's (queued later) goes last.
 */
static void merge_back(struct queued *a, size_t na, const struct queued *b, size_t nb)
{
	size_t w = na + nb;

	while (nb) {
		if (na && a[na - 1].ts > b[nb - 1].ts)
			a[--w] = a[--na];
		else
			a[--w] = b[--nb];
	}
}

/* Sort the pending records: the sorted prefix stays, the rest joins it. */
static int ordered__sort(struct pulse_ordered *q)
{
	struct queued *base, *sorted;
	size_t p = q->nr_sorted, m = q->nr - p;

	/* an empty queue may have no array yet: NULL + 0 is undefined (UBSan) */
	if (!m)
		return 0;
	base = q->q + q->head;
	if (q->tmp_alloc < m) {
		size_t n = q->alloc > m ? q->alloc : m;
		struct queued *t = realloc(q->tmp, n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		q->tmp = t;
		q->tmp_alloc = n;
	}
	sorted = natural_sort(base + p, q->tmp, m);
	if (!p || base[p - 1].ts <= sorted[0].ts) {
		if (sorted != base + p)
			memcpy(base + p, sorted, m * sizeof(*sorted));
	} else {
		if (sorted != q->tmp)
			memcpy(q->tmp, sorted, m * sizeof(*sorted));
		merge_back(base, p, q->tmp, m);
	}
	q->nr_sorted = q->nr;
	return 0;
}

static int ordered__flush_upto(struct pulse_ordered *q, uint64_t limit)
{
	struct queued *e;
	size_t i;
	int ret;

	ret = ordered__sort(q);
	if (ret || !q->nr)	/* nothing queued: maybe no array (NULL + 0, UBSan) */
		return ret;
	e = q->q + q->head;
	for (i = 0; i < q->nr && e[i].ts <= limit; i++) {
		q->from = e[i].from;
		ret = q->fn(e[i].rec, e[i].file_offset, q->arg);
		q->from = NULL;
		slab__release(q, e[i].slab);
		if (e[i].pin)
			q->unpin(q->unpin_arg, e[i].pin);
		if (ret) {
			i++;
			break;
		}
	}
	if (i)
		q->last_flush = e[i - 1].ts;
	q->head += i;
	q->nr -= i;
	q->nr_sorted -= i;
	if (!q->nr)
		q->head = 0;
	return ret;
}

int pulse_ordered__flush_round(struct pulse_ordered *q)
{
	int ret;

	/* perf leaves its next limit alone on a round that finds nothing */
	if (!q->nr)
		return 0;
	ret = ordered__flush_upto(q, q->next_flush);
	if (!ret)
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

uint64_t pulse_ordered__nr_unordered(const struct pulse_ordered *q)
{
	return q->nr_unordered;
}

const char *pulse_ordered__from(const struct pulse_ordered *q)
{
	return q->from;
}
