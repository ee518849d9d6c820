// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables: a sorted array per DSO, searched by binary search through
 * a two-level index of the starts. The rules that decide which symbols are
 * kept, where they start and end, and which alias wins at one address are
 * perf 6.1's (symbol.c symbols__fixup_end/symbols__fixup_duplicate/
 * choose_best_symbol, applied through perf's symbol tree in symtree.c),
 * because pulse report must name the same symbols perf report names. The
 * ELF reader that fills them is symtab-elf.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "symtab-int.h"

#define NAME_CHUNK (64 * 1024)

/* libiberty's; its demangle.h drags in macros that clash with ours */
char *cplus_demangle(const char *mangled, int options);
#define DMGL_NO_OPTS 0
#define DMGL_PARAMS (1 << 0)
#define DMGL_ANSI (1 << 1)

int pulse_symtab__init(struct pulse_symtab *st)
{
	memset(st, 0, sizeof(*st));
	return 0;
}

void pulse_symtab__exit(struct pulse_symtab *st)
{
	for (size_t i = 0; i < st->nr_chunks; i++)
		free(st->chunks[i]);
	free(st->chunks);
	free(st->syms);
	free(st->starts);
	free(st->index);
	memset(st, 0, sizeof(*st));
}

/* Names are packed in large chunks: a kernel has 100k+ of them. */
static char *symtab__store_name(struct pulse_symtab *st, const char *name, size_t len)
{
	char *p;

	if (len + 1 > st->chunk_left) {
		size_t sz = len + 1 > NAME_CHUNK ? len + 1 : NAME_CHUNK;
		char **chunks = realloc(st->chunks, (st->nr_chunks + 1) * sizeof(*chunks));

		if (!chunks)
			return NULL;
		st->chunks = chunks;
		p = malloc(sz);
		if (!p)
			return NULL;
		st->chunks[st->nr_chunks++] = p;
		st->cursor = p;
		st->chunk_left = sz;
	}
	p = st->cursor;
	memcpy(p, name, len);
	p[len] = '\0';
	st->cursor += len + 1;
	st->chunk_left -= len + 1;
	return p;
}

int pulse_symtab__add(struct pulse_symtab *st, uint64_t start, uint64_t size, uint8_t binding,
		      uint8_t type, const char *name)
{
	struct pulse_symbol *s;
	size_t len = strlen(name);

	if (st->nr == st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 256;
		struct pulse_symbol *syms = realloc(st->syms, n * sizeof(*syms));

		if (!syms)
			return -ENOMEM;
		st->syms = syms;
		st->alloc = n;
	}
	s = &st->syms[st->nr];
	s->name = symtab__store_name(st, name, len);
	if (!s->name)
		return -ENOMEM;
	s->start = start;
	s->end = start + size;
	s->namelen = len;
	s->binding = binding;
	s->type = type;
	s->inlined = 0;	/* a real symbol: only lib/symbols/inline.c makes inlined ones */
	st->nr++;
	return 0;
}

/*
 * perf keeps symbols in an rb-tree where an equal start goes right, so
 * aliases stay in insertion order; a merge sort keeps that order too.
 */
static void sort_by_start(struct pulse_symbol *a, struct pulse_symbol *tmp, size_t n)
{
	size_t mid, i, j, k;

	if (n < 2)
		return;
	mid = n / 2;
	sort_by_start(a, tmp, mid);
	sort_by_start(a + mid, tmp, n - mid);
	if (a[mid - 1].start <= a[mid].start)
		return;
	memcpy(tmp, a, n * sizeof(*a));
	for (i = 0, j = mid, k = 0; i < mid && j < n;)
		a[k++] = tmp[j].start < tmp[i].start ? tmp[j++] : tmp[i++];
	while (i < mid)
		a[k++] = tmp[i++];
	while (j < n)
		a[k++] = tmp[j++];
}

/*
 * The search index of a sorted table: the starts alone, dense (8 bytes a
 * symbol instead of 32, so a probe touches fewer cache lines), and every
 * 64th of them, small enough to stay in cache between lookups. A report
 * resolves every sample and callchain address through here, mostly in the
 * kernel's 100k+ symbols: a plain binary search over the symbols missed
 * the cache on nearly every probe. Without memory there is no index and
 * the plain search is used.
 */
void pulse_symtab__build_index(struct pulse_symtab *st)
{
	size_t nr_index = (st->nr >> PULSE_SYMTAB_INDEX_SHIFT) + 1;
	uint64_t *starts = realloc(st->starts, (st->nr ? st->nr : 1) * sizeof(*starts));
	uint64_t *index;

	st->nr_indexed = SIZE_MAX;
	if (!starts)
		return;
	st->starts = starts;
	index = realloc(st->index, nr_index * sizeof(*index));
	if (!index)
		return;
	st->index = index;
	for (size_t i = 0; i < st->nr; i++)
		starts[i] = st->syms[i].start;
	for (size_t i = 0; i < nr_index; i++)
		index[i] = (i << PULSE_SYMTAB_INDEX_SHIFT) < st->nr ?
			   starts[i << PULSE_SYMTAB_INDEX_SHIFT] : UINT64_MAX;
	st->nr_indexed = st->nr;
}

/* Sorting cannot fail: without memory for the tree, a stable sort. */
static void symtab__sort_plain(struct pulse_symtab *st)
{
	struct pulse_symbol *tmp;

	if (st->nr < 2)
		return;
	tmp = malloc(st->nr * sizeof(*tmp));
	if (tmp) {
		sort_by_start(st->syms, tmp, st->nr);
		free(tmp);
	}
}

