// SPDX-License-Identifier: GPL-2.0
/*
 * perf's symbol tree, built and fixed up as perf 6.1 does it (symbol.c
 * symbols__insert/symbols__fixup_end/symbols__fixup_duplicate/
 * choose_best_symbol), then flattened into the table's sorted array.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "symtab-int.h"

static int prefix_underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when @a wins over @b. */
bool pulse_symbol__choose_first(const struct pulse_symbol *a, const struct pulse_symbol *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	bool wa, wb;
	int ua, ub;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	wa = a->binding == STB_WEAK;
	wb = b->binding == STB_WEAK;
	if (wb && !wa)
		return true;
	if (wa && !wb)
		return false;
	wa = a->binding == STB_GLOBAL;
	wb = b->binding == STB_GLOBAL;
	if (wa && !wb)
		return true;
	if (wb && !wa)
		return false;
	ua = prefix_underscores(a->name);
	ub = prefix_underscores(b->name);
	if (ub > ua)
		return true;
	if (ua > ub)
		return false;
	if (a->namelen != b->namelen)
		return a->namelen > b->namelen;
	return true;
}

/*
 * ---- perf's symbol tree -------------------------------------------------
 *
 * perf keeps a DSO's symbols in a red-black tree keyed by start (an equal
 * start goes right) and finds an address by walking down from the root,
 * returning the first symbol on the way that covers it. When symbols
 * overlap (PLT entries laid over a stretched _init, nested or overlapping
 * assembler symbols, JIT maps) which one is met first depends on the shape
 * of the tree, that is on the order symbols were inserted and erased. So
 * the tree is built here as perf builds it (lib/rbtree.c's insert and
 * erase, step for step), and then flattened: every symbol is given the
 * addresses for which perf's walk returns it. Those ranges are disjoint and
 * come in start order. A symbol perf can never return is dropped; the end
 * of one perf stops finding early is cut there. Its start stays: when it
 * is partly covered by an earlier symbol met first, its range begins where
 * that one's ends, and pulse_symtab__find() looks there first. Without
 * overlaps nothing changes.
 */
#define NIL PULSE_RBT_NIL

/* perf's __symbols__insert(): symbol @idx of @st goes in. */
int pulse_symtree__insert(struct pulse_rbt *t, const struct pulse_symtab *st, uint32_t idx)
{
	uint64_t ip = st->syms[idx].start;
	uint32_t parent = PULSE_RBT_NIL, x = t->root;
	bool left = false;
	int err = pulse_rbt__reserve(t, (size_t)idx + 1);

	if (err)
		return err;
	while (x != PULSE_RBT_NIL) {
		parent = x;
		left = ip < st->syms[x].start;
		x = left ? t->n[x].left : t->n[x].right;
	}
	pulse_rbt__link(t, idx, parent, left);
	pulse_rbt__insert_color(t, idx);
	return 0;
}

/* Every symbol of the table into a new tree, in table (insertion) order. */
int pulse_symtree__build(struct pulse_rbt *t, const struct pulse_symtab *st)
{
	int err;

	pulse_rbt__init(t);
	err = pulse_rbt__reserve(t, st->nr);
	for (size_t i = 0; !err && i < st->nr; i++)
		err = pulse_symtree__insert(t, st, i);
	if (err)
		pulse_rbt__exit(t);
	return err;
}

/* perf's symbols__fixup_end() then symbols__fixup_duplicate(). */
void pulse_symtree__fixup(struct pulse_rbt *t, struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_symbol *s = st->syms;
	uint32_t nd, curr, next;

	curr = pulse_rbt__first(t);
	if (curr == NIL)
		return;
	for (nd = pulse_rbt__next(t, curr); nd != NIL; nd = pulse_rbt__next(t, nd)) {
		struct pulse_symbol *prev = &s[curr];

		curr = nd;
		prev->end = pulse_symbol__fixed_end(prev, &s[curr], kallsyms);
	}
	s[curr].end = pulse_symbol__fixed_end(&s[curr], NULL, kallsyms);

	nd = pulse_rbt__first(t);
	while (nd != NIL) {
		curr = nd;
again:
		nd = pulse_rbt__next(t, curr);
		if (nd == NIL)
			break;
		next = nd;
		if (s[curr].start != s[next].start)
			continue;
		if (pulse_symbol__choose_first(&s[curr], &s[next])) {
			pulse_rbt__erase(t, next);
			goto again;
		}
		nd = pulse_rbt__next(t, curr);
		pulse_rbt__erase(t, curr);
	}
}

struct flatten {
	const struct pulse_rbt *t;
	const struct pulse_symbol *in;
	struct pulse_symbol *out;
	size_t nr;
};

/*
 * In order, with the window [lo, hi) of addresses whose walk reaches the
 * node: left of a node for addresses below its start, right of it for
 * addresses at or past its cover end. @hi_open: no upper bound.
 */
static void flatten(struct flatten *f, uint32_t x, uint64_t lo, uint64_t hi, bool hi_open)
{
	while (x != NIL) {
		const struct pulse_symbol *s = &f->in[x];
		uint64_t cend = cover_end(s);
		uint64_t a = s->start > lo ? s->start : lo;
		uint64_t b = hi_open || cend < hi ? cend : hi;

		flatten(f, f->t->n[x].left, lo, hi_open || s->start < hi ? s->start : hi, false);
		if (a < b) {
			struct pulse_symbol *o = &f->out[f->nr++];

			*o = *s;
			if (s->end != s->start)
				o->end = b;
		}
		/* the right subtree, as a loop: the tree may be deep on that side */
		if (cend > lo)
			lo = cend;
		x = f->t->n[x].right;
	}
}

/* The table becomes what perf's walks over the tree find, in start order. */
int pulse_symtree__flatten(struct pulse_rbt *t, struct pulse_symtab *st)
{
	struct flatten f = { .t = t, .in = st->syms };
	size_t live = 0;

	for (size_t i = 0; i < st->nr; i++)
		live += t->n[i].in_tree;
	f.out = malloc((live ? live : 1) * sizeof(*f.out));
	if (!f.out)
		return -ENOMEM;
	flatten(&f, t->root, 0, 0, true);
	free(st->syms);
	st->syms = f.out;
	st->nr = f.nr;
	st->alloc = live ? live : 1;
	return 0;
}
