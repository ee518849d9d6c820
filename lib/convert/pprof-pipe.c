// SPDX-License-Identifier: GPL-2.0
/*
 * A one-way pipe to a second thread, in chunks: the caller fills one chunk
 * while the thread consumes the one before, so that two halves of the
 * conversion run on two cores (the walk and the merging of samples; the
 * packing of messages and deflate). Chunks are large so that the hand-over
 * (a mutex and a condition) is rare. Without a thread (pthread_create
 * failed) the caller consumes its own chunks: slower, the same result.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "convert/pprof-int.h"

struct pp_pipe {
	pp_pipe_fn fn;
	void *arg;
	size_t size;		/* of a chunk */
	uint8_t *chunk[2];	/* the one being filled, the one being consumed */
	size_t fill;		/* bytes in chunk[cur] */
	int cur;
	/* the thread's job, under @lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool threaded;
	bool busy;		/* chunk[!cur] is being consumed */
	bool quit;
	const uint8_t *job;
	size_t job_len;
	bool job_last;
	int err;		/* the consumer's first failure */
};

static void *pipe__thread(void *arg)
{
	struct pp_pipe *p = arg;
	int err;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->busy && !p->quit)
			pthread_cond_wait(&p->cond, &p->lock);
		if (!p->busy)
			break;
		pthread_mutex_unlock(&p->lock);
		/* after a failure the rest is dropped: the caller learns of it */
		err = p->err ? 0 : p->fn(p->arg, p->job, p->job_len, p->job_last);
		pthread_mutex_lock(&p->lock);
		if (err && !p->err)
			p->err = err;
		p->busy = false;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The thread idle (or none): its error, if any. Called with no lock held. */
static int pipe__wait(struct pp_pipe *p)
{
	int err;

	if (!p->threaded)
		return p->err;
	pthread_mutex_lock(&p->lock);
	while (p->busy)
		pthread_cond_wait(&p->cond, &p->lock);
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	return err;
}

/* Hand chunk[cur] over (or consume it here) and start filling the other. */
static int pipe__flush(struct pp_pipe *p, bool last)
{
	int err;

	if (!p->threaded) {
		err = p->err ? p->err : p->fn(p->arg, p->chunk[p->cur], p->fill, last);
		p->err = err;
		p->fill = 0;
		return err;
	}
	pthread_mutex_lock(&p->lock);
	while (p->busy)
		pthread_cond_wait(&p->cond, &p->lock);
	p->job = p->chunk[p->cur];
	p->job_len = p->fill;
	p->job_last = last;
	p->busy = true;
	err = p->err;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	p->cur = !p->cur;
	p->fill = 0;
	return err;
}

int pp_pipe__new(struct pp_pipe **out, size_t chunk, pp_pipe_fn fn, void *arg)
{
	struct pp_pipe *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->fn = fn;
	p->arg = arg;
	p->size = chunk;
	p->chunk[0] = malloc(chunk);
	p->chunk[1] = malloc(chunk);
	if (!p->chunk[0] || !p->chunk[1]) {
		free(p->chunk[0]);
		free(p->chunk[1]);
		free(p);
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threaded = !pthread_create(&p->thread, NULL, pipe__thread, p);
	*out = p;
	return 0;
}

void *pp_pipe__reserve(struct pp_pipe *p, size_t len, int *err)
{
	*err = 0;
	if (len > p->size) {
		*err = -E2BIG;
		return NULL;
	}
	if (p->fill + len > p->size) {
		*err = pipe__flush(p, false);
		if (*err)
			return NULL;
	}
	return p->chunk[p->cur] + p->fill;
}

void pp_pipe__commit(struct pp_pipe *p, size_t len)
{
	p->fill += len;
}

int pp_pipe__write(struct pp_pipe *p, const void *data, size_t len)
{
	const uint8_t *s = data;
	int err;

	while (len) {
		size_t n = p->size - p->fill;

		if (n > len)
			n = len;
		memcpy(p->chunk[p->cur] + p->fill, s, n);
		p->fill += n;
		s += n;
		len -= n;
		if (p->fill == p->size) {
			err = pipe__flush(p, false);
			if (err)
				return err;
		}
	}
	return 0;
}

int pp_pipe__finish(struct pp_pipe *p)
{
	int err = pipe__flush(p, true);

	return err ? err : pipe__wait(p);
}

void pp_pipe__delete(struct pp_pipe *p)
{
	if (!p)
		return;
	if (p->threaded) {
		pipe__wait(p);
		pthread_mutex_lock(&p->lock);
		p->quit = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p->chunk[0]);
	free(p->chunk[1]);
	free(p);
}
