// SPDX-License-Identifier: GPL-2.0
/*
 * The data section of a big file read with pread() into a few reused
 * buffers, ahead of the walk on a helper thread, instead of walked in the
 * file's mapping.
 *
 * Why: on the virtual machines pulse is measured on (shadow page tables),
 * the first touch of each page of a mapping costs a trap to the hypervisor
 * even when the page tables were populated: walking the 540 MB of
 * bench/mkdata-dwarf.sh's files in place touched 132,000 pages (0.17 s, a
 * quarter of `pulse report`'s walking thread, nearly all of it in
 * pulse_sample__parse()'s first read of each record); reading the same
 * bytes into one reused buffer takes 0.04-0.06 s, and here it is done on
 * the other core while the walk goes on.
 *
 * A record is handed out in place in its buffer. One that straddles two
 * reads is made whole in the room kept before each buffer's data: the
 * tail of the previous buffer is copied there (a record is at most 64 KiB).
 * A record that the time ordering keeps for later pins its buffer
 * (pulse_chunks__pin()); a buffer goes back to the reader when the walk has
 * left it and its last pin is gone. Buffers are added when pins leave the
 * reader none, up to CHUNK_MAX_BUFS; past the pin limit a record is not
 * pinned and the caller copies it, as it copies a stream's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/reader-internal.h"

/* room before each buffer's data for a record cut by the read */
#define CHUNK_ROOM	PULSE_MAX_RECORD_SIZE
/* buffers at most; pins stop taking new ones when they hold all but CHUNK_SPARE */
#define CHUNK_MAX_BUFS	64
#define CHUNK_SPARE	4
/*
 * buffers made when the walk starts: the reader keeps up to this many
 * ahead (8 MiB, some 8 ms of a dwarf report's walk): with 4 the walk waited
 * for it whenever the aggregation threads had the other core (report of
 * the C dwarf file 0.31 -> 0.29 s, python3's 0.32 -> 0.29 s); 32 gave no more
 */
#define CHUNK_START	16
#define HUGE_SIZE	(2UL << 20)

struct chunk {
	struct chunk *next;		/* in the free or the ready list */
	unsigned char *buf;		/* CHUNK_ROOM + the chunk size */
	__u64 off;			/* file offset of buf + CHUNK_ROOM */
	size_t len;			/* bytes read there */
	size_t head;			/* bytes of the previous read copied before */
	unsigned int pins;		/* records held by the caller (walk thread) */
	bool busy;			/* the walk is in it (walk thread) */
};

struct pulse_chunks {
	int fd;
	size_t size;			/* bytes a read asks for */
	size_t stride;			/* CHUNK_ROOM + size, page-aligned */
	void *map;			/* the reserved mapping */
	size_t map_len;
	unsigned char *region;		/* in it, 2 MiB-aligned: CHUNK_MAX_BUFS strides */
	struct chunk bufs[CHUNK_MAX_BUFS];
	unsigned int nr_bufs;		/* made so far (locked) */
	unsigned int nr_pinned;		/* buffers with pins (walk thread) */

	pthread_mutex_t lock;
	pthread_cond_t to_reader;	/* a free buffer, or stop */
	pthread_cond_t to_walk;		/* a ready buffer, or the reader idle */
	pthread_t tid;
	bool thread;			/* a reader thread runs this walk */
	bool stop;			/* (locked) */
	bool reading;			/* the reader holds a buffer (locked) */
	struct chunk *free;		/* (locked) */
	struct chunk *ready, **ready_tail;	/* in file order (locked) */
	__u64 next_read, end;		/* what is left to read (locked) */
	int err;			/* a read failed (locked) */

	struct chunk *cur;		/* the walk's (walk thread) */
};

/* A new buffer into the free list; false when CHUNK_MAX_BUFS are made. Locked. */
static bool chunks__grow(struct pulse_chunks *c)
{
	struct chunk *k;

	if (c->nr_bufs == CHUNK_MAX_BUFS)
		return false;
	k = &c->bufs[c->nr_bufs];
	k->buf = c->region + c->nr_bufs++ * c->stride;
	k->next = c->free;
	c->free = k;
	return true;
}

