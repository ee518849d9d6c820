/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample id -> event routing: a sorted array of (id, index) pairs with a
 * binary search, for whoever must find the event (attr, evsel) a record's
 * id belongs to. The reader routes every record through one; a recorder
 * can use the same for its evsels.
 *
 * Usage: pulse_id_index__init(); pulse_id_index__add() for every id of
 * every event (in any order); pulse_id_index__sort(); then
 * pulse_id_index__find() as often as needed. Adding after sorting is fine
 * as long as pulse_id_index__sort() is called again before the next find.
 * pulse_id_index__exit() frees the entries.
 */
#ifndef PULSE_ID_INDEX_H
#define PULSE_ID_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* One id and the event it belongs to. */
struct pulse_id_index_ent {
	__u64 id;	/* the sample id (PERF_SAMPLE_ID / IDENTIFIER) */
	size_t idx;	/* the caller's event index: attr or evsel number */
};

/* An embedded value: __init/__exit, no allocation of its own. */
struct pulse_id_index {
	struct pulse_id_index_ent *ents;	/* sorted by id, then idx, after __sort */
	size_t nr;				/* entries in use */
	size_t alloc;				/* entries allocated */
	bool sorted;				/* no __add since the last __sort */
};

/* Start an empty index. */
void pulse_id_index__init(struct pulse_id_index *x);

/* Free the entries; the index is empty (and usable) again. */
void pulse_id_index__exit(struct pulse_id_index *x);

/**
 * pulse_id_index__reserve - make room for @nr entries in all
 * Return: 0 or -ENOMEM (the index is unchanged).
 */
int pulse_id_index__reserve(struct pulse_id_index *x, size_t nr);

/**
 * pulse_id_index__add - record that @id belongs to event @idx
 *
 * Duplicates are kept: an id given to several events is found at the
 * lowest @idx, as perf routes it to the first.
 * Return: 0 or -ENOMEM (the index is unchanged).
 */
int pulse_id_index__add(struct pulse_id_index *x, __u64 id, size_t idx);

/* Sort the entries added so far (by id, then index): required before __find. */
void pulse_id_index__sort(struct pulse_id_index *x);

/**
 * pulse_id_index__find - the event an id belongs to
 *
 * O(log n); the index must be sorted (an unsorted one finds nothing).
 * Return: the lowest event index added with @id (at most INT32_MAX is
 * supported), or -ENOENT.
 */
int pulse_id_index__find(const struct pulse_id_index *x, __u64 id);

#endif
