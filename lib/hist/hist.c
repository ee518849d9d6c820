// SPDX-License-Identifier: GPL-2.0
/*
 * Sample aggregation by sort keys. Entries sit in one array indexed by an
 * open-addressing hash, so adding a sample costs one hash probe; ordering
 * happens once, at the end, with a comparator that reproduces the order of
 * perf's output tree: perf sorts by "overhead" and then by each key's
 * se_sort (or se_cmp), and entries still equal after that keep the order of
 * perf's collapsed tree, which is the keys' se_cmp/se_collapse order.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/arena.h"
#include "core/internal.h"
#include "core/rbtree.h"

/* a key name that adds no key */
#define SORT_DROPPED ((enum pulse_sort_key)-1)

static const struct {
	const char *name;
	enum pulse_sort_key key;
} sort_names[] = {
	{ "comm", PULSE_SORT_COMM },
	{ "pid", PULSE_SORT_PID },
	{ "dso", PULSE_SORT_DSO },
	{ "sym", PULSE_SORT_SYM },
	{ "symbol", PULSE_SORT_SYM },
	{ "cpu", PULSE_SORT_CPU },
	{ "symbol_size", PULSE_SORT_SYM_SIZE },
	{ "trace", PULSE_SORT_TRACE },
	{ "ipc_null", PULSE_SORT_IPC_NULL },
	/* not in perf 6.1, which has no tid key */
	{ "tid", PULSE_SORT_TID },
	{ "parent", PULSE_SORT_PARENT },
	{ "mem", PULSE_SORT_MEM },
	{ "symbol_daddr", PULSE_SORT_SYM_DADDR },
	{ "dso_daddr", PULSE_SORT_DSO_DADDR },
	{ "snoop", PULSE_SORT_SNOOP },
	{ "tlb", PULSE_SORT_TLB },
	{ "locked", PULSE_SORT_LOCKED },
	{ "blocked", PULSE_SORT_BLOCKED },
	{ "local_weight", PULSE_SORT_LOCAL_WEIGHT },
	{ "weight", PULSE_SORT_WEIGHT },
	{ "local_ins_lat", PULSE_SORT_LOCAL_INS_LAT },
	{ "ins_lat", PULSE_SORT_INS_LAT },
	/* powerpc's: perf on x86 takes them and shows nothing (lib/hist/sort-mem.c) */
	{ "p_stage_cyc", SORT_DROPPED },
	{ "local_p_stage_cyc", SORT_DROPPED },
};

const char *pulse_sort_keys__known(void)
{
	return "comm, pid, tid, dso, sym, symbol, cpu, symbol_size, trace, ipc_null, parent, "
	       "mem, symbol_daddr, dso_daddr, snoop, tlb, locked, blocked, local_weight, weight, "
	       "local_ins_lat, ins_lat, p_stage_cyc, local_p_stage_cyc";
}

const char *pulse_sort_key__title(enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return "Command";
	case PULSE_SORT_PID:
		return "    Pid:Command";
	case PULSE_SORT_TID:
		return "    Tid:Command";
	case PULSE_SORT_DSO:
		return "Shared Object";
	case PULSE_SORT_SYM:
		return "Symbol";
	case PULSE_SORT_CPU:
		return "CPU";
	case PULSE_SORT_SYM_SIZE:
		return "Symbol size";
	case PULSE_SORT_TRACE:
		return "Trace output";
	case PULSE_SORT_IPC_NULL:
		return "IPC   [IPC Coverage]";
	case PULSE_SORT_PARENT:
		return "Parent symbol";
	default:
		return pulse_sort_mem__title(key);
	}
}

int pulse_sort_keys__parse(const char *spec, enum pulse_sort_key *keys, size_t max,
			   const char **bad, size_t *bad_len)
{
	const char *p = spec;
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, ", ");
		size_t i;

		if (len) {
			for (i = 0; i < ARRAY_SIZE(sort_names); i++)
				if (strlen(sort_names[i].name) == len &&
				    !strncasecmp(sort_names[i].name, p, len))
					break;
			if (i == ARRAY_SIZE(sort_names) || n == max) {
				if (bad)
					*bad = p;
				if (bad_len)
					*bad_len = len;
				return -EINVAL;
			}
			if (sort_names[i].key != SORT_DROPPED)
				keys[n++] = sort_names[i].key;
		}
		p += len;
		if (*p)
			p++;
	}
	return n;
}

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

static void hists__free_shards(struct pulse_hists *h);

void pulse_hists__exit(struct pulse_hists *h)
{
	/* a pool's threads may still be growing trees in the shards */
	pulse_hists__finish_trees(h);
	for (size_t i = 0; i < h->nr_entries; i++) {
		free(h->entries[i].trace);
		free(h->entries[i].mem);
	}
	/* the entries' callchain roots and trees */
	if (h->cc_arena) {
		pulse_arena__exit(h->cc_arena);
		free(h->cc_arena);
	}
	free(h->he_cache);
	free(h->entries);
	free(h->index);
	free(h->hot_bits);
	free(h->merges);
	hists__free_shards(h);
	memset(h, 0, sizeof(*h));
}

bool pulse_hists__has_key(const struct pulse_hists *h, enum pulse_sort_key key)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == key)
			return true;
	return false;
}

