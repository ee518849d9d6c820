/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions of one DWARF compilation unit by address (pprof-cuindex.c),
 * for pprof-inline.c: dwarf_getscopes() walks the unit's whole DIE tree on
 * every call, which a profile with a hundred thousand addresses cannot
 * afford; the index walks it once.
 */
#ifndef PULSE_PPROF_DWARF_H
#define PULSE_PPROF_DWARF_H

#include <stddef.h>
#include <elfutils/libdw.h>

struct pp_cu_fns;

/* The subprograms and inlined subroutines of @cu. Return: 0, -ENOMEM. */
int pp_cu_fns__new(struct pp_cu_fns **out, Dwarf_Die *cu);
void pp_cu_fns__delete(struct pp_cu_fns *f);
/*
 * The functions whose code @pc (a DWARF address) is in, innermost first:
 * inlined subroutines, then the subprogram they are in. The DIEs live as
 * long as @f. Return: how many (at most @max).
 */
size_t pp_cu_fns__find(struct pp_cu_fns *f, Dwarf_Addr pc, Dwarf_Die **out, size_t max);

#endif
