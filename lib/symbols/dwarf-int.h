/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DWARF of user DSOs, for the symbols floor and those above it that
 * read DWARF themselves (pprof's inline lines):
 * - the functions of one compilation unit by address (dwarf-fns.c):
 *   dwarf_getscopes() walks the unit's whole DIE tree on every call, which
 *   a profile with a hundred thousand addresses cannot afford; the index
 *   walks it once;
 * - each DSO's Dwfl module, opened once by pulse_srclines (srcline.c),
 *   with the units' indexes made on first use, so that source lines,
 *   inline frames and pprof share one open file per DSO.
 */
#ifndef PULSE_SYMBOLS_DWARF_INT_H
#define PULSE_SYMBOLS_DWARF_INT_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct pulse_dso;
struct pulse_srclines;
struct pulse_dwarf_fns;

/* The subprograms and inlined subroutines of @cu. Return: 0, -ENOMEM. */
int pulse_dwarf_fns__new(struct pulse_dwarf_fns **out, Dwarf_Die *cu);
void pulse_dwarf_fns__delete(struct pulse_dwarf_fns *f);
/*
 * The functions whose code @pc (a DWARF address) is in, innermost first:
 * inlined subroutines, then the subprogram they are in. The DIEs live as
 * long as @f. Return: how many (at most @max).
 */
size_t pulse_dwarf_fns__find(struct pulse_dwarf_fns *f, Dwarf_Addr pc, Dwarf_Die **out,
			     size_t max);

/* A DSO's DWARF as pulse_srclines__dwarf() hands it out. */
struct pulse_dso_dwarf {
	Dwfl_Module *mod;
	/* the module's address of a file offset @off: off + bias (see srcline.c) */
	int64_t bias;
};

/*
 * pulse_srclines__dwarf - @dso's module, opened on first use
 * Return: 0, or -ENOENT (not a user DSO, no file, no DWARF). The module
 * lives as long as @s. Not thread-safe: callers on several threads lock.
 */
int pulse_srclines__dwarf(struct pulse_srclines *s, const struct pulse_dso *dso,
			  struct pulse_dso_dwarf *out);

/*
 * pulse_srclines__cu_fns - the function index of the unit @cu of @dso's
 * module, made on first use. Return: the index (lives as long as @s), or
 * NULL (no memory, or the unit could not be indexed).
 */
struct pulse_dwarf_fns *pulse_srclines__cu_fns(struct pulse_srclines *s,
					       const struct pulse_dso *dso, Dwarf_Die *cu);

#endif