static uint64_t mix(uint64_t h, uint64_t v)
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
static uint64_t hash_final(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/*
 * An entry's hash in two parts: what its sample gives (comm, thread, cpu,
 * trace, parent) and what its frame gives (DSO, symbol). A sample's
 * frames share the first part: it is made once per sample.
 */
static bool key_of_frame(enum pulse_sort_key key)
{
	return key == PULSE_SORT_DSO || key == PULSE_SORT_SYM || key == PULSE_SORT_SYM_SIZE;
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
			v = mix(v, hash_str(e->trace ? e->trace : "N/A"));
			break;
		case PULSE_SORT_PARENT:
			v = mix(v, e->parent ? hash_str(e->parent->name) : 0);
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

/* perf's _sort__dso_cmp() by short name, an unknown DSO after the others */
static int dso_cmp(const struct pulse_dso *a, const struct pulse_dso *b)
{
	if (!a || !b)
		return !a && !b ? 0 : (!a ? 1 : -1);
	if (a == b)
		return 0;
	return strcmp(a->short_name, b->short_name);
}

static int u64_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * perf's _sort__addr_cmp() and symbol comparisons: the sign of the
 * difference as an s64, so an address 2^63 or more above another sorts
 * before it (user addresses against kernel or garbage ones).
 */
static int addr_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's se_cmp/se_collapse: identity of entries and the collapsed tree order */
static int key_cmp(enum pulse_sort_key key, const struct pulse_hist_entry *a,
		   const struct pulse_hist_entry *b)
{
	int r;

	switch (key) {
	case PULSE_SORT_COMM:
		return a->comm == b->comm ? 0 : strcmp(a->comm, b->comm);
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		return a->thread->tid < b->thread->tid ? -1 : a->thread->tid > b->thread->tid;
	case PULSE_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case PULSE_SORT_SYM_SIZE:
		return u64_cmp(a->sym ? a->sym->end - a->sym->start : 0,
			       b->sym ? b->sym->end - b->sym->start : 0);
	case PULSE_SORT_TRACE:
		return strcmp(a->trace ? a->trace : "N/A", b->trace ? b->trace : "N/A");
	case PULSE_SORT_PARENT:
		/* perf's sort__parent_cmp(), in this file's sign: names, then [other] */
		if (!a->parent || !b->parent)
			return !a->parent && !b->parent ? 0 : (!a->parent ? 1 : -1);
		return strcmp(a->parent->name, b->parent->name);
	case PULSE_SORT_DSO:
		return dso_cmp(a->dso, b->dso);
	/*
	 * perf's sort_sym_ipc_null compares as "sym" does (sort__sym_cmp):
	 * it splits the entries of keys like symbol_size or symbol_daddr,
	 * after which perf's --sort appends it, by symbol
	 */
	case PULSE_SORT_IPC_NULL:
	case PULSE_SORT_SYM:
		if (!a->sym && !b->sym)
			return addr_cmp(a->ip, b->ip);
		r = dso_cmp(a->dso, b->dso);
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return !a->sym ? 1 : -1;
		if (a->sym == b->sym)
			return 0;
		r = addr_cmp(a->sym->start, b->sym->start);
		return r ? r : addr_cmp(a->sym->end, b->sym->end);
	default:
		return pulse_sort_mem__cmp(key, a, b);
	}
}

/* perf's se_sort where a key has one (names), else se_cmp */
static int key_sort(enum pulse_sort_key key, const struct pulse_hist_entry *a,
		    const struct pulse_hist_entry *b)
{
	if (key != PULSE_SORT_SYM)
		return key_cmp(key, a, b);
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym ? 0 : (!a->sym ? 1 : -1);
	return strcmp(a->sym->name, b->sym->name);
}

static bool entry_equal(const struct pulse_hists *h, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b)
{
	if (a->hash != b->hash)
		return false;
	for (size_t i = 0; i < h->nr_keys; i++)
		if (key_cmp(h->keys[i], a, b))
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
static int entry__new_root(struct pulse_hists *h, struct pulse_hist_entry *e)
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

enum add_mode {
	ADD_ALL,	/* account the sample, merge its chain */
	ADD_COUNT,	/* account it, note its chain's depth: trees come in pass two */
	ADD_TREES,	/* pass two: merge its chain into the hot entries only */
};

static int entry__append_chain(struct pulse_hists *h, struct pulse_hist_entry *e,
			       const struct pulse_cc_loc *chain, size_t nr, uint64_t period,
			       enum add_mode mode)
{
	if (!nr || !h->use_callchain)
		return 0;
	if (mode != ADD_TREES && nr > e->max_depth)
		e->max_depth = nr > UINT32_MAX ? UINT32_MAX : nr;
	if (mode == ADD_COUNT)
		return 0;
	if (!e->callchain && entry__new_root(h, e))
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
static int hists__log(struct pulse_hists *h, uint32_t v)
{
	if (h->merges_nr == h->merges_alloc) {
		size_t n = h->merges_alloc ? h->merges_alloc * 2 : 4096;
		uint32_t *m = realloc(h->merges, n * sizeof(*m));

		if (!m)
			return -ENOMEM;
		h->merges = m;
		h->merges_alloc = n;
	}
	h->merges[h->merges_nr++] = v;
	return 0;
}

/* the entry @idx gets the chain from frame @off on: now, or logged for pass two */
static int hists__merge(struct pulse_hists *h, uint32_t idx, const struct pulse_cc_loc *chain,
			size_t off, size_t nr, uint64_t period, enum add_mode mode)
{
	if (mode == ADD_COUNT && nr && h->use_callchain) {
		int err = hists__log(h, idx);

		if (err || (err = hists__log(h, off)))
			return err;
		h->merges[h->merges_sample]++;
	}
	return entry__append_chain(h, &h->entries[idx], chain + off, nr - off, period, mode);
}

/*
 * The part of a sample's accounting that falls on entries of @part: all
 * of it with one part. The totals are the caller's.
 */
static int hists__add_chain_part(struct pulse_hists *h, const struct pulse_addr_loc *al,
				 const char *comm, uint64_t period,
				 const struct pulse_cc_loc *chain, size_t nr,
				 unsigned int part, unsigned int nr_parts, enum add_mode mode)
{
	/* this sample's count of merges, in pass one's log */
	if (mode == ADD_COUNT) {
		int err = hists__log(h, 0);

		if (err)
			return err;
		h->merges_sample = h->merges_nr - 1;
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
	loc = h->sym_key ? pulse_cc_loc__hash(al->dso, al->sym, al->addr) : 0;
	key.hash = frame_hash(h, &key, shash, loc);
	key.born = h->cur_seq << 16;
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
		/* a made entry took a copy of the text and the memory fields */
		ckey.trace = (char *)h->cur_trace;
		ckey.mem = (struct pulse_hist_mem *)h->cur_mem;
		ckey.hash = frame_hash(h, &ckey, shash, loc);
		if (hash_part(ckey.hash, nr_parts) != part)
			continue;
		ckey.born = h->cur_seq << 16 | (i + 1);
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
	return hists__add_chain_part(h, al, comm, period, chain, nr, 0, 1, ADD_ALL);
}

int pulse_hists__add_shard(struct pulse_hists *shards, unsigned int part, unsigned int nr_parts,
			   uint64_t seq, const struct pulse_addr_loc *al, const char *comm,
			   uint64_t period, int cpu, const char *trace,
			   const struct pulse_cc_loc *chain, size_t nr)
{
	struct pulse_hists *s = &shards[part];

	s->cur_seq = seq;
	pulse_hists__set_sample(s, cpu, trace);
	return hists__add_chain_part(s, al, comm, period, chain, nr, part, nr_parts,
				     s->defer_trees ? ADD_COUNT : ADD_ALL);
}

int pulse_hists__add_shard_trees(struct pulse_hists *shards, unsigned int part,
				 const struct pulse_cc_loc *chain, size_t nr, uint64_t period)
{
	struct pulse_hists *s = &shards[part];
	size_t pos = s->merges_pos, n;

	if (!s->defer_trees)
		return 0;
	/* a log that does not match the samples is a caller's bug, not a crash */
	if (pos >= s->merges_nr || s->merges[pos] > (s->merges_nr - pos - 1) / 2)
		return -EINVAL;
	n = s->merges[pos++];
	s->merges_pos = pos + 2 * n;
	for (size_t k = 0; k < n; k++, pos += 2) {
		uint32_t idx = s->merges[pos], off = s->merges[pos + 1];
		int err;

		if (idx >= s->nr_entries || off >= nr)
			return -EINVAL;
		if (!(s->hot_bits[idx / 64] & 1ULL << (idx % 64)))
			continue;
		err = entry__append_chain(s, &s->entries[idx], chain + off, nr - off, period,
					  ADD_TREES);
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

	for (unsigned int p = 0; p < h->nr_shards; p++)
		for (size_t i = 0; i < h->shards[p].nr_entries; i++)
			if (!h->shards[p].entries[i].filtered)
				rel += h->shards[p].entries[i].period;
	min_hit = (rel < h->total_period ? rel : h->total_period) * (h->cc.min_percent / 100);
	for (unsigned int p = 0; p < h->nr_shards; p++) {
		struct pulse_hists *s = &h->shards[p];

		if (!s->defer_trees)
			continue;
		/* pass two reads a bit per merge, not an entry (a cache miss each) */
		free(s->hot_bits);
		s->hot_bits = calloc(s->nr_entries / 64 + 1, sizeof(*s->hot_bits));
		if (!s->hot_bits)
			return -ENOMEM;
		for (size_t i = 0; i < s->nr_entries; i++) {
			struct pulse_hist_entry *e = &s->entries[i];

			if ((s->cumulate ? e->acc_period : e->period) < min_hit)
				continue;
			s->hot_bits[i / 64] |= 1ULL << (i % 64);
			/*
			 * the root now: pass two then never writes the entry,
			 * which is copied out while the trees grow
			 */
			if (!e->callchain && entry__new_root(s, e))
				return -ENOMEM;
		}
	}
	return 0;
}

int pulse_hists__make_shards(struct pulse_hists *h, unsigned int nr)
{
	if (h->shards)
		return nr == h->nr_shards ? 0 : -EINVAL;
	h->shards = calloc(nr, sizeof(*h->shards));
	if (!h->shards)
		return -ENOMEM;
	for (unsigned int i = 0; i < nr; i++) {
		pulse_hists__init(&h->shards[i], h->keys, h->nr_keys);
		pulse_hists__set_callchain(&h->shards[i], &h->cc, h->cumulate);
		h->shards[i].use_callchain = h->use_callchain;
		h->shards[i].defer_trees = pulse_hists__defers_trees(h);
	}
	h->nr_shards = nr;
	return 0;
}

void pulse_hists__count(struct pulse_hists *h, uint64_t period)
{
	hists__count(h, period);
}

static void hists__free_shards(struct pulse_hists *h)
{
	for (unsigned int i = 0; i < h->nr_shards; i++)
		pulse_hists__exit(&h->shards[i]);
	free(h->shards);
	h->shards = NULL;
	h->nr_shards = 0;
}

/* the shards' entries (their text, their trees) are @h's now: the shards go */
static void hists__adopt_shards(struct pulse_hists *h)
{
	for (unsigned int i = 0; i < h->nr_shards; i++) {
		struct pulse_hists *s = &h->shards[i];

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
	h->shards_merged = false;
	/* later allocations (sorting) come from the arena that has them all */
	for (size_t i = 0; i < h->nr_entries; i++)
		if (h->entries[i].callchain)
			h->entries[i].callchain->arena = h->cc_arena;
}

int pulse_hists__merge_shards(struct pulse_hists *h)
{
	size_t total = h->nr_entries, *next;
	struct pulse_hist_entry *e;

	if (!h->shards)
		return 0;
	for (unsigned int i = 0; i < h->nr_shards; i++)
		total += h->shards[i].nr_entries;
	e = realloc(h->entries, (total ? total : 1) * sizeof(*e));
	next = calloc(h->nr_shards, sizeof(*next));
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

		for (unsigned int i = 0; i < h->nr_shards; i++) {
			struct pulse_hists *s = &h->shards[i];

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
	h->shards_merged = true;
	/* trees still growing in the shards: they stay until then */
	if (!h->trees_from)
		hists__adopt_shards(h);
	return 0;
}

int pulse_hists__finish_trees(struct pulse_hists *h)
{
	int err;

	if (!h->trees_from)
		return 0;
	err = pulse_hist_pool__wait_trees(h->trees_from);
	h->trees_from = NULL;
	if (h->shards_merged)
		hists__adopt_shards(h);
	return err;
}

/*
 * perf's hist_entry__sort() with the sign turned (negative: @a first): the
 * overhead columns, then each key's se_sort (or se_cmp). Not a total
 * order: with --children, entries of one thread compare by chain depth
 * when their periods tie, others do not.
 */
/*
 * The overhead columns, for entries and their packed keys alike: children
 * period, then (perf's __hpp__sort_acc()) callers above callees among one
 * thread's entries, then self period; 0 when they tie.
 */
static inline int overhead_cmp(const struct pulse_hists *h, uint64_t acc_a, uint64_t acc_b,
			       const void *thr_a, const void *thr_b, uint64_t dep_a,
			       uint64_t dep_b, uint64_t per_a, uint64_t per_b)
{
	if (h->cumulate) {
		if (acc_a != acc_b)
			return acc_a > acc_b ? -1 : 1;
		if (thr_a == thr_b && h->use_callchain && dep_a != dep_b) {
			if (h->cc.order == PULSE_CC_CALLER)
				return dep_a > dep_b ? -1 : 1;
			return dep_a < dep_b ? -1 : 1;
		}
	}
	if (per_a != per_b)
		return per_a > per_b ? -1 : 1;
	return 0;
}

static int output_cmp(const struct pulse_hist_entry *a, const struct pulse_hist_entry *b,
		      const struct pulse_hists *h)
{
	int r = overhead_cmp(h, a->acc_period, b->acc_period, a->thread, b->thread, a->max_depth,
			     b->max_depth, a->period, b->period);

	if (r)
		return r;
	for (size_t i = 0; i < h->nr_keys; i++) {
		r = key_sort(h->keys[i], a, b);
		if (r)
			return r;
	}
	return 0;
}

/* perf's hist_entry__cmp()/__collapse(): the keys' se_cmp (or se_collapse) */
static int collapse_cmp(const void *pa, const void *pb, void *arg)
{
	const struct pulse_hists *h = arg;
	int r;

	for (size_t i = 0; i < h->nr_keys; i++) {
		r = key_cmp(h->keys[i], pa, pb);
		if (r)
			return r;
	}
	return 0;
}

static int output_cmp_total(const void *pa, const void *pb, void *arg)
{
	int r = output_cmp(pa, pb, arg);

	return r ? r : collapse_cmp(pa, pb, arg);
}


static int comm_name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int dso_name_cmp(const void *a, const void *b)
{
	return dso_cmp(*(const struct pulse_dso *const *)a, *(const struct pulse_dso *const *)b);
}

static int sym_name_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct pulse_symbol *const *)a)->name,
		      (*(const struct pulse_symbol *const *)b)->name);
}

enum rank_what { RANK_COMM, RANK_DSO, RANK_SYM_NAME };

struct rank_ctx {
	const uintptr_t *u;
	int (*cmp)(const void *, const void *);
};

/* distinct values (indexes into ctx->u) by name, NULL first */
static int rank_name_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rank_ctx *c = arg;
	const uintptr_t *a = &c->u[*(const uintptr_t *)pa], *b = &c->u[*(const uintptr_t *)pb];

	if (!*a || !*b)
		return !*a && !*b ? 0 : (!*a ? -1 : 1);
	return c->cmp(a, b);
}

static uintptr_t rank_value(const struct pulse_hist_entry *e, enum rank_what what)
{
	switch (what) {
	case RANK_COMM:
		return (uintptr_t)e->comm;
	case RANK_DSO:
		return (uintptr_t)e->dso;
	case RANK_SYM_NAME:
		return (uintptr_t)e->sym;
	}
	return 0;
}

/*
 * Number the distinct comms, DSOs or symbols of the entries in name order
 * (1 first; equal names, equal numbers) into @rank[entry]; no DSO ranks
 * last (UINT32_MAX), no symbol 0. A report has 390,000 entries and a few
 * thousand distinct values: a hash table finds each entry's, and only the
 * distinct ones are sorted by name.
 */
static int hists__rank(const struct pulse_hists *h, enum rank_what what, uint32_t *rank)
{
	int (*cmp)(const void *, const void *) = what == RANK_COMM ? comm_name_cmp :
						 what == RANK_DSO ? dso_name_cmp : sym_name_cmp;
	size_t n = h->nr_entries, nu = 0, mask = 1023, alloc = 0;
	uintptr_t *u = NULL, *by_name = NULL;
	uint32_t *slot = NULL, *urank = NULL;
	int err = -ENOMEM;

	slot = malloc((mask + 1) * sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	memset(slot, 0xff, (mask + 1) * sizeof(*slot));
	for (size_t i = 0; i < n; i++) {
		uintptr_t v = rank_value(&h->entries[i], what);
		size_t j = hash_final(v) & mask;

		while (slot[j] != UINT32_MAX && u[slot[j]] != v)
			j = (j + 1) & mask;
		if (slot[j] == UINT32_MAX) {
			if (nu == alloc) {
				size_t a = alloc ? alloc * 2 : 256;
				uintptr_t *nuv = realloc(u, a * sizeof(*u));

				if (!nuv)
					goto out;
				u = nuv;
				alloc = a;
			}
			u[nu] = v;
			slot[j] = nu++;
			/* at half full, twice the slots */
			if (nu * 2 > mask) {
				uint32_t *ns = malloc((mask + 1) * 2 * sizeof(*ns));

				if (!ns)
					goto out;
				mask = mask * 2 + 1;
				memset(ns, 0xff, (mask + 1) * sizeof(*ns));
				for (size_t k = 0; k < nu; k++) {
					size_t q = hash_final(u[k]) & mask;

					while (ns[q] != UINT32_MAX)
						q = (q + 1) & mask;
					ns[q] = k;
				}
				free(slot);
				slot = ns;
				j = hash_final(v) & mask;
				while (u[slot[j]] != v)
					j = (j + 1) & mask;
			}
		}
		rank[i] = slot[j];
	}
	by_name = malloc((nu ? nu : 1) * sizeof(*by_name));
	urank = malloc((nu ? nu : 1) * sizeof(*urank));
	if (!by_name || !urank)
		goto out;
	/* the distinct values by name; NULL is no name, ranked apart */
	for (size_t k = 0; k < nu; k++)
		by_name[k] = k;
	qsort_r(by_name, nu, sizeof(*by_name), rank_name_cmp, &(struct rank_ctx){ u, cmp });
	for (size_t r = 0, k = 0; r < nu; r++) {
		uintptr_t v = u[by_name[r]];

		if (!v) {
			urank[by_name[r]] = what == RANK_DSO ? UINT32_MAX : 0;
			continue;
		}
		if (!k || cmp(&u[by_name[r - 1]], &v))
			k++;
		urank[by_name[r]] = k;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = urank[rank[i]];
	err = 0;
out:
	free(slot);
	free(u);
	free(by_name);
	free(urank);
	return err;
}

/*
 * What the trees compare, packed per entry: an entry, its thread, its
 * callchain root and its symbol sit in four places in memory, and the
 * trees' walks were memory-bound (a second of a 1.5M-sample report).
 * Only for the keys below; others compare the entries themselves.
 */
struct tkey {
	uint64_t acc_period;
	uint64_t period;
	uint64_t addr;			/* the symbol's start, else the address */
	uint64_t end;			/* the symbol's end */
	const void *thread;
	uint32_t depth;			/* the callchain's max_depth */
	uint32_t comm_rank, dso_rank, name_rank;
	int32_t tid, cpu;
	bool has_sym;
};

/*
 * The keys once more, smaller, for the key lists most reports use (at
 * most three keys, a symbol key last if any, all of tkey's kinds): a
 * collapse key and an output key of 32 and 40 bytes, the keys before the
 * symbol packed in one word. See fast_keys_usable().
 */
struct fkey_c {
	uint64_t pre;			/* the keys before "sym" */
	uint64_t addr, end;		/* as in tkey */
	uint32_t dso_rank;
	uint32_t has_sym;
};

struct fkey_o {
	uint64_t acc_period, period;
	const void *thread;
	uint64_t k01;			/* the first two keys' output values */
	uint32_t k2;			/* the third's */
	uint32_t depth;
};

struct tree_ctx {
	const struct pulse_hists *h;
	const struct tkey *k;		/* NULL: compare the entries */
	const struct fkey_c *fc;	/* the fast forms, or NULL */
	const struct fkey_o *fo;
	bool with_sym;			/* the collapse key ends with "sym" */
};

static bool tkey_usable(const struct pulse_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case PULSE_SORT_COMM:
		case PULSE_SORT_PID:
		case PULSE_SORT_TID:
		case PULSE_SORT_DSO:
		case PULSE_SORT_SYM:
		case PULSE_SORT_CPU:
		case PULSE_SORT_IPC_NULL:
			break;
		default:
			return false;
		}
	}
	return true;
}

static int u32_cmp(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

/* key_cmp()'s symbol order on packed keys (DSO ranks for DSOs) */
static inline int sym_rank_cmp(bool has_a, bool has_b, uint32_t dso_a, uint32_t dso_b,
			       uint64_t addr_a, uint64_t addr_b, uint64_t end_a, uint64_t end_b)
{
	int r;

	if (!has_a && !has_b)
		return addr_cmp(addr_a, addr_b);
	r = u32_cmp(dso_a, dso_b);
	if (r)
		return r;
	if (!has_a || !has_b)
		return !has_a ? 1 : -1;
	r = addr_cmp(addr_a, addr_b);
	return r ? r : addr_cmp(end_a, end_b);
}

/* key_cmp() on packed keys */
static int tkey_cmp(enum pulse_sort_key key, const struct tkey *a, const struct tkey *b)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return u32_cmp(a->comm_rank, b->comm_rank);
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case PULSE_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case PULSE_SORT_DSO:
		return u32_cmp(a->dso_rank, b->dso_rank);
	case PULSE_SORT_SYM:
		return sym_rank_cmp(a->has_sym, b->has_sym, a->dso_rank, b->dso_rank, a->addr,
				    b->addr, a->end, b->end);
	default:
		return 0;
	}
}

static int tree_collapse_cmp(const struct tree_ctx *c, uint32_t i, uint32_t j)
{
	const struct pulse_hists *h = c->h;
	int r;

	if (!c->k)
		return collapse_cmp(&h->entries[i], &h->entries[j], (void *)h);
	for (size_t n = 0; n < h->nr_keys; n++) {
		r = tkey_cmp(h->keys[n], &c->k[i], &c->k[j]);
		if (r)
			return r;
	}
	return 0;
}

/* output_cmp() on packed keys */
static int tree_output_cmp(const struct tree_ctx *c, uint32_t i, uint32_t j)
{
	const struct pulse_hists *h = c->h;
	const struct tkey *a, *b;
	int r;

	if (!c->k)
		return output_cmp(&h->entries[i], &h->entries[j], h);
	a = &c->k[i];
	b = &c->k[j];
	r = overhead_cmp(h, a->acc_period, b->acc_period, a->thread, b->thread, a->depth, b->depth,
			 a->period, b->period);
	if (r)
		return r;
	for (size_t n = 0; n < h->nr_keys; n++) {
		if (h->keys[n] == PULSE_SORT_SYM) {
			if (!a->has_sym || !b->has_sym)
				r = !a->has_sym && !b->has_sym ? 0 : (!a->has_sym ? 1 : -1);
			else
				r = u32_cmp(a->name_rank, b->name_rank);
		} else {
			r = tkey_cmp(h->keys[n], a, b);
		}
		if (r)
			return r;
	}
	return 0;
}

/* tree_collapse_cmp() on fkey_c */
static inline int fast_collapse_cmp(const struct tree_ctx *c, uint32_t i, uint32_t j)
{
	const struct fkey_c *a = &c->fc[i], *b = &c->fc[j];

	if (a->pre != b->pre)
		return a->pre < b->pre ? -1 : 1;
	if (!c->with_sym)
		return 0;
	return sym_rank_cmp(a->has_sym, b->has_sym, a->dso_rank, b->dso_rank, a->addr, b->addr,
			    a->end, b->end);
}

/* tree_output_cmp() on fkey_o */
static inline int fast_output_cmp(const struct tree_ctx *c, uint32_t i, uint32_t j)
{
	const struct fkey_o *a = &c->fo[i], *b = &c->fo[j];
	int r = overhead_cmp(c->h, a->acc_period, b->acc_period, a->thread, b->thread, a->depth,
			     b->depth, a->period, b->period);

	if (r)
		return r;
	if (a->k01 != b->k01)
		return a->k01 < b->k01 ? -1 : 1;
	return u32_cmp(a->k2, b->k2);
}

static bool fast_keys_usable(const struct pulse_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == PULSE_SORT_SYM && i + 1 != h->nr_keys)
			return false;
	if (!h->nr_keys || h->nr_keys > 3 || !tkey_usable(h))
		return false;
	/* the keys before a symbol (or all of them) fit in one word */
	return h->keys[h->nr_keys - 1] == PULSE_SORT_SYM || h->nr_keys <= 2;
}

/* a key's value in the order: ranks for names, signed numbers shifted */
static uint32_t fkey_value(const struct tkey *k, enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return k->comm_rank;
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		return (uint32_t)k->tid ^ 0x80000000u;
	case PULSE_SORT_CPU:
		return (uint32_t)k->cpu ^ 0x80000000u;
	case PULSE_SORT_DSO:
		return k->dso_rank;
	case PULSE_SORT_SYM:
		/* perf's se_sort: names; no symbol after every name */
		return k->has_sym ? k->name_rank : UINT32_MAX;
	default:
		return 0;
	}
}

