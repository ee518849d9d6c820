// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area consumer (include/pulse/ring-aux.h).
 *
 * The ordering is the normal ring's, on the aux_* fields of the same user
 * page: the PMU driver writes the trace, then perf_aux_output_end() stores
 * aux_head; we load it with acquire before reading the bytes below it. In
 * full mode perf_aux_output_begin() reads aux_tail before the PMU may write
 * again, so we store aux_tail with release once the bytes are copied.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pulse/ring-aux.h>
#include "core/internal.h"

static bool is_pow2(__u64 v)
{
	return v && !(v & (v - 1));
}

int pulse_aux__init_mem(struct pulse_aux *a, void *user_page, void *aux, size_t aux_size,
			bool snapshot)
{
	memset(a, 0, sizeof(*a));
	if (!user_page || !aux || !is_pow2(aux_size))
		return -EINVAL;
	a->pc = user_page;
	a->data = aux;
	a->size = aux_size;
	a->mask = aux_size - 1;
	a->snapshot = snapshot;
	/* snapshot: what the buffer held before we came is not ours to count */
	a->prev = snapshot ? 0 : __atomic_load_n(&a->pc->aux_tail, __ATOMIC_RELAXED);
	return 0;
}

int pulse_aux__mmap(struct pulse_aux *a, void *user_page, int fd, __u64 aux_offset,
		    size_t aux_size, bool snapshot)
{
	struct perf_event_mmap_page *pc = user_page;
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	int err;

	memset(a, 0, sizeof(*a));
	if (!pc || !is_pow2(aux_size) || aux_size < (size_t)page || aux_offset % page)
		return -EINVAL;
	/* the kernel takes the area's place and size from the user page */
	pc->aux_offset = aux_offset;
	pc->aux_size = aux_size;
	p = mmap(NULL, aux_size, PROT_READ | (snapshot ? 0 : PROT_WRITE), MAP_SHARED, fd,
		 aux_offset);
	if (p == MAP_FAILED)
		return -errno;
	err = pulse_aux__init_mem(a, pc, p, aux_size, snapshot);
	if (err) {
		munmap(p, aux_size);
		return err;
	}
	a->mmap_len = aux_size;
	return 0;
}

void pulse_aux__munmap(struct pulse_aux *a)
{
	if (a->mmap_len)
		munmap(a->data, a->mmap_len);
	memset(a, 0, sizeof(*a));
}

__u64 pulse_aux__read_head(const struct pulse_aux *a)
{
	return __atomic_load_n(&a->pc->aux_head, __ATOMIC_ACQUIRE);
}

void pulse_aux__write_tail(struct pulse_aux *a, __u64 tail)
{
	__atomic_store_n(&a->pc->aux_tail, tail, __ATOMIC_RELEASE);
}

/* [pos, pos + len) of the area as one or two iovecs */
static void chunk_iov(const struct pulse_aux *a, struct pulse_aux_chunk *c, __u64 pos, __u64 len)
{
	size_t off = pos & a->mask;
	size_t first = a->size - off;

	c->offset = pos;
	c->size = len;
	c->cnt = 0;
	if (!len)
		return;
	c->iov[0].iov_base = a->data + off;
	if (len <= first) {
		c->iov[0].iov_len = len;
		c->cnt = 1;
		return;
	}
	c->iov[0].iov_len = first;
	c->iov[1].iov_base = a->data;
	c->iov[1].iov_len = len - first;
	c->cnt = 2;
}

int pulse_aux__read(struct pulse_aux *a, struct pulse_aux_chunk *c)
{
	__u64 head, tail = a->prev;

	memset(c, 0, sizeof(*c));
	if (a->snapshot)
		return -EINVAL;
	head = pulse_aux__read_head(a);
	if (head == tail)
		return -EAGAIN;
	if (head - tail > a->size) {
		a->overwritten += head - tail;
		a->prev = head;
		pulse_aux__write_tail(a, head);
		return -EBADMSG;
	}
	chunk_iov(a, c, tail, head - tail);
	c->head = head;
	return 0;
}

