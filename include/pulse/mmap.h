/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf_event mmap ring buffer, consumer side (lib/ring/mmap.c).
 *
 * Layout: one header page (struct perf_event_mmap_page) then 2^n data
 * pages. data_head/data_tail are free-running byte counters, indexed with
 * pos & mask. The kernel publishes data_head after the record bytes (smp_wmb);
 * the consumer loads data_head with acquire, reads records, and stores
 * data_tail with release so the kernel may reuse the space.
 *
 * Usage (forward, read-write mapping):
 *	if (pulse_mmap__read_init(m) == 0) {
 *		while ((ev = pulse_mmap__read_event(m)) != NULL) {
 *			... use ev (valid until the next read_event) ...
 *			pulse_mmap__consume(m);
 *		}
 *		pulse_mmap__read_done(m);
 *	}
 * or, for whole-batch copies, pulse_mmap__batch_iov() then read_done().
 *
 * Overwrite (read-only, attr.write_backward) buffers are read newest first
 * from data_head over at most one buffer's worth of whole records.
 */
#ifndef PULSE_MMAP_H
#define PULSE_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

struct pulse_mmap {
	void *base;		/* header page, then the data pages */
	size_t mmap_len;	/* bytes mapped (0 for a caller-owned buffer) */
	unsigned char *data;	/* first data byte */
	__u64 size;		/* data bytes, a power of two */
	__u64 mask;		/* size - 1 */
	__u64 prev;		/* forward: tail we published; backward: head at last read */
	__u64 start;		/* read position inside the current batch */
	__u64 end;		/* end of the current batch */
	__u64 head;		/* data_head loaded by the last read_init */
	bool overwrite;		/* read-only, backward mapping */
	unsigned char *bounce;	/* PULSE_MAX_RECORD_SIZE bytes for wrapped records */
	__u64 lost_bytes;	/* bytes skipped: reader fell behind, or bad record sizes */
};

/**
 * pulse_mmap__mmap - map an event fd's ring buffer
 * @m: zeroed object to fill
 * @fd: perf event fd
 * @data_pages: number of data pages, a power of two
 * @overwrite: map read-only (kernel overwrites; use with write_backward)
 *
 * Return: 0 or -errno (-EPERM usually means perf_event_mlock_kb).
 */
int pulse_mmap__mmap(struct pulse_mmap *m, int fd, size_t data_pages, bool overwrite);

/**
 * pulse_mmap__init_mem - use caller memory laid out as a ring (header page of
 * @page_size bytes, then @data_size data bytes), as the model producer makes.
 */
int pulse_mmap__init_mem(struct pulse_mmap *m, void *base, size_t page_size, size_t data_size,
			 bool overwrite);

void pulse_mmap__munmap(struct pulse_mmap *m);

/* data_head, loaded with acquire semantics. */
__u64 pulse_mmap__read_head(struct pulse_mmap *m);
/* data_tail, stored with release semantics. */
void pulse_mmap__write_tail(struct pulse_mmap *m, __u64 tail);

/**
 * pulse_mmap__read_init - start a batch [prev, head)
 *
 * Forward: if the producer is more than a buffer ahead (which a kernel
 * producer never is on a read-write mapping), everything up to head is
 * skipped, counted in lost_bytes and released. Backward: the batch runs from
 * head toward older records, at most one buffer's worth of whole records,
 * stopping at never-written (zero) space; the oldest, partly overwritten
 * record is dropped.
 *
 * Return: 0, or -EAGAIN when there is nothing to read.
 */
int pulse_mmap__read_init(struct pulse_mmap *m);

/**
 * pulse_mmap__read_event - the next whole record of the batch
 * Return: a pointer into the ring or into the bounce buffer (for a record
 * that wraps), valid until the next call; NULL at the end of the batch or
 * on a record with a size smaller than its header (the rest of the batch is
 * then skipped and counted in lost_bytes).
 */
const struct perf_event_header *pulse_mmap__read_event(struct pulse_mmap *m);

/* Release the records read so far in this batch to the kernel (forward). */
void pulse_mmap__consume(struct pulse_mmap *m);

/*
 * End the batch: forward publishes the tail at the end of the batch (the
 * whole batch is released, read or not); backward remembers the head that
 * read_init saw, so the next batch covers only newer records.
 */
void pulse_mmap__read_done(struct pulse_mmap *m);

/**
 * pulse_mmap__batch_iov - the whole batch [start, end) as one or two iovecs
 * (two when it wraps), for copying it out without parsing.
 * Return: number of iovecs (0 when empty).
 */
int pulse_mmap__batch_iov(struct pulse_mmap *m, struct iovec iov[2]);

#endif
