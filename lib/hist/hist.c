// SPDX-License-Identifier: GPL-2.0
/*
 * Sample aggregation by sort keys. Entries sit in one array indexed by an
 * open-addressing hash, so adding a sample costs one hash probe; ordering
 * happens once, at the end (lib/hist/hist-sort.c). The sort keys and their
 * comparisons are lib/hist/sort-key.c's; sharding for several threads and
 * the two-pass merge of the trees lib/hist/hist-shards.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/arena.h"
#include "core/internal.h"
#include "hist/hist-internal.h"
#include "core/hash.h"

int pulse_hists__init(struct pulse_hists *h, const enum pulse_sort_key *keys, size_t nr_keys)
{
	memset(h, 0, sizeof(*h));
	if (nr_keys > PULSE_SORT_MAX_KEYS)
		return -EINVAL;
	memcpy(h->keys, keys, nr_keys * sizeof(*keys));
	h->nr_keys = nr_keys;
	h->sym_key = pulse_hists__has_key(h, PULSE_SORT_SYM);
	return 0;
}

/*
 * The shards and their state; the sharded hists' entries, when merged,
 * are the shards' and are freed with @h's.
 */
static void hists__exit_shards(struct pulse_hists *h)
{
	struct pulse_hists_shards *sh = h->sh;

	if (!sh)
		return;
	/* a pool's threads may still be growing trees in the shards */
	if (sh->trees_wait)
		sh->trees_wait(sh->trees_arg);
	for (unsigned int i = 0; i < sh->nr_shards; i++) {
		if (sh->merged)
			sh->shards[i].nr_entries = 0;
		pulse_hists__exit(&sh->shards[i]);
	}
	free(sh->shards);
	free(sh->hot_bits);
	free(sh->merges);
	free(sh);
	h->sh = NULL;
}

void pulse_hists__exit(struct pulse_hists *h)
{
	hists__exit_shards(h);
	pulse_hist_srcline__delete(h->srcline);
	for (size_t i = 0; i < h->nr_entries; i++) {
		free(h->entries[i].trace);
		free(h->entries[i].mem);
		free(h->entries[i].pairs);
	}
	free(h->pair_totals);
	/* the entries' callchain roots and trees */
	if (h->cc_arena) {
		pulse_arena__exit(h->cc_arena);
		free(h->cc_arena);
	}
	free(h->he_cache);
	free(h->entries);
	free(h->index);
	memset(h, 0, sizeof(*h));
}

/*
 * An entry's hash in two parts: what its sample gives (comm, thread, cpu,
 * trace, parent) and what its frame gives (DSO, symbol). A sample's
 * frames share the first part: it is made once per sample.
 */
static bool key_of_frame(enum pulse_sort_key key)
{
	return key == PULSE_SORT_DSO || key == PULSE_SORT_SYM || key == PULSE_SORT_SYM_SIZE ||
	       key == PULSE_SORT_SRCLINE || key == PULSE_SORT_SYMOFF;
}

static uint64_t sample_hash(const struct pulse_hists *h, const struct pulse_hist_entry *e)
{
	uint64_t v = 0;

	for (size_t i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case PULSE_SORT_COMM:
			v = mix(v, (uintptr_t)e->comm);
			break;
		case PULSE_SORT_PID:
		case PULSE_SORT_TID:
			v = mix(v, (uint32_t)e->thread->tid);
			break;
		case PULSE_SORT_CPU:
			v = mix(v, (uint32_t)e->cpu);
			break;
		case PULSE_SORT_TRACE:
			v = mix(v, pulse_fnv1a_str(e->trace ? e->trace : "N/A"));
			break;
		case PULSE_SORT_PARENT:
			v = mix(v, e->parent ? pulse_fnv1a_str(e->parent->name) : 0);
			break;
		default:
			if (pulse_sort_key__is_mem(h->keys[i]))
				v = mix(v, pulse_sort_mem__hash(h->keys[i], e));
			break;
		}
	}
	return v;
}

/*
 * With a symbol key, an entry's frame is its symbol (and DSO name) or
 * its address: @loc, pulse_cc_loc__hash() of the entry's frame, is its
 * hash. Without one, the DSO and symbol-size keys are hashed here.
 */
