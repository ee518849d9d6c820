// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of perf 6.1's `perf diff` (builtin-diff.c): the baseline's
 * entries, each later file's entries paired to them by their keys
 * (hists__match(); an entry the baseline lacks is added as a dummy row,
 * hists__link(), matched by the files after it too); -b drops the rows
 * nothing paired (hists__baseline_only()); each pair's value is computed
 * (hists__precompute()) and the rows are ordered by perf's sort list in
 * diff mode: the -o file's computed column, the baseline's period, each
 * file's computed column, the keys' se_sort.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/diff.h>
#include <pulse/reader.h>
#include "diff/diff-int.h"
#include "core/hash.h"

bool pulse_diff__key_ok(enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_COMM:
	case PULSE_SORT_PID:
	case PULSE_SORT_DSO:
	case PULSE_SORT_SYM:
	case PULSE_SORT_CPU:
		return true;
	default:
		return false;
	}
}

size_t pulse_diff__nr_rows(const struct pulse_diff *diff)
{
	return diff ? diff->nr_rows : 0;
}

static const char *dso_name(const struct pulse_hist_entry *e)
{
	return e->dso ? e->dso->short_name : NULL;
}

static uint64_t str_hash(uint64_t h, const char *s)
{
	/* a 0xff after each string: ("ab", "c") and ("a", "bc") differ */
	if (s)
		h = pulse_fnv1a(h, s, strlen(s));
	return pulse_fnv1a(h, "\xff", 1);
}

static uint64_t u64_hash(uint64_t h, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++, v >>= 8)
		b[i] = v & 0xff;
	return pulse_fnv1a(h, b, sizeof(b));
}

/*
 * What pairs entries of different files: their symbols are other objects
 * at maybe other addresses (another build), so names alone are compared,
 * as perf's collapse does in diff mode (sort_sym's se_collapse is
 * sort__sym_sort()). The same collapse merges a file's own entries of one
 * name, in other DSOs too when dso is no key (_start of the program and of
 * ld.so), and all its unresolved addresses: perf diff prints one row each.
 */
static uint64_t entry_hash(const struct pulse_diff *diff, const struct pulse_hist_entry *e)
{
	uint64_t h = PULSE_FNV1A_INIT;

	for (size_t k = 0; k < diff->nr_keys; k++) {
		switch (diff->keys[k]) {
		case PULSE_SORT_COMM:
			h = str_hash(h, e->comm);
			break;
		case PULSE_SORT_PID:
			h = u64_hash(h, (uint32_t)e->thread->tid);
			break;
		case PULSE_SORT_DSO:
			h = str_hash(h, dso_name(e));
			break;
		case PULSE_SORT_SYM:
			h = e->sym ? str_hash(h, e->sym->name) : u64_hash(h, 1);
			break;
		case PULSE_SORT_CPU:
			h = u64_hash(h, (uint32_t)e->cpu);
			break;
		default:
			break;
		}
	}
	return h;
}

static int str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;	/* NULL (unknown) last */
	return strcmp(a, b);
}