void pulse_symtab__sort(struct pulse_symtab *st)
{
	struct pulse_rbt t;

	if (st->nr < 2)
		return;
	if (pulse_symtree__build(&t, st) || pulse_symtree__flatten(&t, st))
		symtab__sort_plain(st);
	pulse_rbt__exit(&t);
	pulse_symtab__build_index(st);
}

/* The fix-ups of a plain array, sorted first unless @sorted, when the tree cannot be had. */
static void symtab__fixup_plain(struct pulse_symtab *st, bool kallsyms, bool sorted)
{
	struct pulse_symbol *s = st->syms;
	size_t n = st->nr, i, out;

	if (!sorted)
		symtab__sort_plain(st);
	for (i = 1; i < n; i++)
		s[i - 1].end = pulse_symbol__fixed_end(&s[i - 1], &s[i], kallsyms);
	s[n - 1].end = pulse_symbol__fixed_end(&s[n - 1], NULL, kallsyms);
	for (i = 1, out = 0; i < n; i++) {
		if (s[i].start != s[out].start) {
			s[++out] = s[i];
			continue;
		}
		if (!pulse_symbol__choose_first(&s[out], &s[i]))
			s[out] = s[i];
	}
	st->nr = out + 1;
}

/*
 * Does the plain fix-up give what perf's tree gives? It does for a table
 * already in start order (the tree's in-order) whose symbols, fixed up,
 * overlap nowhere: the walk down the tree then finds each symbol over its
 * own range, whatever the tree's shape. /proc/kallsyms is such a table;
 * building the tree of its 121,000 symbols was a quarter of its load.
 * The fix-ups are replayed here on copies: symbols__fixup_end() sizes a
 * sizeless symbol by the next one, symbols__fixup_duplicate() keeps one
 * of those with the same start.
 */
static bool symtab__plain_is_tree(const struct pulse_symtab *st, bool kallsyms)
{
	const struct pulse_symbol *s = st->syms;
	struct pulse_symbol keep, cur;
	size_t n = st->nr;

	for (size_t i = 1; i < n; i++)
		if (s[i].start < s[i - 1].start)
			return false;
	for (size_t i = 0; i < n; i++) {
		cur = s[i];
		cur.end = pulse_symbol__fixed_end(&s[i], i + 1 < n ? &s[i + 1] : NULL, kallsyms);
		if (i && cur.start == keep.start) {
			if (!pulse_symbol__choose_first(&keep, &cur))
				keep = cur;
			continue;
		}
		if (i && cover_end(&keep) > cur.start)
			return false;
		keep = cur;
	}
	return true;
}

void pulse_symtab__fixup_tree(struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_rbt t;

	if (!st->nr)
		return;
	if (pulse_symtree__build(&t, st)) {
		symtab__fixup_plain(st, kallsyms, false);
	} else {
		pulse_symtree__fixup(&t, st, kallsyms);
		if (pulse_symtree__flatten(&t, st))
			symtab__fixup_plain(st, kallsyms, false);
		pulse_rbt__exit(&t);
	}
	pulse_symtab__build_index(st);
}

void pulse_symtab__fixup(struct pulse_symtab *st, bool kallsyms)
{
	if (!st->nr)
		return;
	if (!symtab__plain_is_tree(st, kallsyms)) {
		pulse_symtab__fixup_tree(st, kallsyms);
		return;
	}
	symtab__fixup_plain(st, kallsyms, true);
	pulse_symtab__build_index(st);
}

/* How many symbols start at or before @addr. */
static size_t symtab__nr_starting_upto(const struct pulse_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi, nr_index;

	if (st->nr_indexed != st->nr || !st->nr) {
		hi = st->nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (st->syms[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	/* the last index block starting at or before addr ... */
	nr_index = ((st->nr - 1) >> PULSE_SYMTAB_INDEX_SHIFT) + 1;
	hi = nr_index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->index[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	/* ... and within it */
	hi = lo << PULSE_SYMTAB_INDEX_SHIFT;
	if (hi > st->nr)
		hi = st->nr;
	lo = (lo - 1) << PULSE_SYMTAB_INDEX_SHIFT;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A table is flattened (see above): starts ascend, and so do the ends of
 * what each symbol covers, one range after the other. The symbol for @addr
 * is the first of those starting at or before it whose range goes past it:
 * nearly always the last of them, as ranges rarely overlap, so that is
 * checked first.
 */
const struct pulse_symbol *pulse_symtab__find(const struct pulse_symtab *st, uint64_t addr)
{
	size_t n = symtab__nr_starting_upto(st, addr), lo, hi;

	if (!n || cover_end(&st->syms[n - 1]) <= addr)
		return NULL;	/* ends ascend: no earlier one covers addr either */
	if (n == 1 || cover_end(&st->syms[n - 2]) <= addr)
		return &st->syms[n - 1];
	/* overlapping ranges: the first of them that covers addr */
	lo = 0;
	hi = n - 2;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cover_end(&st->syms[mid]) > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return &st->syms[lo];
}

char *pulse_demangle(const char *name)
{
	/* perf 6.1 asks for parameters and qualifiers only with -v */
	if (name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}

char *pulse_demangle_full(const char *name)
{
	if (name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
