// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables: a sorted array per DSO, searched by binary search, built
 * from an ELF .symtab or .dynsym through libelf. The rules that decide which
 * symbols are kept, where they start and end, and which alias wins at one
 * address are perf 6.1's (symbol-elf.c dso__load_sym, symbol.c
 * symbols__fixup_end/symbols__fixup_duplicate/choose_best_symbol), because
 * pulse report must name the same symbols perf report names.
 */
#include <dlfcn.h>
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
#include "core/rbtree.h"

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
	free(st->starts);
	free(st->index);
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

/*
 * ---- perf's symbol tree -------------------------------------------------
 *
 * perf keeps a DSO's symbols in a red-black tree keyed by start (an equal
 * start goes right) and finds an address by walking down from the root,
 * returning the first symbol on the way that covers it. When symbols
 * overlap (PLT entries laid over a stretched _init, nested or overlapping
 * assembler symbols, JIT maps) which one is met first depends on the shape
 * of the tree, that is on the order symbols were inserted and erased. So
 * the tree is built here as perf builds it (lib/rbtree.c's insert and
 * erase, step for step), and then flattened: every symbol is given the
 * addresses for which perf's walk returns it. Those ranges are disjoint and
 * come in start order. A symbol perf can never return is dropped; the end
 * of one perf stops finding early is cut there. Its start stays: when it
 * is partly covered by an earlier symbol met first, its range begins where
 * that one's ends, and pulse_symtab__find() looks there first. Without
 * overlaps nothing changes.
 */
#define NIL PULSE_RBT_NIL

/* perf's __symbols__insert(): symbol @idx of @st goes in. */
static int symtree__insert(struct pulse_rbt *t, const struct pulse_symtab *st, uint32_t idx)
{
	uint64_t ip = st->syms[idx].start;
	uint32_t parent = PULSE_RBT_NIL, x = t->root;
	bool left = false;
	int err = pulse_rbt__reserve(t, (size_t)idx + 1);

	if (err)
		return err;
	while (x != PULSE_RBT_NIL) {
		parent = x;
		left = ip < st->syms[x].start;
		x = left ? t->n[x].left : t->n[x].right;
	}
	pulse_rbt__link(t, idx, parent, left);
	pulse_rbt__insert_color(t, idx);
	return 0;
}

/* Every symbol of the table into a new tree, in table (insertion) order. */
static int symtree__build(struct pulse_rbt *t, const struct pulse_symtab *st)
{
	int err;

	pulse_rbt__init(t);
	err = pulse_rbt__reserve(t, st->nr);
	for (size_t i = 0; !err && i < st->nr; i++)
		err = symtree__insert(t, st, i);
	if (err)
		pulse_rbt__exit(t);
	return err;
}

/* perf's symbols__fixup_end() then symbols__fixup_duplicate(). */
static void symtree__fixup(struct pulse_rbt *t, struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_symbol *s = st->syms;
	uint32_t nd, curr, next;

	curr = pulse_rbt__first(t);
	if (curr == NIL)
		return;
	for (nd = pulse_rbt__next(t, curr); nd != NIL; nd = pulse_rbt__next(t, nd)) {
		struct pulse_symbol *prev = &s[curr];

		curr = nd;
		if (prev->end != prev->start)
			continue;
		if (kallsyms && (!strchr(prev->name, '[') != !strchr(s[curr].name, '[')))
			prev->end = roundup_page(prev->end + 4096);
		else
			prev->end = s[curr].start;
	}
	if (s[curr].end == s[curr].start)
		s[curr].end = roundup_page(s[curr].start) + 4096;

	nd = pulse_rbt__first(t);
	while (nd != NIL) {
		curr = nd;
again:
		nd = pulse_rbt__next(t, curr);
		if (nd == NIL)
			break;
		next = nd;
		if (s[curr].start != s[next].start)
			continue;
		if (choose_first(&s[curr], &s[next])) {
			pulse_rbt__erase(t, next);
			goto again;
		}
		nd = pulse_rbt__next(t, curr);
		pulse_rbt__erase(t, curr);
	}
}

/* One past the last address perf's walk finds in @s (see symbols__find()). */
static uint64_t cover_end(const struct pulse_symbol *s)
{
	if (s->end > s->start)
		return s->end;
	if (s->end == s->start && s->start != UINT64_MAX)
		return s->start + 1;
	return s->start;
}

struct flatten {
	const struct pulse_rbt *t;
	const struct pulse_symbol *in;
	struct pulse_symbol *out;
	size_t nr;
};

/*
 * In order, with the window [lo, hi) of addresses whose walk reaches the
 * node: left of a node for addresses below its start, right of it for
 * addresses at or past its cover end. @hi_open: no upper bound.
 */