/* the fast forms of @k's keys (fast_keys_usable()) */
static int hists__fkeys(const struct pulse_hists *h, const struct tkey *k, struct tree_ctx *c)
{
	size_t n = h->nr_entries, nr_pre = h->nr_keys;
	struct fkey_c *fc = malloc((n ? n : 1) * sizeof(*fc));
	struct fkey_o *fo = malloc((n ? n : 1) * sizeof(*fo));

	if (!fc || !fo) {
		free(fc);
		free(fo);
		return -ENOMEM;
	}
	c->with_sym = h->keys[h->nr_keys - 1] == PULSE_SORT_SYM;
	if (c->with_sym)
		nr_pre--;
	for (size_t i = 0; i < n; i++) {
		const struct tkey *t = &k[i];
		uint32_t v[3] = { 0, 0, 0 };
		uint64_t pre = 0;

		for (size_t j = 0; j < h->nr_keys; j++)
			v[j] = fkey_value(t, h->keys[j]);
		for (size_t j = 0; j < nr_pre; j++)
			pre = pre << 32 | v[j];
		/* the collapse order of "sym" is its own: fkey_value() is for output */
		fc[i] = (struct fkey_c){
			.pre = pre,
			.addr = t->addr,
			.end = t->end,
			.dso_rank = t->dso_rank,
			.has_sym = t->has_sym,
		};
		fo[i] = (struct fkey_o){
			.acc_period = t->acc_period,
			.period = t->period,
			.thread = t->thread,
			.k01 = (uint64_t)v[0] << 32 | v[1],
			.k2 = v[2],
			.depth = t->depth,
		};
	}
	c->fc = fc;
	c->fo = fo;
	return 0;
}