static bool entry_eq(const struct pulse_diff *diff, const struct pulse_hist_entry *a,
		     const struct pulse_hist_entry *b)
{
	for (size_t k = 0; k < diff->nr_keys; k++) {
		switch (diff->keys[k]) {
		case PULSE_SORT_COMM:
			if (strcmp(a->comm, b->comm))
				return false;
			break;
		case PULSE_SORT_PID:
			if (a->thread->tid != b->thread->tid)
				return false;
			break;
		case PULSE_SORT_DSO:
			if (str_cmp(dso_name(a), dso_name(b)))
				return false;
			break;
		case PULSE_SORT_SYM:
			if (!a->sym != !b->sym)
				return false;
			if (a->sym && strcmp(a->sym->name, b->sym->name))
				return false;
			break;
		case PULSE_SORT_CPU:
			if (a->cpu != b->cpu)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* The rows' index: open addressing on entry_hash(), slots hold row + 1. */
struct row_index {
	uint32_t *slot;
	uint64_t *hash;		/* per slot */
	size_t mask;
};

static int index_init(struct row_index *ix, size_t nr)
{
	size_t size = 16;

	while (size < 2 * nr)
		size <<= 1;
	ix->slot = calloc(size, sizeof(*ix->slot));
	ix->hash = calloc(size, sizeof(*ix->hash));
	ix->mask = size - 1;
	return ix->slot && ix->hash ? 0 : -ENOMEM;
}

static void index_exit(struct row_index *ix)
{
	free(ix->slot);
	free(ix->hash);
}

/* The row of @e's keys, or -1 with *@at the free slot for it. */
static long index_find(const struct pulse_diff *diff, const struct row_index *ix,
		       const struct pulse_hist_entry *e, uint64_t h, size_t *at)
{
	size_t i = h & ix->mask;

	for (; ix->slot[i]; i = (i + 1) & ix->mask) {
		uint32_t r = ix->slot[i] - 1;

		if (ix->hash[i] == h && entry_eq(diff, diff->rows[r].e, e))
			return r;
	}
	*at = i;
	return -1;
}

/*
 * Whether @x comes before @y in perf's input tree (hists->entries_in),
 * where entries merged by the collapse differ only in what sort__sym_cmp()
 * compares: the first of them stays the collapsed entry. A new entry goes
 * left of a node when se_cmp(node, new) < 0, so: unresolved addresses
 * ascending, then DSOs by short name descending (none first), resolved
 * symbols first, then start and end ascending; addresses as perf's signed
 * differences (a kernel address before a user one).
 */
static bool entry_before(const struct pulse_hist_entry *x, const struct pulse_hist_entry *y)
{
	int r;

	if (!x->sym && !y->sym)
		return (int64_t)(x->ip - y->ip) < 0;
	r = str_cmp(dso_name(x), dso_name(y));
	if (r)
		return r > 0;
	if (!x->sym || !y->sym)
		return x->sym != NULL;
	if (x->sym->start != y->sym->start)
		return (int64_t)(x->sym->start - y->sym->start) < 0;
	return (int64_t)(x->sym->end - y->sym->end) < 0;
}

/* the first file after the baseline with an entry in row @r */
static size_t diff__first_file(const struct pulse_diff *diff, long r)
{
	for (size_t f = 1; f < diff->nr_files; f++) {
		if (diff->pair[(size_t)r * diff->nr_files + f])
			return f;
	}
	return 0;
}

static int diff__add_row(struct pulse_diff *diff, struct row_index *ix, size_t at, uint64_t h,
			 const struct pulse_hist_entry *e, bool dummy)
{
	struct diff_row *r = &diff->rows[diff->nr_rows];

	r->e = e;
	r->dummy = dummy;
	r->period = dummy ? 0 : e->period;
	diff->pperiod[diff->nr_rows * diff->nr_files] = r->period;
	r->born = (uint32_t)diff->nr_rows;
	if (ix) {
		ix->slot[at] = (uint32_t)diff->nr_rows + 1;
		ix->hash[at] = h;
	}
	diff->nr_rows++;
	return 0;
}

/*
 * Entry @e of file @f joins row @r (perf's collapse merged equal entries
 * into the first of its input tree, entry_before(): that one stays the
 * row's, or the pair's, entry).
 */
static void diff__merge(struct pulse_diff *diff, long r, size_t f, const struct pulse_hist_entry *e)
{
	size_t at = (size_t)r * diff->nr_files + f;
	const struct pulse_hist_entry *p = diff->pair[at];
	struct diff_row *row = &diff->rows[r];

	if (f == 0) {
		if (e != row->e) {
			row->period += e->period;
			if (entry_before(e, row->e))
				row->e = e;
		}
		diff->pperiod[at] = row->period;
		return;
	}
	diff->pperiod[at] += e->period;
	if (!p || entry_before(e, p))
		diff->pair[at] = e;
	/* a row the baseline lacks shows the first file's entry */
	if (row->dummy && diff__first_file(diff, r) == f)
		row->e = diff->pair[at];
}

/* The baseline's entries, then each file's paired or added (hists__match(), __link()). */
static int diff__pair(struct pulse_diff *diff)
{
	size_t nr = diff->nr_files, alloc = 0;
	struct row_index ix;
	int err;

	for (size_t f = 0; f < nr; f++)
		alloc += diff->hists[f] ? diff->hists[f]->nr_entries : 0;
	diff->rows = calloc(alloc ? alloc : 1, sizeof(*diff->rows));
	diff->pair = calloc((alloc ? alloc : 1) * nr, sizeof(*diff->pair));
	diff->value = calloc((alloc ? alloc : 1) * nr, sizeof(*diff->value));
	diff->wdiff = calloc((alloc ? alloc : 1) * nr, sizeof(*diff->wdiff));
	diff->pperiod = calloc((alloc ? alloc : 1) * nr, sizeof(*diff->pperiod));
	if (!diff->rows || !diff->pair || !diff->value || !diff->wdiff || !diff->pperiod)
		return -ENOMEM;
	err = index_init(&ix, alloc);
	if (err)
		goto out;
	for (size_t f = 0; f < nr; f++) {
		const struct pulse_hists *h = diff->hists[f];

		for (size_t i = 0; h && i < h->nr_entries; i++) {
			const struct pulse_hist_entry *e = &h->entries[i];
			uint64_t hash = entry_hash(diff, e);
			size_t at = 0;
			long r = index_find(diff, &ix, e, hash, &at);

			if (r < 0) {
				if (f && diff->opts.baseline_only)
					continue;
				r = (long)diff->nr_rows;
				diff__add_row(diff, &ix, at, hash, e, f > 0);
				if (f)
					diff__merge(diff, r, f, e);
				continue;
			}
			diff__merge(diff, r, f, e);
		}
	}
out:
	index_exit(&ix);
	return err;
}

static bool row_has_pairs(const struct pulse_diff *diff, const struct diff_row *r)
{
	for (size_t f = 1; f < diff->nr_files; f++) {
		if (diff->pair[r->born * diff->nr_files + f])
			return true;
	}
	return false;
}

/* -b: the rows no other file has (perf deletes them before the totals are summed again) */
static void diff__baseline_only(struct pulse_diff *diff)
{
	size_t n = 0;

	for (size_t i = 0; i < diff->nr_rows; i++) {
		if (row_has_pairs(diff, &diff->rows[i]))
			diff->rows[n++] = diff->rows[i];
	}
	diff->nr_rows = n;
}

/*
 * perf's hists__total_period() as diff's sample callback sums it: with
 * --percentage relative, the samples no filter hid (those of entries not
 * hidden: an entry is hidden when its first sample was)
 */
static uint64_t hists_total(const struct pulse_hists *h, bool relative)
{
	uint64_t sum = 0;

	if (!relative)
		return h->total_period;
	for (size_t i = 0; i < h->nr_entries; i++) {
		if (!h->entries[i].filtered)
			sum += h->entries[i].period;
	}
	return sum;
}

/* perf's hists__precompute(): compute_delta(), compute_ratio(), compute_wdiff() */
static void diff__precompute(struct pulse_diff *diff)
{
	size_t nr = diff->nr_files;

	for (size_t i = 0; i < diff->nr_rows; i++) {
		const struct diff_row *r = &diff->rows[i];

		for (size_t f = 1; f < nr; f++) {
			const struct pulse_hist_entry *p = diff->pair[r->born * nr + f];
			size_t at = r->born * nr + f;

			if (!p)
				continue;
			switch (diff->opts.compute) {
			case PULSE_DIFF_DELTA:
			case PULSE_DIFF_DELTA_ABS:
				diff->value[at] = diff->pperiod[at] * 100.0 / diff->total[f] -
						  r->period * 100.0 / diff->total[0];
				break;
			case PULSE_DIFF_RATIO:
				diff->value[at] = (double)diff->pperiod[at] /
						  (r->period ? r->period : 1);
				break;
			case PULSE_DIFF_WDIFF:
				diff->wdiff[at] = (int64_t)(diff->pperiod[at] * diff->opts.w2 -
							    r->period * diff->opts.w1);
				break;
			}
		}
	}
	/* perf's output_resort sums the periods again: -b changes the Baseline column */
	diff->base_total = 0;
	for (size_t i = 0; i < diff->nr_rows; i++) {
		const struct diff_row *r = &diff->rows[i];

		if (!r->dummy && (!diff->opts.relative || !r->e->filtered))
			diff->base_total += r->period;
	}
}

/* the larger first (perf's cmp_doubles() and wdiff's r - l) */
static int value_cmp(const struct pulse_diff *diff, size_t a, size_t b)
{
	double va = diff->value[a], vb = diff->value[b];

	switch (diff->opts.compute) {
	case PULSE_DIFF_DELTA_ABS:
		va = fabs(va), vb = fabs(vb);
		/* fall through */
	case PULSE_DIFF_DELTA:
	case PULSE_DIFF_RATIO:
		return va > vb ? -1 : va < vb ? 1 : 0;
	case PULSE_DIFF_WDIFF:
		return diff->wdiff[a] > diff->wdiff[b] ? -1 : diff->wdiff[a] < diff->wdiff[b];
	}
	return 0;
}

/*
 * perf's hist_entry__cmp_compute(): rows with pairs first, then those
 * paired in file @f, then by value. With @idx (the -o column,
 * hist_entry__cmp_compute_idx()) the first test is not made, and a ratio
 * or wdiff puts dummy rows after the others, two dummy rows equal.
 */
static int compute_cmp(const struct pulse_diff *diff, const struct diff_row *a,
		       const struct diff_row *b, size_t f, bool idx)
{
	size_t nr = diff->nr_files, pa = a->born * nr + f, pb = b->born * nr + f;

	if (!idx) {
		bool ha = row_has_pairs(diff, a), hb = row_has_pairs(diff, b);

		if (!ha && !hb)
			return 0;
		if (ha != hb)
			return ha ? -1 : 1;
	}
	if (!diff->pair[pa] && !diff->pair[pb])
		return 0;
	if (!diff->pair[pa] || !diff->pair[pb])
		return diff->pair[pa] ? -1 : 1;
	/*
	 * two rows without baseline tie here (their ratio or wdiff has
	 * nothing to weigh against): the next files' columns order them
	 */
	if (idx && diff->opts.compute != PULSE_DIFF_DELTA &&
	    diff->opts.compute != PULSE_DIFF_DELTA_ABS && (a->dummy || b->dummy))
		return a->dummy == b->dummy ? 0 : a->dummy ? 1 : -1;
	return value_cmp(diff, pa, pb);
}

/* perf's se_sort (or se_cmp) of a key, negative: @a first */
static int key_sort(enum pulse_sort_key key, const struct pulse_hist_entry *a,
		    const struct pulse_hist_entry *b)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return strcmp(a->comm, b->comm);
	case PULSE_SORT_PID:
		return a->thread->tid < b->thread->tid ? -1 : a->thread->tid > b->thread->tid;
	case PULSE_SORT_DSO:
		return str_cmp(dso_name(a), dso_name(b));
	case PULSE_SORT_SYM:
		/* sort__sym_sort(): resolved first, by name */
		if (!a->sym || !b->sym)
			return !a->sym - !b->sym;
		return strcmp(a->sym->name, b->sym->name);
	case PULSE_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		return 0;
	}
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct pulse_diff *diff = arg;
	const struct diff_row *a = pa, *b = pb;
	int r = 0;

	if (diff->opts.order)
		r = compute_cmp(diff, a, b, diff->opts.order, true);
	if (!r && a->period != b->period)
		r = a->period > b->period ? -1 : 1;
	for (size_t f = 1; !r && f < diff->nr_files; f++)
		r = compute_cmp(diff, a, b, f, false);
	for (size_t k = 0; !r && k < diff->nr_keys; k++)
		r = key_sort(diff->keys[k], a->e, b->e);
	/* the collapsed tree's order: unresolved addresses ascending, then as made */
	if (!r && !a->e->sym && !b->e->sym && a->e->ip != b->e->ip)
		r = a->e->ip < b->e->ip ? -1 : 1;
	if (!r)
		r = a->born < b->born ? -1 : a->born > b->born;
	return r;
}

int pulse_diff__new(struct pulse_diff **out, struct pulse_hists *const *hists, size_t nr_files,
		    const enum pulse_sort_key *keys, size_t nr_keys,
		    const struct pulse_diff_opts *opts)
{
	struct pulse_diff *diff;
	int err;

	*out = NULL;
	if (!opts || opts->sz < sizeof(*opts) || nr_files < 1 || !hists[0] ||
	    nr_keys > PULSE_SORT_MAX_KEYS || opts->order >= nr_files ||
	    (opts->compute == PULSE_DIFF_WDIFF && (!opts->w1 || !opts->w2)))
		return -EINVAL;
	for (size_t k = 0; k < nr_keys; k++) {
		if (!pulse_diff__key_ok(keys[k]))
			return -EINVAL;
	}
	diff = calloc(1, sizeof(*diff));
	if (!diff)
		return -ENOMEM;
	diff->opts = *opts;
	diff->nr_files = nr_files;
	memcpy(diff->keys, keys, nr_keys * sizeof(*keys));
	diff->nr_keys = nr_keys;
	diff->hists = hists;
	diff->total = calloc(nr_files, sizeof(*diff->total));
	if (!diff->total) {
		err = -ENOMEM;
		goto out_delete;
	}
	for (size_t f = 0; f < nr_files; f++)
		diff->total[f] = hists[f] ? hists_total(hists[f], opts->relative) : 0;
	err = diff__pair(diff);
	if (err)
		goto out_delete;
	if (opts->baseline_only)
		diff__baseline_only(diff);
	diff__precompute(diff);
	qsort_r(diff->rows, diff->nr_rows, sizeof(*diff->rows), row_cmp, diff);
	*out = diff;
	return 0;

out_delete:
	pulse_diff__delete(diff);
	return err;
}

void pulse_diff__delete(struct pulse_diff *diff)
{
	if (!diff)
		return;
	free(diff->rows);
	free(diff->pair);
	free(diff->value);
	free(diff->wdiff);
	free(diff->pperiod);
	free(diff->total);
	free(diff);
}

int pulse_diff__match_event(const struct pulse_data *base, size_t idx,
			    const struct pulse_data *other)
{
	const struct perf_event_attr *a = pulse_data__attr(base, idx);

	for (size_t i = 0; a && i < pulse_data__nr_attrs(other); i++) {
		const struct perf_event_attr *b = pulse_data__attr(other, i);

		if (b && b->type == a->type && b->config == a->config)
			return (int)i;
	}
	return -ENOENT;
}