static uint64_t frame_hash(const struct pulse_hists *h, const struct pulse_hist_entry *e,
			   uint64_t sample, uint32_t loc)
{
	uint64_t v = sample;

	if (h->sym_key)
		return hash_final(mix(v, loc));
	for (size_t i = 0; i < h->nr_keys; i++) {
		if (!key_of_frame(h->keys[i]))
			continue;
		switch (h->keys[i]) {
		case PULSE_SORT_SYM_SIZE:
			v = mix(v, e->sym ? e->sym->end - e->sym->start : 0);
			break;
		case PULSE_SORT_DSO:
			v = mix(v, e->dso ? e->dso->short_name_hash : 0);
			break;
		case PULSE_SORT_SRCLINE:
			v = mix(v, (uintptr_t)e->srcline);
			break;
		case PULSE_SORT_SYMOFF:
			v = mix(v, e->ip);
			break;
		default:
			v = e->sym ? mix(mix(v, e->sym->start), e->sym->end) : mix(v, e->ip);
			break;
		}
	}
	return hash_final(v);
}

static uint32_t entry_loc(const struct pulse_hists *h, const struct pulse_hist_entry *e)
{
	return h->sym_key ? pulse_cc_loc__hash(e->dso, e->sym, e->ip) : 0;
}

/* a frame's pulse_cc_loc__hash(), if the hash needs it */
static uint32_t chain_loc(const struct pulse_hists *h, const struct pulse_cc_loc *l)
{
	if (!h->sym_key)
		return 0;
	return l->hash ? l->hash : pulse_cc_loc__hash(l->dso, l->sym, l->ip);
}

static uint64_t entry_hash(const struct pulse_hists *h, const struct pulse_hist_entry *e)
{
	return frame_hash(h, e, sample_hash(h, e), entry_loc(h, e));
}

static bool entry_equal(const struct pulse_hists *h, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b)
{
	if (a->hash != b->hash)
		return false;
	for (size_t i = 0; i < h->nr_keys; i++)
		if (pulse_sort_key__cmp(h->keys[i], a, b))
			return false;
	return true;
}

/*
 * An index slot: the entry's number, and above it the high half of its
 * hash, which tells most other entries apart without reading them (the
 * entries are tens of megabytes: every read is a cache miss).
 */
#define SLOT_FREE UINT64_MAX

static uint64_t slot_of(uint64_t hash, uint32_t idx)
{
	return (hash >> 32) << 32 | idx;
}

static bool slot_tag_is(uint64_t slot, uint64_t hash)
{
	return slot >> 32 == hash >> 32;
}

