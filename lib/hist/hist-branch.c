// SPDX-License-Identifier: GPL-2.0
/*
 * Branch mode histograms (include/pulse/hist-branch.h). perf's three
 * trees are rebuilt here with perf's own comparison functions
 * (util/sort.c sort__*_cmp() of perf 6.1, kept with their signs):
 * hists__findnew_entry() puts a branch in the entries tree (equal: merged;
 * below 0: left), hists__collapse_resort() moves the entries in tree
 * order into the collapsed tree (only when a key has a collapse function:
 * comm), and hists__output_resort() inserts them in that order into the
 * output tree (greater than 0: left) by period, then by the keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/hist-branch.h>
#include "core/internal.h"
#include "core/rbtree.h"

static const struct {
	const char *name;
	enum pulse_branch_sort_key key;
} key_names[] = {
	{ "comm", PULSE_BSORT_COMM }, { "dso_from", PULSE_BSORT_DSO_FROM },
	{ "dso_to", PULSE_BSORT_DSO_TO }, { "symbol_from", PULSE_BSORT_SYM_FROM },
	{ "symbol_to", PULSE_BSORT_SYM_TO }, { "mispredict", PULSE_BSORT_MISPREDICT },
	{ "in_tx", PULSE_BSORT_IN_TX }, { "abort", PULSE_BSORT_ABORT },
	{ "cycles", PULSE_BSORT_CYCLES }, { "ipc_lbr", PULSE_BSORT_IPC_LBR },
	{ "dso", PULSE_BSORT_DSO }, { "sym", PULSE_BSORT_SYM }, { "symbol", PULSE_BSORT_SYM },
	{ "pid", PULSE_BSORT_PID },
};

const char *pulse_branch_sort_keys__known(void)
{
	return "comm, dso_from, dso_to, symbol_from, symbol_to, mispredict, in_tx, abort, cycles, "
	       "dso, sym, pid";
}

int pulse_branch_sort_keys__parse(const char *spec, enum pulse_branch_sort_key *keys, size_t max,
				  const char **bad, size_t *bad_len)
{
	size_t nr = 0;

	while (*spec) {
		size_t len = strcspn(spec, ", "), i;

		for (i = 0; len && i < ARRAY_SIZE(key_names); i++)
			if (strlen(key_names[i].name) == len && !strncmp(spec, key_names[i].name, len))
				break;
		/* perf takes "overhead" as a column it always shows */
		if (len == 8 && !strncmp(spec, "overhead", 8)) {
			/* nothing to add */
		} else if (!len) {
			/* an empty item, as in "a,,b" */
		} else if (i == ARRAY_SIZE(key_names) || nr == max) {
			*bad = spec;
			*bad_len = len;
			return -EINVAL;
		} else {
			/* perf drops a key given twice */
			bool dup = false;

			for (size_t k = 0; k < nr; k++)
				dup |= keys[k] == key_names[i].key;
			if (!dup)
				keys[nr++] = key_names[i].key;
		}
		spec += len;
		spec += strspn(spec, ", ");
	}
	return nr;
}

bool pulse_branch_sort_keys__valid(const char *spec)
{
	enum pulse_branch_sort_key keys[PULSE_BSORT_MAX_KEYS];
	const char *bad;
	size_t bad_len;

	return pulse_branch_sort_keys__parse(spec, keys, PULSE_BSORT_MAX_KEYS, &bad, &bad_len) > 0;
}

int pulse_branch_hists__init(struct pulse_branch_hists *h, const enum pulse_branch_sort_key *keys,
			     size_t nr_keys)
{
	memset(h, 0, sizeof(*h));
	if (nr_keys > PULSE_BSORT_MAX_KEYS)
		return -EINVAL;
	memcpy(h->keys, keys, nr_keys * sizeof(*keys));
	h->nr_keys = nr_keys;
	h->in = malloc(sizeof(*h->in));
	if (!h->in)
		return -ENOMEM;
	pulse_rbt__init(h->in);
	return 0;
}

void pulse_branch_hists__exit(struct pulse_branch_hists *h)
{
	if (h->in)
		pulse_rbt__exit(h->in);
	free(h->in);
	free(h->entries);
	free(h->order);
	memset(h, 0, sizeof(*h));
}