static struct tkey *hists__tkeys(struct pulse_hists *h)
{
	size_t n = h->nr_entries;
	uint32_t *comm = malloc((n ? n : 1) * sizeof(*comm));
	uint32_t *dso = malloc((n ? n : 1) * sizeof(*dso));
	uint32_t *name = malloc((n ? n : 1) * sizeof(*name));
	struct tkey *k = malloc((n ? n : 1) * sizeof(*k));

	if (!comm || !dso || !name || !k || hists__rank(h, RANK_COMM, comm) ||
	    hists__rank(h, RANK_DSO, dso) || hists__rank(h, RANK_SYM_NAME, name)) {
		free(k);
		k = NULL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];

		k[i] = (struct tkey){
			.acc_period = e->acc_period,
			.period = e->period,
			.addr = e->sym ? e->sym->start : e->ip,
			.end = e->sym ? e->sym->end : 0,
			.thread = e->thread,
			.depth = e->max_depth,
			.comm_rank = comm[i],
			.dso_rank = dso[i],
			.name_rank = name[i],
			.tid = e->thread->tid,
			.cpu = e->cpu,
			.has_sym = e->sym != NULL,
		};
	}
out:
	free(comm);
	free(dso);
	free(name);
	return k;
}

/*
 * The entries @in[] (indexes) put one after the other in a red-black
 * tree, each to the left of a node when @cmp says it goes before it, else
 * to the right; @out[] gets the tree in order.
 */
