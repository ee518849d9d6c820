// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation on several threads. perf report is single-threaded and most
 * of a children report's time goes to merging every sample's chain into
 * the tree of every function on it; here the caller's thread reads and
 * resolves, and each pool thread builds the entries of one hash shard
 * (pulse_hists__add_shard()) from the same stream of resolved samples.
 * Samples travel in batches through a small ring: the caller fills one
 * while the threads work on the ones before, and waits only when the ring
 * is full. Every thread sees every sample in file order, so each shard is
 * what a single thread would have built for its entries.
 *
 * When the hists merge trees only into the entries that can print them
 * (pulse_hists__defers_trees()), the batches are kept: after the first
 * pass has made every entry, the threads go through them again to build
 * the trees of the hot entries.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/internal.h"
#include "hist/hist-internal.h"
#include "hist/chain-set.h"

#define POOL_BATCHES 4
#define BATCH_SAMPLES 2048

struct pool_sample {
	struct pulse_hists *shards;	/* of the sample's hists */
	uint64_t seq;			/* the sample's number in its hists */
	struct pulse_addr_loc al;
	const char *comm;
	uint64_t period;
	int cpu;
	const struct pulse_symbol *parent;
	bool filtered;
	uint32_t trace;			/* offset in the batch's text; UINT32_MAX: none */
	size_t chain;			/* first frame in the batch's locs */
	size_t nr;			/* frames */
	const struct pulse_cc_loc *kept;	/* or the pool's copy of them (@chains) */
};


struct pool_batch {
	struct pool_sample *samples;
	size_t nr, alloc;
	struct pulse_cc_loc *locs;
	size_t nr_locs, alloc_locs;
	char *text;
	size_t text_len, text_alloc;
	unsigned int pending;		/* threads yet to go through it */
	bool published;			/* its samples are an old batch's */
};

static const struct pulse_cc_loc *sample__chain(const struct pool_batch *b,
						const struct pool_sample *s)
{
	return s->kept ? s->kept : b->locs + s->chain;
}

struct pool_thread {
	pthread_t tid;
	struct pulse_hist_pool *pool;
	unsigned int idx;
	bool started;
};

struct pulse_hist_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a batch was published, or stop */
	pthread_cond_t done;		/* a batch was gone through by every thread */
	/* a ring of POOL_BATCHES, or with @retain every batch */
	struct pool_batch **batches;
	size_t nr_batches, alloc_batches;
	bool retain;			/* keep the batches for the second pass */
	struct pulse_chain_set chains;	/* with @retain, the kept samples' chains */
	bool decided;			/* @retain is set (at the first sample) */
	/*
	 * the caller's hists, given at __finish() (their array may move
	 * while samples come: a new event grows it)
	 */
	struct pulse_hists *hists;
	size_t nr_hists;
	uint64_t published;		/* batches handed to the threads */
	bool stop;
	bool finished;
	bool trees_running;		/* the second pass's threads */
	int err;			/* the first error of a thread */
	unsigned int nr_threads;
	struct pool_thread *threads;
};

static int batch__run(struct pool_batch *b, unsigned int idx, unsigned int nr_parts)
{
	for (size_t i = 0; i < b->nr; i++) {
		const struct pool_sample *s = &b->samples[i];
		const char *trace = s->trace == UINT32_MAX ? NULL : b->text + s->trace;
		int err;

		pulse_hists__set_parent(&s->shards[idx], s->parent, s->filtered);
		err = pulse_hists__add_shard(s->shards, idx, nr_parts, s->seq, &s->al, s->comm,
					     s->period, s->cpu, trace, sample__chain(b, s), s->nr);

		if (err)
			return err;
	}
	return 0;
}

/* batch @seq; under the lock, the array may be growing */
static struct pool_batch *pool__batch(struct pulse_hist_pool *pool, uint64_t seq)
{
	return pool->batches[pool->retain ? seq : seq % POOL_BATCHES];
}