static int hists__grow_index(struct pulse_hists *h)
{
	size_t n = h->index_size ? h->index_size * 2 : 1024;
	uint64_t *idx;

	while ((h->nr_entries + 1) * 2 > n)
		n *= 2;
	idx = malloc(n * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	memset(idx, 0xff, n * sizeof(*idx));
	for (size_t i = 0; i < h->nr_entries; i++) {
		size_t j = h->entries[i].hash & (n - 1);

		while (idx[j] != SLOT_FREE)
			j = (j + 1) & (n - 1);
		idx[j] = slot_of(h->entries[i].hash, i);
	}
	free(h->index);
	h->index = idx;
	h->index_size = n;
	return 0;
}

/*
 * The entry equal to @key (its hash set), created when missing; its index,
 * or -ENOMEM.
 * @self: the sample's own entry (period counts as self and children
 * period) rather than one on its callchain (children period only).
 */
static long hists__findnew(struct pulse_hists *h, struct pulse_hist_entry *key, uint64_t period,
			   bool self)
{
	size_t j;

	if ((h->nr_entries + 1) * 2 > h->index_size && hists__grow_index(h))
		return -ENOMEM;
	for (j = key->hash & (h->index_size - 1); h->index[j] != SLOT_FREE;
	     j = (j + 1) & (h->index_size - 1)) {
		uint32_t i = (uint32_t)h->index[j];
		struct pulse_hist_entry *e = &h->entries[i];

		if (slot_tag_is(h->index[j], key->hash) && entry_equal(h, e, key)) {
			/* perf's collapse compared two of its entries: the text was made */
			if (h->srcline && (e->ip != key->ip || e->dso != key->dso))
				e->srcline_made = true;
			if (self) {
				e->period += period;
				e->nr_samples++;
			}
			e->acc_period += period;
			return i;
		}
	}
	if (h->nr_entries >= UINT32_MAX - 1)
		return -E2BIG;
	if (h->nr_entries == h->alloc) {
		size_t n = h->alloc ? h->alloc * 2 : 256;
		struct pulse_hist_entry *ne = realloc(h->entries, n * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		h->entries = ne;
		h->alloc = n;
	}
	key->period = self ? period : 0;
	key->nr_samples = self;
	key->acc_period = period;
	key->callchain = NULL;
	key->max_depth = 0;
	if (key->trace) {
		key->trace = strdup(key->trace);
		if (!key->trace)
			return -ENOMEM;
	}
	if (key->mem) {
		struct pulse_hist_mem *mem = malloc(sizeof(*mem));

		if (!mem) {
			free(key->trace);
			return -ENOMEM;
		}
		*mem = *key->mem;
		key->mem = mem;
	}
	h->entries[h->nr_entries] = *key;
	h->index[j] = slot_of(key->hash, h->nr_entries);
	return h->nr_entries++;
}

long pulse_hists__findnew_dummy(struct pulse_hists *h, const struct pulse_hist_entry *e)
{
	struct pulse_hist_entry key = *e;

	key.pairs = NULL;
	return hists__findnew(h, &key, 0, false);
}

static void hists__count(struct pulse_hists *h, uint64_t period)
{
	h->total_period += period;
	h->nr_samples++;
	h->total_non_filtered_period += period;
	h->nr_non_filtered_samples++;
}

int pulse_hists__add(struct pulse_hists *h, const struct pulse_addr_loc *al, const char *comm,
		     uint64_t period)
{
	struct pulse_hist_entry key = {
		.comm = comm,
		.thread = al->thread,
		.dso = al->dso,
		.sym = al->sym,
		.ip = al->addr,
		.level = al->level,
		.cpu = h->cur_cpu,
		.trace = (char *)h->cur_trace,
		.parent = h->cur_parent,
		.filtered = h->cur_filtered,
		.mem = (struct pulse_hist_mem *)h->cur_mem,
	};
	long idx;

	hists__count(h, period);
	if (h->srcline) {
		key.srcline = pulse_hist_srcline__get(h->srcline, al->dso, al->sym, al->addr);
		if (!key.srcline)
			return -ENOMEM;
	}
	key.hash = entry_hash(h, &key);
	idx = hists__findnew(h, &key, period, true);
	return idx < 0 ? idx : 0;
}

void pulse_hists__set_callchain(struct pulse_hists *h, const struct pulse_callchain_param *p,
				bool cumulate)
{
	h->cc = *p;
	h->use_callchain = p->enabled;
	h->cumulate = cumulate;
}

/* an empty tree for @e, from the hists' arena */
int pulse_hists__new_root(struct pulse_hists *h, struct pulse_hist_entry *e)
{
	if (!h->cc_arena) {
		h->cc_arena = calloc(1, sizeof(*h->cc_arena));
		if (!h->cc_arena)
			return -ENOMEM;
	}
	e->callchain = pulse_arena__alloc(h->cc_arena, sizeof(*e->callchain));
	if (!e->callchain)
		return -ENOMEM;
	memset(e->callchain, 0, sizeof(*e->callchain));
	e->callchain->arena = h->cc_arena;
	return 0;
}

int pulse_hists__append_chain(struct pulse_hists *h, struct pulse_hist_entry *e,
			      const struct pulse_cc_loc *chain, size_t nr, uint64_t period,
			      enum add_mode mode)
{
	if (!nr || !h->use_callchain)
		return 0;
	if (mode != ADD_TREES && nr > e->max_depth)
		e->max_depth = nr > UINT32_MAX ? UINT32_MAX : nr;
	if (mode == ADD_COUNT)
		return 0;
	if (!e->callchain && pulse_hists__new_root(h, e))
		return -ENOMEM;
	return pulse_cc_root__append(e->callchain, chain, nr, period, h->cc.address_key);
}

/*
 * What a callchain frame's entry is looked for in the sample's cache as:
 * perf's he_tmp (iter_add_next_cumulative_entry()) has no weights, so a
 * sample with a weight does not find its own entry there and adds to it
 * again. @tmp holds the key when it differs from @ckey.
 */
static const struct pulse_hist_entry *hists__cache_key(const struct pulse_hists *h,
							const struct pulse_hist_entry *ckey,
							uint32_t loc, struct pulse_hist_entry *tmp)
{
	if (!ckey->mem)
		return ckey;
	*tmp = *ckey;
	tmp->mem = NULL;
	tmp->hash = frame_hash(h, tmp, sample_hash(h, tmp), loc);
	return tmp;
}

/* which of @nr_parts workers owns an entry: equal entries, equal hashes */
static unsigned int hash_part(uint64_t hash, unsigned int nr_parts)
{
	/* the high half scaled to [0, nr_parts): no division per frame */
	return (unsigned int)(((hash >> 32) * nr_parts) >> 32);
}

/*
 * Pass one's log of what pass two would merge: per sample, the number of
 * merges, then for each the entry and the frame its chain starts at.
 */
static int hists__log(struct pulse_hists_shards *sh, uint32_t v)
{
	if (sh->merges_nr == sh->merges_alloc) {
		size_t n = sh->merges_alloc ? sh->merges_alloc * 2 : 4096;
		uint32_t *m = realloc(sh->merges, n * sizeof(*m));

		if (!m)
			return -ENOMEM;
		sh->merges = m;
		sh->merges_alloc = n;
	}
	sh->merges[sh->merges_nr++] = v;
	return 0;
}

/* the entry @idx gets the chain from frame @off on: now, or logged for pass two */
static int hists__merge(struct pulse_hists *h, uint32_t idx, const struct pulse_cc_loc *chain,
			size_t off, size_t nr, uint64_t period, enum add_mode mode)
{
	if (mode == ADD_COUNT && nr && h->use_callchain) {
		int err = hists__log(h->sh, idx);

		if (err || (err = hists__log(h->sh, off)))
			return err;
		h->sh->merges[h->sh->merges_sample]++;
	}
	return pulse_hists__append_chain(h, &h->entries[idx], chain + off, nr - off, period,
					 mode);
}

/*
 * The part of a sample's accounting that falls on entries of @part: all
 * of it with one part. The totals are the caller's.
 */
int pulse_hists__add_part(struct pulse_hists *h, const struct pulse_addr_loc *al,
			  const char *comm, uint64_t period, const struct pulse_cc_loc *chain,
			  size_t nr, unsigned int part, unsigned int nr_parts, enum add_mode mode)
{
	/* this sample's count of merges, in pass one's log (a shard's) */
	if (mode == ADD_COUNT) {
		int err = hists__log(h->sh, 0);

		if (err)
			return err;
		h->sh->merges_sample = h->sh->merges_nr - 1;
	}
	struct pulse_hist_entry key = {
		.comm = comm,
		.thread = al->thread,
		.dso = al->dso,
		.sym = al->sym,
		.ip = al->addr,
		.level = al->level,
		.cpu = h->cur_cpu,
		.trace = (char *)h->cur_trace,
		.parent = h->cur_parent,
		.filtered = h->cur_filtered,
		.mem = (struct pulse_hist_mem *)h->cur_mem,
	};
	struct pulse_hist_entry ckey, tmp;
	const struct pulse_hist_entry *dkey;
	size_t nr_cache = 0;
	char level = al->level;
	uint64_t shash = sample_hash(h, &key);
	/* a shard's entries merge back in the order of their birth */
	uint64_t seq = h->sh ? h->sh->seq : 0;
	uint32_t loc;
	long idx;
	int err;

	if (h->he_cache_alloc < nr + 1) {
		uint64_t *c = realloc(h->he_cache, (nr + 1) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		h->he_cache = c;
		h->he_cache_alloc = nr + 1;
	}
	if (h->srcline) {
		key.srcline = pulse_hist_srcline__get(h->srcline, al->dso, al->sym, al->addr);
		if (!key.srcline)
			return -ENOMEM;
	}
	loc = h->sym_key ? pulse_cc_loc__hash(al->dso, al->sym, al->addr) : 0;
	key.hash = frame_hash(h, &key, shash, loc);
	key.born = seq << 16;
	if (hash_part(key.hash, nr_parts) == part) {
		idx = hists__findnew(h, &key, period, true);
		if (idx < 0)
			return idx;
		err = hists__merge(h, idx, chain, 0, nr, period, mode);
		if (err)
			return err;
		h->he_cache[nr_cache++] = slot_of(key.hash, idx);
	}
	if (!h->cumulate)
		return 0;
	/* the sample's fields once; a frame sets its own */
	ckey = key;
	for (size_t i = 0; i < nr; i++) {
		bool dup = false;

		/*
		 * perf reuses one location for the whole walk: a frame
		 * without a map keeps the level of the frame before it.
		 */
		if (chain[i].level)
			level = chain[i].level;
		loc = chain_loc(h, &chain[i]);
		ckey.dso = chain[i].dso;
		ckey.sym = chain[i].sym;
		ckey.ip = chain[i].ip;
		ckey.level = level;
		if (h->srcline) {
			ckey.srcline = pulse_hist_srcline__get(h->srcline, chain[i].dso,
							       chain[i].sym, chain[i].ip);
			if (!ckey.srcline)
				return -ENOMEM;
		}
		/* a made entry took a copy of the text and the memory fields */
		ckey.trace = (char *)h->cur_trace;
		ckey.mem = (struct pulse_hist_mem *)h->cur_mem;
		ckey.hash = frame_hash(h, &ckey, shash, loc);
		if (hash_part(ckey.hash, nr_parts) != part)
			continue;
		ckey.born = seq << 16 | (i + 1);
		/* recursion: each entry once per sample */
		dkey = hists__cache_key(h, &ckey, loc, &tmp);
		for (size_t k = 0; k < nr_cache && !dup; k++)
			dup = slot_tag_is(h->he_cache[k], dkey->hash) &&
			      entry_equal(h, &h->entries[(uint32_t)h->he_cache[k]], dkey);
		if (dup)
			continue;
		idx = hists__findnew(h, &ckey, period, false);
		if (idx < 0)
			return idx;
		h->he_cache[nr_cache++] = slot_of(ckey.hash, idx);
		err = hists__merge(h, idx, chain, i, nr, period, mode);
		if (err)
			return err;
	}
	return 0;
}

int pulse_hists__add_chain(struct pulse_hists *h, const struct pulse_addr_loc *al,
			   const char *comm, uint64_t period, const struct pulse_cc_loc *chain,
			   size_t nr)
{
	hists__count(h, period);
	return pulse_hists__add_part(h, al, comm, period, chain, nr, 0, 1, ADD_ALL);
}

void pulse_hists__count(struct pulse_hists *h, uint64_t period)
{
	hists__count(h, period);
}

void pulse_hists__set_mem(struct pulse_hists *h, const struct pulse_hist_mem *mem)
{
	h->cur_mem = mem;
}

void pulse_hists__set_sample(struct pulse_hists *h, int cpu, const char *trace)
{
	h->cur_cpu = cpu;
	h->cur_trace = trace;
}

void pulse_hists__add_filtered(struct pulse_hists *h, uint64_t period)
{
	h->total_period += period;
	h->nr_samples++;
}

void pulse_hists__use_relative(struct pulse_hists *h)
{
	/* perf's hists__inc_stats(): an entry is filtered as a whole */
	h->abs_total_period = h->total_period;
	h->total_period = h->nr_samples = 0;
	for (size_t i = 0; i < h->nr_entries; i++) {
		if (!h->entries[i].filtered) {
			h->total_period += h->entries[i].period;
			h->nr_samples += h->entries[i].nr_samples;
		}
	}
}

