// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_event mmap ring buffer, consumer side.
 *
 * The kernel writes records at data_head (a free-running byte counter,
 * indexed with & mask) and publishes data_head only after the record bytes
 * are written (smp_wmb, then the store). We load data_head with acquire so
 * that our reads of the record bytes cannot be satisfied before it, read the
 * batch [prev, head), and store data_tail with release so that the kernel,
 * whose space check reads data_tail before it writes, cannot overwrite bytes
 * we are still reading. This is the (C)/(D) half of the protocol described
 * in kernel/events/ring_buffer.c:perf_output_put_handle().
 *
 * Records are 8-aligned and at most 64 KiB (header.size is a u16); a record
 * that runs past the end of the data area is copied whole into a bounce
 * buffer so the caller always sees it contiguous.
 *
 * Backward (attr.write_backward) buffers are mapped read-only: the kernel
 * ignores data_tail, moves data_head downwards and overwrites the oldest
 * data. data_head then points at the newest record, and the older ones
 * follow it in memory, so a batch is walked from head upwards over at most
 * one buffer's worth of whole records (as libperf's overwrite_rb_find_range).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pulse/mmap.h>
#include <pulse/perf-abi.h>
#include "core/internal.h"

#define HDR_SIZE sizeof(struct perf_event_header)

static struct perf_event_mmap_page *user_page(const struct pulse_mmap *m)
{
	return m->base;
}

/**
 * pulse_mmap__read_head - load data_head
 * @m: the ring
 *
 * Acquire pairs with the kernel's smp_wmb() before its data_head store: the
 * record bytes below head are visible once head is.
 *
 * Return: data_head.
 */
__u64 pulse_mmap__read_head(struct pulse_mmap *m)
{
	return __atomic_load_n(&user_page(m)->data_head, __ATOMIC_ACQUIRE);
}

/**
 * pulse_mmap__write_tail - store data_tail
 * @m: the ring
 * @tail: the new tail
 *
 * Release orders every read of the records below @tail before the store,
 * since the kernel may overwrite them as soon as it sees the new tail.
 */
void pulse_mmap__write_tail(struct pulse_mmap *m, __u64 tail)
{
	__atomic_store_n(&user_page(m)->data_tail, tail, __ATOMIC_RELEASE);
}

/* Copy @len ring bytes starting at free-running position @pos. */
static void ring_copy(const struct pulse_mmap *m, void *dst, __u64 pos, size_t len)
{
	size_t off = pos & m->mask;
	size_t first = m->size - off;

	if (len <= first) {
		memcpy(dst, m->data + off, len);
		return;
	}
	memcpy(dst, m->data + off, first);
	memcpy((unsigned char *)dst + first, m->data, len - first);
}

static __u16 record_size_at(const struct pulse_mmap *m, __u64 pos)
{
	struct perf_event_header hdr;
	size_t off = pos & m->mask;

	/*
	 * Read in place: this runs once per record in every walk (a snapshot
	 * of two full 32 MiB rings is 1.7 million calls). Kernel records are
	 * 8-aligned, so only a corrupt one has a header cut by the end.
	 */
	if (off + HDR_SIZE <= m->size)
		return get_u16(m->data + off + 6);
	ring_copy(m, &hdr, pos, HDR_SIZE);
	return hdr.size;
}

/**
 * pulse_mmap__init_mem - use caller memory laid out as a ring
 * @m: the object to fill (any previous contents are discarded)
 * @base: the header page, followed by the data area
 * @page_size: bytes of the header page
 * @data_size: bytes of the data area, a power of two
 * @overwrite: backward/overwrite buffer (data_tail is never written)
 *
 * Return: 0, -EINVAL for a bad size, -ENOMEM.
 */
int pulse_mmap__init_mem(struct pulse_mmap *m, void *base, size_t page_size, size_t data_size,
			 bool overwrite)
{
	struct perf_event_mmap_page *pc = base;

	memset(m, 0, sizeof(*m));
	if (!base || page_size < sizeof(*pc) || data_size < HDR_SIZE ||
	    (data_size & (data_size - 1)))
		return -EINVAL;
	/* The kernel fills data_size since 4.1; a mismatch means a wrong layout. */
	if (pc->data_size && pc->data_size != data_size) {
		pr_warn("ring: data_size %llu in the user page, expected %zu\n",
			(unsigned long long)pc->data_size, data_size);
		return -EINVAL;
	}
	m->bounce = malloc(PULSE_MAX_RECORD_SIZE);
	if (!m->bounce)
		return -ENOMEM;
	m->base = base;
	m->data = (unsigned char *)base + page_size;
	m->size = data_size;
	m->mask = data_size - 1;
	m->overwrite = overwrite;
	/*
	 * Forward: resume at the tail already published (0 on a new buffer).
	 * Backward: the kernel starts data_head at 0 and moves it down, so
	 * [head, 0) is everything written so far.
	 */
	m->prev = overwrite ? 0 : __atomic_load_n(&pc->data_tail, __ATOMIC_RELAXED);
	m->start = m->end = m->head = m->prev;
	return 0;
}

/**
 * pulse_mmap__mmap - map an event fd's ring buffer
 * @m: object to fill
 * @fd: perf event fd
 * @data_pages: number of data pages, a power of two
 * @overwrite: map read-only (kernel overwrites; use with write_backward)
 *
 * Return: 0 or -errno (-EPERM usually means perf_event_mlock_kb).
 */
