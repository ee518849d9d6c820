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
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/internal.h"

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
};

const char *pulse_sort_keys__known(void)
{
	return "comm, pid, tid, dso, sym, symbol, cpu, symbol_size, trace, ipc_null, parent";
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
	}
	return "";
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
	return 0;
}

void pulse_hists__exit(struct pulse_hists *h)
{
	for (size_t i = 0; i < h->nr_entries; i++) {
		free(h->entries[i].trace);
		if (h->entries[i].callchain) {
			pulse_cc_root__exit(h->entries[i].callchain);
			free(h->entries[i].callchain);
		}
	}
	free(h->he_cache);
	free(h->entries);
	free(h->index);
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

static uint64_t entry_hash(const struct pulse_hists *h, const struct pulse_hist_entry *e)
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
		case PULSE_SORT_SYM_SIZE:
			v = mix(v, e->sym ? e->sym->end - e->sym->start : 0);
			break;
		case PULSE_SORT_TRACE:
			v = mix(v, hash_str(e->trace ? e->trace : "N/A"));
			break;
		case PULSE_SORT_IPC_NULL:
			break;
		case PULSE_SORT_PARENT:
			v = mix(v, e->parent ? hash_str(e->parent->name) : 0);
			break;
		case PULSE_SORT_DSO:
			v = mix(v, e->dso ? hash_str(e->dso->short_name) : 0);
			break;
		case PULSE_SORT_SYM:
			v = e->sym ? mix(mix(v, e->sym->start), e->sym->end) : mix(v, e->ip);
			break;
		}
	}
	return hash_final(v);
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
	case PULSE_SORT_IPC_NULL:
		return 0;
	case PULSE_SORT_PARENT:
		/* perf's sort__parent_cmp(), in this file's sign: names, then [other] */
		if (!a->parent || !b->parent)
			return !a->parent && !b->parent ? 0 : (!a->parent ? 1 : -1);
		return strcmp(a->parent->name, b->parent->name);
	case PULSE_SORT_DSO:
		return dso_cmp(a->dso, b->dso);
	case PULSE_SORT_SYM:
		if (!a->sym && !b->sym)
			return u64_cmp(a->ip, b->ip);
		r = dso_cmp(a->dso, b->dso);
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return !a->sym ? 1 : -1;
		if (a->sym == b->sym)
			return 0;
		r = u64_cmp(a->sym->start, b->sym->start);
		return r ? r : u64_cmp(a->sym->end, b->sym->end);
	}
	return 0;
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

