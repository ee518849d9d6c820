// SPDX-License-Identifier: GPL-2.0
/*
 * One DSO's CFI, opened once for every process and sample that runs its
 * code: the file under symfs (its bytes serve the unwinder's reads of the
 * DSO's memory, as perf's access_dso_mem reads the file), libdw's CFI of
 * it, and a pc -> row cache in front of dwarf_cfi_addrframe().
 *
 * Which CFI: .eh_frame when the file has an .eh_frame_hdr, as perf 6.1's
 * libunwind uses it (Debian's libunwind is built without .debug_frame
 * support on x86_64, so perf stops where .eh_frame_hdr is missing). Only
 * then .debug_frame, of the file or of its separate debug file found by
 * build-id under /usr/lib/debug: pulse gets more frames than perf there.
 *
 * Locking: libdw parses CFI lazily and without locks, so every
 * dwarf_cfi_addrframe() runs under the DSO's lock; the rows it gives are
 * copied out of the Dwarf_Frame into immutable struct unw_row, which
 * readers find without a lock (see struct unw_dso) and keep using: a
 * read-write lock there cost a sixth of the unwind time and kept two
 * threads from going faster than one.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pulse/build-id.h>
#include <pulse/symbols.h>

#include "symbols/elf-int.h"
#include "unwind-int.h"

struct unw_row unw_noinfo;

static struct unw_rows *rows_new(size_t mask)
{
	struct unw_rows *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->mask = mask;
	t->rows = calloc(mask + 1, sizeof(*t->rows));
	t->keys = calloc(mask + 1, sizeof(*t->keys));
	if (!t->rows || !t->keys) {
		free(t->rows);
		free(t->keys);
		free(t);
		return NULL;
	}
	return t;
}

/* a section with bytes in the file (a separate debug file's are NOBITS) */
static bool has_section(Elf *elf, const char *want)
{
	GElf_Shdr sh;

	return pulse_elf__section(elf, want, &sh, NULL) && sh.sh_type != SHT_NOBITS;
}

static void join(char *buf, size_t size, const char *symfs, const char *path)
{
	const char *root = symfs ? symfs : "";

	snprintf(buf, size, "%s%s%s", root, root[0] ? "/" : "", path);
}

/* .debug_frame of the file itself, else of the build-id debug file */
static void open_debug_frame(struct unw_dso *d, const struct pulse_dso *dso, const char *file,
			     const char *symfs)
{
	unsigned char id[PULSE_BUILD_ID_SIZE];
	char hex[PULSE_BUILD_ID_HEX_SIZE], path[PATH_MAX];
	size_t len = 0;

	if (has_section(d->elf, ".debug_frame")) {
		d->dbg = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL);
		if (d->dbg)
			d->cfi = dwarf_getcfi(d->dbg);
		return;
	}
	if (dso->has_build_id) {
		memcpy(id, dso->build_id, dso->build_id_size);
		len = dso->build_id_size;
	} else if (pulse_build_id__read_file(file, id, &len)) {
		return;
	}
	if (len < 2 || pulse_build_id__hex(id, len, hex, sizeof(hex)) < 0)
		return;
	snprintf(path, sizeof(path), "%s%s/usr/lib/debug/.build-id/%.2s/%s.debug",
		 symfs ? symfs : "", "", hex, hex + 2);
	d->dbg_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->dbg_fd < 0)
		return;
	d->dbg_elf = elf_begin(d->dbg_fd, ELF_C_READ_MMAP, NULL);
	if (!d->dbg_elf || !has_section(d->dbg_elf, ".debug_frame"))
		return;
	d->dbg = dwarf_begin_elf(d->dbg_elf, DWARF_C_READ, NULL);
	if (d->dbg)
		d->cfi = dwarf_getcfi(d->dbg);
}

/*
 * [vdso]: perf 6.1 reads a live recording's vDSO from a copy of its own
 * (machine__findnew_vdso), so does the unwinder; not under a symfs root,
 * as lib/symbols does not use it there either. Its size: the section
 * headers, at the end of the image.
 */
