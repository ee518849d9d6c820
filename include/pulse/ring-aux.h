/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AUX area of a perf_event ring buffer, consumer side (lib/ring/aux.c).
 *
 * A PMU that writes a stream of its own (Intel PT, BTS, CoreSight, SPE)
 * gets a second mapping of the event's fd: the user page of the normal ring
 * says where (aux_offset, aux_size: written by us before the mmap) and
 * carries aux_head (the PMU's free-running write position) and aux_tail
 * (ours). include/uapi/linux/perf_event.h: aux_head is read with acquire,
 * aux_tail written with release.
 *
 * Full mode (a PROT_WRITE mapping): the PMU stops when it catches up with
 * aux_tail (a PERF_RECORD_AUX with PERF_AUX_FLAG_TRUNCATED in the normal
 * ring says so); the consumer reads [aux_tail, aux_head) and moves aux_tail.
 *
 * Snapshot mode (a read-only mapping): the PMU overwrites the oldest bytes
 * (PERF_AUX_FLAG_OVERWRITE); a snapshot takes the newest bytes ending at
 * aux_head, at most one buffer, with the PMU paused
 * (PERF_EVENT_IOC_PAUSE_OUTPUT). Bytes written since the last snapshot that
 * the buffer no longer holds are counted as overwritten; if the PMU was not
 * paused, pulse_aux__snapshot_check() tells how many bytes at the start of
 * the copy may have been overwritten while it was made (torn).
 *
 *	full:		while (pulse_aux__read(a, &c) == 0) { write c.iov; pulse_aux__consume(a, &c); }
 *	snapshot:	pause; if (pulse_aux__snapshot(a, max, &c) == 0) { write c.iov;
 *			pulse_aux__snapshot_done(a, &c); } resume
 *
 * aux_head is a free-running counter, as the generic code
 * (kernel/events/ring_buffer.c) keeps it, except in the snapshot mode of
 * the Intel PT and BTS drivers, which keep it an offset in the buffer
 * (pt_update_head(): data_size = base): pulse_aux__set_masked_head() says
 * so, and a snapshot then works as perf's intel_pt_find_snapshot(): until
 * the PMU has gone round the area (which starts zeroed: a non-zero byte at
 * or after aux_head says it has) it takes what came since the last
 * snapshot, after that the whole area ending at aux_head; what was
 * overwritten cannot be known there and is not counted, unless the
 * recorder gives the PMU's own count from its AUX records
 * (pulse_aux__set_written()): then exactly what came since the last one.
 */
#ifndef PULSE_RING_AUX_H
#define PULSE_RING_AUX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

struct pulse_aux {
	struct perf_event_mmap_page *pc;	/* the normal ring's user page */
	unsigned char *data;			/* the AUX area */
	__u64 size;				/* its bytes, a power of two */
	__u64 mask;
	size_t mmap_len;			/* bytes mapped (0: caller memory) */
	bool snapshot;				/* read-only, overwritten by the PMU */
	__u64 prev;				/* full: tail published; snapshot: head taken */
	__u64 taken;				/* bytes handed out */
	__u64 overwritten;			/* snapshot: bytes lost to the PMU before a snapshot */
	bool masked_head;			/* snapshot: aux_head is an offset in the area */
	bool wrapped;				/* masked: the PMU has gone round the area */
	bool counted;				/* masked: the PMU's AUX records say what it wrote */
	__u64 written;				/* counted: bytes the PMU said it wrote, ever */
	__u64 written_taken;			/* counted: @written at the last snapshot */
};

/* One piece of AUX data: [offset, offset + size) as one or two iovecs. */
struct pulse_aux_chunk {
	struct iovec iov[2];
	int cnt;
	__u64 offset;		/* free-running position of the first byte (masked: in the area) */
	__u64 size;
	__u64 head;		/* aux_head when the chunk was taken */
	__u64 overwritten;	/* snapshot: bytes since the last one the buffer lost */
	__u64 written;		/* counted: the PMU's total when the chunk was taken */
};

/**
 * pulse_aux__mmap - map the AUX area of @fd
 * @a: zeroed object to fill
 * @user_page: the event's normal ring, already mapped read-write
 * @fd: the event fd
 * @aux_offset: file offset of the area, past the normal ring (page aligned)
 * @aux_size: bytes, a power of two of pages
 * @snapshot: map read-only (the PMU overwrites)
 *
 * Return: 0 or -errno (-EINVAL: a bad size; the kernel's error otherwise).
 */
int pulse_aux__mmap(struct pulse_aux *a, void *user_page, int fd, __u64 aux_offset,
		    size_t aux_size, bool snapshot);

/* As pulse_aux__mmap() on caller memory (the model producer's). */
int pulse_aux__init_mem(struct pulse_aux *a, void *user_page, void *aux, size_t aux_size,
			bool snapshot);

void pulse_aux__munmap(struct pulse_aux *a);

/* aux_head, loaded with acquire. */
__u64 pulse_aux__read_head(const struct pulse_aux *a);
/* aux_tail, stored with release. */
void pulse_aux__write_tail(struct pulse_aux *a, __u64 tail);

/**
 * pulse_aux__read - full mode: the bytes [aux_tail, aux_head)
 * Return: 0, -EAGAIN when there are none, -EINVAL in snapshot mode,
 * -EBADMSG when aux_head is more than a buffer ahead of the tail (which a
 * kernel never does on a writable mapping; the bytes are skipped, counted
 * in @a->overwritten, and the tail moved).
 */
int pulse_aux__read(struct pulse_aux *a, struct pulse_aux_chunk *c);

/* Full mode: give the chunk's bytes back to the PMU (aux_tail, release). */
void pulse_aux__consume(struct pulse_aux *a, const struct pulse_aux_chunk *c);

/* Snapshot mode of a driver that keeps aux_head inside the area (intel_pt, intel_bts). */
void pulse_aux__set_masked_head(struct pulse_aux *a);

/*
 * Masked snapshot mode: @total is the sum of the aux_size of every
 * PERF_RECORD_AUX the PMU wrote for this area so far, read with the PMU
 * paused. From then on a snapshot takes what came since the last one (at
 * most the area; the rest is counted as overwritten), and nothing when
 * nothing came, rather than the whole area after the first wrap: no byte
 * is taken twice.
 */
void pulse_aux__set_written(struct pulse_aux *a, __u64 total);

/**
 * pulse_aux__snapshot - snapshot mode: the newest bytes, ending at aux_head
 * @max: at most this many bytes (0: the whole buffer)
 * Bytes since the last snapshot beyond one buffer are counted in
 * @c->overwritten (and in @a->overwritten by snapshot_done).
 * Return: 0, -EAGAIN when nothing was written since the last snapshot.
 */
int pulse_aux__snapshot(struct pulse_aux *a, size_t max, struct pulse_aux_chunk *c);

/*
 * After copying @c out: the bytes at its start the PMU may have overwritten
 * meanwhile (0 when it was paused, as it should be); trim them.
 */
__u64 pulse_aux__snapshot_check(const struct pulse_aux *a, const struct pulse_aux_chunk *c);

/* The snapshot is stored: the next one starts at its head. */
void pulse_aux__snapshot_done(struct pulse_aux *a, const struct pulse_aux_chunk *c);

#endif
