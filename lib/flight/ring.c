// SPDX-License-Identifier: GPL-2.0
/*
 * The deep ring of a flight recording (-M SIZE): records copied out of the
 * kernel rings go into a staging chunk; a full chunk is compressed with
 * zstd and queued; when the queue and the staging chunk pass SIZE, the
 * oldest chunks are dropped whole. A chunk holds whole records only, so
 * what is dropped is whole records and what is kept replays as it came.
 *
 * Samples of a storm compress 5 to 15 times, so SIZE holds that many times
 * the history of the same memory as kernel buffers.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <pulse/flight.h>
#include <pulse/perf-abi.h>
#include "core/internal.h"

#define MIN_CHUNK (64 * 1024)
#define MAX_CHUNK (1024 * 1024)

struct fl_chunk {
	struct fl_chunk *next;
	size_t raw;			/* bytes once decompressed */
	size_t len;			/* compressed bytes */
	__u64 samples;
	__u64 first_time;
	unsigned char data[];
};

struct pulse_flight_ring {
	size_t memory;
	size_t chunk_size;
	int level;
	int time_off;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	unsigned char *stage;		/* [chunk_size] */
	size_t used;
	__u64 stage_samples;
	__u64 stage_first_time;
	struct fl_chunk *head, *tail;	/* oldest first */
	size_t held;			/* compressed bytes in the queue */
	__u64 held_raw;
	__u64 samples_held;
	__u64 raw_in;
	__u64 chunks_dropped, samples_dropped;
	unsigned char *scratch;		/* [chunk_size], for flush */
};

int pulse_flight_ring__new(struct pulse_flight_ring **out, size_t memory, int level, int time_off)
{
	struct pulse_flight_ring *r;
	size_t chunk = memory / 16;

	*out = NULL;
	if (memory < PULSE_FLIGHT_MIN_MEMORY)
		return -EINVAL;
	if (chunk < MIN_CHUNK)
		chunk = MIN_CHUNK;
	if (chunk > MAX_CHUNK)
		chunk = MAX_CHUNK;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->memory = memory;
	r->chunk_size = chunk;
	r->level = level ? level : 1;
	r->time_off = time_off;
	r->cctx = ZSTD_createCCtx();
	r->dctx = ZSTD_createDCtx();
	r->stage = malloc(chunk);
	if (!r->cctx || !r->dctx || !r->stage) {
		pulse_flight_ring__delete(r);
		return -ENOMEM;
	}
	*out = r;
	return 0;
}

static void drop_oldest(struct pulse_flight_ring *r)
{
	struct fl_chunk *c = r->head;

	r->head = c->next;
	if (!r->head)
		r->tail = NULL;
	r->held -= c->len;
	r->held_raw -= c->raw;
	r->samples_held -= c->samples;
	r->chunks_dropped++;
	r->samples_dropped += c->samples;
	free(c);
}

static void drop_all(struct pulse_flight_ring *r)
{
	while (r->head) {
		struct fl_chunk *c = r->head;

		r->head = c->next;
		free(c);
	}
	r->tail = NULL;
	r->held = 0;
	r->held_raw = 0;
	r->samples_held = 0;
	r->used = 0;
	r->stage_samples = 0;
	r->stage_first_time = 0;
}

void pulse_flight_ring__delete(struct pulse_flight_ring *r)
{
	if (!r)
		return;
	drop_all(r);
	ZSTD_freeCCtx(r->cctx);
	ZSTD_freeDCtx(r->dctx);
	free(r->stage);
	free(r->scratch);
	free(r);
}

