/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine a perf.data file was recorded on, rebuilt from its side-band
 * records (lib/session/machine.c): threads with their comm, the memory maps
 * they share per process, and the kernel's map. Samples are resolved to a
 * thread, map, DSO and symbol through it, with perf 6.1's semantics:
 *
 *  - threads are keyed by tid; a thread whose pid differs from its tid
 *    shares the maps of its leader (pid, pid);
 *  - COMM sets the comm (a new thread reads ":tid" until then);
 *  - FORK replaces any thread with the child's tid, gives the child the
 *    parent's comm and, for a new process, a copy of the parent's maps
 *    (not for perf's synthesized forks, misc PERF_RECORD_MISC_FORK_EXEC);
 *  - MMAP/MMAP2 cut any overlapped maps and insert the new one; anonymous
 *    executable memory becomes /tmp/perf-PID.map (JIT symbols);
 *  - kernel-mode MMAPs named [kernel.kallsyms]* set the kernel map, whose
 *    addresses are not translated;
 *  - a sample's cpumode picks the kernel maps (level 'k') or its thread's
 *    (level '.'); other modes resolve to nothing (level 'H').
 */
#ifndef PULSE_MACHINE_H
#define PULSE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pulse/cc-cursor.h>
#include <pulse/data.h>
#include <pulse/symbols.h>

struct pulse_map {
	uint64_t start;		/* first address */
	uint64_t end;		/* one past the last */
	uint64_t pgoff;		/* file offset of start */
	struct pulse_dso *dso;	/* owned by the machine's DSO set */
	uint32_t prot;		/* PROT_*; MMAP records: PROT_EXEC unless MMAP_DATA (then 0) */
	uint32_t flags;		/* MMAP2's MAP_* flags; MMAP records: 0 */
	/*
	 * MMAP2's ino as perf 6.1 reads it: the union's bytes, part of the
	 * build-id in a MISC_MMAP_BUILD_ID record; MMAP records: 0
	 */
	uint64_t ino;
	bool identity;		/* addresses are used as they are (kernel, JIT, heap) */
};

/* A process's address space, shared by its threads (refcounted). */
struct pulse_maps {
	int refcnt;		/* threads using it */
	/*
	 * Unique over every maps object and every change to one (a
	 * process-wide counter): what the resolve cache keys on.
	 */
	uint64_t version;
	struct pulse_map *maps;	/* sorted by start, never overlapping */
	size_t nr;		/* maps in use */
	size_t alloc;		/* maps allocated */
};

struct pulse_thread {
	int32_t pid;			/* -1 until known */
	int32_t tid;			/* the key */
	int32_t ppid;			/* parent's tid from FORK, -1 */
	const char *comm;		/* interned in the machine; ":tid" until COMM */
	bool comm_set;			/* a COMM (or a fork from a named parent) was seen */
	bool dead;			/* EXIT seen */
	struct pulse_maps *maps;	/* shared with the process's other threads */
	struct pulse_thread *next;	/* hash chain, or the graveyard list */
};

struct pulse_resolve_slot;
struct pulse_unwinder;
struct pulse_sym_slot;

struct pulse_machine {
	struct pulse_dsos dsos;		/* every DSO met */
	struct pulse_thread **threads;	/* hash by tid */
	size_t nr_buckets;		/* power of two */
	size_t nr_threads;		/* threads in the hash */
	struct pulse_thread *graveyard;	/* replaced threads, still referenced by hists */
	struct pulse_maps kmaps;	/* the kernel's maps */
	struct pulse_dso *kernel_dso;	/* [kernel.kallsyms] */
	struct pulse_resolve_slot *rcache;	/* recent (maps version, ip) -> place */
	struct pulse_sym_slot *scache;		/* recent (dso, addr) -> symbol */
	char **strs;			/* interned comm strings, open addressing */
	size_t nr_strs;			/* strings held */
	size_t strs_size;		/* slots, power of two */
	uint32_t max_stack;		/* frames a callchain keeps (--max-stack) */
	/*
	 * --no-inline (perf's symbol_conf.inline_name off): no inline frames
	 * from pulse_machine__expand_inlines()
	 */
	bool no_inline;
	/*
	 * --inline given: the user frames of the recorded (frame-pointer)
	 * callchain get their inline frames too, which perf 6.1 gives only
	 * to DWARF-unwound frames
	 */
	bool inline_fp;
	struct pulse_inlines *inlines;		/* made on first use */
	struct pulse_cc_cursor inline_scratch;	/* the expanded frames, reused */
	struct pulse_unwinder *unwinder;	/* DWARF user stacks; made on first use */
	uint64_t *unwind_ips;		/* the unwound addresses of the current sample */
	size_t unwind_alloc;		/* room in unwind_ips */
	struct pulse_dso *preload_next;	/* pulse_machine__preload_next()'s place */
	bool preload_done;
};

/**
 * pulse_machine__preload_next - load one more DSO of the recording ahead
 * @dwarf: the recording unwinds user stacks (its DWARF and CFI are loaded too)
 *
 * The next user DSO with a build-id (the BUILD_ID table: the DSOs samples
 * hit) whose symbols are not loaded yet gets its symbols and, with @dwarf,
 * its CFI and (unless m->no_inline) the DWARF its inline frames come from:
 * what the first samples through it would load. For a walk that would
 * wait anyway (pulse_dsos__set_idle()).
 * Return: 1 when a DSO was loaded, 0 when none is left.
 */
int pulse_machine__preload_next(struct pulse_machine *m, bool dwarf);

/* Where a sample's address landed. */
struct pulse_addr_loc {
	struct pulse_thread *thread;		/* never NULL after a successful resolve */
	struct pulse_dso *dso;			/* NULL: no map */
	const struct pulse_symbol *sym;		/* NULL: unresolved */
	uint64_t addr;				/* in the DSO's space; the raw ip without a map */
	uint8_t cpumode;			/* PERF_RECORD_MISC_* cpumode */
	char level;				/* 'k' kernel, '.' user, 'H' other */
};

/**
 * pulse_machine__init - an empty machine
 * @opts: where symbols are looked for; may be NULL
 * Return: 0 or -ENOMEM.
 */
int pulse_machine__init(struct pulse_machine *m, const struct pulse_symbol_opts *opts);
void pulse_machine__exit(struct pulse_machine *m);

/**
 * pulse_machine__process - apply a side-band record
 * @rec: COMM, FORK, EXIT, MMAP or MMAP2 (others are ignored), header.size
 *       bytes
 *
 * Return: 0; -EBADMSG for a record too short for its type; -ENOMEM.
 */
int pulse_machine__process(struct pulse_machine *m, const struct perf_event_header *rec);

/**
 * pulse_machine__findnew_thread - the thread with @tid, created (with the
 * maps of process @pid) when missing
 * Return: a thread owned by the machine, or NULL on -ENOMEM.
 */
struct pulse_thread *pulse_machine__findnew_thread(struct pulse_machine *m, int32_t pid,
						   int32_t tid);

/* The thread with @tid, or NULL. */
struct pulse_thread *pulse_machine__find_thread(struct pulse_machine *m, int32_t tid);

/**
 * pulse_machine__resolve - place a sample address
 * @cpumode: header.misc & PERF_RECORD_MISC_CPUMODE_MASK
 *
 * Loads the DSO's symbols on first use, unless the machine's opts say
 * no_symbols: then only the thread, map and DSO are found (al->sym NULL).
 * Return: 0, or -ENOMEM.
 */
int pulse_machine__resolve(struct pulse_machine *m, int32_t pid, int32_t tid, uint8_t cpumode,
			   uint64_t ip, struct pulse_addr_loc *al);

/* pulse_machine__resolve() in thread @t (pulse_machine__findnew_thread()) */
void pulse_machine__resolve_thread(struct pulse_machine *m, struct pulse_thread *t,
				   uint8_t cpumode, uint64_t ip, struct pulse_addr_loc *al);

/* perf report's default --max-stack (kernel.perf_event_max_stack) */
#define PULSE_MAX_STACK 127

/**
 * pulse_machine__resolve_callchain - a sample's callchain as frames
 * @ips: the sample's callchain, @nr u64s (PERF_CONTEXT_* markers included)
 * @order: callee (as recorded) or caller (reversed)
 * @cur: emptied, then filled with up to m->max_stack frames (PULSE_MAX_STACK
 * unless set after pulse_machine__init())
 *
 * As perf 6.1's thread__resolve_callchain_sample(): each address is
 * resolved in the mode of the context marker before it (user without
 * one); a marker perf does not know leaves the chain empty.
 * Return: 0 or -ENOMEM.
 */
int pulse_machine__resolve_callchain(struct pulse_machine *m, int32_t pid, int32_t tid,
				     const void *ips, uint64_t nr, enum pulse_cc_order order,
				     struct pulse_cc_cursor *cur);

/**
 * pulse_machine__expand_inlines - each frame's inlined functions as frames
 * @t: the sample's thread, whose maps placed the frames (their DSO
 *      addresses are found again there, from the machine's cache)
 * @cur: a resolved chain (each frame's ip, dso, sym and level set)
 * @from, @to: the frames to expand, cur->locs[@from, @to): those a DWARF
 *             unwinder appended (perf 6.1's unwind_entry() calls
 *             append_inlines(); frames from the recorded callchain,
 *             add_callchain_ip(), are never expanded)
 * @order: the order @cur is in
 *
 * A frame in a user DSO whose address the DWARF places in inlined code
 * becomes one frame per function (pulse/inline.h), all at its ip:
 * innermost first in callee order, outermost first in caller order
 * (perf's inline_list__append()). Frames after @to move along. Nothing
 * changes with m->no_inline.
 * Return: 0 or -ENOMEM (then @cur is as it was).
 */
int pulse_machine__expand_inlines(struct pulse_machine *m, struct pulse_thread *t,
				  struct pulse_cc_cursor *cur, size_t from, size_t to,
				  enum pulse_cc_order order);

/**
 * pulse_machine__sample_callchain - a sample's frames, as perf 6.1's
 * thread__resolve_callchain() makes them
 * @attr: the sample's event
 * @order: callee (sampled function first) or caller
 * @cur: emptied, then filled
 *
 * Two parts, each of at most m->max_stack frames: the sample's callchain
 * (pulse_machine__resolve_callchain(), when the event records one), and,
 * when the event records PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER
 * and the sample has registers and a non-empty stack copy, the user frames
 * DWARF unwinding finds (include/pulse/unwind.h; callers' return addresses
 * less one), resolved in user mode. Callee order puts the callchain first,
 * caller order the unwound frames (outermost first). An unwind that stops
 * early (a short stack copy, an address in no map) keeps what it found.
 * Return: 0, -ENOMEM, or -EINVAL for a sample to unwind with max_stack 0
 * (perf's unwinders refuse it: perf script then prints the sample without
 * a callchain, perf report fails).
 */
int pulse_machine__sample_callchain(struct pulse_machine *m, const struct perf_event_attr *attr,
				    const struct pulse_sample *s, enum pulse_cc_order order,
				    struct pulse_cc_cursor *cur);

/**
 * pulse_machine__unwind_sample - the DWARF-unwound user addresses of a
 * sample, innermost first (pulse_machine__sample_callchain()'s second
 * part, unresolved: for a consumer with its own address cache)
 * @ips: set to the machine's buffer, valid until the next call
 * @nr: set to the addresses in it (up to m->max_stack; 0 when the sample
 *      cannot be unwound); a zero address is no frame
 * Return: 0 or -ENOMEM.
 */
int pulse_machine__unwind_sample(struct pulse_machine *m, const struct perf_event_attr *attr,
				 const struct pulse_sample *s, const uint64_t **ips, size_t *nr);

/**
 * pulse_machine__intern - the machine's copy of a string (equal strings
 * give the same pointer); valid until pulse_machine__exit()
 * Return: NULL on -ENOMEM.
 */
const char *pulse_machine__intern(struct pulse_machine *m, const char *s);

/* ---- maps --------------------------------------------------------------- */

/**
 * pulse_maps__insert - insert a map, cutting the maps it overlaps (the
 * parts before and after it stay, as perf's maps__fixup_overlappings())
 * Return: 0 or -ENOMEM.
 */
int pulse_maps__insert(struct pulse_maps *maps, const struct pulse_map *map);

/* The map containing @addr, or NULL; valid until the next insert. */
const struct pulse_map *pulse_maps__find(const struct pulse_maps *maps, uint64_t addr);

/* Translate an address into its map's DSO space (perf's map__map_ip). */
static inline uint64_t pulse_map__map_ip(const struct pulse_map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

#endif
