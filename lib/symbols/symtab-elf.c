// SPDX-License-Identifier: GPL-2.0
/*
 * A symbol table from an ELF .symtab or .dynsym through libelf, as perf
 * 6.1's symbol-elf.c dso__load_sym() keeps and places them, plus the PLT
 * entries dso__synthesize_plt_symbols() makes and, for a binary with only
 * .dynsym, the MiniDebugInfo's .symtab (.gnu_debugdata).
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "core/rbtree.h"
#include "elf-int.h"
#include "symtab-int.h"

/* ---- ELF ---------------------------------------------------------------- */

static Elf_Scn *section_by_type(Elf *elf, uint32_t type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		if (shdr->sh_type == type)
			return scn;
	}
	return NULL;
}

static bool phdr_of(Elf *elf, uint64_t vaddr, GElf_Phdr *phdr)
{
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t sz;

		if (!gelf_getphdr(elf, i, phdr) || phdr->p_type != PT_LOAD)
			continue;
		sz = phdr->p_memsz > phdr->p_filesz ? phdr->p_memsz : phdr->p_filesz;
		if (sz && vaddr >= phdr->p_vaddr && vaddr < phdr->p_vaddr + sz)
			return true;
	}
	return false;
}

static bool is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

static bool is_func_or_object(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}


/*
 * perf 6.1's dso__synthesize_plt_symbols(): one "name@plt" symbol per
 * .rela.plt entry, laid over .plt after its header, in file offsets.
 */
/* @name as the table wants it (--no-demangle, -v), or NULL: as it is */
static char *demangle(const struct pulse_symtab *st, const char *name)
{
	if (st->no_demangle)
		return NULL;
	return st->demangle_full ? pulse_demangle_full(name) : pulse_demangle(name);
}

static int add_plt_symbols(struct pulse_symtab *st, struct pulse_rbt *t, Elf *elf)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Data *reldata, *syms, *strs;
	Elf_Scn *dynscn, *relscn, *strscn;
	uint64_t off, entsize;
	size_t dynidx, nr;
	char name[1024];
	int count = 0;

	dynscn = pulse_elf__section(elf, ".dynsym", &dynshdr, &dynidx);
	if (!dynscn || dynshdr.sh_type != SHT_DYNSYM)
		return 0;
	relscn = pulse_elf__section(elf, ".rela.plt", &relshdr, NULL);
	if (!relscn)
		relscn = pulse_elf__section(elf, ".rel.plt", &relshdr, NULL);
	if (!relscn || relshdr.sh_link != dynidx || !relshdr.sh_entsize)
		return 0;
	if (!pulse_elf__section(elf, ".plt", &pltshdr, NULL))
		return 0;
	reldata = elf_getdata(relscn, NULL);
	syms = elf_getdata(dynscn, NULL);
	strscn = elf_getscn(elf, dynshdr.sh_link);
	if (!reldata || !syms || !strscn || !gelf_getshdr(strscn, &strshdr))
		return 0;
	strs = elf_getdata(strscn, NULL);
	if (!strs || !strs->d_size)
		return 0;
	entsize = pltshdr.sh_entsize;
	off = pltshdr.sh_offset + entsize;	/* the header has the size of an entry */
	nr = relshdr.sh_size / relshdr.sh_entsize;
	for (size_t i = 0; i < nr; i++, off += entsize) {
		const char *symname = "";
		char *demangled;
		GElf_Sym sym;
		size_t symidx;
		int err;

		if (relshdr.sh_type == SHT_RELA) {
			GElf_Rela rela;

			if (!gelf_getrela(reldata, i, &rela))
				break;
			symidx = GELF_R_SYM(rela.r_info);
		} else {
			GElf_Rel rel;

			if (!gelf_getrel(reldata, i, &rel))
				break;
			symidx = GELF_R_SYM(rel.r_info);
		}
		if (gelf_getsym(syms, symidx, &sym) && sym.st_name < strs->d_size)
			symname = (const char *)strs->d_buf + sym.st_name;
		demangled = demangle(st, symname);
		snprintf(name, sizeof(name), "%s@plt", demangled ? demangled : symname);
		free(demangled);
		/*
		 * perf inserts them after the fix-ups, unsized and unchecked: one
		 * laid over a symbol the fix-ups stretched over .plt (_init) is
		 * found or not as the tree has it.
		 */
		err = pulse_symtab__add(st, off, entsize, STB_GLOBAL, STT_FUNC, name);
		if (!err)
			err = pulse_symtree__insert(t, st, st->nr - 1);
		if (err)
			return err;
		count++;
	}
	return count;
}

/*
 * @absolute: keep st_value (a vmlinux: kernel symbols are absolute
 * addresses); else rebase to file offsets through @run's PT_LOAD.
 */