static void flatten(struct flatten *f, uint32_t x, uint64_t lo, uint64_t hi, bool hi_open)
{
	while (x != NIL) {
		const struct pulse_symbol *s = &f->in[x];
		uint64_t cend = cover_end(s);
		uint64_t a = s->start > lo ? s->start : lo;
		uint64_t b = hi_open || cend < hi ? cend : hi;

		flatten(f, f->t->n[x].left, lo, hi_open || s->start < hi ? s->start : hi, false);
		if (a < b) {
			struct pulse_symbol *o = &f->out[f->nr++];

			*o = *s;
			if (s->end != s->start)
				o->end = b;
		}
		/* the right subtree, as a loop: the tree may be deep on that side */
		if (cend > lo)
			lo = cend;
		x = f->t->n[x].right;
	}
}

/* The table becomes what perf's walks over the tree find, in start order. */
static int symtree__flatten(struct pulse_rbt *t, struct pulse_symtab *st)
{
	struct flatten f = { .t = t, .in = st->syms };
	size_t live = 0;

	for (size_t i = 0; i < st->nr; i++)
		live += t->n[i].in_tree;
	f.out = malloc((live ? live : 1) * sizeof(*f.out));
	if (!f.out)
		return -ENOMEM;
	flatten(&f, t->root, 0, 0, true);
	free(st->syms);
	st->syms = f.out;
	st->nr = f.nr;
	st->alloc = live ? live : 1;
	return 0;
}

/*
 * The search index of a sorted table: the starts alone, dense (8 bytes a
 * symbol instead of 32, so a probe touches fewer cache lines), and every
 * 64th of them, small enough to stay in cache between lookups. A report
 * resolves every sample and callchain address through here, mostly in the
 * kernel's 100k+ symbols: a plain binary search over the symbols missed
 * the cache on nearly every probe. Without memory there is no index and
 * the plain search is used.
 */
static void symtab__build_index(struct pulse_symtab *st)
{
	size_t nr_index = (st->nr >> PULSE_SYMTAB_INDEX_SHIFT) + 1;
	uint64_t *starts = realloc(st->starts, (st->nr ? st->nr : 1) * sizeof(*starts));
	uint64_t *index;

	st->nr_indexed = SIZE_MAX;
	if (!starts)
		return;
	st->starts = starts;
	index = realloc(st->index, nr_index * sizeof(*index));
	if (!index)
		return;
	st->index = index;
	for (size_t i = 0; i < st->nr; i++)
		starts[i] = st->syms[i].start;
	for (size_t i = 0; i < nr_index; i++)
		index[i] = (i << PULSE_SYMTAB_INDEX_SHIFT) < st->nr ?
			   starts[i << PULSE_SYMTAB_INDEX_SHIFT] : UINT64_MAX;
	st->nr_indexed = st->nr;
}

/* Sorting cannot fail: without memory for the tree, a stable sort. */
static void symtab__sort_plain(struct pulse_symtab *st)
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

void pulse_symtab__sort(struct pulse_symtab *st)
{
	struct pulse_rbt t;

	if (st->nr < 2)
		return;
	if (symtree__build(&t, st) || symtree__flatten(&t, st))
		symtab__sort_plain(st);
	pulse_rbt__exit(&t);
	symtab__build_index(st);
}

