// SPDX-License-Identifier: GPL-2.0
/*
 * Samples merged by stack and labels, in a second thread: the walk writes
 * each sample as a record (its labels, value and location ids) into a
 * pipe (pprof-pipe.c) and goes on with the next one, while the thread
 * looks the records up in the table of merged samples. That table is
 * larger than the caches and each lookup is a miss or three (the slot,
 * the sample, its stack): the thread asks for the slots of the records a
 * few places ahead before it needs them, and a slot carries what to fetch
 * next, so the misses overlap instead of queueing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "convert/pprof-int.h"

#define PP_MERGE_CHUNK (1 << 18)
#define PP_MERGE_AHEAD 8	/* records whose slots are asked for ahead */

/* A sample as the walk hands it over: then its location ids, padded to 8 bytes. */
struct pp_rec {
	uint64_t hash;
	int32_t pid, tid;
	uint32_t comm, column;
	uint32_t nr_locs, pad;
	int64_t value;
};

static size_t rec_size(uint32_t nr_locs)
{
	return sizeof(struct pp_rec) + ((nr_locs * sizeof(uint32_t) + 7) & ~(size_t)7);
}

static uint64_t rec_hash(const struct pp_rec *r, const uint32_t *locs)
{
	uint64_t h = pp_mix(((uint64_t)(uint32_t)r->pid << 32) | (uint32_t)r->tid,
			    ((uint64_t)r->comm << 32) | r->column);

	for (size_t i = 0; i < r->nr_locs; i++)
		h = pp_mix(h, locs[i]);
	return h;
}

static size_t slot_of(const struct pp_sindex *x, uint64_t hash)
{
	return (hash >> 17) & (x->size - 1);
}

static int sindex__grow(struct pp_sindex *x)
{
	/* a first size of 64 K slots (1 MB): fewer growths for the large files */
	size_t size = x->size ? x->size * 2 : 1 << 16;
	struct pp_sslot *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < x->size; i++) {
		size_t j;

		if (!x->slots[i].idx)
			continue;
		j = (x->slots[i].hash >> 17) & (size - 1);
		while (slots[j].idx)
			j = (j + 1) & (size - 1);
		slots[j] = x->slots[i];
	}
	free(x->slots);
	x->slots = slots;
	x->size = size;
	return 0;
}

static bool rec_equal(const struct pprof *p, const struct pp_sample *e, const struct pp_rec *r,
		      const uint32_t *locs)
{
	return e->nr_locs == r->nr_locs && e->pid == r->pid && e->tid == r->tid &&
	       e->comm == r->comm && e->column == r->column &&
	       !memcmp(p->stack + e->locs, locs, r->nr_locs * sizeof(*locs));
}

static int merge_one(struct pprof *p, const struct pp_rec *r)
{
	const uint32_t *locs = (const uint32_t *)(r + 1);
	struct pp_sindex *x = &p->sample_index;
	struct pp_sample *e;
	size_t i;

	for (i = slot_of(x, r->hash); x->slots[i].idx; i = (i + 1) & (x->size - 1)) {
		e = &p->samples[x->slots[i].idx - 1];
		if (x->slots[i].hash == r->hash && rec_equal(p, e, r, locs)) {
			e->count++;
			e->value += r->value;
			return 0;
		}
	}
	if (pp_grow((void **)&p->samples, &p->alloc_samples, p->nr_samples + 1,
		    sizeof(*p->samples)) ||
	    pp_grow((void **)&p->stack, &p->alloc_stack, p->nr_stack + r->nr_locs,
		    sizeof(*p->stack)))
		return -ENOMEM;
	e = &p->samples[p->nr_samples++];
	*e = (struct pp_sample){ .hash = r->hash, .locs = p->nr_stack, .nr_locs = r->nr_locs,
				 .pid = r->pid, .tid = r->tid, .comm = r->comm,
				 .column = r->column, .count = 1, .value = r->value };
	memcpy(p->stack + p->nr_stack, locs, r->nr_locs * sizeof(*locs));
	p->nr_stack += r->nr_locs;
	x->slots[i] = (struct pp_sslot){ r->hash, p->nr_samples, e->locs };
	/* at most half full: probes stay short */
	if (++x->nr * 2 > x->size)
		return sindex__grow(x);
	return 0;
}