void pulse_branch_end__resolve(struct pulse_machine *m, struct pulse_thread *t, uint64_t addr,
			       struct pulse_branch_end *end)
{
	/* branches cross modes: the record's cpumode says nothing of them */
	static const uint8_t modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL,
					 PERF_RECORD_MISC_GUEST_USER,
					 PERF_RECORD_MISC_GUEST_KERNEL };
	struct pulse_addr_loc al;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		pulse_machine__resolve_thread(m, t, modes[i], addr, &al);
		if (al.dso)
			break;
	}
	end->addr = addr;
	end->al_addr = al.addr;
	end->dso = al.dso;
	end->sym = al.sym;
	end->level = al.level;
}

/* ---- perf's comparisons, signs and all ---------------------------------- */

/* cmp_null(): both NULL equal, else NULL first */
static int64_t cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int64_t dso_cmp(const struct pulse_dso *l, const struct pulse_dso *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return strcmp(l->short_name, r->short_name);
}

static int64_t sym_cmp(const struct pulse_branch_end *l, const struct pulse_branch_end *r)
{
	if (!l->sym && !r->sym)
		return (int64_t)(r->addr - l->addr);
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	if (l->sym == r->sym)
		return 0;
	if (l->sym->start != r->sym->start)
		return (int64_t)(r->sym->start - l->sym->start);
	return (int64_t)(r->sym->end - l->sym->end);
}

/* se_cmp (and se_collapse, se_sort: the same for every key here) */
static int64_t key_cmp(enum pulse_branch_sort_key key, const struct pulse_branch_hist_entry *l,
		       const struct pulse_branch_hist_entry *r)
{
	switch (key) {
	case PULSE_BSORT_COMM:
		return strcmp(r->comm, l->comm);
	case PULSE_BSORT_DSO_FROM:
		return dso_cmp(l->from.dso, r->from.dso);
	case PULSE_BSORT_DSO_TO:
		return dso_cmp(l->to.dso, r->to.dso);
	case PULSE_BSORT_SYM_FROM:
		return sym_cmp(&l->from, &r->from);
	case PULSE_BSORT_SYM_TO:
		return sym_cmp(&l->to, &r->to);
	case PULSE_BSORT_MISPREDICT:
		/* "differ" is all perf says */
		return l->flags.mispred != r->flags.mispred ||
		       l->flags.predicted != r->flags.predicted;
	case PULSE_BSORT_IN_TX:
		return l->flags.in_tx != r->flags.in_tx;
	case PULSE_BSORT_ABORT:
		return l->flags.abort != r->flags.abort;
	case PULSE_BSORT_CYCLES:
		return (int)l->flags.cycles - (int)r->flags.cycles;
	case PULSE_BSORT_IPC_LBR:
	case PULSE_BSORT_SYM:
		/* sort__sym_cmp() of the entry's symbol, the target's: DSOs first */
		if (!l->to.sym && !r->to.sym)
			return (int64_t)(r->to.addr - l->to.addr);
		if (dso_cmp(r->to.dso, l->to.dso))
			return dso_cmp(r->to.dso, l->to.dso);
		return sym_cmp(&l->to, &r->to);
	case PULSE_BSORT_DSO:
		/* sort__dso_cmp() hands _sort__dso_cmp() its entries the other way round */
		return dso_cmp(r->to.dso, l->to.dso);
	case PULSE_BSORT_PID:
		return r->thread->tid - l->thread->tid;
	}
	return 0;
}

static int64_t entry_cmp(const struct pulse_branch_hists *h, const struct pulse_branch_hist_entry *l,
			 const struct pulse_branch_hist_entry *r)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		int64_t c = key_cmp(h->keys[i], l, r);

		if (c)
			return c;
	}
	return 0;
}

/* se_sort where a key has one: symbols by name, else se_cmp */
static int64_t key_sort(enum pulse_branch_sort_key key, const struct pulse_branch_hist_entry *l,
			const struct pulse_branch_hist_entry *r)
{
	if (key != PULSE_BSORT_SYM)
		return key_cmp(key, l, r);
	if (!l->to.sym || !r->to.sym)
		return cmp_null(l->to.sym, r->to.sym);
	return strcmp(r->to.sym->name, l->to.sym->name);
}

/* hist_entry__sort(): the period (more first), then the keys not elided */
static int64_t output_cmp(const struct pulse_branch_hists *h,
			  const struct pulse_branch_hist_entry *a,
			  const struct pulse_branch_hist_entry *b)
{
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (size_t i = 0; i < h->nr_keys; i++) {
		int64_t c = h->hidden[i] ? 0 : key_sort(h->keys[i], a, b);

		if (c)
			return c;
	}
	return 0;
}