/* A buffer the walk has left and no record holds goes back to the reader. */
static void chunk__release(struct pulse_chunks *c, struct chunk *k)
{
	if (k->busy || k->pins)
		return;
	pthread_mutex_lock(&c->lock);
	k->next = c->free;
	c->free = k;
	pthread_cond_signal(&c->to_reader);
	pthread_mutex_unlock(&c->lock);
}

/* pread @len bytes at @off into @buf: the bytes read, or -errno */
static ssize_t read_full(int fd, unsigned char *buf, size_t len, __u64 off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, off + got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += n;
	}
	return got;
}

/* Fill @k with the next read. Called with the lock held; drops it while reading. */
static void chunks__fill(struct pulse_chunks *c, struct chunk *k)
{
	__u64 off = c->next_read;
	size_t want = c->end - off < c->size ? c->end - off : c->size;
	ssize_t n;

	c->next_read = off + want;
	c->reading = true;
	pthread_mutex_unlock(&c->lock);
	n = read_full(c->fd, k->buf + CHUNK_ROOM, want, off);
	pthread_mutex_lock(&c->lock);
	c->reading = false;
	if (n < 0) {
		c->err = (int)n;
		c->next_read = c->end;
		n = 0;
	} else if ((size_t)n < want) {
		c->next_read = c->end;		/* the file is shorter than it was */
	}
	k->off = off;
	k->len = n;
	k->head = 0;
	k->next = NULL;
	*c->ready_tail = k;
	c->ready_tail = &k->next;
	pthread_cond_signal(&c->to_walk);
}

static void *chunks__reader(void *arg)
{
	struct pulse_chunks *c = arg;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		struct chunk *k;

		while (!c->stop && (!c->free || c->next_read >= c->end))
			pthread_cond_wait(&c->to_reader, &c->lock);
		if (c->stop)
			break;
		k = c->free;
		c->free = k->next;
		chunks__fill(c, k);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int pulse_chunks__new(struct pulse_chunks **out, int fd, size_t size)
{
	struct pulse_chunks *c = calloc(1, sizeof(*c));
	long page = sysconf(_SC_PAGESIZE);

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->fd = fd;
	c->size = (size + page - 1) & ~(size_t)(page - 1);
	c->stride = CHUNK_ROOM + c->size;
	/*
	 * Reserved at once, backed as used, in 2 MiB pages where the kernel
	 * has them: on the same machines a first touch of a fresh 4 KiB page
	 * costs some 10 us
	 */
	c->map_len = (size_t)CHUNK_MAX_BUFS * c->stride + HUGE_SIZE;
	c->map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->map == MAP_FAILED) {
		free(c);
		return -ENOMEM;
	}
	c->region = (unsigned char *)(((uintptr_t)c->map + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	madvise(c->region, (size_t)CHUNK_MAX_BUFS * c->stride, MADV_HUGEPAGE);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->to_reader, NULL);
	pthread_cond_init(&c->to_walk, NULL);
	*out = c;
	return 0;
}

void pulse_chunks__delete(struct pulse_chunks *c)
{
	if (!c)
		return;
	pulse_chunks__end_walk(c);
	pthread_cond_destroy(&c->to_walk);
	pthread_cond_destroy(&c->to_reader);
	pthread_mutex_destroy(&c->lock);
	munmap(c->map, c->map_len);
	free(c);
}

int pulse_chunks__walk(struct pulse_chunks *c, __u64 from, __u64 end)
{
	long page = sysconf(_SC_PAGESIZE);
	int err;

	pulse_chunks__end_walk(c);
	pthread_mutex_lock(&c->lock);
	/* reads start on a page: a record then sits as it would in the mapping */
	c->next_read = from & ~(__u64)(page - 1);
	c->end = end > c->next_read ? end : c->next_read;
	c->err = 0;
	c->stop = false;
	c->ready = NULL;
	c->ready_tail = &c->ready;
	while (c->nr_bufs < CHUNK_START && chunks__grow(c))
		;
	pthread_mutex_unlock(&c->lock);
	c->thread = false;
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		err = pthread_create(&c->tid, NULL, chunks__reader, c);
		/* without a thread the walk reads for itself */
		c->thread = !err;
	}
	return 0;
}