static int hists__grow_index(struct pulse_hists *h)
{
	size_t n = h->index_size ? h->index_size * 2 : 1024;
	uint32_t *idx = malloc(n * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	memset(idx, 0xff, n * sizeof(*idx));
	for (size_t i = 0; i < h->nr_entries; i++) {
		size_t j = h->entries[i].hash & (n - 1);

		while (idx[j] != UINT32_MAX)
			j = (j + 1) & (n - 1);
		idx[j] = i;
	}
	free(h->index);
	h->index = idx;
	h->index_size = n;
	return 0;
}

/*
 * The entry equal to @key, created when missing; its index, or -ENOMEM.
 * @self: the sample's own entry (period counts as self and children
 * period) rather than one on its callchain (children period only).
 */
static long hists__findnew(struct pulse_hists *h, struct pulse_hist_entry *key, uint64_t period,
			   bool self)
{
	size_t j;

	if ((h->nr_entries + 1) * 2 > h->index_size && hists__grow_index(h))
		return -ENOMEM;
	key->hash = entry_hash(h, key);
	for (j = key->hash & (h->index_size - 1); h->index[j] != UINT32_MAX;
	     j = (j + 1) & (h->index_size - 1)) {
		struct pulse_hist_entry *e = &h->entries[h->index[j]];

		if (entry_equal(h, e, key)) {
			if (self) {
				e->period += period;
				e->nr_samples++;
			}
			e->acc_period += period;
			return h->index[j];
		}
	}
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
	if (key->trace) {
		key->trace = strdup(key->trace);
		if (!key->trace)
			return -ENOMEM;
	}
	h->entries[h->nr_entries] = *key;
	h->index[j] = h->nr_entries;
	return h->nr_entries++;
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
	};
	long idx;

	h->total_period += period;
	h->nr_samples++;
	h->total_non_filtered_period += period;
	h->nr_non_filtered_samples++;
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

static int entry__append_chain(struct pulse_hists *h, struct pulse_hist_entry *e,
			       const struct pulse_cc_loc *chain, size_t nr, uint64_t period)
{
	if (!nr || !h->use_callchain)
		return 0;
	if (!e->callchain) {
		e->callchain = calloc(1, sizeof(*e->callchain));
		if (!e->callchain)
			return -ENOMEM;
	}
	return pulse_cc_root__append(e->callchain, chain, nr, period, h->cc.address_key);
}

int pulse_hists__add_chain(struct pulse_hists *h, const struct pulse_addr_loc *al,
			   const char *comm, uint64_t period, const struct pulse_cc_loc *chain,
			   size_t nr)
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
	};
	size_t nr_cache = 0;
	char level = al->level;
	long idx;
	int err;

	h->total_period += period;
	h->nr_samples++;
	h->total_non_filtered_period += period;
	h->nr_non_filtered_samples++;
	idx = hists__findnew(h, &key, period, true);
	if (idx < 0)
		return idx;
	err = entry__append_chain(h, &h->entries[idx], chain, nr, period);
	if (err || !h->cumulate)
		return err;
	if (h->he_cache_alloc < nr + 1) {
		uint32_t *c = realloc(h->he_cache, (nr + 1) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		h->he_cache = c;
		h->he_cache_alloc = nr + 1;
	}
	h->he_cache[nr_cache++] = idx;
	for (size_t i = 0; i < nr; i++) {
		/*
		 * perf reuses one location for the whole walk: a frame
		 * without a map keeps the level of the frame before it.
		 */
		if (chain[i].level)
			level = chain[i].level;
		struct pulse_hist_entry ckey = {
			.comm = comm,
			.thread = al->thread,
			.dso = chain[i].dso,
			.sym = chain[i].sym,
			.ip = chain[i].ip,
			.level = level,
			.cpu = h->cur_cpu,
			.trace = (char *)h->cur_trace,
			.parent = h->cur_parent,
			.filtered = h->cur_filtered,
		};
		bool dup = false;

		ckey.hash = entry_hash(h, &ckey);
		/* recursion: each entry once per sample */
		for (size_t k = 0; k < nr_cache && !dup; k++)
			dup = entry_equal(h, &h->entries[h->he_cache[k]], &ckey);
		if (dup)
			continue;
		idx = hists__findnew(h, &ckey, period, false);
		if (idx < 0)
			return idx;
		h->he_cache[nr_cache++] = idx;
		err = entry__append_chain(h, &h->entries[idx], chain + i, nr - i, period);
		if (err)
			return err;
	}
	return 0;
}

static int output_cmp(const void *pa, const void *pb, void *arg)
{
	const struct pulse_hist_entry *a = pa, *b = pb;
	const struct pulse_hists *h = arg;
	int r;

	if (h->cumulate) {
		if (a->acc_period != b->acc_period)
			return a->acc_period > b->acc_period ? -1 : 1;
		/* perf's __hpp__sort_acc(): callers above callees */
		if (a->thread == b->thread && h->use_callchain) {
			uint64_t da = a->callchain ? a->callchain->max_depth : 0;
			uint64_t db = b->callchain ? b->callchain->max_depth : 0;

			if (da != db) {
				if (h->cc.order == PULSE_CC_CALLER)
					return da > db ? -1 : 1;
				return da < db ? -1 : 1;
			}
		}
	}
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (size_t i = 0; i < h->nr_keys; i++) {
		r = key_sort(h->keys[i], a, b);
		if (r)
			return r;
	}
	for (size_t i = 0; i < h->nr_keys; i++) {
		r = key_cmp(h->keys[i], a, b);
		if (r)
			return r;
	}
	return 0;
}

void pulse_hists__sort(struct pulse_hists *h)
{
	qsort_r(h->entries, h->nr_entries, sizeof(*h->entries), output_cmp, h);
	/* the index is meaningless once the array moved */
	free(h->index);
	h->index = NULL;
	h->index_size = 0;
}

int pulse_hists__sort_chains(struct pulse_hists *h)
{
	/* perf's output_resort(): the threshold of the whole event (graph, flat) */
	uint64_t min_hit = h->total_period * (h->cc.min_percent / 100);

	if (!h->use_callchain)
		return 0;
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
	return true;
}
