/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols: per-DSO symbol tables (lib/symbols/symtab.c, built through
 * perf's symbol tree in symtree.c), filled from ELF files (symtab-elf.c,
 * kmodule.c), from kallsyms and from perf-PID.map JIT maps (kallsyms.c),
 * and the DSO objects that own them (lib/symbols/dso.c).
 *
 * Addresses follow perf: a user DSO's symbols live in file-offset space (an
 * ELF st_value minus p_vaddr - p_offset of its PT_LOAD), which is what a
 * sample address becomes through its map (ip - start + pgoff). Kernel and
 * perf-PID.map symbols are absolute addresses.
 *
 * A table is built by __add() in any order and closed by __fixup(), which
 * sorts it, gives zero-sized symbols the room up to the next one and keeps
 * one symbol per address, choosing among aliases as perf's
 * choose_best_symbol() does. After that the array never moves: symbol
 * pointers stay valid until the table is released.
 */
#ifndef PULSE_SYMBOLS_H
#define PULSE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pulse_symbol {
	uint64_t start;		/* first address (see above for the space) */
	uint64_t end;		/* one past the last address */
	const char *name;	/* demangled; owned by the table */
	uint32_t namelen;	/* strlen(name): report column widths */
	uint8_t binding;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	uint8_t type;		/* STT_FUNC, STT_OBJECT, STT_NOTYPE, ... */
	/*
	 * 1: a function inlined at this place (perf 6.1's symbol->inlined): a
	 * frame made from DWARF inline information, printed "NAME (inlined)";
	 * start and end are those of the symbol it was inlined into
	 */
	uint8_t inlined;
};

struct pulse_symtab {
	struct pulse_symbol *syms;	/* sorted by start after __fixup() */
	size_t nr;			/* symbols in use */
	size_t alloc;			/* symbols allocated */
	char **chunks;			/* name storage, freed with the table */
	size_t nr_chunks;		/* chunks in use */
	char *cursor;			/* next free byte of the last chunk */
	size_t chunk_left;		/* bytes free from cursor */
	uint64_t *starts;		/* syms[i].start, dense: the search's first level */
	uint64_t *index;		/* starts[i << PULSE_SYMTAB_INDEX_SHIFT]: its root */
	bool no_demangle;		/* ELF names kept as they are: set before a load */
	bool demangle_full;		/* with parameters: pulse_demangle_full() */
	size_t nr_indexed;		/* nr when starts/index were built; else unused */
};

/* One index entry per 2^6 symbols: a kernel's 120k fit in 16 KiB. */
#define PULSE_SYMTAB_INDEX_SHIFT 6

/*
 * pulse_symtab__init - an empty table; nothing is allocated before the
 * first __add(). Return: 0. Release with pulse_symtab__exit().
 */
int pulse_symtab__init(struct pulse_symtab *st);
void pulse_symtab__exit(struct pulse_symtab *st);

/**
 * pulse_symtab__add - append a symbol (any order; before __fixup())
 * @size: 0 for a symbol without a size (its end is fixed up later)
 * @name: copied
 *
 * Return: 0 or -ENOMEM.
 */
int pulse_symtab__add(struct pulse_symtab *st, uint64_t start, uint64_t size, uint8_t binding,
		      uint8_t type, const char *name);

/**
 * pulse_symtab__fixup - sort, size and de-alias the table as perf does
 * @kallsyms: kernel rules for the last symbol before a module's
 *
 * ELF tables get perf's symbols__fixup_end() then symbols__fixup_duplicate();
 * kallsyms tables the same with the kallsyms flag.
 */
void pulse_symtab__fixup(struct pulse_symtab *st, bool kallsyms);

/* Sort by start only, aliases in insertion order (perf maps are not fixed up). */
void pulse_symtab__sort(struct pulse_symtab *st);

/**
 * pulse_symtab__find - the symbol covering @addr
 * Return: a pointer valid until pulse_symtab__exit(), or NULL.
 */
const struct pulse_symbol *pulse_symtab__find(const struct pulse_symtab *st, uint64_t addr);

