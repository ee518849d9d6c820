// SPDX-License-Identifier: GPL-2.0
/*
 * The source lines of an address, inlined functions included, as pprof
 * wants a location's lines: innermost first, the last one the function
 * the ELF symbol names. Each user DSO is opened once with libdwfl,
 * offline (its own DWARF or its separate debug file's, found as
 * lib/symbols/srcline.c finds it). The line table gives the innermost
 * line; the unit's functions by address (pprof-cuindex.c, made once per
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
#include "convert/pprof-dwarf.h"
#include "convert/pprof-int.h"

struct pp_dwarf_dso {
	const struct pulse_dso *dso;
	Dwfl *dwfl;			/* NULL: no file or no DWARF */
	Dwfl_Module *mod;
	GElf_Addr bias;			/* the module's addresses are the file's + bias */
	struct pp_map cu_index;		/* (CU DIE offset, 1) -> index in cus + 1 */
	struct pp_cu_fns **cus;		/* each unit's functions, NULL: none */
	size_t nr_cus, alloc_cus;
	struct pp_dwarf_dso *next;
};

#define PP_DWARF_HASH 256

struct pp_dwarf {
	char *symfs;
	struct pp_dwarf_dso *hash[PP_DWARF_HASH];
};

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int pp_dwarf__new(struct pp_dwarf **out, const char *symfs)
{
	struct pp_dwarf *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return -ENOMEM;
	/* perf's symbol__init(): a symfs of "/" is no symfs */
	if (symfs && strcmp(symfs, "/")) {
		d->symfs = strdup(symfs);
		if (!d->symfs) {
			free(d);
			return -ENOMEM;
		}
	}
	*out = d;
	return 0;
}

void pp_dwarf__delete(struct pp_dwarf *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < PP_DWARF_HASH; i++) {
		struct pp_dwarf_dso *e = d->hash[i], *next;

		for (; e; e = next) {
			next = e->next;
			for (size_t c = 0; c < e->nr_cus; c++)
				pp_cu_fns__delete(e->cus[c]);
			free(e->cus);
			pp_map__exit(&e->cu_index);
			if (e->dwfl)
				dwfl_end(e->dwfl);
			free(e);
		}
	}
	free(d->symfs);
	free(d);
}

static void dwarf_dso__open(struct pp_dwarf *d, struct pp_dwarf_dso *e)
{
	const struct pulse_dso *dso = e->dso;
	char path[4096];

	if (dso->kind != PULSE_DSO_USER || !dso->long_name || dso->long_name[0] != '/')
		return;
	if (snprintf(path, sizeof(path), "%s%s", d->symfs ? d->symfs : "", dso->long_name) >=
	    (int)sizeof(path))
		return;
	e->dwfl = dwfl_begin(&offline_callbacks);
	if (!e->dwfl)
		return;
	e->mod = dwfl_report_offline(e->dwfl, dso->short_name, path, -1);
	dwfl_report_end(e->dwfl, NULL, NULL);
	if (!e->mod || !dwfl_module_getelf(e->mod, &e->bias)) {
		dwfl_end(e->dwfl);
		e->dwfl = NULL;
	}
}

static struct pp_dwarf_dso *dwarf_dso__find(struct pp_dwarf *d, const struct pulse_dso *dso)
{
	size_t h = ((uintptr_t)dso >> 4) % PP_DWARF_HASH;
	struct pp_dwarf_dso *e;

	for (e = d->hash[h]; e; e = e->next)
		if (e->dso == dso)
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = dso;
	if (pp_map__init(&e->cu_index, 64)) {
		free(e);
		return NULL;
	}
	dwarf_dso__open(d, e);
	e->next = d->hash[h];
	d->hash[h] = e;
	return e;
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

/* The function index of the unit @cu, made on first use; NULL: none (no memory). */
static struct pp_cu_fns *cu_fns(struct pp_dwarf_dso *e, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	uint32_t idx = pp_map__get(&e->cu_index, off, 1);
	struct pp_cu_fns *f;

	if (idx)
		return e->cus[idx - 1];
	if (pp_grow((void **)&e->cus, &e->alloc_cus, e->nr_cus + 1, sizeof(*e->cus)))
		return NULL;
	/* a unit that cannot be indexed is remembered as none */
	if (pp_cu_fns__new(&f, cu))
		f = NULL;
	e->cus[e->nr_cus++] = f;
	/* not put (no memory): cus[] still owns it, the unit is indexed anew next time */
	pp_map__put(&e->cu_index, off, 1, e->nr_cus);
	return f;
}

size_t pp_dwarf__lines(struct pp_dwarf *d, const struct pulse_dso *dso, uint64_t addr,
		       struct pp_frame_line *out, size_t max)
{
	struct pp_dwarf_dso *e = dso->kind == PULSE_DSO_USER ? dwarf_dso__find(d, dso) : NULL;
	Dwarf_Die *cu, *fn[PP_MAX_INLINE];
	struct pp_cu_fns *fns;
	Dwarf_Addr a, cu_bias;
	Dwfl_Line *line;
	const char *file;
	size_t n = 0, nr_fn = 0;
	int lineno = 0;
	bool keep = false;

	if (!e || !e->dwfl || !max)
		return 0;
	a = addr + e->bias;
	line = dwfl_module_getsrc(e->mod, a);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!file)
		return 0;
	out[0] = (struct pp_frame_line){ NULL, base_name(file), lineno, 0 };
	cu = dwfl_module_addrdie(e->mod, a, &cu_bias);
	fns = cu ? cu_fns(e, cu) : NULL;
	nr_fn = fns ? pp_cu_fns__find(fns, a - cu_bias, fn, PP_MAX_INLINE) : 0;
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
