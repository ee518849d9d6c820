/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines of addresses in DSOs (lib/symbols/srcline.c), as perf 6.1's
 * map__srcline() gives them for perf script -F srcline: "file.c:NN" (the
 * file's base name) from the DWARF line table of the DSO or of its
 * separate debug file (found by elfutils libdw: build-id and debuglink
 * under /usr/lib/debug), else "SHORT_NAME[addr]" (the kernel, the vDSO, a
 * DSO without line tables).
 */
#ifndef PULSE_SRCLINE_H
#define PULSE_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

struct pulse_dso;
struct pulse_srclines;

/**
 * pulse_srclines__new - a cache of the DSOs' line tables, opened on first use
 * @symfs: a root the DSOs' paths are under (--symfs), or NULL
 * Return: 0 or -ENOMEM.
 */
int pulse_srclines__new(struct pulse_srclines **out, const char *symfs);
void pulse_srclines__delete(struct pulse_srclines *s);

/*
 * pulse_srclines__warm - open @dso's DWARF now (its debug file found, its
 * compressed sections inflated: libc's separate debug file is some 100 ms
 * of work), so that the first lookup finds it ready. Return: 0 or -ENOENT
 * when the DSO has no DWARF.
 */
int pulse_srclines__warm(struct pulse_srclines *s, const struct pulse_dso *dso);

/**
 * pulse_srclines__find - the source line of @addr in @dso, as perf 6.1's
 * map__fprintf_srcline() prints it
 * @addr: the address in the DSO's file, as script lines print it (the
 *        kernel's: the address itself)
 * Return: @buf, holding "file.c:NN", or "SHORT_NAME[addr]" when neither a
 * line nor a symbol of the DSO's file has it (the kernel without a
 * vmlinux, a PLT entry); NULL for a symbol without a line (_start: addr2line
 * says "??:?", which perf reads as "??:0" and does not print).
 */
const char *pulse_srclines__find(struct pulse_srclines *s, const struct pulse_dso *dso,
				 uint64_t addr, char *buf, size_t size);

/**
 * pulse_srclines__lookup - "file.c:NN" of @addr in @dso into @buf
 * Return: 0; -ENODATA when the DSO's file has a symbol there but no line;
 * -ENOENT when it has neither, or cannot be read.
 */
int pulse_srclines__lookup(struct pulse_srclines *s, const struct pulse_dso *dso, uint64_t addr,
			   char *buf, size_t size);

#endif