static int open_vdso(struct unw_dso *d)
{
	const uint8_t *img = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;
	size_t size;

	if (!img)
		return 0;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > (1u << 20) || eh.e_shnum > 256)
		return 0;
	size = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	d->image = malloc(size);
	if (!d->image)
		return -ENOMEM;
	memcpy(d->image, img, size);
	elf_version(EV_CURRENT);
	d->elf = elf_memory(d->image, size);
	return 0;
}

/*
 * A DSO gone from its recorded path (rebuilt, upgraded, a temporary
 * directory): perf's build-id cache keeps a copy, .build-id/xx/rest being
 * the file itself (an old cache) or a directory holding "elf"
 */
static int open_cached(const struct pulse_dso *dso, const char *buildid_dir, char *file,
		       size_t size)
{
	char hex[PULSE_BUILD_ID_HEX_SIZE];
	struct stat st;
	int n;

	if (!buildid_dir || !dso->has_build_id ||
	    pulse_build_id__hex(dso->build_id, dso->build_id_size, hex, sizeof(hex)) < 2)
		return -1;
	n = snprintf(file, size, "%s/.build-id/%.2s/%s", buildid_dir, hex, hex + 2);
	if (n < 0 || (size_t)n >= size || stat(file, &st))
		return -1;
	if (S_ISDIR(st.st_mode) && snprintf(file + n, size - n, "/elf") >= (int)(size - n))
		return -1;
	return open(file, O_RDONLY | O_CLOEXEC);
}

/* the file at @path is the one recorded, as far as a build-id can tell */
static bool same_build_id(const struct pulse_dso *dso, const char *path)
{
	unsigned char id[PULSE_BUILD_ID_SIZE];
	size_t len;

	if (!dso->has_build_id || pulse_build_id__read_file(path, id, &len))
		return true;
	return len == dso->build_id_size && !memcmp(id, dso->build_id, len);
}

