// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables: a sorted array per DSO, searched by binary search, built
 * from an ELF .symtab or .dynsym through libelf. The rules that decide which
 * symbols are kept, where they start and end, and which alias wins at one
 * address are perf 6.1's (symbol-elf.c dso__load_sym, symbol.c
 * symbols__fixup_end/symbols__fixup_duplicate/choose_best_symbol), because
 * pulse report must name the same symbols perf report names.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/symbols.h>
#include "core/internal.h"

#define NAME_CHUNK (64 * 1024)

/* libiberty's; its demangle.h drags in macros that clash with ours */
char *cplus_demangle(const char *mangled, int options);
#define DMGL_NO_OPTS 0

void pulse_symtab__init(struct pulse_symtab *st)
{
	memset(st, 0, sizeof(*st));
}

void pulse_symtab__exit(struct pulse_symtab *st)
{
	for (size_t i = 0; i < st->nr_chunks; i++)
		free(st->chunks[i]);
	free(st->chunks);
	free(st->syms);
	memset(st, 0, sizeof(*st));
}

/* Names are packed in large chunks: a kernel has 100k+ of them. */
static char *symtab__store_name(struct pulse_symtab *st, const char *name, size_t len)
{
	char *p;

	if (len + 1 > st->chunk_left) {
		size_t sz = len + 1 > NAME_CHUNK ? len + 1 : NAME_CHUNK;
		char **chunks = realloc(st->chunks, (st->nr_chunks + 1) * sizeof(*chunks));

		if (!chunks)
			return NULL;
		st->chunks = chunks;
		p = malloc(sz);
		if (!p)
			return NULL;
		st->chunks[st->nr_chunks++] = p;
		st->cursor = p;
		st->chunk_left = sz;
	}
	p = st->cursor;
	memcpy(p, name, len);
	p[len] = '\0';
	st->cursor += len + 1;
	st->chunk_left -= len + 1;
	return p;
}

int pulse_symtab__add(struct pulse_symtab *st, uint64_t start, uint64_t size, uint8_t binding,
		      uint8_t type, const char *name)
{
	struct pulse_symbol *s;
	size_t len = strlen(name);

	if (st->nr == st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 256;
		struct pulse_symbol *syms = realloc(st->syms, n * sizeof(*syms));

		if (!syms)
			return -ENOMEM;
		st->syms = syms;
		st->alloc = n;
	}
	s = &st->syms[st->nr];
	s->name = symtab__store_name(st, name, len);
	if (!s->name)
		return -ENOMEM;
	s->start = start;
	s->end = start + size;
	s->namelen = len;
	s->binding = binding;
	s->type = type;
	st->nr++;
	return 0;
}

/*
 * perf keeps symbols in an rb-tree where an equal start goes right, so
 * aliases stay in insertion order; a merge sort keeps that order too.
 */
static void sort_by_start(struct pulse_symbol *a, struct pulse_symbol *tmp, size_t n)
{
	size_t mid, i, j, k;

	if (n < 2)
		return;
	mid = n / 2;
	sort_by_start(a, tmp, mid);
	sort_by_start(a + mid, tmp, n - mid);
	if (a[mid - 1].start <= a[mid].start)
		return;
	memcpy(tmp, a, n * sizeof(*a));
	for (i = 0, j = mid, k = 0; i < mid && j < n;)
		a[k++] = tmp[j].start < tmp[i].start ? tmp[j++] : tmp[i++];
	while (i < mid)
		a[k++] = tmp[i++];
	while (j < n)
		a[k++] = tmp[j++];
}