static inline __attribute__((always_inline)) void
hists__tree_order(const struct tree_ctx *c, struct pulse_rbt *t, const uint32_t *in,
		  uint32_t *out, int (*cmp)(const struct tree_ctx *, uint32_t, uint32_t))
{
	size_t n = 0;
	uint32_t x;

	t->root = PULSE_RBT_NIL;
	for (size_t k = 0; k < c->h->nr_entries; k++) {
		uint32_t i = in[k], parent = PULSE_RBT_NIL;
		bool left = false;

		for (x = t->root; x != PULSE_RBT_NIL; x = left ? t->n[x].left : t->n[x].right) {
			parent = x;
			left = cmp(c, i, x) < 0;
		}
		pulse_rbt__link(t, i, parent, left);
		pulse_rbt__insert_color(t, i);
	}
	for (x = pulse_rbt__first(t); x != PULSE_RBT_NIL; x = pulse_rbt__next(t, x))
		out[n++] = x;
}

/*
 * perf's order, step for step: entries go into hists->entries_in as
 * samples make them (creation order), by se_cmp; with a key that has an
 * se_collapse (comm), taken in order into the collapsed tree; then into
 * the output tree, left when hist_entry__sort() says before, else right.
 * The output is that tree in order. Neither comparison is a total order
 * (chain depth between entries of one thread, signed address
 * differences), so sorting the same entries any other way can put tied
 * rows elsewhere than perf does.
 */
