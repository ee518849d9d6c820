/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside lib/hist: what the histograms' files share. sort-key.c (the keys'
 * comparisons) is below hist.c (entries: add and lookup), which is below
 * hist-shards.c (shards and the two-pass merge), which is below pool.c
 * and hist-sort.c (the output order, with hist-rank.c's ranks).
 */
#ifndef PULSE_HIST_INTERNAL_H
#define PULSE_HIST_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <pulse/hist.h>
#include "core/hash.h"

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/*
 * The index takes the low bits of the hash, and mix() is a multiply whose
 * low bits see only the low bits of its input (symbol addresses share
 * theirs): fold the high bits down (splitmix64's finaliser) or the linear
 * probes cluster (60% of a children report went to probing).
 */
static inline uint64_t hash_final(uint64_t x)
{
	return pulse_mix64(x);
}

/*
 * perf's _sort__addr_cmp() and symbol comparisons: the sign of the
 * difference as an s64, so an address 2^63 or more above another sorts
 * before it (user addresses against kernel or garbage ones).
 */
static inline int addr_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/*
 * A hists' part in aggregation on several threads: a sharded hists has
 * its shards here (lib/hist/hist-shards.c), a shard its two-pass state.
 * The pool (lib/hist/pool.c) sits above the hists: it hands them a way to
 * wait for its second pass rather than be called by name.
 */
struct pulse_hists_shards {
	/* a sharded hists */
	struct pulse_hists *shards;	/* pulse_hists__make_shards() */
	unsigned int nr_shards;
	bool merged;			/* entries copied, shards kept */
	/*
	 * The second pass growing the shards' trees: waits for it (the
	 * pool's, with @trees_arg) and returns its error; NULL: done, none
	 */
	int (*trees_wait)(void *trees_arg);
	void *trees_arg;
	/* a shard */
	bool defer_trees;		/* trees in a second pass */
	uint64_t seq;			/* the sample being added */
	uint64_t *hot_bits;		/* entries that get trees */
	uint32_t *merges;		/* pass one's log */
	size_t merges_nr, merges_alloc;
	size_t merges_sample;		/* the sample's count in it */
	size_t merges_pos;		/* pass two's place in it */
};

/*
 * The entry of @h equal to @e (a member's, with the same keys and hash),
 * made with no period when missing (perf's hists__add_dummy_entry()); its
 * index, or -ENOMEM.
 */
long pulse_hists__findnew_dummy(struct pulse_hists *h, const struct pulse_hist_entry *e);

/* Has @h shards (pulse_hists__make_shards())? */
static inline bool pulse_hists__is_sharded(const struct pulse_hists *h)
{
	return h->sh && h->sh->shards;
}

/* Does a second pass still grow @h's trees (pulse_hists__finish_trees())? */
static inline bool pulse_hists__trees_pending(const struct pulse_hists *h)
{
	return h->sh && h->sh->trees_wait;
}

/* lib/hist/sort-key.c */

/* perf's _sort__dso_cmp() by short name, an unknown DSO after the others */
int pulse_sort__dso_cmp(const struct pulse_dso *a, const struct pulse_dso *b);

/* perf's se_cmp/se_collapse: identity of entries and the collapsed tree order */
int pulse_sort_key__cmp(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b);

/* perf's se_sort where a key has one (names), else se_cmp */
int pulse_sort_key__sort(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			 const struct pulse_hist_entry *b);

/* lib/hist/sort-srcline.c */

/* The interned srcline text of @ip in @dso; NULL: -ENOMEM. */
const char *pulse_hist_srcline__get(struct pulse_hist_srcline *t, struct pulse_dso *dso,
				    const struct pulse_symbol *sym, uint64_t ip);
void pulse_hist_srcline__delete(struct pulse_hist_srcline *t);

/* Mark the entries whose srcline perf's collapse made. Return: 0 or -ENOMEM. */
int pulse_hists__mark_srclines(struct pulse_hists *h);

/* lib/hist/hist.c */

enum add_mode {
	ADD_ALL,	/* account the sample, merge its chain */
	ADD_COUNT,	/* account it, note its chain's depth: trees come in pass two */
	ADD_TREES,	/* pass two: merge its chain into the hot entries only */
};

/*
 * The part of a sample's accounting that falls on entries of @part: all
 * of it with one part. The totals are the caller's.
 */
int pulse_hists__add_part(struct pulse_hists *h, const struct pulse_addr_loc *al,
			  const char *comm, uint64_t period, const struct pulse_cc_loc *chain,
			  size_t nr, unsigned int part, unsigned int nr_parts, enum add_mode mode);

/* @e gets @chain (or, with ADD_COUNT, only its depth). Return: 0 or -ENOMEM. */
int pulse_hists__append_chain(struct pulse_hists *h, struct pulse_hist_entry *e,
			      const struct pulse_cc_loc *chain, size_t nr, uint64_t period,
			      enum add_mode mode);

/* an empty tree for @e, from the hists' arena. Return: 0 or -ENOMEM. */
int pulse_hists__new_root(struct pulse_hists *h, struct pulse_hist_entry *e);

/* lib/hist/hist-rank.c */

enum rank_what { RANK_COMM, RANK_DSO, RANK_SYM_NAME };

/*
 * Number the distinct comms, DSOs or symbols of the entries in name order
 * (1 first; equal names, equal numbers) into @rank[entry]; no DSO ranks
 * last (UINT32_MAX), no symbol 0. Return: 0 or -ENOMEM.
 */
int pulse_hists__rank(const struct pulse_hists *h, enum rank_what what, uint32_t *rank);

#endif