int unw_dso__open(struct unw_dso *d, const struct pulse_dso *dso, const char *symfs,
		  const char *buildid_dir)
{
	char file[PATH_MAX];
	size_t nph;
	int err;

	d->key = dso;
	d->fd = d->dbg_fd = -1;
	err = pthread_mutex_init(&d->lock, NULL);
	if (err)
		return -err;
	d->table = rows_new(255);
	if (!d->table)
		return -ENOMEM;
	file[0] = '\0';
	if (dso && dso->kind == PULSE_DSO_VDSO && !symfs) {
		err = open_vdso(d);
		if (err)
			return err;
	} else if (dso && dso->long_name && dso->long_name[0] == '/') {
		join(file, sizeof(file), symfs, dso->long_name);
		d->fd = open(file, O_RDONLY | O_CLOEXEC);
		if (d->fd < 0 || !same_build_id(dso, file)) {
			char cached[PATH_MAX];
			int fd = open_cached(dso, buildid_dir, cached, sizeof(cached));

			/* a rebuilt file with no cached copy: its CFI is all there is */
			if (fd >= 0) {
				if (d->fd >= 0)
					close(d->fd);
				d->fd = fd;
				memcpy(file, cached, sizeof(file));
			}
		}
		if (d->fd < 0)
			return 0;
		elf_version(EV_CURRENT);
		d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	}
	/* else [heap], //anon: no bytes, no CFI */
	if (!d->elf || elf_kind(d->elf) != ELF_K_ELF)
		return 0;
	d->raw = (const uint8_t *)elf_rawfile(d->elf, &d->raw_size);
	if (!d->raw || elf_getphdrnum(d->elf, &nph))
		return 0;
	for (size_t i = 0; i < nph && d->nr_load < 16; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(d->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->load[d->nr_load].off = ph.p_offset;
		d->load[d->nr_load].filesz = ph.p_filesz;
		d->load[d->nr_load].vaddr = ph.p_vaddr;
		d->nr_load++;
	}
	d->ok = true;
	if (has_section(d->elf, ".eh_frame_hdr"))
		d->cfi = dwarf_getcfi_elf(d->elf);
	else if (file[0])
		open_debug_frame(d, dso, file, symfs);
	return 0;
}

void unw_dso__close(struct unw_dso *d)
{
	for (size_t i = 0; d->table && i <= d->table->mask; i++)
		if (d->table->rows[i] != &unw_noinfo)
			free(d->table->rows[i]);
	while (d->table) {
		struct unw_rows *older = d->table->older;

		free(d->table->rows);
		free(d->table->keys);
		free(d->table);
		d->table = older;
	}
	if (d->dbg)
		dwarf_end(d->dbg);		/* owns a .debug_frame CFI */
	else if (d->cfi)
		dwarf_cfi_end(d->cfi);
	if (d->dbg_elf)
		elf_end(d->dbg_elf);
	if (d->dbg_fd >= 0)
		close(d->dbg_fd);
	if (d->elf)
		elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	free(d->image);
	pthread_mutex_destroy(&d->lock);
}

uint64_t unw_dso__addr(const struct unw_dso *d, const struct pulse_unwind_map *map, uint64_t addr)
{
	uint64_t off = addr - map->start + map->pgoff;

	for (unsigned int i = 0; i < d->nr_load; i++)
		if (off >= d->load[i].off && off - d->load[i].off < d->load[i].filesz)
			return off - d->load[i].off + d->load[i].vaddr;
	return off;
}

/* An expression's operations, counted and (with @to) copied. */
static size_t take_ops(struct unw_rule *r, const Dwarf_Op *ops, size_t nops, Dwarf_Op *to)
{
	if (to) {
		memcpy(to, ops, nops * sizeof(*ops));
		r->ops = to;
		r->nops = nops;
	}
	return nops;
}

/*
 * One register's rule; @to, when not NULL, receives an expression's
 * operations. Return: how many operations it needs.
 */
static size_t reg_rule(Dwarf_Frame *f, int regno, struct unw_rule *r, Dwarf_Op *to)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, n;
	bool value;

	memset(r, 0, sizeof(*r));
	if (dwarf_frame_register(f, regno, mem, &ops, &nops)) {
		r->how = UNW_UNDEF;
		return 0;
	}
	if (!nops) {
		r->how = ops == mem ? UNW_UNDEF : UNW_SAME;
		return 0;
	}
	value = ops[nops - 1].atom == DW_OP_stack_value;
	n = value ? nops - 1 : nops;
	/* libdw's own spelling of offset(N) and val_offset(N) */
	if (ops == mem && n >= 1 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || (n == 2 && ops[1].atom == DW_OP_plus_uconst))) {
		r->how = value ? UNW_VAL_CFA : UNW_AT_CFA;
		r->off = n == 2 ? (int64_t)ops[1].number : 0;
		return 0;
	}
	if (ops == mem && n == 1 && ops[0].atom == DW_OP_regx && value && ops[0].number < UNW_NREGS) {
		r->how = UNW_REG;
		r->reg = ops[0].number;
		return 0;
	}
	r->how = value ? UNW_VAL_EXPR : UNW_EXPR;
	return take_ops(r, ops, n, to);
}

static size_t cfa_rule(Dwarf_Frame *f, struct unw_rule *r, Dwarf_Op *to)
{
	Dwarf_Op *ops;
	size_t nops;

	memset(r, 0, sizeof(*r));
	if (dwarf_frame_cfa(f, &ops, &nops) || !nops) {
		r->how = UNW_UNDEF;
		return 0;
	}
	if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < UNW_NREGS) {
		r->how = UNW_REG;
		r->reg = ops[0].number;
		r->off = ops[0].number2;
		return 0;
	}
	if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom < DW_OP_breg0 + UNW_NREGS) {
		r->how = UNW_REG;
		r->reg = ops[0].atom - DW_OP_breg0;
		r->off = ops[0].number;
		return 0;
	}
	r->how = UNW_VAL_EXPR;
	return take_ops(r, ops, nops, to);
}

