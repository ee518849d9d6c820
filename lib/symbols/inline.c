// SPDX-License-Identifier: GPL-2.0
/*
 * Inline frames of an address (see pulse/inline.h). perf 6.1 asks
 * `addr2line -i -f` (Debian's perf has no libbfd) and turns each record
 * into a frame: binutils names a function by its DW_AT_linkage_name, else
 * DW_AT_name (through DW_AT_abstract_origin for an inlined copy), and perf
 * demangles it; the first record is the innermost function around the
 * address and needs a line in the line table ("??:0" ends it, no frames);
 * each further record is the function the previous one was inlined into,
 * at that one's call site (a call site without a file ends the list).
 * pulse walks the same DIEs through the compile unit's function index
 * (dwarf-fns.c), made once per unit, and keeps the answer per (DSO,
 * address): a report asks libdw once per address.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <pulse/inline.h>
#include <pulse/srcline.h>
#include "core/hash.h"
#include "symbols/dwarf-int.h"

#define MAX_INLINE_NEST 256	/* perf's MAX_INLINE_NEST is 1024; the index follows 256 */

struct inline_entry {
	const struct pulse_dso *dso;
	uint64_t addr;
	size_t nr;
	const struct pulse_symbol **frames;	/* innermost first */
	struct inline_entry *next;
};

/*
 * A fake symbol, one per (symbol inlined into, name): the frames of all
 * the addresses inside one inlined copy share it, so that a callchain
 * tree's merge (match_frame()) finds two such frames equal by pointer
 * instead of comparing their names, 2% of a dwarf report's CPU.
 */
struct inline_sym {
	struct inline_sym *next;
	const struct pulse_symbol *of;	/* the real symbol it is inlined into */
	struct pulse_symbol sym;
	char name[];
};

struct pulse_inlines {
	pthread_mutex_t lock;
	struct pulse_srclines *lines;	/* the DSOs' DWARF */
	struct inline_entry **hash;
	size_t nr, nr_buckets;		/* power of two */
	struct inline_sym **syms;	/* the fake symbols, hashed */
	size_t nr_syms, nr_sym_buckets;	/* power of two */
};

int pulse_inlines__new(struct pulse_inlines **out, const char *symfs)
{
	struct pulse_inlines *in = calloc(1, sizeof(*in));
	int err = -ENOMEM;

	*out = NULL;
	if (!in)
		return -ENOMEM;
	in->nr_buckets = 1024;
	in->hash = calloc(in->nr_buckets, sizeof(*in->hash));
	in->nr_sym_buckets = 256;
	in->syms = calloc(in->nr_sym_buckets, sizeof(*in->syms));
	if (!in->hash || !in->syms)
		goto out_free;
	err = pulse_srclines__new(&in->lines, symfs);
	if (err)
		goto out_free;
	pthread_mutex_init(&in->lock, NULL);
	*out = in;
	return 0;

out_free:
	free(in->syms);
	free(in->hash);
	free(in);
	return err;
}

/* the fake symbols are the table's, freed with it (perf's inline_node__delete()) */
static void entry__delete(struct inline_entry *e)
{
	free(e->frames);
	free(e);
}

void pulse_inlines__delete(struct pulse_inlines *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nr_buckets; i++) {
		struct inline_entry *e = in->hash[i], *next;

		for (; e; e = next) {
			next = e->next;
			entry__delete(e);
		}
	}
	free(in->hash);
	for (size_t i = 0; i < in->nr_sym_buckets; i++) {
		struct inline_sym *is = in->syms[i], *next;

		for (; is; is = next) {
			next = is->next;
			free(is);
		}
	}
	free(in->syms);
	pulse_srclines__delete(in->lines);
	pthread_mutex_destroy(&in->lock);
	free(in);
}

static size_t bucket(const struct pulse_dso *dso, uint64_t addr, size_t nr_buckets)
{
	uint64_t h = (addr ^ (uintptr_t)dso * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;

	return (h >> 32) & (nr_buckets - 1);
}

static void grow(struct pulse_inlines *in)
{
	size_t n = in->nr_buckets * 2;
	struct inline_entry **hash = calloc(n, sizeof(*hash));

	/* no memory: longer chains, still right */
	if (!hash)
		return;
	for (size_t i = 0; i < in->nr_buckets; i++) {
		struct inline_entry *e = in->hash[i], *next;

		for (; e; e = next) {
			size_t b = bucket(e->dso, e->addr, n);

			next = e->next;
			e->next = hash[b];
			hash[b] = e;
		}
	}
	free(in->hash);
	in->hash = hash;
	in->nr_buckets = n;
}

/* An attribute's string, through DW_AT_abstract_origin and DW_AT_specification. */
static const char *die_string(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, name, &attr) ? dwarf_formstring(&attr) : NULL;
}

/* binutils' name of a function: the linkage name first, as perf demangles it */
static char *function_name(Dwarf_Die *die)
{
	const char *name = die_string(die, DW_AT_linkage_name);
	char *demangled;

	if (!name)
		name = die_string(die, DW_AT_MIPS_linkage_name);
	if (!name)
		name = dwarf_diename(die);
	if (!name)
		return strdup("??");	/* new_inline_sym() without a funcname */
	demangled = pulse_demangle(name);
	return demangled ? demangled : strdup(name);
}

/* A DW_AT_call_file of an inlined subroutine names a file of its unit. */
static bool has_call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t nr;

	if (!dwarf_attr(die, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &idx))
		return false;
	return !dwarf_getsrcfiles(cu, &files, &nr) && idx < nr &&
	       dwarf_filesrc(files, idx, NULL, NULL);
}