/**
 * pulse_symtab__load_elf - read an ELF file's function and object symbols
 * @syms_path: the file whose .symtab (else .dynsym) is read
 * @runtime_path: the file whose program headers place the symbols (the
 *                binary that was mapped); NULL: @syms_path
 *
 * Symbols are rebased to file offsets through the PT_LOAD that contains
 * them, demangled as perf 6.1 does by default (names without parameters),
 * and fixed up.
 *
 * Return: number of symbols read, or -errno (-ENOENT no such file,
 * -ENOEXEC not ELF, -ENODATA no symbol table).
 */
int pulse_symtab__load_elf(struct pulse_symtab *st, const char *syms_path,
			   const char *runtime_path);

/*
 * A binary with only .dynsym and a .gnu_debugdata section (MiniDebugInfo)
 * also gets the .symtab of the xz-compressed ELF in it (liblzma.so.5 is
 * loaded for that at run time; without it those symbols are missing).
 */

/**
 * pulse_symtab__load_vmlinux - a kernel image's symbols, at their absolute
 * addresses (-k/--vmlinux), fixed up as an ELF table
 * Return: symbols read, or -errno as pulse_symtab__load_elf().
 */
int pulse_symtab__load_vmlinux(struct pulse_symtab *st, const char *path);

/* Unpack an .xz stream whole (see lib/symbols/symtab.c). Return: 0 or -errno. */
int pulse_xz__decode(const void *in, size_t len, void **out, size_t *out_len);

/* As pulse_symtab__load_elf() on an ELF image in memory (the vDSO). */
int pulse_symtab__load_elf_mem(struct pulse_symtab *st, const void *buf, size_t len);

/**
 * pulse_symtab__load_kallsyms - read /proc/kallsyms-format text
 *
 * Keeps the T, W, D and B symbols perf keeps; module symbols ("name\t[mod]")
 * are kept with the module suffix cut. Return: symbols read or -errno.
 */
int pulse_symtab__load_kallsyms(struct pulse_symtab *st, const char *path);

/**
 * pulse_kallsyms__text_range - the kernel image's text in a kallsyms file,
 * as perf record's kernel MMAP spans it: from _text (_stext without one) up
 * to _etext (~0 without one)
 * Return: 0; -ENOENT without _text and _stext; -EACCES when the addresses
 * are hidden (kptr_restrict); other -errno.
 */
int pulse_kallsyms__text_range(const char *path, uint64_t *start, uint64_t *end);

/*
 * pulse_kallsyms__text_range() of the running kernel's /proc/kallsyms,
 * kept in @cache_dir per boot (/proc/sys/kernel/random/boot_id): the
 * kernel formats 100 K lines to reach _etext, tens of ms that a flight
 * recorder would otherwise pay at each start. NULL @cache_dir: no cache.
 */
int pulse_kallsyms__text_range_cached(const char *path, const char *cache_dir, uint64_t *start,
				      uint64_t *end);

/**
 * pulse_symtab__load_kallsyms_module - a module's symbols from
 * /proc/kallsyms-format text: the lines that end "\t[@module]", at their
 * addresses less @base (the module's load address), as perf splits them
 * off the kernel's. Return: symbols read or -errno.
 */
int pulse_symtab__load_kallsyms_module(struct pulse_symtab *st, const char *path,
				       const char *module, uint64_t base);

/**
 * pulse_kmod__name - perf's name of a kernel module's DSO: "[ath9k]" for
 * .../ath9k.ko (.gz, .xz), '-' as '_'; a name in brackets as it is.
 * Return: a new string (caller frees), or NULL.
 */
char *pulse_kmod__name(const char *path);

/**
 * pulse_symtab__load_kmodule - a module's symbols from its .ko (ET_REL)
 * @text_off: set to the file offset of its .text, which addresses in the
 *            module are relative to
 * Return: symbols read, or -errno.
 */
int pulse_symtab__load_kmodule(struct pulse_symtab *st, const char *path, uint64_t *text_off);

/**
 * pulse_symtab__load_perf_map - read a JIT map ("START SIZE name" in hex)
 * Return: symbols read or -errno.
 */
int pulse_symtab__load_perf_map(struct pulse_symtab *st, const char *path);

/**
 * pulse_demangle - a C++ or Rust name as perf 6.1 prints it by default
 * (cplus_demangle without DMGL_PARAMS, so no parameter list)
 * Return: a malloc()ed string the caller frees, or NULL when @name is not
 * mangled.
 */