static int hists__output_tree(struct pulse_hists *h)
{
	size_t n = h->nr_entries;
	uint32_t *a, *b, *tmp;
	struct pulse_hist_entry *out;
	struct tree_ctx c = { .h = h };
	struct pulse_rbt t;
	int err;

	if (n >= PULSE_RBT_NIL)
		return -E2BIG;
	if (tkey_usable(h)) {
		c.k = hists__tkeys(h);
		if (!c.k)
			return -ENOMEM;
		/*
		 * the packed keys' smaller forms: the trees' walks miss the
		 * cache less (short of memory: the packed keys do)
		 */
		if (fast_keys_usable(h) && !hists__fkeys(h, c.k, &c)) {
			free((void *)c.k);
			c.k = NULL;
		}
	}
	pulse_rbt__init(&t);
	err = pulse_rbt__reserve(&t, n);
	a = malloc((n ? n : 1) * sizeof(*a));
	b = malloc((n ? n : 1) * sizeof(*b));
	out = malloc((n ? n : 1) * sizeof(*out));
	if (err || !a || !b || !out) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		a[i] = i;
	if (c.fc)
		hists__tree_order(&c, &t, a, b, fast_collapse_cmp);
	else
		hists__tree_order(&c, &t, a, b, tree_collapse_cmp);
	if (pulse_hists__has_key(h, PULSE_SORT_COMM)) {
		if (c.fc)
			hists__tree_order(&c, &t, b, a, fast_collapse_cmp);
		else
			hists__tree_order(&c, &t, b, a, tree_collapse_cmp);
		tmp = a;
		a = b;
		b = tmp;
	}
	if (c.fo)
		hists__tree_order(&c, &t, b, a, fast_output_cmp);
	else
		hists__tree_order(&c, &t, b, a, tree_output_cmp);
	for (size_t k = 0; k < n; k++)
		out[k] = h->entries[a[k]];
	free(h->entries);
	h->entries = out;
	h->alloc = n;
	out = NULL;
out:
	free((void *)c.k);
	free((void *)c.fc);
	free((void *)c.fo);
	pulse_rbt__exit(&t);
	free(a);
	free(b);
	free(out);
	return err;
}

