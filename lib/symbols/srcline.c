// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines (perf's util/srcline.c, as perf script -F srcline uses
 * it): each user DSO's file is opened once with libdwfl, offline, and its
 * line table (its own, or its separate debug file's, found by
 * dwfl_standard_find_debuginfo(): build-id and debuglink under
 * /usr/lib/debug) answers for every address. What has no file or no line
 * for the address is named as perf names it: "SHORT_NAME[addr]".
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <pulse/srcline.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "symbols/dwarf-int.h"
#include "symbols/elf-int.h"

/* A unit's function index, by the unit's DIE offset (open addressing). */
struct srcline_cu {
	Dwarf_Off off;
	struct pulse_dwarf_fns *fns;	/* NULL: not indexed (or cannot be) */
	bool used;
};

struct srcline_dso {
	const struct pulse_dso *dso;
	Dwfl *dwfl;			/* NULL: no file or no DWARF */
	Dwfl_Module *mod;
	/*
	 * A DSO address is a file offset (see pulse/symbols.h); the module's
	 * address of it is offset + bias: the load bias plus .text's sh_addr -
	 * sh_offset, as perf's map__rip_2objdump() adds dso->text_offset
	 */
	int64_t bias;
	struct srcline_cu *cus;		/* power-of-two slots */
	size_t nr_cus, cu_slots;
	struct srcline_dso *next;
};

#define SRCLINE_HASH 256

struct pulse_srclines {
	char *symfs;
	struct srcline_dso *hash[SRCLINE_HASH];
};

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int pulse_srclines__new(struct pulse_srclines **out, const char *symfs)
{
	struct pulse_srclines *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	/* perf's symbol__init(): a symfs of "/" is no symfs */
	if (symfs && strcmp(symfs, "/")) {
		s->symfs = strdup(symfs);
		if (!s->symfs) {
			free(s);
			return -ENOMEM;
		}
	}
	*out = s;
	return 0;
}

void pulse_srclines__delete(struct pulse_srclines *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < SRCLINE_HASH; i++) {
		struct srcline_dso *e = s->hash[i], *next;

		for (; e; e = next) {
			next = e->next;
			for (size_t c = 0; c < e->cu_slots; c++)
				pulse_dwarf_fns__delete(e->cus[c].fns);
			free(e->cus);
			if (e->dwfl)
				dwfl_end(e->dwfl);
			free(e);
		}
	}
	free(s->symfs);
	free(s);
}

/* .text's sh_addr - sh_offset: 0 in most DSOs, not in non-PIE executables */
static int64_t text_offset(Elf *elf)
{
	GElf_Shdr shdr;

	if (pulse_elf__section(elf, ".text", &shdr, NULL) && shdr.sh_type == SHT_PROGBITS)
		return (int64_t)(shdr.sh_addr - shdr.sh_offset);
	return 0;
}

static void srcline_dso__open(struct pulse_srclines *s, struct srcline_dso *e)
{
	const struct pulse_dso *dso = e->dso;
	char path[4096];
	GElf_Addr bias;
	Elf *elf;

	if (dso->kind != PULSE_DSO_USER || !dso->long_name || dso->long_name[0] != '/')
		return;
	if (snprintf(path, sizeof(path), "%s%s", s->symfs ? s->symfs : "", dso->long_name) >=
	    (int)sizeof(path))
		return;
	e->dwfl = dwfl_begin(&offline_callbacks);
	if (!e->dwfl)
		return;
	e->mod = dwfl_report_offline(e->dwfl, dso->short_name, path, -1);
	dwfl_report_end(e->dwfl, NULL, NULL);
	elf = e->mod ? dwfl_module_getelf(e->mod, &bias) : NULL;
	if (!elf) {
		pr_debug("srcline: cannot read '%s': %s\n", path, dwfl_errmsg(-1));
		dwfl_end(e->dwfl);
		e->dwfl = NULL;
		return;
	}
	e->bias = (int64_t)bias + text_offset(elf);
}

static struct srcline_dso *srcline_dso__find(struct pulse_srclines *s,
					     const struct pulse_dso *dso)
{
	size_t h = ((uintptr_t)dso >> 4) % SRCLINE_HASH;
	struct srcline_dso *e;

	for (e = s->hash[h]; e; e = e->next)
		if (e->dso == dso)
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = dso;
	srcline_dso__open(s, e);
	e->next = s->hash[h];
	s->hash[h] = e;
	return e;
}