static void *pool__thread(void *arg)
{
	struct pool_thread *t = arg;
	struct pulse_hist_pool *pool = t->pool;
	uint64_t next = 0;

	for (;;) {
		struct pool_batch *b;
		int err = 0;
		bool skip;

		pthread_mutex_lock(&pool->lock);
		while (next >= pool->published && !pool->stop)
			pthread_cond_wait(&pool->work, &pool->lock);
		if (next >= pool->published) {
			pthread_mutex_unlock(&pool->lock);
			break;
		}
		skip = pool->err != 0;

		/* the caller leaves a published batch alone until pending is 0 */
		b = pool__batch(pool, next);
		pthread_mutex_unlock(&pool->lock);
		if (!skip)
			err = batch__run(b, t->idx, pool->nr_threads);

		pthread_mutex_lock(&pool->lock);
		if (err && !pool->err)
			pool->err = err;
		if (--b->pending == 0)
			pthread_cond_broadcast(&pool->done);
		pthread_mutex_unlock(&pool->lock);
		next++;
	}
	return NULL;
}

static void pool__stop(struct pulse_hist_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->stop = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned int i = 0; i < pool->nr_threads; i++) {
		if (pool->threads[i].started)
			pthread_join(pool->threads[i].tid, NULL);
		pool->threads[i].started = false;
	}
}

static void pool__free_batches(struct pulse_hist_pool *pool)
{
	for (size_t i = 0; i < pool->nr_batches; i++) {
		free(pool->batches[i]->samples);
		free(pool->batches[i]->locs);
		free(pool->batches[i]->text);
		free(pool->batches[i]);
	}
	free(pool->batches);
	pool->batches = NULL;
	pool->nr_batches = pool->alloc_batches = 0;
	pulse_chain_set__exit(&pool->chains);
}

void pulse_hist_pool__delete(struct pulse_hist_pool *pool)
{
	if (!pool)
		return;
	if (pool->threads)
		pool__stop(pool);
	pool->trees_running = false;
	for (size_t i = 0; i < pool->nr_hists; i++)
		if (pulse_hists__trees_pending(&pool->hists[i]) &&
		    pool->hists[i].sh->trees_arg == pool)
			pulse_hists__finish_trees(&pool->hists[i]);
	pool__free_batches(pool);
	free(pool->threads);
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->work);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

static int pool__start(struct pulse_hist_pool *pool, void *(*fn)(void *))
{
	for (unsigned int i = 0; i < pool->nr_threads; i++) {
		struct pool_thread *t = &pool->threads[i];
		int err;

		t->pool = pool;
		t->idx = i;
		err = pthread_create(&t->tid, NULL, fn, t);
		if (err)
			return -err;
		t->started = true;
	}
	return 0;
}

int pulse_hist_pool__new(struct pulse_hist_pool **out, unsigned int nr_threads)
{
	struct pulse_hist_pool *pool;
	int err;

	*out = NULL;
	if (nr_threads < 2)
		return -EINVAL;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->threads = calloc(nr_threads, sizeof(*pool->threads));
	if (!pool->threads) {
		pulse_hist_pool__delete(pool);
		return -ENOMEM;
	}
	pool->nr_threads = nr_threads;
	err = pool__start(pool, pool__thread);
	if (err) {
		pulse_hist_pool__delete(pool);
		return err;
	}
	*out = pool;
	return 0;
}

/* hand the batch being filled to the threads */
static int pool__publish(struct pulse_hist_pool *pool)
{
	struct pool_batch *b = pool__batch(pool, pool->published);
	int err;

	pthread_mutex_lock(&pool->lock);
	b->pending = pool->nr_threads;
	b->published = true;
	pool->published++;
	pthread_cond_broadcast(&pool->work);
	err = pool->err;
	pthread_mutex_unlock(&pool->lock);
	return err;
}

