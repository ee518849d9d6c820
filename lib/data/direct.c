// SPDX-License-Identifier: GPL-2.0
/*
 * Big appends straight to the disk. A flight recorder's snapshot writes
 * tens of MiB at once; buffered, each page of it is a new page-cache page,
 * and on a VM whose free memory went back to the host that costs more
 * than the disk: 32 MiB took 60-100 ms buffered and 13-15 ms with
 * O_DIRECT here (dd, and the snapshot itself). The pages at both ends
 * that O_DIRECT cannot write (alignment) go the buffered way; the kernel
 * keeps the two coherent, as they never share a block.
 *
 * O_DIRECT wants aligned memory, so the records are copied into bounce
 * slots first. Copy and disk take turns no more: the caller fills the
 * slots while a thread of the writer's own writes the full ones, so a
 * snapshot costs the disk's time plus one slot's copy, not both (two full
 * 32 MiB rings: the copy is ~10 ms of the ~45 ms they took in turns).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/internal.h"
#include "data/direct.h"

#define BLOCK 4096

static int pwrite_all(int fd, const void *buf, size_t len, __u64 pos)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		p += n;
		len -= n;
		pos += n;
	}
	return 0;
}

/* The writing thread: each queued slot in turn, until told to stop. */
static void *io_thread(void *arg)
{
	struct pulse_direct *d = arg;

	pthread_mutex_lock(&d->lock);
	for (;;) {
		unsigned int k;
		bool failed;
		int ret;

		while (d->written == d->queued && !d->stop)
			pthread_cond_wait(&d->cond, &d->lock);
		if (d->written == d->queued)
			break;
		k = d->written % PULSE_DIRECT_SLOTS;
		failed = d->err != 0;
		pthread_mutex_unlock(&d->lock);
		/* after a failure the rest only drains: the caller writes it all again */
		ret = failed ? 0 : pwrite_all(d->fd, d->bounce + (size_t)k * PULSE_DIRECT_SLOT,
					      d->slot_len[k], d->slot_pos[k]);
		pthread_mutex_lock(&d->lock);
		if (ret && !d->err)
			d->err = ret;
		d->written++;
		pthread_cond_broadcast(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* The slots and the thread, made at the first big append. */
static int setup(struct pulse_direct *d)
{
	sigset_t all, old;
	int ret;

	if (d->running)
		return 0;
	if (!d->bounce && posix_memalign((void **)&d->bounce, BLOCK,
					 (size_t)PULSE_DIRECT_SLOTS * PULSE_DIRECT_SLOT))
		return -ENOMEM;
	if (!d->sync_ok) {
		if (pthread_mutex_init(&d->lock, NULL))
			return -ENOMEM;
		if (pthread_cond_init(&d->cond, NULL)) {
			pthread_mutex_destroy(&d->lock);
			return -ENOMEM;
		}
		d->sync_ok = true;
	}
	d->queued = d->written = 0;
	d->err = 0;
	d->stop = false;
	/* the recorder's signals (SIGUSR2, SIGINT) stay with the thread that waits for them */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&d->thread, NULL, io_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return -ret;
	d->running = true;
	return 0;
}

/* Hand @len bytes of @iov, from iovec *@i at offset *@off on, to the thread, for @pos. */
static void queue(struct pulse_direct *d, const struct iovec *iov, int cnt, int *i, size_t *off,
		  size_t len, __u64 pos)
{
	unsigned int k;

	pthread_mutex_lock(&d->lock);
	while (d->queued - d->written == PULSE_DIRECT_SLOTS)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
	/* the thread reads a slot only once it is queued, and is past it once written */
	k = d->queued % PULSE_DIRECT_SLOTS;
	pulse_iov__gather(iov, cnt, i, off, d->bounce + (size_t)k * PULSE_DIRECT_SLOT, len);
	d->slot_len[k] = len;
	d->slot_pos[k] = pos;
	pthread_mutex_lock(&d->lock);
	d->queued++;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

int pulse_direct__start(struct pulse_direct *d, int fd, __u64 pos, const struct iovec *iov,
			int cnt, size_t total)
{
	size_t head = (BLOCK - pos % BLOCK) % BLOCK, left = total;
	unsigned char tmp[BLOCK];
	int ret = setup(d);

	if (ret)
		return ret;
	d->i = 0;
	d->off = 0;
	if (head > left)
		head = left;
	if (head) {
		pulse_iov__gather(iov, cnt, &d->i, &d->off, tmp, head);
		ret = pwrite_all(fd, tmp, head, pos);
		if (ret)
			return ret;
		pos += head;
		left -= head;
	}
	while (left >= BLOCK) {
		size_t n = left < PULSE_DIRECT_SLOT ? left / BLOCK * BLOCK : PULSE_DIRECT_SLOT;

		queue(d, iov, cnt, &d->i, &d->off, n, pos);
		pos += n;
		left -= n;
	}
	d->iov = iov;
	d->cnt = cnt;
	d->fd_buffered = fd;
	d->tail_pos = pos;
	d->tail_len = left;
	return 0;
}

int pulse_direct__finish(struct pulse_direct *d)
{
	int ret;

	pthread_mutex_lock(&d->lock);
	while (d->written != d->queued)
		pthread_cond_wait(&d->cond, &d->lock);
	ret = d->err;
	d->err = 0;
	pthread_mutex_unlock(&d->lock);
	if (ret)
		return ret;
	/* the tail once the blocks before it are there: the file grows in order */
	if (d->tail_len) {
		unsigned char tmp[BLOCK];

		pulse_iov__gather(d->iov, d->cnt, &d->i, &d->off, tmp, d->tail_len);
		ret = pwrite_all(d->fd_buffered, tmp, d->tail_len, d->tail_pos);
		if (ret)
			return ret;
	}
	return lseek(d->fd_buffered, d->tail_pos + d->tail_len, SEEK_SET) < 0 ? -errno : 0;
}

void pulse_direct__exit(struct pulse_direct *d)
{
	if (d->running) {
		pthread_mutex_lock(&d->lock);
		d->stop = true;
		pthread_cond_broadcast(&d->cond);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->thread, NULL);
		d->running = false;
	}
	if (d->sync_ok) {
		pthread_cond_destroy(&d->cond);
		pthread_mutex_destroy(&d->lock);
		d->sync_ok = false;
	}
	free(d->bounce);
	d->bounce = NULL;
}