const char *pulse_srclines__find(struct pulse_srclines *s, const struct pulse_dso *dso,
				 uint64_t addr, char *buf, size_t size)
{
	int err = pulse_srclines__lookup(s, dso, addr, buf, size);

	if (!err)
		return buf;
	if (err == -ENODATA)
		return NULL;
	snprintf(buf, size, "%s[%" PRIx64 "]", dso->short_name, addr);
	return buf;
}

int pulse_srclines__lookup(struct pulse_srclines *s, const struct pulse_dso *dso, uint64_t addr,
			   char *buf, size_t size)
{
	struct srcline_dso *e = srcline_dso__find(s, dso);

	if (e && e->dwfl) {
		Dwfl_Line *line = dwfl_module_getsrc(e->mod, (Dwarf_Addr)(addr + e->bias));
		const char *file, *base;
		int lineno = 0;

		file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (file) {
			/* perf's srcline_from_fileline(): the base name */
			base = strrchr(file, '/');
			snprintf(buf, size, "%s:%u", base ? base + 1 : file, (unsigned int)lineno);
			return 0;
		}
		/*
		 * addr2line, which perf 6.1 asks, names the function from the
		 * symbol table without a line ("_start", "??:?": perf takes
		 * that as "??:0"); with no symbol there either (a PLT entry)
		 * its answer is the one perf reads as having none
		 */
		if (dwfl_module_addrname(e->mod, (Dwarf_Addr)(addr + e->bias)))
			return -ENODATA;
	}
	return -ENOENT;
}

int pulse_srclines__warm(struct pulse_srclines *s, const struct pulse_dso *dso)
{
	struct srcline_dso *e = dso->kind == PULSE_DSO_USER ? srcline_dso__find(s, dso) : NULL;
	Dwarf_Addr bias;

	if (!e || !e->dwfl || !dwfl_module_getdwarf(e->mod, &bias))
		return -ENOENT;
	return 0;
}

int pulse_srclines__dwarf(struct pulse_srclines *s, const struct pulse_dso *dso,
			  struct pulse_dso_dwarf *out)
{
	struct srcline_dso *e = dso->kind == PULSE_DSO_USER ? srcline_dso__find(s, dso) : NULL;

	if (!e || !e->dwfl)
		return -ENOENT;
	out->mod = e->mod;
	out->bias = e->bias;
	return 0;
}

static int cus__grow(struct srcline_dso *e)
{
	size_t slots = e->cu_slots ? e->cu_slots * 2 : 64;
	struct srcline_cu *cus = calloc(slots, sizeof(*cus));

	if (!cus)
		return -ENOMEM;
	for (size_t i = 0; i < e->cu_slots; i++) {
		size_t h;

		if (!e->cus[i].used)
			continue;
		for (h = e->cus[i].off * 0x9e3779b97f4a7c15ULL >> 20;; h++)
			if (!cus[h & (slots - 1)].used)
				break;
		cus[h & (slots - 1)] = e->cus[i];
	}
	free(e->cus);
	e->cus = cus;
	e->cu_slots = slots;
	return 0;
}

struct pulse_dwarf_fns *pulse_srclines__cu_fns(struct pulse_srclines *s,
					       const struct pulse_dso *dso, Dwarf_Die *cu)
{
	struct srcline_dso *e = srcline_dso__find(s, dso);
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct srcline_cu *slot;
	size_t h;

	if (!e)
		return NULL;
	/* at most half full: probes stay short */
	if ((e->nr_cus + 1) * 2 > e->cu_slots && cus__grow(e))
		return NULL;
	for (h = off * 0x9e3779b97f4a7c15ULL >> 20;; h++) {
		slot = &e->cus[h & (e->cu_slots - 1)];
		if (!slot->used || slot->off == off)
			break;
	}
	if (slot->used)
		return slot->fns;
	/* a unit that cannot be indexed is remembered as none */
	if (pulse_dwarf_fns__new(&slot->fns, cu))
		slot->fns = NULL;
	slot->off = off;
	slot->used = true;
	e->nr_cus++;
	return slot->fns;
}
