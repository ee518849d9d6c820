// SPDX-License-Identifier: GPL-2.0
/*
 * A compilation unit's functions by address (see dwarf-int.h): one walk
 * of the DIE tree collects each subprogram and inlined subroutine with its
 * parent function and its address ranges; the ranges, sorted by start,
 * answer "which functions hold this pc" by binary search. Ranges of one
 * unit nest (an inlined subroutine lies within its caller), so walking
 * back from the last range that starts at or before pc, the first one
 * holding pc is the innermost, and a running maximum of the ends says
 * when no earlier range can hold it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <dwarf.h>
#include "symbols/dwarf-int.h"

#define NO_FN UINT32_MAX
#define MAX_DEPTH 256	/* DIE nesting followed at most: a damaged file's loops end */

struct cu_fn {
	Dwarf_Die die;
	uint32_t parent;	/* the enclosing function, NO_FN: none */
};

struct cu_range {
	Dwarf_Addr lo, hi;	/* [lo, hi) */
	Dwarf_Addr max_hi;	/* the largest hi of this range and those before it */
	uint32_t fn;
	uint32_t depth;		/* of fn: sorts a caller before its callee at one lo */
};

struct pulse_dwarf_fns {
	struct cu_fn *fns;
	size_t nr_fns, alloc_fns;
	struct cu_range *ranges;
	size_t nr_ranges, alloc_ranges;
};

static int grow(void **arr, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc ? *alloc * 2 : 64;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

static int add_fn(struct pulse_dwarf_fns *f, Dwarf_Die *die, uint32_t parent, uint32_t depth,
		  uint32_t *id)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (grow((void **)&f->fns, &f->alloc_fns, f->nr_fns + 1, sizeof(*f->fns)))
		return -ENOMEM;
	*id = f->nr_fns;
	f->fns[f->nr_fns++] = (struct cu_fn){ *die, parent };
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (grow((void **)&f->ranges, &f->alloc_ranges, f->nr_ranges + 1,
			 sizeof(*f->ranges)))
			return -ENOMEM;
		f->ranges[f->nr_ranges++] = (struct cu_range){ lo, hi, 0, *id, depth };
	}
	return 0;
}

/* The children of @die, @parent the function around them. */
static int walk(struct pulse_dwarf_fns *f, Dwarf_Die *die, uint32_t parent, uint32_t depth)
{
	Dwarf_Die child;
	int err;

	if (depth >= MAX_DEPTH || dwarf_child(die, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);
		uint32_t inner = parent;

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			err = add_fn(f, &child, parent, depth, &inner);
			if (err)
				return err;
		}
		/* types and variables hold no code, but a class holds its methods */
		if (dwarf_haschildren(&child)) {
			err = walk(f, &child, inner, depth + 1);
			if (err)
				return err;
		}
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

int pulse_dwarf_fns__new(struct pulse_dwarf_fns **out, Dwarf_Die *cu)
{
	struct pulse_dwarf_fns *f = calloc(1, sizeof(*f));
	Dwarf_Addr max_hi = 0;
	int err;

	*out = NULL;
	if (!f)
		return -ENOMEM;
	err = walk(f, cu, NO_FN, 0);
	if (err) {
		pulse_dwarf_fns__delete(f);
		return err;
	}
	if (f->nr_ranges)
		qsort(f->ranges, f->nr_ranges, sizeof(*f->ranges), range_cmp);
	for (size_t i = 0; i < f->nr_ranges; i++) {
		if (f->ranges[i].hi > max_hi)
			max_hi = f->ranges[i].hi;
		f->ranges[i].max_hi = max_hi;
	}
	*out = f;
	return 0;
}

void pulse_dwarf_fns__delete(struct pulse_dwarf_fns *f)
{
	if (!f)
		return;
	free(f->fns);
	free(f->ranges);
	free(f);
}

size_t pulse_dwarf_fns__find(struct pulse_dwarf_fns *f, Dwarf_Addr pc, Dwarf_Die **out, size_t max)
{
	size_t lo = 0, hi = f->nr_ranges, n = 0;
	uint32_t fn = NO_FN;

	/* hi: the first range starting after pc */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->ranges[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (hi-- > 0 && f->ranges[hi].max_hi > pc) {
		if (f->ranges[hi].hi > pc) {
			fn = f->ranges[hi].fn;
			break;
		}
	}
	/* parents come before children in fns: the chain cannot loop */
	for (; fn != NO_FN && n < max; fn = f->fns[fn].parent)
		out[n++] = &f->fns[fn].die;
	return n;
}