void pulse_aux__consume(struct pulse_aux *a, const struct pulse_aux_chunk *c)
{
	if (!c->size)
		return;
	a->prev = c->offset + c->size;
	a->taken += c->size;
	pulse_aux__write_tail(a, a->prev);
}

void pulse_aux__set_masked_head(struct pulse_aux *a)
{
	a->masked_head = true;
}

void pulse_aux__set_written(struct pulse_aux *a, __u64 total)
{
	a->counted = true;
	a->written = total;
}

/*
 * The PMU has gone round the area: it writes in order from offset 0 into
 * an area that starts zeroed, so a byte it wrote at or after @head means a
 * lap (perf's intel_pt_first_wrap() looks at the last 4 KiB only, which
 * takes the tail of a first lap for a wrap; a zero byte is a PAD packet in
 * Intel PT, so zeros read as trace do no harm there, but they are not
 * taken here)
 */
static bool has_wrapped(const struct pulse_aux *a, __u64 head)
{
	for (__u64 i = head; i < a->size; i++)
		if (a->data[i])
			return true;
	return false;
}

/*
 * aux_head inside the area: with the PMU's count (pulse_aux__set_written()),
 * what came since the last snapshot ending at aux_head; without it, what
 * came since the last snapshot until the first wrap, the whole area ending
 * at aux_head after it (as perf's intel_pt_find_snapshot() turns head and
 * old into full-mode positions)
 */
static int snapshot_masked(struct pulse_aux *a, size_t max, struct pulse_aux_chunk *c)
{
	__u64 head = pulse_aux__read_head(a) & a->mask, old = a->prev & a->mask, end, take;

	/* the PMU's own account: what came since the last snapshot */
	take = a->counted ? a->written - a->written_taken : 0;
	c->written = a->written;
	if (a->counted && !take && head == old)
		return -EAGAIN;
	/* (aux_head moved with no AUX record yet: the PMU still runs; as uncounted) */
	if (take) {
		if (take > a->size) {
			c->overwritten = take - a->size;
			take = a->size;
		}
		if (max && take > max)
			take = max;
		/* the offset in the area, as perf writes it */
		end = head < take ? head + a->size : head;
		chunk_iov(a, c, end - take, take);
		c->head = head;
		return 0;
	}
	if (!a->wrapped && has_wrapped(a, head))
		a->wrapped = true;
	/* perf's old and head made full-mode positions: old < end */
	if (a->wrapped) {
		end = head + a->size;
		take = a->size;
	} else {
		if (head == old)
			return -EAGAIN;
		end = head > old ? head : head + a->size;
		take = end - old;
	}
	if (max && take > max)
		take = max;
	/* [end - take, end), taken modulo the area; the offset as perf writes it */
	chunk_iov(a, c, end - take, take);
	c->head = head;
	return 0;
}

int pulse_aux__snapshot(struct pulse_aux *a, size_t max, struct pulse_aux_chunk *c)
{
	__u64 head, avail, take;

	memset(c, 0, sizeof(*c));
	if (a->masked_head)
		return snapshot_masked(a, max, c);
	head = pulse_aux__read_head(a);
	if (head == a->prev)
		return -EAGAIN;
	avail = head - a->prev;
	take = avail < a->size ? avail : a->size;
	c->overwritten = avail - take;
	if (max && take > max)
		take = max;
	chunk_iov(a, c, head - take, take);
	c->head = head;
	return 0;
}

__u64 pulse_aux__snapshot_check(const struct pulse_aux *a, const struct pulse_aux_chunk *c)
{
	__u64 head = pulse_aux__read_head(a);
	__u64 safe_from;

	/* masked: nothing tells how far the PMU went; it must be paused */
	if (a->masked_head)
		return 0;
	/* once head passes offset + size, the slot of offset holds newer bytes */
	if (head - c->offset <= a->size)
		return 0;
	safe_from = head - a->size;
	return safe_from - c->offset < c->size ? safe_from - c->offset : c->size;
}

void pulse_aux__snapshot_done(struct pulse_aux *a, const struct pulse_aux_chunk *c)
{
	a->prev = c->head;
	a->taken += c->size;
	a->overwritten += c->overwritten;
	if (a->counted)
		a->written_taken = c->written;
}