/* Ask for what a record's lookup will read: @stage 0 its slot, 1 the slot's sample. */
static void merge_prefetch(const struct pprof *p, const struct pp_rec *r, int stage)
{
	const struct pp_sindex *x = &p->sample_index;
	const struct pp_sslot *s = &x->slots[slot_of(x, r->hash)];

	if (!stage) {
		__builtin_prefetch(s);
	} else if (s->idx && s->hash == r->hash) {
		__builtin_prefetch(&p->samples[s->idx - 1]);
		__builtin_prefetch(p->stack + s->locs);
	}
}

/*
 * A record's hash (the walk leaves it to this thread), then its slot asked
 * for. The chunk is this thread's until it returns: writing to it is safe.
 * Return: the next record.
 */
static const uint8_t *merge_hash(const struct pprof *p, uint8_t *rec)
{
	struct pp_rec *r = (struct pp_rec *)rec;

	r->hash = rec_hash(r, (const uint32_t *)(r + 1));
	merge_prefetch(p, r, 0);
	return rec + rec_size(r->nr_locs);
}

/* The pipe's consumer: a chunk of records. */
static int merge_chunk(void *arg, const uint8_t *data, size_t len, bool last)
{
	struct pprof *p = arg;
	const uint8_t *end = data + len, *r, *a1 = data, *a2 = data;
	int err;

	/* a2 runs 2 * AHEAD records ahead (slots), a1 AHEAD ahead (samples) */
	for (int i = 0; i < 2 * PP_MERGE_AHEAD && a2 < end; i++)
		a2 = merge_hash(p, (uint8_t *)a2);
	for (int i = 0; i < PP_MERGE_AHEAD && a1 < end; i++) {
		merge_prefetch(p, (const struct pp_rec *)a1, 1);
		a1 += rec_size(((const struct pp_rec *)a1)->nr_locs);
	}
	for (r = data; r < end; r += rec_size(((const struct pp_rec *)r)->nr_locs)) {
		if (a2 < end)
			a2 = merge_hash(p, (uint8_t *)a2);
		if (a1 < end) {
			merge_prefetch(p, (const struct pp_rec *)a1, 1);
			a1 += rec_size(((const struct pp_rec *)a1)->nr_locs);
		}
		err = merge_one(p, (const struct pp_rec *)r);
		if (err)
			return err;
	}
	return 0;
}

int pp_merge__new(struct pprof *p)
{
	int err = sindex__grow(&p->sample_index);

	return err ? err : pp_pipe__new(&p->merge, PP_MERGE_CHUNK, merge_chunk, p);
}

uint32_t *pp_merge__begin(struct pprof *p, size_t max_locs, int *err)
{
	struct pp_rec *r = pp_pipe__reserve(p->merge, rec_size(max_locs), err);

	return r ? (uint32_t *)(r + 1) : NULL;
}

void pp_merge__end(struct pprof *p, const struct pp_sample *k, uint32_t *locs)
{
	struct pp_rec *r = (struct pp_rec *)locs - 1;

	/* the hash is the merging thread's work (merge_chunk) */
	*r = (struct pp_rec){ .pid = k->pid, .tid = k->tid, .comm = k->comm, .column = k->column,
			      .nr_locs = k->nr_locs, .value = k->value };
	pp_pipe__commit(p->merge, rec_size(k->nr_locs));
}

int pp_merge__finish(struct pprof *p)
{
	return pp_pipe__finish(p->merge);
}

void pp_merge__exit(struct pprof *p)
{
	pp_pipe__delete(p->merge);
	p->merge = NULL;
	free(p->sample_index.slots);
	p->sample_index.slots = NULL;
}