static int prefix_underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when @a wins over @b. */
static bool choose_first(const struct pulse_symbol *a, const struct pulse_symbol *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	bool wa, wb;
	int ua, ub;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	wa = a->binding == STB_WEAK;
	wb = b->binding == STB_WEAK;
	if (wb && !wa)
		return true;
	if (wa && !wb)
		return false;
	wa = a->binding == STB_GLOBAL;
	wb = b->binding == STB_GLOBAL;
	if (wa && !wb)
		return true;
	if (wb && !wa)
		return false;
	ua = prefix_underscores(a->name);
	ub = prefix_underscores(b->name);
	if (ub > ua)
		return true;
	if (ua > ub)
		return false;
	if (a->namelen != b->namelen)
		return a->namelen > b->namelen;
	return true;
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

void pulse_symtab__sort(struct pulse_symtab *st)
{
	struct pulse_symbol *tmp;

	if (st->nr < 2)
		return;
	tmp = malloc(st->nr * sizeof(*tmp));
	if (tmp) {
		sort_by_start(st->syms, tmp, st->nr);
		free(tmp);
	}
}

void pulse_symtab__fixup(struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_symbol *s = st->syms;
	size_t n = st->nr, i, out;

	if (!n)
		return;
	pulse_symtab__sort(st);

	/* symbols__fixup_end(): sizeless symbols reach the next one */
	for (i = 1; i < n; i++) {
		struct pulse_symbol *prev = &s[i - 1], *curr = &s[i];

		if (prev->end != prev->start)
			continue;
		if (kallsyms && (!strchr(prev->name, '[') != !strchr(curr->name, '[')))
			prev->end = roundup_page(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (s[n - 1].end == s[n - 1].start)
		s[n - 1].end = roundup_page(s[n - 1].start) + 4096;

	/* symbols__fixup_duplicate(): one symbol per start address */
	for (i = 1, out = 0; i < n; i++) {
		if (s[i].start != s[out].start) {
			s[++out] = s[i];
			continue;
		}
		if (!choose_first(&s[out], &s[i]))
			s[out] = s[i];
	}
	st->nr = out + 1;
}

const struct pulse_symbol *pulse_symtab__find(const struct pulse_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nr;
	const struct pulse_symbol *s;

	/* the last symbol starting at or before addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &st->syms[lo - 1];
	if (addr < s->end || (addr == s->start && s->start == s->end))
		return s;
	return NULL;
}

char *pulse_demangle(const char *name)
{
	/* perf 6.1 asks for parameters and qualifiers only with -v */
	if (name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}

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


static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, strndx, shdr->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols(): one "name@plt" symbol per
 * .rela.plt entry, laid over .plt after its header, in file offsets.
 */
static int add_plt_symbols(struct pulse_symtab *st, Elf *elf)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Data *reldata, *syms, *strs;
	Elf_Scn *dynscn, *relscn, *strscn;
	uint64_t off, entsize;
	size_t dynidx, nr, nr_before;
	char name[1024];
	int count = 0;

	dynscn = section_by_name(elf, ".dynsym", &dynshdr, &dynidx);
	if (!dynscn || dynshdr.sh_type != SHT_DYNSYM)
		return 0;
	relscn = section_by_name(elf, ".rela.plt", &relshdr, NULL);
	if (!relscn)
		relscn = section_by_name(elf, ".rel.plt", &relshdr, NULL);
	if (!relscn || relshdr.sh_link != dynidx || !relshdr.sh_entsize)
		return 0;
	if (!section_by_name(elf, ".plt", &pltshdr, NULL))
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
	nr_before = st->nr;
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
		/*
		 * A symbol before .plt that the fix-ups stretched over it (_init)
		 * is what perf's tree lookup meets first: the PLT entry is never
		 * found there.
		 */
		{
			struct pulse_symtab before = *st;

			before.nr = nr_before;
			if (pulse_symtab__find(&before, off))
				continue;
		}
		if (gelf_getsym(syms, symidx, &sym) && sym.st_name < strs->d_size)
			symname = (const char *)strs->d_buf + sym.st_name;
		demangled = pulse_demangle(symname);
		snprintf(name, sizeof(name), "%s@plt", demangled ? demangled : symname);
		free(demangled);
		err = pulse_symtab__add(st, off, entsize, STB_GLOBAL, STT_FUNC, name);
		if (err)
			return err;
		count++;
	}
	/* perf inserts them after the fix-ups: sorted, not resized */
	pulse_symtab__sort(st);
	return count;
}

static int load_elf(struct pulse_symtab *st, Elf *elf, Elf *run)
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
		if (phdr_of(run ? run : elf, sym.st_value, &phdr))
			sym.st_value -= phdr.p_vaddr - phdr.p_offset;
		else
			sym.st_value -= sec.sh_addr - sec.sh_offset;

		demangled = pulse_demangle(name);
		err = pulse_symtab__add(st, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
					GELF_ST_TYPE(sym.st_info), demangled ? demangled : name);
		free(demangled);
		if (err)
			return err;
		count++;
	}
	pulse_symtab__fixup(st, false);
	if (count > 0 && run) {
		err = add_plt_symbols(st, run);
		if (err < 0)
			return err;
		count += err;
	}
	return count;
}

int pulse_symtab__load_elf(struct pulse_symtab *st, const char *syms_path,
			   const char *runtime_path)
{
	int fd, rfd = -1, err;
	Elf *elf, *run = NULL;

	elf_version(EV_CURRENT);
	fd = open(syms_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		err = -ENOEXEC;
		goto out_close;
	}
	if (runtime_path && strcmp(runtime_path, syms_path)) {
		rfd = open(runtime_path, O_RDONLY | O_CLOEXEC);
		if (rfd >= 0) {
			run = elf_begin(rfd, ELF_C_READ_MMAP, NULL);
			if (run && elf_kind(run) != ELF_K_ELF) {
				elf_end(run);
				run = NULL;
			}
		}
	}
	err = load_elf(st, elf, run ? run : elf);
	if (run)
		elf_end(run);
	if (rfd >= 0)
		close(rfd);
	elf_end(elf);
out_close:
	close(fd);
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
	err = load_elf(st, elf, elf);
	elf_end(elf);
	free(copy);
	return err;
}

int pulse_elf__build_id(const char *path, uint8_t *id, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	int fd, ret = -ENODATA;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = -ENOEXEC;
		goto out;
	}
	while (ret == -ENODATA && (scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
				size_t n = nh.n_descsz < size ? nh.n_descsz : size;

				memcpy(id, (char *)data->d_buf + desc_off, n);
				ret = n;
				break;
			}
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
