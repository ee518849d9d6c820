// SPDX-License-Identifier: GPL-2.0
/*
 * Records laid over iovecs: a ring's batch comes in one or two pieces. A
 * walk keeps its place, as each of the recorder's walks runs once per
 * record: a snapshot of two full 32 MiB rings is 1.7 million records.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <linux/perf_event.h>
#include "core/internal.h"

void pulse_iov__gather(const struct iovec *iov, int cnt, int *i, size_t *off, void *dst,
		       size_t len)
{
	unsigned char *d = dst;

	while (len && *i < cnt) {
		size_t n = iov[*i].iov_len - *off;

		if (n > len)
			n = len;
		memcpy(d, (const unsigned char *)iov[*i].iov_base + *off, n);
		d += n;
		len -= n;
		*off += n;
		if (*off == iov[*i].iov_len) {
			(*i)++;
			*off = 0;
		}
	}
}

void pulse_iov_walk__init(struct pulse_iov_walk *w, const struct iovec *iov, int cnt, size_t len)
{
	size_t total = 0;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	*w = (struct pulse_iov_walk){ .iov = iov, .cnt = cnt, .len = len < total ? len : total };
}

int pulse_iov_walk__peek(struct pulse_iov_walk *w, struct perf_event_header *h)
{
	size_t left = w->len - w->pos;

	if (!left)
		return 0;
	if (left < sizeof(*h))
		return -EINVAL;
	/* pos < len <= the iovecs' total: an iovec with bytes left follows */
	while (w->off == w->iov[w->i].iov_len) {
		w->i++;
		w->off = 0;
	}
	if (w->iov[w->i].iov_len - w->off >= sizeof(*h)) {
		memcpy(h, (const unsigned char *)w->iov[w->i].iov_base + w->off, sizeof(*h));
	} else {
		int i = w->i;
		size_t off = w->off;

		pulse_iov__gather(w->iov, w->cnt, &i, &off, h, sizeof(*h));
	}
	if (h->size < sizeof(*h) || h->size > left)
		return -EINVAL;
	return 1;
}

const void *pulse_iov_walk__take(struct pulse_iov_walk *w, size_t size, void *buf)
{
	const unsigned char *p = (const unsigned char *)w->iov[w->i].iov_base + w->off;

	w->pos += size;
	if (size <= w->iov[w->i].iov_len - w->off) {
		w->off += size;
		return p;
	}
	pulse_iov__gather(w->iov, w->cnt, &w->i, &w->off, buf, size);
	return buf;
}

void pulse_iov_walk__skip(struct pulse_iov_walk *w, size_t size)
{
	w->pos += size;
	w->off += size;
	while (w->i < w->cnt && w->off > w->iov[w->i].iov_len) {
		w->off -= w->iov[w->i].iov_len;
		w->i++;
	}
}
