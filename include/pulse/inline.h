/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inlined functions at an address (lib/symbols/inline.c), as perf 6.1's
 * dso__parse_addr_inlines() finds them for a callchain frame: one frame per
 * function the DWARF says the address is in, innermost first, each a
 * symbol named after its function, marked inlined and spanning the symbol
 * it was inlined into (new_inline_sym()); the outermost is the real symbol
 * itself when the DWARF name is the symbol's. perf runs `addr2line -i -f`
 * for it; pulse reads the same DWARF with libdw, once per compile unit.
 */
#ifndef PULSE_INLINE_H
#define PULSE_INLINE_H

#include <stddef.h>
#include <stdint.h>
#include <pulse/symbols.h>

struct pulse_inlines;

/**
 * pulse_inlines__new - an empty cache of (DSO, address) -> frames
 * @symfs: the root the DSOs' paths are under (--symfs), or NULL
 *
 * Lookups may come from several threads: the cache locks.
 * Return: 0 or -ENOMEM.
 */
int pulse_inlines__new(struct pulse_inlines **out, const char *symfs);
/* Frees the frames' fake symbols too: no frame outlives the cache. */
void pulse_inlines__delete(struct pulse_inlines *in);

/* Open @dso's DWARF ahead of its first pulse_inlines__find(): pulse_srclines__warm(). */
int pulse_inlines__warm(struct pulse_inlines *in, const struct pulse_dso *dso);

/**
 * pulse_inlines__find - the frames perf 6.1 puts in place of @addr's
 * @dso: a user DSO (others have none)
 * @sym: the symbol at @addr, which the frames span
 * @addr: the address in the DSO's space (a file offset, see symbols.h)
 * @frames: set to the frames, innermost first, valid until __delete()
 *
 * An address without DWARF lines, or whose only function is @sym under
 * @sym's own name, has none: its frame stays as it is. Asked once per
 * (DSO, address); later calls are a hash lookup.
 * Return: the number of frames, 0 for none.
 */
size_t pulse_inlines__find(struct pulse_inlines *in, const struct pulse_dso *dso,
			   const struct pulse_symbol *sym, uint64_t addr,
			   const struct pulse_symbol *const **frames);

#endif