char *pulse_demangle(const char *name);
/* As perf 6.1 demangles with -v: parameters and qualifiers too */
char *pulse_demangle_full(const char *name);

/* ---- DSOs --------------------------------------------------------------- */

enum pulse_dso_kind {
	PULSE_DSO_USER,		/* an ELF file mapped by a process */
	PULSE_DSO_KERNEL,	/* [kernel.kallsyms] */
	PULSE_DSO_VDSO,		/* [vdso]: read from this process's own vDSO */
	PULSE_DSO_PERF_MAP,	/* /tmp/perf-PID.map for anonymous executable memory */
	PULSE_DSO_NOSYMS,	/* [heap], [stack], anonymous data: no symbols */
	PULSE_DSO_MODULE,	/* a kernel module, "[name]": kallsyms or its .ko */
};

struct pulse_dso {
	char *long_name;		/* the path as mapped */
	char *short_name;		/* basename, "[JIT] tid N", "[kernel.kallsyms]" */
	uint32_t short_name_len;	/* report column widths */
	uint64_t short_name_hash;	/* histogram keys: equal names, equal hashes */
	enum pulse_dso_kind kind;	/* how symbols are found */
	bool has_build_id;		/* from the BUILD_ID feature or an MMAP2 */
	uint8_t build_id_size;		/* valid bytes of build_id */
	uint8_t build_id[20];		/* the GNU build-id */
	/*
	 * The kernel's: its text as the recording's kernel MMAP maps it. With
	 * no build-id recorded, it is what shows the running kernel is the
	 * recorded one (set by the machine).
	 */
	bool has_text_range;
	uint64_t text_start, text_end;	/* a module's: where it is loaded */
	/* the kernel's: 0 not yet known, 1 the running kernel, -1 another */
	signed char running_verdict;
	/*
	 * A module whose symbols came from its .ko: the file offset of .text,
	 * which an address in the module is taken from (perf's map->pgoff).
	 */
	uint64_t kmod_text_off;
	/*
	 * A module first met in the BUILD_ID feature: perf's DSO is then
	 * named by its path, which script lines print, not "[name]".
	 */
	bool kmod_named_by_path;
	bool loaded;			/* a symbol load was attempted */
	bool hit;			/* a sample resolved to it */
	struct pulse_symtab symtab;	/* valid once loaded */
	struct pulse_dso *next;		/* hash chain in pulse_dsos */
	struct pulse_dso *order_next;	/* the next DSO created (pulse_dsos__for_each()) */
};

/* Where symbols are looked for; NULL fields mean "do not look there". */
struct pulse_symbol_opts {
	size_t sz;			/* sizeof(struct pulse_symbol_opts) */
	const char *kallsyms;		/* the kernel's symbols, e.g. "/proc/kallsyms" */
	const char *debug_dir;		/* "/usr/lib/debug": separate debug files */
	const char *buildid_dir;	/* "$HOME/.debug": perf's build-id cache */
	bool no_vdso;			/* don't read this process's vDSO for [vdso] */
	/*
	 * The kernel's symbols from a vmlinux (-k/--vmlinux), instead of
	 * kallsyms; checked against a recorded kernel build-id.
	 */
	const char *vmlinux;
	/*
	 * @kallsyms was named by the user (--kallsyms): taken as it is. Else
	 * it is the running kernel's, used only when the recorded kernel
	 * build-id (if any) is the running kernel's (/sys/kernel/notes).
	 */
	bool kallsyms_given;
	/*
	 * --symfs: the root the recorded paths are looked up under, as perf's
	 * symbol_conf.symfs (DIR/<recorded path>, DIR/usr/lib/debug/...). It
	 * also stops the local kernel symbols (/proc/kallsyms, the build-id
	 * cache's copy) and this process's vDSO from being used: the files
	 * under DIR are all there is. NULL, "" or a path to / mean none.
	 */
	const char *symfs;
	/*
	 * DSOs are only named and placed, never loaded: no symbol or build-id
	 * file is read (pulse record's per-output machine, which wants to
	 * know which DSOs samples hit and nothing more).
	 */
	bool no_symbols;
	bool no_demangle;		/* ELF symbol names as they are (--no-demangle) */
	bool demangle_full;		/* with parameters (perf's -v) */
};