static int batch__reserve(struct pool_batch *b, const struct pool_batch *like)
{
	b->samples = malloc(like->nr * sizeof(*b->samples));
	b->locs = malloc((like->nr_locs + like->nr_locs / 4 + 1) * sizeof(*b->locs));
	if (!b->samples || !b->locs) {
		free(b->samples);
		free(b->locs);
		return -ENOMEM;
	}
	b->alloc = like->nr;
	b->alloc_locs = like->nr_locs + like->nr_locs / 4 + 1;
	return 0;
}

/* the batch to fill, once every thread is through with its last use */
static struct pool_batch *pool__filling(struct pulse_hist_pool *pool)
{
	size_t want = pool->retain ? pool->published + 1 : POOL_BATCHES;
	struct pool_batch *b;

	if (pool->nr_batches < want) {
		struct pool_batch **v = pool->batches;

		b = calloc(1, sizeof(*b));
		if (!b)
			return NULL;
		/*
		 * kept batches are new ones: sized as the last one ended, they
		 * grow (realloc, copy, fault the pages in again) rarely
		 */
		if (pool->retain && pool->nr_batches &&
		    batch__reserve(b, pool->batches[pool->nr_batches - 1])) {
			free(b);
			return NULL;
		}
		if (pool->nr_batches == pool->alloc_batches) {
			size_t n = pool->alloc_batches ? pool->alloc_batches * 2 : 64;

			/* the threads read the array under the lock */
			pthread_mutex_lock(&pool->lock);
			v = realloc(pool->batches, n * sizeof(*v));
			if (v) {
				pool->batches = v;
				pool->alloc_batches = n;
			}
			pthread_mutex_unlock(&pool->lock);
			if (!v) {
				free(b);
				return NULL;
			}
		}
		pthread_mutex_lock(&pool->lock);
		pool->batches[pool->nr_batches++] = b;
		pthread_mutex_unlock(&pool->lock);
	}
	b = pool__batch(pool, pool->published);
	pthread_mutex_lock(&pool->lock);
	while (b->pending)
		pthread_cond_wait(&pool->done, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
	if (b->published) {
		b->published = false;
		b->nr = 0;
		b->nr_locs = 0;
		b->text_len = 0;
	}
	return b;
}

static void *grow(void *p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 256;

	while (n < need)
		n *= 2;
	p = realloc(p, n * size);
	if (p)
		*alloc = n;
	return p;
}

int pulse_hist_pool__add(struct pulse_hist_pool *pool, struct pulse_hists *h,
			 const struct pulse_addr_loc *al, const char *comm, uint64_t period,
			 const struct pulse_cc_loc *chain, size_t nr)
{
	const char *trace = h->cur_trace;
	struct pool_batch *b;
	struct pool_sample *s;
	int err;

	if (pool->finished)
		return -EINVAL;
	if (!pulse_hists__is_sharded(h)) {
		err = pulse_hists__make_shards(h, pool->nr_threads);
		if (err)
			return err;
		/* the batches already handed over are gone: decide at the first sample */
		if (!pool->decided)
			pool->retain = pulse_hists__defers_trees(h);
		pool->decided = true;
		for (unsigned int i = 0; !pool->retain && i < h->sh->nr_shards; i++)
			h->sh->shards[i].sh->defer_trees = false;
	}
	b = pool__filling(pool);
	if (!b)
		return -ENOMEM;
	if (b->nr == b->alloc) {
		void *p = grow(b->samples, &b->alloc, b->nr + 1, sizeof(*b->samples));

		if (!p)
			return -ENOMEM;
		b->samples = p;
	}
	if (b->nr_locs + nr > b->alloc_locs) {
		void *p = grow(b->locs, &b->alloc_locs, b->nr_locs + nr, sizeof(*b->locs));

		if (!p)
			return -ENOMEM;
		b->locs = p;
	}
	s = &b->samples[b->nr];
	s->trace = UINT32_MAX;
	if (trace) {
		size_t len = strlen(trace) + 1;

		if (b->text_len + len > UINT32_MAX)
			return -E2BIG;
		if (b->text_len + len > b->text_alloc) {
			void *p = grow(b->text, &b->text_alloc, b->text_len + len, 1);

			if (!p)
				return -ENOMEM;
			b->text = p;
		}
		memcpy(b->text + b->text_len, trace, len);
		s->trace = b->text_len;
		b->text_len += len;
	}
	s->shards = h->sh->shards;
	s->seq = h->nr_samples;
	s->al = *al;
	s->comm = comm;
	s->period = period;
	s->cpu = h->cur_cpu;
	s->parent = h->cur_parent;
	s->filtered = h->cur_filtered;
	s->chain = b->nr_locs;
	s->nr = nr;
	/* a kept batch lives to the end: a chain seen before is not copied again */
	s->kept = pool->retain && nr ? pulse_chain_set__intern(&pool->chains, chain, nr) : NULL;
	if (nr && !s->kept) {
		memcpy(b->locs + b->nr_locs, chain, nr * sizeof(*chain));
		b->nr_locs += nr;
	}
	b->nr++;
	pulse_hists__count(h, period);
	if (b->nr < BATCH_SAMPLES)
		return 0;
	return pool__publish(pool);
}

/* pass two on thread @t: every kept sample again, trees for the hot entries */
static void *pool__trees_thread(void *arg)
{
	struct pool_thread *t = arg;
	struct pulse_hist_pool *pool = t->pool;
	int err = 0;

	for (uint64_t n = 0; n < pool->published && !err; n++) {
		const struct pool_batch *b = pool->batches[n];

		for (size_t i = 0; i < b->nr && !err; i++) {
			const struct pool_sample *s = &b->samples[i];

			err = pulse_hists__add_shard_trees(s->shards, t->idx, sample__chain(b, s),
							   s->nr, s->period);
		}
	}
	if (err) {
		pthread_mutex_lock(&pool->lock);
		if (!pool->err)
			pool->err = err;
		pthread_mutex_unlock(&pool->lock);
	}
	return NULL;
}

int pulse_hist_pool__wait_trees(struct pulse_hist_pool *pool)
{
	if (pool->trees_running) {
		pool__stop(pool);
		pool->trees_running = false;
		pool__free_batches(pool);
	}
	return pool->err;
}

/* a hists' way to wait for the second pass (struct pulse_hists_shards) */
static int pool__trees_wait(void *pool)
{
	return pulse_hist_pool__wait_trees(pool);
}

int pulse_hist_pool__finish(struct pulse_hist_pool *pool, struct pulse_hists *hists,
			    size_t nr_hists)
{
	struct pool_batch *b;
	int err = 0;

	if (pool->finished)
		return pool->err;
	pool->finished = true;
	/* the batch being filled, if any: with @retain, a batch past the published */
	if (pool->retain ? pool->published < pool->nr_batches : pool->nr_batches > 0) {
		b = pool__batch(pool, pool->published);
		if (!b->published && b->nr)
			err = pool__publish(pool);
	}
	pool__stop(pool);
	if (err || pool->err || !pool->retain)
		goto out;
	pool->hists = hists;
	pool->nr_hists = nr_hists;
	for (size_t i = 0; i < nr_hists && !err; i++)
		if (pulse_hists__is_sharded(&hists[i]))
			err = pulse_hists__mark_hot(&hists[i]);
	if (err)
		goto out;
	/* the threads go on while the caller merges and orders the entries */
	pool->stop = false;
	err = pool__start(pool, pool__trees_thread);
	pool->trees_running = true;
	if (err) {
		pulse_hist_pool__wait_trees(pool);
		goto out;
	}
	for (size_t i = 0; i < nr_hists; i++) {
		if (pulse_hists__is_sharded(&hists[i]) && pulse_hists__defers_trees(&hists[i])) {
			hists[i].sh->trees_wait = pool__trees_wait;
			hists[i].sh->trees_arg = pool;
		}
	}
	return 0;
out:
	pool__free_batches(pool);
	return pool->err ? pool->err : err;
}
