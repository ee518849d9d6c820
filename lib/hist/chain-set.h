/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The distinct callchains of a report, each kept once (chain-set.c): the
 * pool keeps every sample for its second pass, and most samples repeat a
 * chain seen before (6,686 distinct chains in 63,892 samples of the C
 * --call-graph dwarf benchmark file, 2,284 in 63,808 of python3's).
 */
#ifndef PULSE_HIST_CHAIN_SET_H
#define PULSE_HIST_CHAIN_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pulse/cc-cursor.h>
#include "core/arena.h"

struct chain_slot;

struct pulse_chain_set {
	struct chain_slot *slots;	/* open addressing, a power of two */
	size_t mask;			/* slots - 1 */
	size_t nr;			/* chains kept */
	struct pulse_arena arena;	/* their frames */
	uint64_t lookups, hits;
	bool off;			/* too few repeats: the set stopped taking chains */
};

/* A zeroed struct is an empty set. */
void pulse_chain_set__exit(struct pulse_chain_set *cs);

/**
 * pulse_chain_set__intern - the set's copy of @chain[@nr]
 *
 * Frames are equal when every field but the padding is. A set that has
 * found fewer than half of its first lookups already kept stops taking
 * chains (the copy costs more than it saves there).
 *
 * Return: a copy valid until pulse_chain_set__exit(); NULL when the set
 * is off or out of memory: the caller keeps the chain itself.
 */
const struct pulse_cc_loc *pulse_chain_set__intern(struct pulse_chain_set *cs,
						   const struct pulse_cc_loc *chain, size_t nr);

#endif