struct pulse_dsos {
	struct pulse_dso **buckets;	/* hash of long names */
	size_t nr_buckets;		/* power of two */
	size_t nr;			/* DSOs held */
	/*
	 * Every DSO in the order it was created (through order_next): the
	 * order perf lists the DSOs of a recording in (BUILD_ID), which a
	 * hash does not keep.
	 */
	struct pulse_dso *first, *last;
	struct pulse_symbol_opts opts;	/* copied, strings included */
	struct pulse_kallsyms_preload *preload;	/* kallsyms-preload.c's thread */
	/*
	 * Work the caller can do while waiting for that thread: one piece a
	 * call, > 0 while there may be more (pulse_dsos__set_idle())
	 */
	int (*idle)(void *arg);
	void *idle_arg;
};

/*
 * pulse_dsos__set_idle - what to do instead of waiting for kallsyms
 *
 * The first kernel symbol looked up while the running kernel's kallsyms is
 * still read on its helper thread would wait for it: @fn is called instead,
 * again and again while it returns > 0 and the read is not over (a piece of
 * work the caller will need soon: another DSO's symbols, say). NULL: wait.
 */
void pulse_dsos__set_idle(struct pulse_dsos *dsos, int (*fn)(void *arg), void *arg);

/**
 * pulse_dsos__for_each - iterate over the DSOs of @dsos in creation order
 * @dso: a struct pulse_dso *, the cursor
 * @dsos: the set
 *
 * DSOs created during the walk are met too (they are appended).
 */
#define pulse_dsos__for_each(dso, dsos) \
	for ((dso) = (dsos)->first; (dso); (dso) = (dso)->order_next)

/**
 * pulse_dsos__init - an empty DSO set
 * @opts: may be NULL (no kallsyms, no debug dirs)
 * Return: 0 or -ENOMEM.
 */
int pulse_dsos__init(struct pulse_dsos *dsos, const struct pulse_symbol_opts *opts);
void pulse_dsos__exit(struct pulse_dsos *dsos);

/**
 * pulse_dsos__preload_kernel - start reading the kernel's kallsyms ahead
 * @dsos: the set, its options final
 *
 * Where the kernel DSO's symbols may come from @dsos->opts.kallsyms (no
 * vmlinux, symbols wanted), a thread reads that file now into a table the
 * kernel DSO's pulse_dso__load() takes, waiting for it only then; the
 * symbols are those the load would read itself. Nothing else changes:
 * an unused table is dropped by pulse_dsos__exit() (the thread stops early).
 *
 * Return: 0 (also when nothing is to be read), or -errno (no thread: the
 * load reads the file itself).
 */
int pulse_dsos__preload_kernel(struct pulse_dsos *dsos);

/**
 * pulse_dsos__findnew - the DSO of a mapped path, created on first use
 * @kind: used when creating it
 * Return: a DSO owned by @dsos, or NULL on -ENOMEM.
 */
struct pulse_dso *pulse_dsos__findnew(struct pulse_dsos *dsos, const char *long_name,
				      enum pulse_dso_kind kind);

/* The DSO of a path, or NULL. */
struct pulse_dso *pulse_dsos__find(const struct pulse_dsos *dsos, const char *long_name);

/* Record a build-id (BUILD_ID feature); a DSO that does not exist yet is created. */
int pulse_dsos__set_build_id(struct pulse_dsos *dsos, const char *long_name,
			     enum pulse_dso_kind kind, const uint8_t *id, size_t size);

/**
 * pulse_dso__find_symbol - resolve an address in the DSO's space, loading
 * its symbols on first use (from the build-id cache, debug files, the file
 * itself, kallsyms or a perf map, in perf's order; nothing is read with
 * opts no_symbols)
 * Return: borrowed symbol, or NULL.
 */
const struct pulse_symbol *pulse_dso__find_symbol(struct pulse_dsos *dsos, struct pulse_dso *dso,
						  uint64_t addr);

/*
 * Load the DSO's symbols now (idempotent; none with opts no_symbols).
 * Return: symbols or -errno.
 */
int pulse_dso__load(struct pulse_dsos *dsos, struct pulse_dso *dso);

#endif