/*
 * The callchain trees' output order, on a thread of its own while the
 * entries are put in order: both are a good part of what a report does
 * after reading, and they touch different memory (a tree's sort writes
 * its nodes' sorted arrays, the entries' order reads roots' depths).
 */
struct chain_sort {
	struct pulse_cc_root **roots;
	size_t nr;
	const struct pulse_callchain_param *cc;
	uint64_t min_hit;
	struct pulse_arena arena;	/* the sorted arrays */
	int err;
};

static void *chain_sort__run(void *arg)
{
	struct chain_sort *cs = arg;

	for (size_t i = 0; i < cs->nr && !cs->err; i++)
		cs->err = pulse_cc_root__sort_in(cs->roots[i], cs->cc, cs->min_hit, &cs->arena);
	return NULL;
}

static void hists__sort_entries(struct pulse_hists *h)
{
	/* short of memory for the trees: the same rows, ties maybe elsewhere */
	if (hists__output_tree(h))
		qsort_r(h->entries, h->nr_entries, sizeof(*h->entries), output_cmp_total, h);
	/* the index is meaningless once the array moved */
	free(h->index);
	h->index = NULL;
	h->index_size = 0;
}

void pulse_hists__sort(struct pulse_hists *h)
{
	struct chain_sort cs = { .cc = &h->cc };
	pthread_t tid;
	bool threaded = false;

	h->chains_sorted = false;
	/*
	 * A pool's second pass still growing the hot entries' trees: the
	 * entries are put in order meanwhile (they need no tree), then the
	 * few trees here.
	 */
	if (h->trees_from) {
		uint64_t min_hit = h->total_period * (h->cc.min_percent / 100);
		int err;

		hists__sort_entries(h);
		err = pulse_hists__finish_trees(h);
		for (size_t i = 0; i < h->nr_entries && !err; i++)
			if (h->entries[i].callchain)
				err = pulse_cc_root__sort(h->entries[i].callchain, &h->cc, min_hit);
		h->chains_sorted = true;
		h->chains_err = err;
		return;
	}
	if (h->use_callchain && h->cc_arena) {
		/* perf's output_resort(): the threshold of the whole event (graph, flat) */
		cs.min_hit = h->total_period * (h->cc.min_percent / 100);
		cs.roots = malloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*cs.roots));
		for (size_t i = 0; cs.roots && i < h->nr_entries; i++)
			if (h->entries[i].callchain)
				cs.roots[cs.nr++] = h->entries[i].callchain;
		threaded = cs.roots && !pthread_create(&tid, NULL, chain_sort__run, &cs);
	}
	hists__sort_entries(h);
	if (threaded) {
		pthread_join(tid, NULL);
		pulse_arena__adopt(h->cc_arena, &cs.arena);
		h->chains_sorted = true;
		h->chains_err = cs.err;
	}
	free(cs.roots);
}