void pulse_branch_hists__hide_key(struct pulse_branch_hists *h, enum pulse_branch_sort_key key,
				  bool hide)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == key)
			h->hidden[i] = hide;
}

void pulse_branch_hists__use_relative(struct pulse_branch_hists *h)
{
	h->nr_samples = h->nr_non_filtered_samples;
	h->total_period = h->total_non_filtered_period;
}

static bool has_collapse(const struct pulse_branch_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == PULSE_BSORT_COMM)
			return true;
	return false;
}

/* rb_link_node() and rb_insert_color() of node @x (of @nr) under @parent */
static int link_node(struct pulse_rbt *t, uint32_t x, size_t nr, uint32_t parent, bool left)
{
	int err = pulse_rbt__reserve(t, nr);

	if (err)
		return err;
	pulse_rbt__link(t, x, parent, left);
	pulse_rbt__insert_color(t, x);
	return 0;
}

int pulse_branch_hists__add(struct pulse_branch_hists *h, const char *comm,
			    struct pulse_thread *t, char level, const struct pulse_branch_end *from,
			    const struct pulse_branch_end *to, const struct pulse_branch_flags *flags,
			    uint64_t period, bool filtered, const struct pulse_branch_hist_entry **he)
{
	struct pulse_branch_hist_entry n = {
		.comm = comm, .thread = t, .level = level, .from = *from, .to = *to, .flags = *flags,
		.period = period, .nr_samples = 1, .filtered = filtered,
	};
	uint32_t x = h->in->root, parent = PULSE_RBT_NIL;
	bool left = false;
	int err;

	h->nr_samples++;
	h->total_period += period;
	while (x != PULSE_RBT_NIL) {
		struct pulse_branch_hist_entry *e = &h->entries[x];
		int64_t c = entry_cmp(h, e, &n);

		if (!c) {
			e->period += period;
			e->nr_samples++;
			h->nr_non_filtered_samples += !e->filtered;
			*he = e;
			return 0;
		}
		parent = x;
		left = c < 0;
		x = left ? h->in->n[x].left : h->in->n[x].right;
	}
	if (h->nr_entries == h->alloc) {
		size_t alloc = h->alloc ? 2 * h->alloc : 256;
		void *p = realloc(h->entries, alloc * sizeof(*h->entries));

		if (!p)
			return -ENOMEM;
		h->entries = p;
		h->alloc = alloc;
	}
	x = h->nr_entries;
	err = link_node(h->in, x, x + 1, parent, left);
	if (err)
		return err;
	h->nr_entries++;
	h->entries[x] = n;
	h->nr_non_filtered_samples += !filtered;
	*he = &h->entries[x];
	return 0;
}

/* hists__collapse_resort(): @x, in the entries tree's order, into @t */
static int collapse_insert(struct pulse_branch_hists *h, struct pulse_rbt *t, uint32_t x,
			   bool *merged)
{
	uint32_t y = t->root, parent = PULSE_RBT_NIL;
	bool left = false;

	*merged = false;
	while (y != PULSE_RBT_NIL) {
		int64_t c = entry_cmp(h, &h->entries[y], &h->entries[x]);

		if (!c) {
			h->entries[y].period += h->entries[x].period;
			h->entries[y].nr_samples += h->entries[x].nr_samples;
			*merged = true;
			return 0;
		}
		parent = y;
		left = c < 0;
		y = left ? t->n[y].left : t->n[y].right;
	}
	return link_node(t, x, h->nr_entries, parent, left);
}

/* hists__output_resort(): @x into the output tree @t */
static int output_insert(struct pulse_branch_hists *h, struct pulse_rbt *t, uint32_t x)
{
	uint32_t y = t->root, parent = PULSE_RBT_NIL;
	bool left = false;

	while (y != PULSE_RBT_NIL) {
		parent = y;
		left = output_cmp(h, &h->entries[x], &h->entries[y]) > 0;
		y = left ? t->n[y].left : t->n[y].right;
	}
	return link_node(t, x, h->nr_entries, parent, left);
}