static int load_elf_syms(struct pulse_symtab *st, Elf *elf, Elf *run, bool absolute)
{
	GElf_Shdr symshdr;
	GElf_Ehdr ehdr;
	Elf_Scn *scn;
	Elf_Data *data;
	size_t shstrndx, nr, count = 0;
	int err;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
		return -ENOEXEC;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -ENOEXEC;
	scn = section_by_type(elf, SHT_SYMTAB, &symshdr);
	if (!scn)
		scn = section_by_type(elf, SHT_DYNSYM, &symshdr);
	if (!scn || !symshdr.sh_entsize)
		return -ENODATA;
	data = elf_getdata(scn, NULL);
	if (!data)
		return -ENODATA;
	nr = symshdr.sh_size / symshdr.sh_entsize;

	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		GElf_Shdr sec;
		GElf_Phdr phdr;
		const char *name, *secname;
		char *demangled;
		bool label;
		Elf_Scn *s;

		if (!gelf_getsym(data, i, &sym))
			continue;
		label = is_label(&sym);
		if (!label && !is_func_or_object(&sym))
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		s = elf_getscn(elf, sym.st_shndx);
		if (!s || !gelf_getshdr(s, &sec))
			continue;
		/* .gnu.warning.* and friends never reach memory */
		if (!(sec.sh_flags & SHF_ALLOC))
			continue;
		secname = elf_strptr(elf, shstrndx, sec.sh_name);
		if (sec.sh_type == SHT_NOBITS && run && run != elf) {
			/* a debug file keeps no section offsets: ask the binary */
			Elf_Scn *rs = elf_getscn(run, sym.st_shndx);
			size_t rstrndx;

			if (rs && gelf_getshdr(rs, &sec) && !elf_getshdrstrndx(run, &rstrndx))
				secname = elf_strptr(run, rstrndx, sec.sh_name);
		}
		if (label && (!secname || (!strstr(secname, "text") && !strstr(secname, "data"))))
			continue;
		name = elf_strptr(elf, symshdr.sh_link, sym.st_name);
		if (!name)
			continue;
		if (absolute)
			;
		else if (phdr_of(run ? run : elf, sym.st_value, &phdr))
			sym.st_value -= phdr.p_vaddr - phdr.p_offset;
		else
			sym.st_value -= sec.sh_addr - sec.sh_offset;

		demangled = demangle(st, name);
		err = pulse_symtab__add(st, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
					GELF_ST_TYPE(sym.st_info), demangled ? demangled : name);
		free(demangled);
		if (err)
			return err;
		count++;
	}
	return count;
}

/*
 * perf's dso__load_sym() then dso__synthesize_plt_symbols(). @mini: the
 * MiniDebugInfo ELF of a binary that only has .dynsym (its .symtab holds
 * the local functions .dynsym lacks), or NULL.
 */
static int load_elf(struct pulse_symtab *st, Elf *elf, Elf *run, Elf *mini)
{
	struct pulse_rbt t;
	int count, err;

	count = load_elf_syms(st, elf, run, false);
	if (mini) {
		err = load_elf_syms(st, mini, run, false);
		if (err > 0)
			count = count > 0 ? count + err : err;
	}
	if (count <= 0)
		return count;
	err = pulse_symtree__build(&t, st);
	if (err)
		return err;
	pulse_symtree__fixup(&t, st, false);
	if (run) {
		err = add_plt_symbols(st, &t, run);
		if (err < 0)
			goto out;
		count += err;
	}
	err = pulse_symtree__flatten(&t, st);
	if (!err)
		pulse_symtab__build_index(st);
out:
	pulse_rbt__exit(&t);
	return err < 0 ? err : count;
}

/* The unpacked MiniDebugInfo of a binary without .symtab, or NULL. */
static Elf *open_debugdata(Elf *elf, void **image)
{
	GElf_Shdr shdr;
	Elf_Data *data;
	Elf_Scn *scn;
	size_t len;
	Elf *mini;

	*image = NULL;
	if (section_by_type(elf, SHT_SYMTAB, &shdr))
		return NULL;
	scn = pulse_elf__section(elf, ".gnu_debugdata", &shdr, NULL);
	if (!scn || shdr.sh_type == SHT_NOBITS)
		return NULL;
	data = elf_rawdata(scn, NULL);
	if (!data || !data->d_size)
		return NULL;
	if (pulse_xz__decode(data->d_buf, data->d_size, image, &len)) {
		pr_debug("symbols: .gnu_debugdata does not unpack\n");
		return NULL;
	}
	mini = elf_memory(*image, len);
	if (!mini || elf_kind(mini) != ELF_K_ELF) {
		if (mini)
			elf_end(mini);
		free(*image);
		*image = NULL;
		return NULL;
	}
	return mini;
}

int pulse_symtab__load_elf(struct pulse_symtab *st, const char *syms_path,
			   const char *runtime_path)
{
	struct pulse_elf syms, run = { .fd = -1 };
	void *image;
	Elf *mini;
	int err;

	err = pulse_elf__open(&syms, syms_path);
	if (err)
		return err;
	/* a runtime binary that is not there or not ELF is done without */
	if (runtime_path && strcmp(runtime_path, syms_path))
		pulse_elf__open(&run, runtime_path);
	mini = open_debugdata(syms.elf, &image);
	err = load_elf(st, syms.elf, run.elf ? run.elf : syms.elf, mini);
	if (mini)
		elf_end(mini);
	free(image);
	pulse_elf__close(&run);
	pulse_elf__close(&syms);
	return err;
}

int pulse_symtab__load_elf_mem(struct pulse_symtab *st, const void *buf, size_t len)
{
	Elf *elf;
	char *copy;
	int err;

	elf_version(EV_CURRENT);
	/* elf_memory() wants a writable image */
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	elf = elf_memory(copy, len);
	if (!elf) {
		free(copy);
		return -ENOEXEC;
	}
	err = load_elf(st, elf, elf, NULL);
	elf_end(elf);
	free(copy);
	return err;
}

int pulse_symtab__load_vmlinux(struct pulse_symtab *st, const char *path)
{
	struct pulse_elf e;
	int err;

	err = pulse_elf__open(&e, path);
	if (err)
		return err;
	err = load_elf_syms(st, e.elf, NULL, true);
	if (err > 0)
		pulse_symtab__fixup(st, false);
	pulse_elf__close(&e);
	return err;
}
