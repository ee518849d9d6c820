// SPDX-License-Identifier: GPL-2.0
/*
 * Where the reader's bytes come from: a buffer (an mmap'ed file or the
 * caller's image) walked in place, a big file's data section read ahead
 * into reused buffers (chunks.c), or a stream read into a small buffer
 * that is refilled as records are consumed, so that a record is always
 * contiguous when it is looked at.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "data/reader-internal.h"

__u64 pulse_data__src_pos(const struct pulse_data *d)
{
	return d->stream ? d->soff + d->spos : d->pos;
}

/* Make up to @want bytes contiguous at the current position; returns how many. */
size_t pulse_data__src_peek(struct pulse_data *d, size_t want, const unsigned char **p)
{
	if (d->chunked) {
		size_t left = d->lim - d->pos, n;
		int err;

		n = pulse_chunks__peek(d->chunks, d->pos, want < left ? want : left, p, &err);
		if (err)
			d->serr = err;
		return n;
	}
	if (!d->stream) {
		size_t left = d->lim - d->pos;

		*p = d->mem + d->pos;
		return want < left ? want : left;
	}
	if (d->send - d->spos < want && !d->seof) {
		memmove(d->sbuf, d->sbuf + d->spos, d->send - d->spos);
		d->send -= d->spos;
		d->soff += d->spos;
		d->spos = 0;
		while (d->send < want) {
			ssize_t n = read(d->fd, d->sbuf + d->send, STREAM_BUF_SIZE - d->send);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				d->serr = -errno;
			if (n <= 0) {
				d->seof = true;
				break;
			}
			d->send += n;
		}
	}
	*p = d->sbuf + d->spos;
	return want < d->send - d->spos ? want : d->send - d->spos;
}

void pulse_data__src_advance(struct pulse_data *d, size_t n)
{
	if (d->stream)
		d->spos += n;
	else
		d->pos += n;
}

/*
 * Consume an out-of-band payload, copying it to @dst (NULL: discard).
 * Returns the bytes consumed, less than @n at the end of the input.
 */
__u64 pulse_data__src_consume(struct pulse_data *d, __u64 n, unsigned char *dst)
{
	__u64 done = 0;

	while (done < n) {
		const unsigned char *p;
		size_t chunk = n - done > STREAM_BUF_SIZE ? STREAM_BUF_SIZE : n - done;
		size_t got = pulse_data__src_peek(d, chunk, &p);

		if (!got)
			break;
		if (dst)
			memcpy(dst + done, p, got);
		pulse_data__src_advance(d, got);
		done += got;
	}
	return done;
}

void *pulse_data__record_pin(struct pulse_data *d, const void *rec, size_t size)
{
	return d->chunks ? pulse_chunks__pin(d->chunks, rec, size) : NULL;
}

void pulse_data__record_unpin(struct pulse_data *d, void *pin)
{
	if (pin)
		pulse_chunks__unpin(d->chunks, pin);
}
