/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bump allocator for objects that live and die together (the callchain
 * trees of one histogram): no per-object header, neighbours in memory,
 * and one free per chunk at the end instead of one per node, which was an
 * eighth of a large children report's time.
 */
#ifndef PULSE_ARENA_H
#define PULSE_ARENA_H

#include <stddef.h>

struct pulse_arena_chunk;

struct pulse_arena {
	struct pulse_arena_chunk *chunks;	/* newest first */
	char *cur;				/* free space in the newest chunk */
	size_t left;				/* bytes at @cur */
	size_t next_size;			/* the next chunk's size */
	size_t used;				/* bytes handed out */
};

/* A zeroed struct pulse_arena is an empty arena. */

/**
 * pulse_arena__alloc - @size bytes, 16-byte aligned, uninitialised
 * Return: the memory, valid until pulse_arena__exit(), or NULL.
 */
void *pulse_arena__alloc(struct pulse_arena *a, size_t size);

/* Moves every chunk of @src to @dst (freed with it); @src is empty again. */
void pulse_arena__adopt(struct pulse_arena *dst, struct pulse_arena *src);

/* Frees every chunk; the arena is empty again. */
void pulse_arena__exit(struct pulse_arena *a);

#endif
