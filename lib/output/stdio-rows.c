// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of a report table formatted on two threads (lib/output/stdio.c
 * formats them; this splits the work and writes the chunks in order).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "output/stdio-int.h"

/*
 * A report with callchains prints tens of megabytes: rows are formatted in
 * chunks on this thread and a second one, into memory, and written in
 * order; a chunk is claimed only a few ahead of the one being written, so
 * memory stays bounded. Return: 0, or -EAGAIN when the caller should
 * print on its own (small tables, no thread).
 */
#define ROWS_CHUNK 1024
#define ROWS_AHEAD 16

struct rows_job {
	const struct pulse_hists *h;
	const struct pulse_stdio_opts *opts;
	const struct widths *w;
	size_t nr_chunks;
	char **buf;
	size_t *len;
	bool *done;
	size_t next;		/* first chunk not claimed */
	size_t written;		/* chunks written out */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void rows_job__format(struct rows_job *j, size_t k)
{
	size_t from = k * ROWS_CHUNK, to = from + ROWS_CHUNK;
	FILE *mem = open_memstream(&j->buf[k], &j->len[k]);

	if (to > j->h->nr_entries)
		to = j->h->nr_entries;
	if (mem) {
		pulse_stdio__print_rows(j->h, j->opts, j->w, mem, from, to);
		if (fclose(mem)) {
			free(j->buf[k]);
			j->buf[k] = NULL;
		}
	}
	pthread_mutex_lock(&j->lock);
	j->done[k] = true;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

static void *rows_job__thread(void *arg)
{
	struct rows_job *j = arg;

	for (;;) {
		size_t k;

		pthread_mutex_lock(&j->lock);
		while (j->next < j->nr_chunks && j->next >= j->written + ROWS_AHEAD)
			pthread_cond_wait(&j->cond, &j->lock);
		if (j->next >= j->nr_chunks) {
			pthread_mutex_unlock(&j->lock);
			return NULL;
		}
		k = j->next++;
		pthread_mutex_unlock(&j->lock);
		rows_job__format(j, k);
	}
}

int pulse_stdio__print_rows_parallel(const struct pulse_hists *h,
				      const struct pulse_stdio_opts *opts, const struct widths *w,
				      FILE *fp)
{
	struct rows_job j = { .h = h, .opts = opts, .w = w };
	pthread_t tid;

	if (!h->use_callchain || h->nr_entries < 4 * ROWS_CHUNK)
		return -EAGAIN;
	j.nr_chunks = (h->nr_entries + ROWS_CHUNK - 1) / ROWS_CHUNK;
	j.buf = calloc(j.nr_chunks, sizeof(*j.buf));
	j.len = calloc(j.nr_chunks, sizeof(*j.len));
	j.done = calloc(j.nr_chunks, sizeof(*j.done));
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.cond, NULL);
	if (!j.buf || !j.len || !j.done || pthread_create(&tid, NULL, rows_job__thread, &j)) {
		free(j.buf);
		free(j.len);
		free(j.done);
		pthread_cond_destroy(&j.cond);
		pthread_mutex_destroy(&j.lock);
		return -EAGAIN;
	}
	pthread_mutex_lock(&j.lock);
	while (j.written < j.nr_chunks) {
		size_t k;

		if (j.done[j.written]) {
			k = j.written;
			pthread_mutex_unlock(&j.lock);
			/* a chunk that could not be formatted in memory is formatted here */
			if (j.buf[k])
				fwrite(j.buf[k], 1, j.len[k], fp);
			else
				pulse_stdio__print_rows(h, opts, w, fp, k * ROWS_CHUNK,
					   k + 1 < j.nr_chunks ? (k + 1) * ROWS_CHUNK : h->nr_entries);
			free(j.buf[k]);
			j.buf[k] = NULL;
			pthread_mutex_lock(&j.lock);
			j.written++;
			pthread_cond_broadcast(&j.cond);
			continue;
		}
		if (j.next < j.nr_chunks && j.next < j.written + ROWS_AHEAD) {
			k = j.next++;
			pthread_mutex_unlock(&j.lock);
			rows_job__format(&j, k);
			pthread_mutex_lock(&j.lock);
			continue;
		}
		pthread_cond_wait(&j.cond, &j.lock);
	}
	pthread_mutex_unlock(&j.lock);
	pthread_join(tid, NULL);
	free(j.buf);
	free(j.len);
	free(j.done);
	pthread_cond_destroy(&j.cond);
	pthread_mutex_destroy(&j.lock);
	return 0;
}
