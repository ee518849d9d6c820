/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample's callchain resolved to frames (lib/session/cc-cursor.c): what
 * the machine fills (pulse_machine__resolve_callchain()) and the
 * histograms merge into their callchain trees (include/pulse/callchain.h).
 * It lives with the session, the lower of the two, so that the session
 * and the symbols include nothing of the histograms.
 */
#ifndef PULSE_CC_CURSOR_H
#define PULSE_CC_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <pulse/symbols.h>

/* The order of a chain's frames (perf's callchain_param.order). */
enum pulse_cc_order {
	PULSE_CC_CALLEE,	/* sampled function first */
	PULSE_CC_CALLER,	/* outermost caller first */
};

/* One resolved frame. */
struct pulse_cc_loc {
	uint64_t ip;				/* the address in the callchain */
	struct pulse_dso *dso;			/* NULL: no map */
	const struct pulse_symbol *sym;		/* NULL: unresolved */
	uint64_t addr;				/* in the DSO's space; @ip without a map */
	char level;				/* 'k', '.'; 0 without a map */
	uint8_t cpumode;			/* PERF_RECORD_MISC_* it was resolved in */
	/*
	 * pulse_cc_loc__hash() of the frame, made where it was resolved (0:
	 * not made): aggregation hashes millions of frames, and reading
	 * each one's symbol again costs a cache miss
	 */
	uint32_t hash;
};

/*
 * A frame's identity as perf's symbol sort key sees it: the DSO's short
 * name and the symbol's range, or the address without a symbol. An
 * inlined frame has the range of the symbol it is in: its name tells it
 * apart (perf's _sort__sym_cmp() compares inlined symbols' names first).
 */
static inline uint32_t pulse_cc_loc__hash(const struct pulse_dso *dso,
					  const struct pulse_symbol *sym, uint64_t ip)
{
	uint64_t v = ip * 0x9e3779b97f4a7c15ULL;

	if (sym) {
		v = (dso ? dso->short_name_hash : 0) ^ sym->start * 0x9e3779b97f4a7c15ULL ^
		    sym->end * 0xc2b2ae3d27d4eb4fULL;
		if (sym->inlined)
			for (const char *c = sym->name; *c; c++)
				v = (v ^ (unsigned char)*c) * 0x100000001b3ULL;
	}
	v ^= v >> 31;
	v *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(v ^ v >> 32);
}

/* A sample's frames in the order chains are built (param order). */
struct pulse_cc_cursor {
	struct pulse_cc_loc *locs;
	size_t nr;
	size_t alloc;
};

/*
 * A raw callchain's addresses with the mode each is in: the mode of the
 * PERF_CONTEXT_* marker before it, user without one (perf 6.1's walk in
 * thread__resolve_callchain_sample()).
 */
struct pulse_cc_iter {
	const void *ips;	/* u64s, unaligned */
	uint64_t nr;
	uint64_t i;		/* the next to read */
	uint8_t cpumode;	/* PERF_RECORD_MISC_* of the last address returned */
};

static inline void pulse_cc_iter__init(struct pulse_cc_iter *it, const void *ips, uint64_t nr)
{
	it->ips = ips;
	it->nr = ips ? nr : 0;
	it->i = 0;
	it->cpumode = 3;	/* PERF_RECORD_MISC_USER */
}

/**
 * pulse_cc_iter__next - the next address (not a marker) into @ip, its mode
 * in it->cpumode
 * Return: 1, 0 at the end, -EINVAL at a marker perf does not know (perf
 * then drops the chain).
 */
int pulse_cc_iter__next(struct pulse_cc_iter *it, uint64_t *ip);

/* The PERF_RECORD_MISC_* mode a context marker switches to; -EINVAL for others. */
int pulse_cc_context_mode(uint64_t marker);

/**
 * pulse_cc_cursor__append - add a frame after the others
 * Return: 0 or -ENOMEM.
 */
int pulse_cc_cursor__append(struct pulse_cc_cursor *c, const struct pulse_cc_loc *loc);

/* Free the frames; @c is empty after, ready for reuse. */
void pulse_cc_cursor__exit(struct pulse_cc_cursor *c);

#endif