int pulse_branch_hists__sort(struct pulse_branch_hists *h)
{
	struct pulse_rbt collapsed, out;
	const struct pulse_rbt *src = h->in;
	int err = 0;

	pulse_rbt__init(&collapsed);
	pulse_rbt__init(&out);
	free(h->order);
	h->nr_order = 0;
	h->order = malloc((h->nr_entries + 1) * sizeof(*h->order));
	if (!h->order)
		return -ENOMEM;
	if (has_collapse(h)) {
		for (uint32_t x = pulse_rbt__first(h->in); x != PULSE_RBT_NIL && !err;
		     x = pulse_rbt__next(h->in, x)) {
			bool merged;

			err = collapse_insert(h, &collapsed, x, &merged);
		}
		src = &collapsed;
	}
	for (uint32_t x = pulse_rbt__first(src); x != PULSE_RBT_NIL && !err;
	     x = pulse_rbt__next(src, x))
		err = output_insert(h, &out, x);
	h->total_non_filtered_period = 0;
	for (uint32_t x = pulse_rbt__first(&out); x != PULSE_RBT_NIL && !err;
	     x = pulse_rbt__next(&out, x)) {
		h->order[h->nr_order++] = x;
		if (!h->entries[x].filtered)
			h->total_non_filtered_period += h->entries[x].period;
	}
	pulse_rbt__exit(&collapsed);
	pulse_rbt__exit(&out);
	return err;
}

/* ---- branch statistics -------------------------------------------------- */

static bool cross_area(uint64_t a, uint64_t b, uint64_t size)
{
	return (a & ~(size - 1)) != (b & ~(size - 1));
}

void pulse_branch_type_stat__count(struct pulse_branch_type_stat *st,
				   const struct pulse_branch_flags *flags, uint64_t from, uint64_t to)
{
	if (!flags->type || !from)
		return;
	if (flags->type == PULSE_BR_EXTEND_ABI) {
		/*
		 * perf indexes its 8 new_counts with a 4-bit new_type: 8 to 11
		 * land on the counters after it, higher ones outside the struct
		 */
		uint64_t *after[] = { &st->cond_fwd, &st->cond_bwd, &st->cross_4k, &st->cross_2m };

		if (flags->new_type < ARRAY_SIZE(st->new_counts))
			st->new_counts[flags->new_type]++;
		else if (flags->new_type - 8 < ARRAY_SIZE(after))
			(*after[flags->new_type - 8])++;
	} else {
		st->counts[flags->type & 15]++;
	}
	if (flags->type == 1) {		/* PERF_BR_COND */
		if (to > from)
			st->cond_fwd++;
		else
			st->cond_bwd++;
	}
	if (cross_area(from, to, 2 << 20))
		st->cross_2m++;
	else if (cross_area(from, to, 4096))
		st->cross_4k++;
}

static void stat_line(FILE *fp, const char *name, uint64_t n, uint64_t total)
{
	if (n)
		fprintf(fp, "\n%8s: %5.1f%%", name ? name : "(null)", 100.0 * n / total);
}

void pulse_branch_type_stat__fprintf(const struct pulse_branch_type_stat *st, FILE *fp)
{
	uint64_t total = 0;

	/* perf's total leaves the extended types out, their lines divide by it too */
	for (size_t i = 0; i < ARRAY_SIZE(st->counts); i++)
		total += st->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", fp);
	stat_line(fp, "COND_FWD", st->cond_fwd, total);
	stat_line(fp, "COND_BWD", st->cond_bwd, total);
	stat_line(fp, "CROSS_4K", st->cross_4k, total);
	stat_line(fp, "CROSS_2M", st->cross_2m, total);
	for (size_t i = 0; i < ARRAY_SIZE(st->counts); i++)
		stat_line(fp, pulse_branch__type_name_of(i), st->counts[i], total);
	for (size_t i = 0; i < ARRAY_SIZE(st->new_counts); i++)
		stat_line(fp, pulse_branch__new_type_name(i), st->new_counts[i], total);
}

int pulse_branch_hists__add_sample(struct pulse_branch_hists *h, struct pulse_machine *m,
				   const struct pulse_addr_loc *al, const struct pulse_sample *s,
				   bool filtered, struct pulse_branch_type_stat *st)
{
	struct pulse_branch_entry e;

	for (__u64 i = 0; !pulse_branch__entry(s, i, &e); i++) {
		const struct pulse_branch_hist_entry *he;
		struct pulse_branch_end from, to;
		int err;

		pulse_branch_end__resolve(m, al->thread, e.from, &from);
		pulse_branch_end__resolve(m, al->thread, e.to, &to);
		/* perf's report counts branches, not events: a period of 1 each */
		err = pulse_branch_hists__add(h, al->thread->comm, al->thread, al->level, &from, &to,
					      &e.flags, 1, filtered, &he);
		if (err)
			return err;
		/* hist_iter__branch_callback() counts the entry's first branch */
		pulse_branch_type_stat__count(st, &he->flags, he->from.addr, he->to.addr);
	}
	return 0;
}