int pulse_hists__sort_chains(struct pulse_hists *h)
{
	uint64_t min_hit = h->total_period * (h->cc.min_percent / 100);

	if (!h->use_callchain)
		return 0;
	if (h->chains_sorted)
		return h->chains_err;
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct pulse_hist_entry *e = &h->entries[i];
		int err;

		if (!e->callchain)
			continue;
		err = pulse_cc_root__sort(e->callchain, &h->cc, min_hit);
		if (err)
			return err;
	}
	return 0;
}

void pulse_hists__set_mem(struct pulse_hists *h, const struct pulse_hist_mem *mem)
{
	h->cur_mem = mem;
}

bool pulse_hists__has_mem_keys(const struct pulse_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (pulse_sort_key__is_mem(h->keys[i]))
			return true;
	return false;
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

bool pulse_hists__hide_key(struct pulse_hists *h, enum pulse_sort_key key)
{
	size_t i, j;

	if (!pulse_hists__has_key(h, key))
		return false;
	for (i = 0; i < h->nr_keys && h->keys[i] == key; i++)
		;
	if (i == h->nr_keys)
		return false;
	for (i = j = 0; i < h->nr_keys; i++)
		if (h->keys[i] != key)
			h->keys[j++] = h->keys[i];
	h->nr_keys = j;
	h->sym_key = pulse_hists__has_key(h, PULSE_SORT_SYM);
	return true;
}