/* The row of @f, in one allocation with its expressions. */
static struct unw_row *row_new(Dwarf_Frame *f, uint64_t pc)
{
	struct unw_row probe, *row;
	size_t n = 0, at = 0;
	Dwarf_Addr start, end;
	bool signal = false;
	int ra;

	ra = dwarf_frame_info(f, &start, &end, &signal);
	if (ra < 0 || ra >= UNW_NREGS)
		ra = UNW_RIP;
	n += cfa_rule(f, &probe.cfa, NULL);
	for (int i = 0; i < UNW_NREGS; i++)
		n += reg_rule(f, i, &probe.regs[i], NULL);
	row = malloc(sizeof(*row) + n * sizeof(Dwarf_Op));
	if (!row)
		return NULL;
	row->pc = pc;
	row->signal = signal;
	row->ra = ra;
	at += cfa_rule(f, &row->cfa, row->ops);
	row->moved = 0;
	for (int i = 0; i < UNW_NREGS; i++) {
		at += reg_rule(f, i, &row->regs[i], row->ops + at);
		if (row->regs[i].how != UNW_UNDEF && row->regs[i].how != UNW_SAME)
			row->moved |= 1u << i;
	}
	return row;
}

/* The slot of @pc in @t: its row's, or the empty one where it would go. */
static size_t slot_of(const struct unw_rows *t, uint64_t pc, struct unw_row **row)
{
	size_t i = (pc * 0x9E3779B97F4A7C15ull) >> 20 & t->mask;

	for (;; i = (i + 1) & t->mask) {
		*row = __atomic_load_n(&t->rows[i], __ATOMIC_ACQUIRE);
		if (!*row || t->keys[i] == pc)
			return i;
	}
}

/* A table twice as large with the rows of @d's, published; the old one kept. */
static void grow(struct unw_dso *d)
{
	struct unw_rows *old = d->table, *t = rows_new(old->mask * 2 + 1);
	struct unw_row *row;

	if (!t)
		return;		/* keep probing the fuller table; still correct */
	for (size_t i = 0; i <= old->mask; i++) {
		size_t j;

		if (!old->rows[i])
			continue;
		j = slot_of(t, old->keys[i], &row);
		t->keys[j] = old->keys[i];
		t->rows[j] = old->rows[i];
	}
	t->older = old;
	__atomic_store_n(&d->table, t, __ATOMIC_RELEASE);
}

const struct unw_row *unw_dso__row(struct unw_dso *d, uint64_t pc, struct unw_row **own)
{
	struct unw_rows *t;
	struct unw_row *row;
	Dwarf_Frame *f;
	size_t i;

	*own = NULL;
	if (!d->cfi)
		return &unw_noinfo;
	t = __atomic_load_n(&d->table, __ATOMIC_ACQUIRE);
	slot_of(t, pc, &row);
	if (row)
		return row;

	pthread_mutex_lock(&d->lock);
	t = d->table;
	i = slot_of(t, pc, &row);
	if (row)
		goto out;
	if (dwarf_cfi_addrframe(d->cfi, pc, &f)) {
		row = &unw_noinfo;
	} else {
		row = row_new(f, pc);
		free(f);
		if (!row)
			goto out;
	}
	/* full: the caller gets a row of its own, freed after the step */
	if (d->nr >= UNW_ROWS_MAX) {
		if (row != &unw_noinfo)
			*own = row;
		goto out;
	}
	t->keys[i] = pc;
	__atomic_store_n(&t->rows[i], row, __ATOMIC_RELEASE);
	if (++d->nr * 4 > (t->mask + 1) * 3)
		grow(d);
out:
	pthread_mutex_unlock(&d->lock);
	return row;
}
