// SPDX-License-Identifier: GPL-2.0
/*
 * The windows of a big mapped file, populated ahead on a helper thread.
 *
 * The walk maps the window ahead of it in one madvise(MADV_POPULATE_READ)
 * (reader-walk.c's window_step()); done on the walking thread, that call
 * was a fifth of a report of a 540 MB --call-graph dwarf file: the kernel
 * walks and fills the page tables of 8,000 pages per window while the walk
 * stands still. Here a helper thread does it on the other core while the
 * walk reads the window before: the walk asks for "up to here" at each half
 * window it enters and never waits; if it catches the helper up, it
 * faults the pages itself as it would without one. The helper works in
 * small chunks, starts each from where the walk is if the walk has passed
 * it (a page the walk already read needs no populating, and one behind
 * the walk may be dropped again), and stops between two chunks when the
 * walk ends.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/reader-internal.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
/*
 * One madvise at a time: the stop waits at most for one, and the call holds
 * the mmap lock for reading, which the walk's own mmap/mprotect (malloc)
 * waits for: 16 MB chunks made the report slower, 1 MB ones the fastest.
 */
#define CHUNK (1ULL << 20)

struct pulse_prefetch {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned char *base;
	__u64 len;
	__u64 want;		/* populate below this (locked) */
	__u64 walk;		/* where the walk is (locked) */
	__u64 done;		/* the helper's frontier (its own) */
	bool stop;		/* (locked) */
	long page;
};

static void *prefetch__run(void *arg)
{
	struct pulse_prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		__u64 start, end;

		while (!pf->stop && pf->done >= pf->want)
			pthread_cond_wait(&pf->cond, &pf->lock);
		if (pf->stop)
			break;
		if (pf->done < pf->walk)
			pf->done = pf->walk & ~((__u64)pf->page - 1);
		start = pf->done;
		end = pf->want - start > CHUNK ? start + CHUNK : pf->want;
		pthread_mutex_unlock(&pf->lock);
		/* an older kernel refuses the advice: the walk faults as before */
		if (end > start && madvise(pf->base + start, end - start, MADV_POPULATE_READ) &&
		    errno != EINTR && errno != EAGAIN) {
			pthread_mutex_lock(&pf->lock);
			break;
		}
		pthread_mutex_lock(&pf->lock);
		pf->done = end;
	}
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

int pulse_prefetch__start(struct pulse_prefetch **out, void *base, __u64 len, __u64 from)
{
	struct pulse_prefetch *pf = calloc(1, sizeof(*pf));
	int err;

	*out = NULL;
	if (!pf)
		return -ENOMEM;
	pf->base = base;
	pf->len = len;
	pf->page = sysconf(_SC_PAGESIZE);
	pf->done = pf->walk = pf->want = from & ~((__u64)pf->page - 1);
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->cond, NULL);
	err = pthread_create(&pf->tid, NULL, prefetch__run, pf);
	if (err) {
		pthread_cond_destroy(&pf->cond);
		pthread_mutex_destroy(&pf->lock);
		free(pf);
		return -err;
	}
	*out = pf;
	return 0;
}

void pulse_prefetch__want(struct pulse_prefetch *pf, __u64 walk, __u64 upto)
{
	if (upto > pf->len)
		upto = pf->len;
	pthread_mutex_lock(&pf->lock);
	pf->walk = walk;
	if (upto > pf->want) {
		pf->want = upto;
		pthread_cond_signal(&pf->cond);
	}
	pthread_mutex_unlock(&pf->lock);
}

void pulse_prefetch__stop(struct pulse_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_signal(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
	pthread_join(pf->tid, NULL);
	pthread_cond_destroy(&pf->cond);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}