int pulse_mmap__mmap(struct pulse_mmap *m, int fd, size_t data_pages, bool overwrite)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	void *base;
	int err;

	memset(m, 0, sizeof(*m));
	if (page <= 0 || !data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	len = (data_pages + 1) * (size_t)page;
	base = mmap(NULL, len, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED | MAP_POPULATE, fd, 0);
	if (base == MAP_FAILED) {
		err = -errno;
		pr_debug("ring: mmap of %zu bytes on fd %d failed: %d\n", len, fd, err);
		return err;
	}
	err = pulse_mmap__init_mem(m, base, page, data_pages * (size_t)page, overwrite);
	if (err) {
		munmap(base, len);
		return err;
	}
	m->mmap_len = len;
	return 0;
}

/**
 * pulse_mmap__munmap - unmap (if we mapped it) and free the bounce buffer
 * @m: the ring; zeroed afterwards
 */
void pulse_mmap__munmap(struct pulse_mmap *m)
{
	if (m->mmap_len && m->base)
		munmap(m->base, m->mmap_len);
	free(m->bounce);
	memset(m, 0, sizeof(*m));
}

/*
 * Backward: walk whole records from @start over at most min(@avail, size)
 * bytes. Past one buffer's worth the bytes belong to newer records, so the
 * record that would cross that limit is the partly overwritten oldest one.
 */
static __u64 backward_find_end(struct pulse_mmap *m, __u64 start, __u64 avail)
{
	__u64 limit = avail < m->size ? avail : m->size;
	__u64 pos = start;

	while (limit - (pos - start) >= HDR_SIZE) {
		__u16 sz = record_size_at(m, pos);

		if (!sz)	/* never written: the buffer has not wrapped yet */
			break;
		if (sz < HDR_SIZE) {
			m->lost_bytes += limit - (pos - start);
			pr_debug("ring: bad record size %u at %#llx\n", sz,
				 (unsigned long long)pos);
			break;
		}
		if (pos - start + sz > limit)
			break;
		pos += sz;
	}
	return pos;
}

/**
 * pulse_mmap__read_init - start a batch
 * @m: the ring
 *
 * Return: 0, or -EAGAIN when there is nothing to read.
 */
int pulse_mmap__read_init(struct pulse_mmap *m)
{
	__u64 head = pulse_mmap__read_head(m);

	m->head = head;
	if (!m->overwrite) {
		if (head == m->prev)
			return -EAGAIN;
		if (head - m->prev > m->size) {
			/* The data we have not read has been overwritten. */
			pr_debug("ring: reader fell behind by %llu bytes\n",
				 (unsigned long long)(head - m->prev));
			m->lost_bytes += head - m->prev;
			m->prev = m->start = m->end = head;
			pulse_mmap__write_tail(m, head);
			return -EAGAIN;
		}
		m->start = m->prev;
		m->end = head;
		return 0;
	}

	if (head == m->prev)
		return -EAGAIN;
	m->start = head;
	m->end = backward_find_end(m, head, m->prev - head);
	if (m->end == m->start) {
		m->prev = head;
		return -EAGAIN;
	}
	return 0;
}

/**
 * pulse_mmap__read_event - the next whole record of the batch
 * @m: the ring
 *
 * Return: the record, in the ring or in the bounce buffer, valid until the
 * next call; NULL at the end of the batch or on a bad record size.
 */
const struct perf_event_header *pulse_mmap__read_event(struct pulse_mmap *m)
{
	__u64 rem = m->end - m->start;
	size_t off = m->start & m->mask;
	const void *ev;
	__u16 sz;

	if (!rem)
		return NULL;
	if (rem < HDR_SIZE)
		goto bad;
	sz = record_size_at(m, m->start);
	/*
	 * data_head is only published at record boundaries, so a record that
	 * runs past the batch is corrupt; stop rather than trust its size.
	 */
	if (sz < HDR_SIZE || sz > rem)
		goto bad;
	if (off + sz <= m->size) {
		ev = m->data + off;
	} else {
		ring_copy(m, m->bounce, m->start, sz);
		ev = m->bounce;
	}
	m->start += sz;
	return ev;
bad:
	pr_debug("ring: bad record at %#llx, skipping %llu bytes\n",
		 (unsigned long long)m->start, (unsigned long long)rem);
	m->lost_bytes += rem;
	m->start = m->end;
	return NULL;
}

/**
 * pulse_mmap__consume - release the records read so far (forward only)
 * @m: the ring
 */
void pulse_mmap__consume(struct pulse_mmap *m)
{
	if (m->overwrite)
		return;
	m->prev = m->start;
	pulse_mmap__write_tail(m, m->start);
}

/**
 * pulse_mmap__read_done - end the batch
 * @m: the ring
 */
void pulse_mmap__read_done(struct pulse_mmap *m)
{
	m->start = m->end;
	if (m->overwrite) {
		m->prev = m->head;
		return;
	}
	m->prev = m->end;
	pulse_mmap__write_tail(m, m->end);
}

/**
 * pulse_mmap__batch_iov - the rest of the batch as one or two iovecs
 * @m: the ring
 * @iov: filled with [start, end), split where it wraps
 *
 * Return: number of iovecs (0 when empty).
 */
int pulse_mmap__batch_iov(struct pulse_mmap *m, struct iovec iov[2])
{
	__u64 len = m->end - m->start;
	size_t off = m->start & m->mask;

	if (!len)
		return 0;
	iov[0].iov_base = m->data + off;
	if (off + len <= m->size) {
		iov[0].iov_len = len;
		return 1;
	}
	iov[0].iov_len = m->size - off;
	iov[1].iov_base = m->data;
	iov[1].iov_len = len - iov[0].iov_len;
	return 2;
}
