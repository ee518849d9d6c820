// SPDX-License-Identifier: GPL-2.0
/*
 * The output order of the histograms, perf report's: a comparator that
 * reproduces the order of perf's output tree. perf sorts by "overhead"
 * and then by each key's se_sort (or se_cmp), and entries still equal
 * after that keep the order of perf's collapsed tree, which is the keys'
 * se_cmp/se_collapse order. The callchain trees are put in their order
 * at the same time, on a thread of their own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/arena.h"
#include "core/internal.h"
#include "core/rbtree.h"
#include "hist/hist-internal.h"

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

/*
 * perf's __hpp__sort() in group mode: when the leader's periods tie, each
 * member's period in turn, largest first (an entry without pairs has 0)
 */
static int group_cmp(const struct pulse_hists *h, const struct pulse_hist_entry *a,
		     const struct pulse_hist_entry *b)
{
	for (size_t i = 0; i < h->nr_pairs; i++) {
		uint64_t pa = a->pairs ? a->pairs[i * 3] : 0, pb = b->pairs ? b->pairs[i * 3] : 0;

		if (pa != pb)
			return pa > pb ? -1 : 1;
	}
	return 0;
}

/*
 * perf's hist_entry__sort() with the sign turned (negative: @a first): the
 * overhead columns, then each key's se_sort (or se_cmp). Not a total
 * order: with --children, entries of one thread compare by chain depth
 * when their periods tie, others do not.
 */
static int output_cmp(const struct pulse_hist_entry *a, const struct pulse_hist_entry *b,
		      const struct pulse_hists *h)
{
	int r;

	/* -F or an hpp key: the keys are perf's whole sort list (lib/hist/fields.c) */
	if (h->nr_fields) {
		for (size_t i = 0; i < h->nr_keys; i++) {
			r = pulse_sort_key__is_hpp(h->keys[i]) ?
				    pulse_sort_hpp__sort(h, h->keys[i], a, b) :
				    pulse_sort_key__sort(h->keys[i], a, b);
			if (r)
				return r;
		}
		return 0;
	}
	r = overhead_cmp(h, a->acc_period, b->acc_period, a->thread, b->thread, a->max_depth,
			 b->max_depth, a->period, b->period);
	if (!r && h->nr_pairs)
		r = group_cmp(h, a, b);
	if (r)
		return r;
	for (size_t i = 0; i < h->nr_keys; i++) {
		r = pulse_sort_key__sort(h->keys[i], a, b);
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
		r = pulse_sort_key__cmp(h->keys[i], pa, pb);
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
	/* perf's own sort list (-F, hpp keys), a group: the entries compared as they are */
	if (h->nr_fields || h->nr_pairs)
		return false;
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

/* pulse_sort_key__cmp()'s symbol order on packed keys (DSO ranks for DSOs) */
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

/* pulse_sort_key__cmp() on packed keys */
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

	if (!comm || !dso || !name || !k || pulse_hists__rank(h, RANK_COMM, comm) ||
	    pulse_hists__rank(h, RANK_DSO, dso) || pulse_hists__rank(h, RANK_SYM_NAME, name)) {
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

int pulse_hists__sort(struct pulse_hists *h)
{
	struct chain_sort cs = { .cc = &h->cc };
	pthread_t tid;
	bool threaded = false;
	int err = 0;

	h->chains_sorted = false;
	if (h->srcline && pulse_hists__mark_srclines(h))
		return -ENOMEM;
	/*
	 * A pool's second pass still growing the hot entries' trees: the
	 * entries are put in order meanwhile (they need no tree), then the
	 * few trees here.
	 */
	if (pulse_hists__trees_pending(h)) {
		uint64_t min_hit = h->total_period * (h->cc.min_percent / 100);

		hists__sort_entries(h);
		err = pulse_hists__finish_trees(h);
		for (size_t i = 0; i < h->nr_entries && !err; i++)
			if (h->entries[i].callchain)
				err = pulse_cc_root__sort(h->entries[i].callchain, &h->cc, min_hit);
		h->chains_sorted = true;
		return err;
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
		err = cs.err;
	}
	free(cs.roots);
	return err;
}

int pulse_hists__sort_chains(struct pulse_hists *h)
{
	uint64_t min_hit = h->total_period * (h->cc.min_percent / 100);

	if (!h->use_callchain)
		return 0;
	/* pulse_hists__sort() did, and returned their error */
	if (h->chains_sorted)
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

