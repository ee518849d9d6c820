/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to lib/unwind: each DSO's CFI, opened once and shared by every
 * process and sample (dso-cfi.c), the rules found for one pc in a form that
 * outlives libdw's Dwarf_Frame (cached per DSO), and the DWARF expression
 * evaluator the rules need (expr.c).
 */
#ifndef PULSE_UNWIND_INT_H
#define PULSE_UNWIND_INT_H

#include <elfutils/libdw.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <pulse/unwind.h>

/* DWARF register numbers of x86_64 the unwinder tracks: rax..r15, then rip */
#define UNW_NREGS	17
#define UNW_RBP		6
#define UNW_RSP		7
#define UNW_RIP		16

/* How a register (or the CFA) of the caller is found, from the CFI row. */
enum unw_how {
	UNW_UNDEF,	/* lost (call-clobbered, or the end of the stack for the RA) */
	UNW_SAME,	/* unchanged from this frame */
	UNW_AT_CFA,	/* at memory CFA + off */
	UNW_VAL_CFA,	/* is CFA + off */
	UNW_REG,	/* is register reg + off (the usual CFA rule) */
	UNW_EXPR,	/* at the address the expression yields */
	UNW_VAL_EXPR,	/* is the value the expression yields */
};

struct unw_rule {
	uint8_t how;		/* enum unw_how */
	uint8_t reg;		/* UNW_REG: the DWARF register */
	uint16_t nops;		/* UNW_*EXPR: operations at ops */
	int64_t off;		/* UNW_AT_CFA, UNW_VAL_CFA, UNW_REG */
	const Dwarf_Op *ops;	/* UNW_*EXPR: a copy owned by the struct unw_row */
};

/* The CFI row at one pc of a DSO: what is needed to step out of it. */
struct unw_row {
	uint64_t pc;			/* the DSO address it was looked up at */
	bool signal;			/* the FDE is a signal frame's ('S') */
	uint8_t ra;			/* the return address column */
	struct unw_rule cfa;		/* UNW_REG, UNW_VAL_EXPR or UNW_UNDEF */
	struct unw_rule regs[UNW_NREGS];	/* DWARF registers 0..16 */
	uint32_t moved;			/* bit n: regs[n] is neither UNDEF nor SAME */
	Dwarf_Op ops[];			/* the expressions' copies */
};

/* One generation of a DSO's pc -> row table; the old ones are kept until the end. */
struct unw_rows {
	size_t mask;			/* slots - 1, a power of two less one */
	struct unw_row **rows;		/* the slots */
	uint64_t *keys;			/* pc of each slot */
	struct unw_rows *older;		/* the table it replaced */
};

/* A DSO's file and CFI; created on first use, never freed before the unwinder. */
struct unw_dso {
	const struct pulse_dso *key;	/* the caller's DSO */
	struct unw_dso *next;		/* hash chain of the unwinder's registry */
	bool ok;			/* the file is open and an ELF file */
	int fd;				/* the file under symfs, -1 if none */
	Elf *elf;			/* libelf's view of it */
	const uint8_t *raw;		/* its bytes (libelf's mapping, or image) */
	void *image;			/* [vdso]: this process's vDSO, copied */
	size_t raw_size;		/* how many */
	/* PT_LOAD segments: file offsets to the DSO's addresses */
	struct { uint64_t off, filesz, vaddr; } load[16];
	unsigned int nr_load;		/* used entries of load[] */
	Dwarf_CFI *cfi;			/* .eh_frame (with .eh_frame_hdr) or .debug_frame */
	Dwarf *dbg;			/* the file holding .debug_frame, when that is used */
	Elf *dbg_elf;			/* the separate debug file, when that is used */
	int dbg_fd;			/* its fd, or -1 */
	/*
	 * pc -> row, open addressing. Readers take no lock: a table is
	 * published whole (release), a slot's key is written before its row
	 * (release), rows and tables are never changed or freed before the
	 * unwinder is; writers (a miss) take @lock. NULL row: an empty slot;
	 * &unw_noinfo: no FDE there.
	 */
	pthread_mutex_t lock;
	struct unw_rows *table;		/* the current table */
	size_t nr;			/* slots used */
};

extern struct unw_row unw_noinfo;

/* The rows cached per DSO at most: the code a profile hits, not a fuzzer's noise. */
#define UNW_ROWS_MAX	(1u << 16)

/* dso-cfi.c */
int unw_dso__open(struct unw_dso *d, const struct pulse_dso *dso, const char *symfs,
		  const char *buildid_dir);
void unw_dso__close(struct unw_dso *d);
/* the DSO address of a process address inside @map */
uint64_t unw_dso__addr(const struct unw_dso *d, const struct pulse_unwind_map *map, uint64_t addr);
/*
 * The row at DSO address @pc: a cached or new one, &unw_noinfo when no FDE
 * covers it, NULL on -ENOMEM. A row not cached (the cache is full) is also
 * put in *@own, for the caller to free after use.
 */
const struct unw_row *unw_dso__row(struct unw_dso *d, uint64_t pc, struct unw_row **own);

/* expr.c: the state an expression reads */
struct unw_regs {
	uint64_t val[UNW_NREGS];	/* register values */
	uint32_t valid;			/* bit n: val[n] is known */
};

typedef int (*unw_read_fn)(void *arg, uint64_t addr, uint64_t *val);

/*
 * Evaluate @ops[@nops] over @regs, with DW_OP_call_frame_cfa = @cfa and
 * memory read through @rd. Return: 0 and *@out, or -EINVAL.
 */
int unw_expr__eval(const Dwarf_Op *ops, size_t nops, const struct unw_regs *regs, uint64_t cfa,
		   unw_read_fn rd, void *arg, uint64_t *out);

#endif
