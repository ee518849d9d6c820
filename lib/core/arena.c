// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include "core/arena.h"

/* chunks grow from 4 KiB (small trees stay small) to 2 MiB */
#define ARENA_FIRST (4u << 10)
#define ARENA_MAX (2u << 20)

struct pulse_arena_chunk {
	struct pulse_arena_chunk *next;
	size_t size;
	_Alignas(16) char data[];
};

void *pulse_arena__alloc(struct pulse_arena *a, size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (size > a->left) {
		size_t csize = a->next_size ? a->next_size : ARENA_FIRST;
		struct pulse_arena_chunk *c;

		if (csize < ARENA_MAX)
			a->next_size = csize * 2;
		else
			a->next_size = ARENA_MAX;
		/* an object larger than a chunk gets a chunk of its own */
		if (csize < size)
			csize = size;
		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->next = a->chunks;
		c->size = csize;
		a->chunks = c;
		a->cur = c->data;
		a->left = csize;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	a->used += size;
	return p;
}

void pulse_arena__adopt(struct pulse_arena *dst, struct pulse_arena *src)
{
	struct pulse_arena_chunk **tail = &dst->chunks;

	/* behind @dst's chunks: its newest keeps serving allocations */
	while (*tail)
		tail = &(*tail)->next;
	*tail = src->chunks;
	dst->used += src->used;
	src->chunks = NULL;
	pulse_arena__exit(src);
}

void pulse_arena__exit(struct pulse_arena *a)
{
	struct pulse_arena_chunk *c = a->chunks;

	while (c) {
		struct pulse_arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->chunks = NULL;
	a->cur = NULL;
	a->left = 0;
	a->next_size = 0;
	a->used = 0;
}
