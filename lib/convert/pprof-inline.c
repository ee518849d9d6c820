// SPDX-License-Identifier: GPL-2.0
/*
 * The source lines of an address, inlined functions included, as pprof
 * wants a location's lines: innermost first, the last one the function
 * the ELF symbol names. Each user DSO is opened once with libdwfl,
 * offline (its own DWARF or its separate debug file's, found as
 * lib/symbols/srcline.c finds it: its cache is the one used). The line table gives the innermost
 * line; the unit's functions by address (lib/symbols/dwarf-fns.c, made once per
 * unit) give the inlined subroutines around it, each with the call site (DW_AT_call_file,
 * DW_AT_call_line) that is the line of the frame outside it. The caller
 * asks once per (DSO, address): a location is made once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <pulse/symbols.h>
#include <pulse/srcline.h>
#include "symbols/dwarf-int.h"
#include "convert/pprof-int.h"

/* the DSOs' files are pulse_srclines': opened once, shared with source lines */
struct pp_dwarf {
	struct pulse_srclines *lines;
};

int pp_dwarf__new(struct pp_dwarf **out, const char *symfs)
{
	struct pp_dwarf *d = calloc(1, sizeof(*d));
	int err;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	err = pulse_srclines__new(&d->lines, symfs);
	if (err) {
		free(d);
		return err;
	}
	*out = d;
	return 0;
}

void pp_dwarf__delete(struct pp_dwarf *d)
{
	if (!d)
		return;
	pulse_srclines__delete(d->lines);
	free(d);
}

/* perf's srcline_from_fileline(): the base name */
static const char *base_name(const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;

	return base ? base + 1 : file;
}

/* An unsigned attribute of @die itself (not its origin's); 0: none. */
static Dwarf_Word die_udata(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;

	if (!dwarf_attr(die, name, &attr) || dwarf_formudata(&attr, &v))
		return 0;
	return v;
}

/* The file of the call site of the inlined subroutine @die in @cu. */
static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Files *files;
	size_t nr;
	Dwarf_Word idx = die_udata(die, DW_AT_call_file);

	if (dwarf_getsrcfiles(cu, &files, &nr) || idx >= nr)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

size_t pp_dwarf__lines(struct pp_dwarf *d, const struct pulse_dso *dso, uint64_t addr,
		       struct pp_frame_line *out, size_t max)
{
	struct pulse_dso_dwarf dw;
	Dwarf_Die *cu, *fn[PP_MAX_INLINE];
	struct pulse_dwarf_fns *fns;
	Dwarf_Addr a, cu_bias;
	Dwfl_Line *line;
	const char *file;
	size_t n = 0, nr_fn = 0;
	int lineno = 0;
	bool keep = false;

	if (!max || pulse_srclines__dwarf(d->lines, dso, &dw))
		return 0;
	a = (Dwarf_Addr)(addr + dw.bias);
	line = dwfl_module_getsrc(dw.mod, a);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!file)
		return 0;
	out[0] = (struct pp_frame_line){ NULL, base_name(file), lineno, 0 };
	cu = dwfl_module_addrdie(dw.mod, a, &cu_bias);
	fns = cu ? pulse_srclines__cu_fns(d->lines, dso, cu) : NULL;
	nr_fn = fns ? pulse_dwarf_fns__find(fns, a - cu_bias, fn, PP_MAX_INLINE) : 0;
	/*
	 * fn[0] is the innermost function, fn[nr_fn - 1] the subprogram the
	 * symbol names: frame i is fn[i] at the line where fn[i - 1] was
	 * inlined (the line table's for frame 0).
	 */
	for (size_t i = 0; i < nr_fn && n < max; i++) {
		int decl = 0;

		if (i && !keep) {
			file = call_file(cu, fn[i - 1]);
			out[n] = (struct pp_frame_line){ NULL, base_name(file),
							 die_udata(fn[i - 1], DW_AT_call_line), 0 };
		}
		if (dwarf_decl_line(fn[i], &decl))
			decl = 0;
		out[n].decl_line = decl;
		/* the outermost keeps the symbol's name: NULL */
		if (i + 1 < nr_fn)
			out[n].name = dwarf_diename(fn[i]);
		/* a nameless inlined scope: its line goes to the frame outside it */
		keep = i + 1 < nr_fn && !out[n].name;
		if (!keep)
			n++;
	}
	return n ? n : 1;
}
