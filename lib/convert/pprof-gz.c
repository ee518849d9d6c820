// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof writer's gzip stream, compressed in a second thread: the
 * writer packs messages into one chunk while the thread deflates the one
 * before, so packing and deflate (a third of the conversion each when in
 * one thread) overlap. Chunks are large so that zlib is called a few
 * hundred times rather than once per message (each call has a fixed
 * cost). One gzip member, as one thread would write it. Without a thread
 * (pthread_create failed) the chunks are deflated in the caller.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "convert/pprof-int.h"

#define PP_GZ_CHUNK (1 << 20)

struct pp_gz {
	z_stream z;
	FILE *out;
	uint8_t *chunk[2];	/* the one being filled, the one being deflated */
	size_t fill;		/* bytes in chunk[cur] */
	int cur;
	/* the thread's job, under @lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool threaded;
	bool busy;		/* chunk[!cur] is being deflated */
	bool quit;
	const uint8_t *job;
	size_t job_len;
	int job_flush;
	int err;		/* the first failure: -EIO */
	uint64_t bytes;		/* compressed bytes written */
	unsigned char zbuf[1 << 16];
};

static int gz__deflate(struct pp_gz *g, const void *data, size_t len, int flush)
{
	g->z.next_in = (Bytef *)data;
	g->z.avail_in = len;
	for (;;) {
		size_t n;
		int ret;

		g->z.next_out = g->zbuf;
		g->z.avail_out = sizeof(g->zbuf);
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR)
			return -EIO;
		n = sizeof(g->zbuf) - g->z.avail_out;
		if (n && fwrite(g->zbuf, 1, n, g->out) != n)
			return -EIO;
		g->bytes += n;
		/* Z_FINISH: until the trailer is out; else until zlib took all */
		if (flush == Z_FINISH ? ret == Z_STREAM_END : g->z.avail_out != 0)
			return 0;
	}
}

static void *gz__thread(void *arg)
{
	struct pp_gz *g = arg;
	int err;

	pthread_mutex_lock(&g->lock);
	for (;;) {
		while (!g->busy && !g->quit)
			pthread_cond_wait(&g->cond, &g->lock);
		if (!g->busy)
			break;
		pthread_mutex_unlock(&g->lock);
		/* only this thread touches z and out while busy */
		err = g->err ? 0 : gz__deflate(g, g->job, g->job_len, g->job_flush);

		pthread_mutex_lock(&g->lock);
		if (err && !g->err)
			g->err = err;
		g->busy = false;
		pthread_cond_broadcast(&g->cond);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Hand chunk[cur] to the thread (or deflate it here) and fill the other one. */
static int gz__flush(struct pp_gz *g, int flush)
{
	int err;

	if (!g->threaded) {
		err = gz__deflate(g, g->chunk[g->cur], g->fill, flush);
		g->fill = 0;
		return err;
	}
	pthread_mutex_lock(&g->lock);
	while (g->busy)
		pthread_cond_wait(&g->cond, &g->lock);
	g->job = g->chunk[g->cur];
	g->job_len = g->fill;
	g->job_flush = flush;
	g->busy = true;
	err = g->err;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	g->cur = !g->cur;
	g->fill = 0;
	return err;
}

int pp_gz__new(struct pp_gz **out, FILE *f, int level)
{
	struct pp_gz *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->out = f;
	g->chunk[0] = malloc(PP_GZ_CHUNK);
	g->chunk[1] = malloc(PP_GZ_CHUNK);
	/* windowBits 15 + 16: a gzip wrapper, as pprof's reader wants */
	if (!g->chunk[0] || !g->chunk[1] ||
	    deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g->chunk[0]);
		free(g->chunk[1]);
		free(g);
		return -ENOMEM;
	}
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->threaded = !pthread_create(&g->thread, NULL, gz__thread, g);
	*out = g;
	return 0;
}

int pp_gz__write(struct pp_gz *g, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n = PP_GZ_CHUNK - g->fill;
		int err;

		if (n > len)
			n = len;
		memcpy(g->chunk[g->cur] + g->fill, p, n);
		g->fill += n;
		p += n;
		len -= n;
		if (g->fill == PP_GZ_CHUNK) {
			err = gz__flush(g, Z_NO_FLUSH);
			if (err)
				return err;
		}
	}
	return 0;
}

int pp_gz__finish(struct pp_gz *g, uint64_t *bytes)
{
	int err = gz__flush(g, Z_FINISH);

	if (g->threaded) {
		pthread_mutex_lock(&g->lock);
		while (g->busy)
			pthread_cond_wait(&g->cond, &g->lock);
		if (!err)
			err = g->err;
		pthread_mutex_unlock(&g->lock);
	}
	*bytes = g->bytes;
	return err;
}

void pp_gz__delete(struct pp_gz *g)
{
	if (!g)
		return;
	if (g->threaded) {
		pthread_mutex_lock(&g->lock);
		while (g->busy)
			pthread_cond_wait(&g->cond, &g->lock);
		g->quit = true;
		pthread_cond_broadcast(&g->cond);
		pthread_mutex_unlock(&g->lock);
		pthread_join(g->thread, NULL);
	}
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
	deflateEnd(&g->z);
	free(g->chunk[0]);
	free(g->chunk[1]);
	free(g);
}
