/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte-swap cursor swap.c and the feature rows (feat-*.c) share; not
 * part of the public API.
 */
#ifndef PULSE_DATA_SWAP_H
#define PULSE_DATA_SWAP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "core/internal.h"

/*
 * A file recorded on a machine of the other endianness is turned into a
 * native one record by record. Every field is swapped at its own width, so
 * the cursor needs the layout; counts inside the record (callchain nr, raw
 * size...) are read on the native side of the swap, which depends on the
 * direction: before swapping when making a foreign file, after when reading
 * one. Payloads that are byte streams (strings, raw tracepoint data, user
 * stacks, AUX data) stay as they are, as perf leaves them.
 */
struct swc {
	unsigned char *p;
	size_t left;
	bool to_native;
};

static inline int sw_u64(struct swc *c, __u64 *v)
{
	__u64 raw, s;

	if (c->left < 8)
		return -EBADMSG;
	raw = get_u64(c->p);
	s = __builtin_bswap64(raw);
	memcpy(c->p, &s, 8);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 8;
	c->left -= 8;
	return 0;
}

static inline int sw_u32(struct swc *c, __u32 *v)
{
	__u32 raw, s;

	if (c->left < 4)
		return -EBADMSG;
	raw = get_u32(c->p);
	s = __builtin_bswap32(raw);
	memcpy(c->p, &s, 4);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 4;
	c->left -= 4;
	return 0;
}

static inline int sw_u16(struct swc *c, __u16 *v)
{
	__u16 raw, s;

	if (c->left < 2)
		return -EBADMSG;
	raw = get_u16(c->p);
	s = __builtin_bswap16(raw);
	memcpy(c->p, &s, 2);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 2;
	c->left -= 2;
	return 0;
}

static inline int sw_skip(struct swc *c, __u64 n)
{
	if (n > c->left)
		return -EBADMSG;
	c->p += n;
	c->left -= n;
	return 0;
}

/* @n u64s; ~0 for every whole u64 left. */
static inline int sw_u64s(struct swc *c, __u64 n)
{
	if (n == ~0ULL)
		n = c->left / 8;
	if (n > c->left / 8)
		return -EBADMSG;
	while (n--)
		sw_u64(c, NULL);
	return 0;
}

/*
 * A fixed layout: '8', '4', '2' swap a field of that width, '1' skips a
 * byte, 'B' skips a 20-byte build-id, 'M' a 64-byte message, '*' swaps
 * every whole u64 left; the rest of the region is left alone. A record
 * shorter than its layout (an older perf) is swapped as far as it goes.
 */
static inline int sw_layout(struct swc *c, const char *f)
{
	for (; *f; f++) {
		int err = 0;

		switch (*f) {
		case '8': err = sw_u64(c, NULL); break;
		case '4': err = sw_u32(c, NULL); break;
		case '2': err = sw_u16(c, NULL); break;
		case '1': err = sw_skip(c, 1); break;
		case 'B': err = sw_skip(c, 20); break;
		case 'M': err = sw_skip(c, 64); break;
		case '*': err = sw_u64s(c, ~0ULL); break;
		}
		if (err)
			return 0;
	}
	return 0;
}

/* perf_header_string: u32 len, then len bytes */
static inline int sw_str(struct swc *c)
{
	__u32 len;

	return sw_u32(c, &len) ?: sw_skip(c, len);
}

static inline int sw_strs(struct swc *c, __u64 n)
{
	for (__u64 i = 0; i < n; i++)
		if (sw_str(c))
			return -EBADMSG;
	return 0;
}

/* a u32 at @p as the file means it */
static inline __u32 sw_peek32(const struct swc *c, const unsigned char *p)
{
	__u32 raw = get_u32(p);

	return c->to_native ? __builtin_bswap32(raw) : raw;
}


#endif
