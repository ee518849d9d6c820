/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big appends to a perf.data written straight to the disk (O_DIRECT)
 * instead of into new page-cache pages (lib/data/direct.c); private to
 * the writer.
 */
#ifndef PULSE_DATA_DIRECT_H
#define PULSE_DATA_DIRECT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>

/* The bounce slots: filled by the caller, written by the thread. */
#define PULSE_DIRECT_SLOT (1u << 20)
#define PULSE_DIRECT_SLOTS 4

struct pulse_direct {
	int fd;				/* the file opened O_DIRECT; not owned */
	unsigned char *bounce;		/* SLOTS x SLOT bytes, page aligned */
	/* the writing thread, from the first append to exit */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool sync_ok, running;
	bool stop;				/* under lock */
	unsigned int queued, written;		/* slots, under lock */
	int err;				/* the first failure, under lock */
	size_t slot_len[PULSE_DIRECT_SLOTS];
	__u64 slot_pos[PULSE_DIRECT_SLOTS];
	/* the append under way: where its tail is */
	const struct iovec *iov;
	int cnt, i;
	size_t off;
	int fd_buffered;
	__u64 tail_pos;
	size_t tail_len;
};

/* Appends at least this big go straight to the disk. */
#define PULSE_DIRECT_MIN (1u << 20)

/*
 * Write @total bytes of @iov at @pos of the file: the unaligned head and
 * tail through @fd (buffered), the aligned middle through d->fd. start()
 * writes the head and queues the middle; it returns once the last slot is
 * queued, and @iov must stay as it is until finish() has written the
 * tail, waited for the rest and left @fd's offset at @pos + @total.
 * finish() follows every start() that returned 0. Return: 0, or -errno
 * (nothing is cut: the caller writes it all again the buffered way).
 */
int pulse_direct__start(struct pulse_direct *d, int fd, __u64 pos, const struct iovec *iov,
			int cnt, size_t total);
int pulse_direct__finish(struct pulse_direct *d);
void pulse_direct__exit(struct pulse_direct *d);

#endif