/* The fix-ups of a plain sorted array, when the tree cannot be had. */
static void symtab__fixup_plain(struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_symbol *s = st->syms;
	size_t n = st->nr, i, out;

	symtab__sort_plain(st);
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

void pulse_symtab__fixup(struct pulse_symtab *st, bool kallsyms)
{
	struct pulse_rbt t;

	if (!st->nr)
		return;
	if (symtree__build(&t, st)) {
		symtab__fixup_plain(st, kallsyms);
	} else {
		symtree__fixup(&t, st, kallsyms);
		if (symtree__flatten(&t, st))
			symtab__fixup_plain(st, kallsyms);
		pulse_rbt__exit(&t);
	}
	symtab__build_index(st);
}

/* How many symbols start at or before @addr. */
static size_t symtab__nr_starting_upto(const struct pulse_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi, nr_index;

	if (st->nr_indexed != st->nr || !st->nr) {
		hi = st->nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (st->syms[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	/* the last index block starting at or before addr ... */
	nr_index = ((st->nr - 1) >> PULSE_SYMTAB_INDEX_SHIFT) + 1;
	hi = nr_index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->index[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	/* ... and within it */
	hi = lo << PULSE_SYMTAB_INDEX_SHIFT;
	if (hi > st->nr)
		hi = st->nr;
	lo = (lo - 1) << PULSE_SYMTAB_INDEX_SHIFT;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A table is flattened (see above): starts ascend, and so do the ends of
 * what each symbol covers, one range after the other. The symbol for @addr
 * is the first of those starting at or before it whose range goes past it:
 * nearly always the last of them, as ranges rarely overlap, so that is
 * checked first.
 */
const struct pulse_symbol *pulse_symtab__find(const struct pulse_symtab *st, uint64_t addr)
{
	size_t n = symtab__nr_starting_upto(st, addr), lo, hi;

	if (!n || cover_end(&st->syms[n - 1]) <= addr)
		return NULL;	/* ends ascend: no earlier one covers addr either */
	if (n == 1 || cover_end(&st->syms[n - 2]) <= addr)
		return &st->syms[n - 1];
	/* overlapping ranges: the first of them that covers addr */
	lo = 0;
	hi = n - 2;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cover_end(&st->syms[mid]) > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return &st->syms[lo];
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
static int add_plt_symbols(struct pulse_symtab *st, struct pulse_rbt *t, Elf *elf)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Data *reldata, *syms, *strs;
	Elf_Scn *dynscn, *relscn, *strscn;
	uint64_t off, entsize;
	size_t dynidx, nr;
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
		demangled = pulse_demangle(symname);
		snprintf(name, sizeof(name), "%s@plt", demangled ? demangled : symname);
		free(demangled);
		/*
		 * perf inserts them after the fix-ups, unsized and unchecked: one
		 * laid over a symbol the fix-ups stretched over .plt (_init) is
		 * found or not as the tree has it.
		 */
		err = pulse_symtab__add(st, off, entsize, STB_GLOBAL, STT_FUNC, name);
		if (!err)
			err = symtree__insert(t, st, st->nr - 1);
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

		demangled = pulse_demangle(name);
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
	err = symtree__build(&t, st);
	if (err)
		return err;
	symtree__fixup(&t, st, false);
	if (run) {
		err = add_plt_symbols(st, &t, run);
		if (err < 0)
			goto out;
		count += err;
	}
	err = symtree__flatten(&t, st);
	if (!err)
		symtab__build_index(st);
out:
	pulse_rbt__exit(&t);
	return err < 0 ? err : count;
}

/* ---- .gnu_debugdata (MiniDebugInfo) ---------------------------------------
 *
 * Fedora-style binaries keep, in .gnu_debugdata, an xz-compressed ELF whose
 * .symtab holds the function symbols .dynsym lacks. libelf does not unpack
 * it, so liblzma does: loaded with dlopen() on first use, so that pulse
 * neither links it nor needs its headers to build, and a system without
 * it merely goes without those symbols.
 */
typedef int (*lzma_buffer_decode_fn)(uint64_t *memlimit, uint32_t flags, const void *allocator,
				     const uint8_t *in, size_t *in_pos, size_t in_size,
				     uint8_t *out, size_t *out_pos, size_t out_size);
#define LZMA_OK_ 0
#define LZMA_STREAM_END_ 1
#define LZMA_BUF_ERROR_ 10
#define DEBUGDATA_MAX (256u << 20)

static lzma_buffer_decode_fn lzma_decoder(void)
{
	static lzma_buffer_decode_fn fn;
	static bool tried;
	void *h;

	if (tried)
		return fn;
	tried = true;
	h = dlopen("liblzma.so.5", RTLD_NOW | RTLD_LOCAL);
	if (h)
		fn = (lzma_buffer_decode_fn)dlsym(h, "lzma_stream_buffer_decode");
	if (!fn)
		pr_debug("symbols: no liblzma.so.5: .gnu_debugdata is not read\n");
	return fn;
}

/**
 * pulse_xz__decode - unpack a whole .xz stream
 * @in: the stream
 * @len: its length
 * @out: set to a malloc()ed buffer on success
 * @out_len: set to its length
 *
 * Return: 0, -ENOSYS without liblzma, -EBADMSG for a corrupt stream, -EFBIG
 * past 256 MiB, -ENOMEM.
 */
int pulse_xz__decode(const void *in, size_t len, void **out, size_t *out_len)
{
	lzma_buffer_decode_fn decode = lzma_decoder();
	size_t cap = len * 8 > 4096 ? len * 8 : 4096;

	if (!decode)
		return -ENOSYS;
	for (;;) {
		uint64_t memlimit = UINT64_MAX;
		size_t in_pos = 0, out_pos = 0;
		uint8_t *buf = malloc(cap);
		int ret;

		if (!buf)
			return -ENOMEM;
		ret = decode(&memlimit, 0, NULL, in, &in_pos, len, buf, &out_pos, cap);
		if (ret == LZMA_OK_ || ret == LZMA_STREAM_END_) {
			*out = buf;
			*out_len = out_pos;
			return 0;
		}
		free(buf);
		if (ret != LZMA_BUF_ERROR_)
			return -EBADMSG;
		if (cap >= DEBUGDATA_MAX)
			return -EFBIG;
		cap *= 2;
	}
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
	scn = section_by_name(elf, ".gnu_debugdata", &shdr, NULL);
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
	int fd, rfd = -1, err;
	Elf *elf, *run = NULL, *mini;
	void *image;

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
	mini = open_debugdata(elf, &image);
	err = load_elf(st, elf, run ? run : elf, mini);
	if (mini)
		elf_end(mini);
	free(image);
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
	err = load_elf(st, elf, elf, NULL);
	elf_end(elf);
	free(copy);
	return err;
}

int pulse_symtab__load_vmlinux(struct pulse_symtab *st, const char *path)
{
	int fd, err;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	err = load_elf_syms(st, elf, NULL, true);
	if (err > 0)
		pulse_symtab__fixup(st, false);
out:
	if (elf)
		elf_end(elf);
	close(fd);
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