void pulse_chunks__end_walk(struct pulse_chunks *c)
{
	struct chunk *k, *next;

	if (c->thread) {
		pthread_mutex_lock(&c->lock);
		c->stop = true;
		pthread_cond_signal(&c->to_reader);
		pthread_mutex_unlock(&c->lock);
		pthread_join(c->tid, NULL);
		c->thread = false;
	}
	/* what was read ahead and not walked goes back; pinned buffers wait */
	pthread_mutex_lock(&c->lock);
	for (k = c->ready; k; k = next) {
		next = k->next;
		k->next = c->free;
		c->free = k;
	}
	c->ready = NULL;
	c->ready_tail = &c->ready;
	pthread_mutex_unlock(&c->lock);
	if (c->cur) {
		c->cur->busy = false;
		chunk__release(c, c->cur);
		c->cur = NULL;
	}
}

/* The next buffer in file order; NULL at the end or on an error (*err). */
static struct chunk *chunks__next(struct pulse_chunks *c, int *err)
{
	struct chunk *k = NULL;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		if (c->ready) {
			k = c->ready;
			c->ready = k->next;
			if (!c->ready)
				c->ready_tail = &c->ready;
			break;
		}
		if (c->reading) {
			pthread_cond_wait(&c->to_walk, &c->lock);
			continue;
		}
		if (c->next_read >= c->end)
			break;
		/* every buffer is pinned or walked: one more for the reader */
		if (!c->free && !chunks__grow(c)) {
			c->err = -ENOBUFS;	/* the pin limit keeps this from happening */
			break;
		}
		if (!c->thread) {
			k = c->free;
			c->free = k->next;
			chunks__fill(c, k);
			continue;
		}
		pthread_cond_signal(&c->to_reader);
		pthread_cond_wait(&c->to_walk, &c->lock);
	}
	*err = c->err;
	pthread_mutex_unlock(&c->lock);
	if (k)
		k->busy = true;
	return k;
}

size_t pulse_chunks__peek(struct pulse_chunks *c, __u64 pos, size_t want,
			  const unsigned char **p, int *err)
{
	struct chunk *k = c->cur, *n;

	*err = 0;
	if (want > CHUNK_ROOM)
		want = CHUNK_ROOM;
	for (;;) {
		__u64 end = k ? k->off + k->len : 0;
		size_t tail;

		if (k && pos >= k->off - k->head && pos <= end && end - pos >= want) {
			*p = k->buf + CHUNK_ROOM - (k->off - pos);
			return want;
		}
		n = chunks__next(c, err);
		if (!n) {
			/* the end of the data (or an error): what is left */
			if (!k || pos < k->off - k->head || pos >= end)
				return 0;
			*p = k->buf + CHUNK_ROOM - (k->off - pos);
			return end - pos;
		}
		/* the part of a record @k holds goes before @n's data */
		tail = k && pos >= k->off - k->head && pos < end && n->off == end ? end - pos : 0;
		if (tail)
			memcpy(n->buf + CHUNK_ROOM - tail, k->buf + CHUNK_ROOM - (k->off - pos),
			       tail);
		n->head = tail;
		if (k) {
			k->busy = false;
			chunk__release(c, k);
		}
		c->cur = k = n;
	}
}

void *pulse_chunks__pin(struct pulse_chunks *c, const void *rec, size_t size)
{
	struct chunk *k = c->cur;
	const unsigned char *p = rec;

	if (!k || p < k->buf + CHUNK_ROOM - k->head || p > k->buf + CHUNK_ROOM + k->len ||
	    size > (size_t)(k->buf + CHUNK_ROOM + k->len - p))
		return NULL;
	if (!k->pins) {
		/* keep buffers for the reader: past this, the caller copies */
		if (c->nr_pinned + CHUNK_SPARE >= CHUNK_MAX_BUFS)
			return NULL;
		c->nr_pinned++;
	}
	k->pins++;
	return k;
}

void pulse_chunks__unpin(struct pulse_chunks *c, void *pin)
{
	struct chunk *k = pin;

	if (--k->pins)
		return;
	c->nr_pinned--;
	chunk__release(c, k);
}
