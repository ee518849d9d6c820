// SPDX-License-Identifier: GPL-2.0
/*
 * A hists split in shards, for aggregation on several threads
 * (lib/hist/pool.c): each shard takes the entries whose hash falls to it
 * and is filled by one thread from the whole stream of samples; the
 * shards' entries are merged back in the order one thread would have made
 * them. With the thresholds of perf's graph, flat and folded modes, the
 * callchain trees come in a second pass, only for the entries that may
 * print them (pulse_hists__defers_trees()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/arena.h"
#include "core/internal.h"
#include "hist/hist-internal.h"

int pulse_hists__add_shard(struct pulse_hists *shards, unsigned int part, unsigned int nr_parts,
			   uint64_t seq, const struct pulse_addr_loc *al, const char *comm,
			   uint64_t period, int cpu, const char *trace,
			   const struct pulse_cc_loc *chain, size_t nr)
{
	struct pulse_hists *s = &shards[part];

	s->sh->seq = seq;
	pulse_hists__set_sample(s, cpu, trace);
	return pulse_hists__add_part(s, al, comm, period, chain, nr, part, nr_parts,
				     s->sh->defer_trees ? ADD_COUNT : ADD_ALL);
}

int pulse_hists__add_shard_trees(struct pulse_hists *shards, unsigned int part,
				 const struct pulse_cc_loc *chain, size_t nr, uint64_t period)
{
	struct pulse_hists *s = &shards[part];
	struct pulse_hists_shards *sh = s->sh;
	size_t pos = sh->merges_pos, n;

	if (!sh->defer_trees)
		return 0;
	/* a log that does not match the samples is a caller's bug, not a crash */
	if (pos >= sh->merges_nr || sh->merges[pos] > (sh->merges_nr - pos - 1) / 2)
		return -EINVAL;
	n = sh->merges[pos++];
	sh->merges_pos = pos + 2 * n;
	for (size_t k = 0; k < n; k++, pos += 2) {
		uint32_t idx = sh->merges[pos], off = sh->merges[pos + 1];
		int err;

		if (idx >= s->nr_entries || off >= nr)
			return -EINVAL;
		if (!(sh->hot_bits[idx / 64] & 1ULL << (idx % 64)))
			continue;
		err = pulse_hists__append_chain(s, &s->entries[idx], chain + off, nr - off,
						period, ADD_TREES);
		if (err)
			return err;
	}
	return 0;
}

bool pulse_hists__defers_trees(const struct pulse_hists *h)
{
	/* fractal: each node's threshold is its parent's, every tree prints */
	return h->use_callchain && h->cc.min_percent > 0 &&
	       (h->cc.mode == PULSE_CC_GRAPH_ABS || h->cc.mode == PULSE_CC_FLAT ||
		h->cc.mode == PULSE_CC_FOLDED);
}

/*
 * perf's threshold is min_percent of the total at sort time: the whole
 * event's, or with --percentage relative that of the entries the filters
 * let through. An entry's tree holds at most its period (children period
 * with --children), so an entry below the lower of the two thresholds
 * prints no chain either way.
 */
int pulse_hists__mark_hot(struct pulse_hists *h)
{
	uint64_t rel = 0, min_hit;

	if (!pulse_hists__is_sharded(h))
		return 0;
	for (unsigned int p = 0; p < h->sh->nr_shards; p++)
		for (size_t i = 0; i < h->sh->shards[p].nr_entries; i++)
			if (!h->sh->shards[p].entries[i].filtered)
				rel += h->sh->shards[p].entries[i].period;
	min_hit = (rel < h->total_period ? rel : h->total_period) * (h->cc.min_percent / 100);
	for (unsigned int p = 0; p < h->sh->nr_shards; p++) {
		struct pulse_hists *s = &h->sh->shards[p];
		struct pulse_hists_shards *sh = s->sh;

		if (!sh->defer_trees)
			continue;
		/* pass two reads a bit per merge, not an entry (a cache miss each) */
		free(sh->hot_bits);
		sh->hot_bits = calloc(s->nr_entries / 64 + 1, sizeof(*sh->hot_bits));
		if (!sh->hot_bits)
			return -ENOMEM;
		for (size_t i = 0; i < s->nr_entries; i++) {
			struct pulse_hist_entry *e = &s->entries[i];

			if ((s->cumulate ? e->acc_period : e->period) < min_hit)
				continue;
			sh->hot_bits[i / 64] |= 1ULL << (i % 64);
			/*
			 * the root now: pass two then never writes the entry,
			 * which is copied out while the trees grow
			 */
			if (!e->callchain && pulse_hists__new_root(s, e))
				return -ENOMEM;
		}
	}
	return 0;
}