/* Compress the staging chunk into the queue, then make room. */
static int seal(struct pulse_flight_ring *r)
{
	size_t bound = ZSTD_compressBound(r->used), len;
	struct fl_chunk *c, *small;

	if (!r->used)
		return 0;
	c = malloc(sizeof(*c) + bound);
	if (!c)
		return -ENOMEM;
	len = ZSTD_compressCCtx(r->cctx, c->data, bound, r->stage, r->used, r->level);
	if (ZSTD_isError(len)) {
		free(c);
		return -EIO;
	}
	small = realloc(c, sizeof(*c) + len);
	if (small)
		c = small;
	c->next = NULL;
	c->raw = r->used;
	c->len = len;
	c->samples = r->stage_samples;
	c->first_time = r->stage_first_time;
	if (r->tail)
		r->tail->next = c;
	else
		r->head = c;
	r->tail = c;
	r->held += len;
	r->held_raw += c->raw;
	r->samples_held += c->samples;
	r->used = 0;
	r->stage_samples = 0;
	r->stage_first_time = 0;
	/* the staging chunk counts as held too: it is always allocated */
	while (r->head && r->held + r->chunk_size > r->memory)
		drop_oldest(r);
	return 0;
}

int pulse_flight_ring__append(struct pulse_flight_ring *r, const struct iovec *iov, int cnt)
{
	struct pulse_iov_walk w;
	struct perf_event_header h;
	int ret;

	pulse_iov_walk__init(&w, iov, cnt, SIZE_MAX);
	while ((ret = pulse_iov_walk__peek(&w, &h)) > 0) {
		unsigned char *dst;
		const void *rec;

		/*
		 * The pump's rounds order passes that may no longer be there
		 * once chunks are dropped; a snapshot is sorted whole instead.
		 */
		if (h.type == PERF_RECORD_FINISHED_ROUND) {
			pulse_iov_walk__skip(&w, h.size);
			continue;
		}
		if (r->used + h.size > r->chunk_size) {
			ret = seal(r);
			if (ret)
				return ret;
		}
		dst = r->stage + r->used;
		rec = pulse_iov_walk__take(&w, h.size, dst);
		if (rec != dst)
			memcpy(dst, rec, h.size);
		r->used += h.size;
		r->raw_in += h.size;
		if (h.type == PERF_RECORD_SAMPLE) {
			if (!r->stage_samples && r->time_off >= 0 &&
			    (size_t)r->time_off + 8 <= h.size)
				r->stage_first_time = get_u64(dst + r->time_off);
			r->stage_samples++;
		}
	}
	return ret;
}

int pulse_flight_ring__flush(struct pulse_flight_ring *r,
			     int (*fn)(const void *buf, size_t len, void *arg), void *arg)
{
	int ret = 0;

	if (!r->scratch) {
		r->scratch = malloc(r->chunk_size);
		if (!r->scratch)
			return -ENOMEM;
	}
	for (struct fl_chunk *c = r->head; c && !ret; c = c->next) {
		size_t n = ZSTD_decompressDCtx(r->dctx, r->scratch, r->chunk_size, c->data, c->len);

		if (ZSTD_isError(n) || n != c->raw)
			ret = -EIO;
		else
			ret = fn(r->scratch, n, arg);
	}
	if (!ret && r->used)
		ret = fn(r->stage, r->used, arg);
	/* what could not be written is kept for the next flush */
	if (!ret)
		drop_all(r);
	return ret;
}

__u64 pulse_flight_ring__oldest(const struct pulse_flight_ring *r)
{
	for (const struct fl_chunk *c = r->head; c; c = c->next)
		if (c->samples)
			return c->first_time;
	return r->stage_samples ? r->stage_first_time : 0;
}

void pulse_flight_ring__stats(const struct pulse_flight_ring *r, struct pulse_flight_ring_stats *st)
{
	st->raw_in = r->raw_in;
	st->held_raw = r->held_raw + r->used;
	st->held = r->held + r->chunk_size;
	st->samples_held = r->samples_held + r->stage_samples;
	st->chunks_dropped = r->chunks_dropped;
	st->samples_dropped = r->samples_dropped;
	st->chunk_size = r->chunk_size;
}