static size_t sym_bucket(const struct pulse_symbol *sym, const char *name, size_t nr_buckets)
{
	return pulse_mix64(pulse_fnv1a_str(name) ^ (uintptr_t)sym) & (nr_buckets - 1);
}

static void grow_syms(struct pulse_inlines *in)
{
	size_t n = in->nr_sym_buckets * 2;
	struct inline_sym **syms = calloc(n, sizeof(*syms));

	/* no memory: longer chains, still right */
	if (!syms)
		return;
	for (size_t i = 0; i < in->nr_sym_buckets; i++) {
		struct inline_sym *is = in->syms[i], *next;

		for (; is; is = next) {
			size_t b = sym_bucket(is->of, is->name, n);

			next = is->next;
			is->next = syms[b];
			syms[b] = is;
		}
	}
	free(in->syms);
	in->syms = syms;
	in->nr_sym_buckets = n;
}

/*
 * new_inline_sym(): the real symbol under its own name, else the fake one
 * around it (a copy of it but for the name), made at its first use.
 */
static const struct pulse_symbol *inline_sym(struct pulse_inlines *in,
					     const struct pulse_symbol *sym, char *name)
{
	size_t len = strlen(name), b;
	struct inline_sym *is;

	if (!strcmp(name, sym->name)) {
		free(name);
		return sym;
	}
	b = sym_bucket(sym, name, in->nr_sym_buckets);
	for (is = in->syms[b]; is; is = is->next)
		if (is->of == sym && is->sym.namelen == len && !memcmp(is->name, name, len))
			goto out;
	is = malloc(sizeof(*is) + len + 1);
	if (!is)
		goto out;
	is->of = sym;
	is->sym = *sym;
	memcpy(is->name, name, len + 1);
	is->sym.name = is->name;
	is->sym.namelen = len;
	is->sym.inlined = 1;
	if (in->nr_syms + 1 > in->nr_sym_buckets) {
		grow_syms(in);
		b = sym_bucket(sym, name, in->nr_sym_buckets);
	}
	is->next = in->syms[b];
	in->syms[b] = is;
	in->nr_syms++;
out:
	free(name);
	return is ? &is->sym : NULL;
}

/* The frames of @addr, innermost first, into a new entry's array. */
static int parse(struct pulse_inlines *in, struct inline_entry *e,
		 const struct pulse_symbol *sym)
{
	Dwarf_Die *cu, *fn[MAX_INLINE_NEST];
	struct pulse_dwarf_fns *fns;
	struct pulse_dso_dwarf dw;
	Dwarf_Addr a, cu_bias;
	Dwfl_Line *line;
	size_t nr_fn, n = 0;

	if (pulse_srclines__dwarf(in->lines, e->dso, &dw))
		return 0;
	a = (Dwarf_Addr)(e->addr + dw.bias);
	/* addr2line's first record: "??:0" without a line */
	line = dwfl_module_getsrc(dw.mod, a);
	if (!line || !dwfl_lineinfo(line, NULL, NULL, NULL, NULL, NULL))
		return 0;
	cu = dwfl_module_addrdie(dw.mod, a, &cu_bias);
	fns = cu ? pulse_srclines__cu_fns(in->lines, e->dso, cu) : NULL;
	nr_fn = fns ? pulse_dwarf_fns__find(fns, a - cu_bias, fn, MAX_INLINE_NEST) : 0;
	/*
	 * No function in the DWARF (assembly with line info): binutils names
	 * the ELF symbol, which is @sym itself.
	 */
	if (!nr_fn)
		return 0;
	e->frames = calloc(nr_fn, sizeof(*e->frames));
	if (!e->frames)
		return -ENOMEM;
	for (size_t i = 0; i < nr_fn; i++) {
		char *name;

		/* a caller's record needs the call site of the function inside it */
		if (i && (dwarf_tag(fn[i - 1]) != DW_TAG_inlined_subroutine ||
			  !has_call_file(cu, fn[i - 1])))
			break;
		name = function_name(fn[i]);
		if (!name)
			return -ENOMEM;
		e->frames[n] = inline_sym(in, sym, name);
		if (!e->frames[n])
			return -ENOMEM;
		e->nr = ++n;
	}
	/* one frame that is the symbol itself: nothing changes */
	if (n == 1 && e->frames[0] == sym)
		e->nr = 0;
	return 0;
}

int pulse_inlines__warm(struct pulse_inlines *in, const struct pulse_dso *dso)
{
	int err;

	pthread_mutex_lock(&in->lock);
	err = pulse_srclines__warm(in->lines, dso);
	pthread_mutex_unlock(&in->lock);
	return err;
}

size_t pulse_inlines__find(struct pulse_inlines *in, const struct pulse_dso *dso,
			   const struct pulse_symbol *sym, uint64_t addr,
			   const struct pulse_symbol *const **frames)
{
	struct inline_entry *e;
	size_t b, nr = 0;

	*frames = NULL;
	if (!sym || sym->inlined || dso->kind != PULSE_DSO_USER)
		return 0;
	pthread_mutex_lock(&in->lock);
	b = bucket(dso, addr, in->nr_buckets);
	for (e = in->hash[b]; e; e = e->next)
		if (e->dso == dso && e->addr == addr)
			goto found;
	e = calloc(1, sizeof(*e));
	if (!e)
		goto out;
	e->dso = dso;
	e->addr = addr;
	/* no memory halfway: the frames made so far are kept */
	parse(in, e, sym);
	if (in->nr + 1 > in->nr_buckets)
		grow(in);
	b = bucket(dso, addr, in->nr_buckets);
	e->next = in->hash[b];
	in->hash[b] = e;
	in->nr++;
found:
	nr = e->nr;
	*frames = (const struct pulse_symbol *const *)e->frames;
out:
	pthread_mutex_unlock(&in->lock);
	return nr;
}