/* the shards of @h, if any; their state stays (a second pass's) */
static void hists__free_shards(struct pulse_hists *h)
{
	struct pulse_hists_shards *sh = h->sh;

	if (!sh)
		return;
	for (unsigned int i = 0; i < sh->nr_shards; i++)
		pulse_hists__exit(&sh->shards[i]);
	free(sh->shards);
	sh->shards = NULL;
	sh->nr_shards = 0;
}

int pulse_hists__make_shards(struct pulse_hists *h, unsigned int nr)
{
	struct pulse_hists_shards *sh;

	if (pulse_hists__is_sharded(h))
		return nr == h->sh->nr_shards ? 0 : -EINVAL;
	if (!h->sh) {
		h->sh = calloc(1, sizeof(*h->sh));
		if (!h->sh)
			return -ENOMEM;
	}
	sh = h->sh;
	sh->shards = calloc(nr, sizeof(*sh->shards));
	if (!sh->shards)
		return -ENOMEM;
	sh->nr_shards = nr;
	for (unsigned int i = 0; i < nr; i++) {
		struct pulse_hists *s = &sh->shards[i];

		pulse_hists__init(s, h->keys, h->nr_keys);
		pulse_hists__set_callchain(s, &h->cc, h->cumulate);
		s->use_callchain = h->use_callchain;
		s->sh = calloc(1, sizeof(*s->sh));
		if (!s->sh) {
			hists__free_shards(h);
			return -ENOMEM;
		}
		s->sh->defer_trees = pulse_hists__defers_trees(h);
	}
	return 0;
}

/* the shards' entries (their text, their trees) are @h's now: the shards go */
static void hists__adopt_shards(struct pulse_hists *h)
{
	for (unsigned int i = 0; i < h->sh->nr_shards; i++) {
		struct pulse_hists *s = &h->sh->shards[i];

		s->nr_entries = 0;
		if (s->cc_arena) {
			if (!h->cc_arena) {
				h->cc_arena = s->cc_arena;
				s->cc_arena = NULL;
			} else {
				pulse_arena__adopt(h->cc_arena, s->cc_arena);
			}
		}
	}
	hists__free_shards(h);
	h->sh->merged = false;
	/* later allocations (sorting) come from the arena that has them all */
	for (size_t i = 0; i < h->nr_entries; i++)
		if (h->entries[i].callchain)
			h->entries[i].callchain->arena = h->cc_arena;
}

int pulse_hists__merge_shards(struct pulse_hists *h)
{
	size_t total = h->nr_entries, *next;
	struct pulse_hists_shards *sh;
	struct pulse_hist_entry *e;

	if (!pulse_hists__is_sharded(h))
		return 0;
	sh = h->sh;
	for (unsigned int i = 0; i < sh->nr_shards; i++)
		total += sh->shards[i].nr_entries;
	e = realloc(h->entries, (total ? total : 1) * sizeof(*e));
	next = calloc(sh->nr_shards, sizeof(*next));
	if (!e || !next) {
		free(next);
		if (e)
			h->entries = e;
		return -ENOMEM;
	}
	h->entries = e;
	h->alloc = total;
	/* each shard made its entries in order: merge them by birth */
	while (h->nr_entries < total) {
		struct pulse_hists *min = NULL;
		unsigned int min_i = 0;

		for (unsigned int i = 0; i < sh->nr_shards; i++) {
			struct pulse_hists *s = &sh->shards[i];

			if (next[i] < s->nr_entries &&
			    (!min || s->entries[next[i]].born < min->entries[next[min_i]].born)) {
				min = s;
				min_i = i;
			}
		}
		h->entries[h->nr_entries++] = min->entries[next[min_i]++];
	}
	free(next);
	/* entries moved: the index is rebuilt from scratch if needed */
	free(h->index);
	h->index = NULL;
	h->index_size = 0;
	sh->merged = true;
	/* trees still growing in the shards: they stay until then */
	if (!sh->trees_wait)
		hists__adopt_shards(h);
	return 0;
}

int pulse_hists__finish_trees(struct pulse_hists *h)
{
	struct pulse_hists_shards *sh = h->sh;
	int err;

	if (!pulse_hists__trees_pending(h))
		return 0;
	err = sh->trees_wait(sh->trees_arg);
	sh->trees_wait = NULL;
	sh->trees_arg = NULL;
	if (sh->merged)
		hists__adopt_shards(h);
	return err;
}

