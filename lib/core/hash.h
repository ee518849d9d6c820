/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PULSE_CORE_HASH_H
#define PULSE_CORE_HASH_H

/*
 * The two hashes the library's open-addressing indexes use, in one place:
 * FNV-1a for names (short strings, cheap, good enough for probing) and
 * splitmix64's finalizer for integers (tids, ips and pointers are far from
 * random, and linear probes cluster on them unmixed).
 */
#include <stddef.h>
#include <stdint.h>

#define PULSE_FNV1A_INIT 0xcbf29ce484222325ULL

/* FNV-1a over @len bytes at @p, continuing from @h (PULSE_FNV1A_INIT to start) */
static inline uint64_t pulse_fnv1a(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

/* FNV-1a of a NUL-terminated string, from the start */
static inline uint64_t pulse_fnv1a_str(const char *s)
{
	uint64_t h = PULSE_FNV1A_INIT;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* splitmix64's finalizer: every input bit reaches every output bit */
static inline uint64_t pulse_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif
