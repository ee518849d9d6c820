/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the symbol tables (lib/symbols/symtab*.c, symtree.c): perf's
 * symbol tree the tables are built through, and the search index. Not part
 * of the public API.
 */
#ifndef PULSE_SYMBOLS_SYMTAB_INT_H
#define PULSE_SYMBOLS_SYMTAB_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/rbtree.h"

static inline uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

/*
 * perf's symbols__fixup_end() for one symbol of a table in start order:
 * a sized @s keeps its end; a sizeless one ends where @next starts, or a
 * page on when one of the two is a module's ("[mod]") in kallsyms, or a
 * page past its start's page when it is the last (@next NULL)
 */
static inline uint64_t pulse_symbol__fixed_end(const struct pulse_symbol *s,
					       const struct pulse_symbol *next, bool kallsyms)
{
	if (s->end != s->start)
		return s->end;
	if (!next)
		return roundup_page(s->start) + 4096;
	if (kallsyms && (!strchr(s->name, '[') != !strchr(next->name, '[')))
		return roundup_page(s->end + 4096);
	return next->start;
}

/* One past the last address perf's walk finds in @s (see symbols__find()). */
static inline uint64_t cover_end(const struct pulse_symbol *s)
{
	if (s->end > s->start)
		return s->end;
	if (s->end == s->start && s->start != UINT64_MAX)
		return s->start + 1;
	return s->start;
}

/* symtree.c: perf's choose_best_symbol(): true when @a wins over @b */
bool pulse_symbol__choose_first(const struct pulse_symbol *a, const struct pulse_symbol *b);

/* symtree.c: perf's __symbols__insert(): symbol @idx of @st goes in */
int pulse_symtree__insert(struct pulse_rbt *t, const struct pulse_symtab *st, uint32_t idx);

/* symtree.c: every symbol of the table into a new tree, in table order */
int pulse_symtree__build(struct pulse_rbt *t, const struct pulse_symtab *st);

/* symtree.c: perf's symbols__fixup_end() then symbols__fixup_duplicate() */
void pulse_symtree__fixup(struct pulse_rbt *t, struct pulse_symtab *st, bool kallsyms);

/* symtree.c: the table becomes what perf's walks over the tree find */
int pulse_symtree__flatten(struct pulse_rbt *t, struct pulse_symtab *st);

/*
 * symtab.c: pulse_symtab__fixup() always through perf's tree (the fix-up
 * takes a plain path where that gives the same table)
 */
void pulse_symtab__fixup_tree(struct pulse_symtab *st, bool kallsyms);

/* symtab.c: the search index of a sorted table */
void pulse_symtab__build_index(struct pulse_symtab *st);

/*
 * kallsyms.c: pulse_symtab__load_kallsyms() that gives up with -ECANCELED
 * once *@stop is set (kallsyms-preload.c's thread, told its table is not
 * wanted).
 */
int pulse_kallsyms__load_stoppable(struct pulse_symtab *st, const char *path,
				   const _Atomic bool *stop);

/*
 * kallsyms-preload.c: the kallsyms table at @path into @st (empty): the
 * preloaded one when it was read from @path, else read now; the return of
 * pulse_symtab__load_kallsyms(). __drop_preload(): stop, join and free an
 * untaken one.
 */
int pulse_dsos__take_kallsyms(struct pulse_dsos *dsos, struct pulse_symtab *st, const char *path);
void pulse_dsos__drop_preload(struct pulse_dsos *dsos);

#endif
