/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User stacks from DWARF call frame information (lib/unwind/): a sample
 * recorded with --call-graph dwarf carries the user registers
 * (PERF_SAMPLE_REGS_USER) and a copy of the top of the user stack
 * (PERF_SAMPLE_STACK_USER); the unwinder walks them back frame by frame
 * with each DSO's CFI (.eh_frame, .debug_frame, or a separate debug
 * file's), as perf 6.1 does after the fact.
 *
 * The unwinder knows nothing of threads or sessions: the caller says
 * where an address is mapped through a callback, so one unwinder serves
 * every process, and each DSO's CFI is read once for all of them.
 */
#ifndef PULSE_UNWIND_H
#define PULSE_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct pulse_dso;
struct pulse_unwinder;

/* Where an address of the sampled process is mapped. */
struct pulse_unwind_map {
	uint64_t start;			/* first address of the map */
	uint64_t end;			/* one past the last */
	uint64_t pgoff;			/* file offset of start */
	struct pulse_dso *dso;		/* the file mapped; NULL: anonymous */
};

/*
 * The map holding @addr into @map: 0, or -ENOENT when no map holds it
 * (the unwind stops there).
 */
typedef int (*pulse_unwind_find_map_fn)(void *arg, uint64_t addr, struct pulse_unwind_map *map);

/* One sample's user state, as the sample carries it. */
struct pulse_unwind_sample {
	uint64_t abi;			/* PERF_SAMPLE_REGS_ABI_* of the registers */
	uint64_t regs_mask;		/* the attr's sample_regs_user */
	const void *regs;		/* one u64 per bit of regs_mask, unaligned */
	const void *stack;		/* the stack copy from the sampled sp, unaligned */
	uint64_t stack_size;		/* bytes of it the kernel really copied (dyn_size) */
	pulse_unwind_find_map_fn find_map;
	void *arg;			/* for find_map */
};

struct pulse_unwind_opts {
	const char *symfs;		/* root the DSOs' paths are under (--symfs), or NULL */
	/*
	 * perf's build-id cache (~/.debug), or NULL: where a DSO no longer
	 * at its recorded path is looked for by build-id, as lib/symbols does
	 */
	const char *buildid_dir;
};

/**
 * pulse_unwinder__new - an unwinder with an empty CFI cache
 * @opts: may be NULL
 * Return: 0 or -ENOMEM.
 */
int pulse_unwinder__new(struct pulse_unwinder **out, const struct pulse_unwind_opts *opts);
void pulse_unwinder__delete(struct pulse_unwinder *u);

/*
 * pulse_unwinder__warm - open @dso's file and CFI now rather than at the
 * first unwind through it. Return: 0 or -ENOMEM.
 */
int pulse_unwinder__warm(struct pulse_unwinder *u, const struct pulse_dso *dso);

/**
 * pulse_unwinder__unwind - the user frames of one sample, innermost first
 * @ips: room for @max addresses: [0] the sampled ip, then each caller's,
 *       as perf 6.1 reports them (a caller's return address less one,
 *       unless its frame is a signal frame)
 * @nr: set to the frames found; as many as could be walked before the
 *      stack copy, the maps or the CFI ran out (0 without an ip register,
 *      and 0 without registers or an empty stack copy: perf 6.1 then
 *      unwinds nothing either)
 *
 * May be called from several threads at once.
 * Return: 0, or -ENOMEM (@nr frames are valid even then).
 */
int pulse_unwinder__unwind(struct pulse_unwinder *u, const struct pulse_unwind_sample *s,
			   uint64_t *ips, size_t max, size_t *nr);

#endif
