/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The off-CPU bookkeeping's state, shared by offcpu.c (accounting, the
 * samples it writes) and records.c (decoding sched_switch records).
 */
#ifndef PULSE_OFFCPU_INTERNAL_H
#define PULSE_OFFCPU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <pulse/offcpu.h>

/*
 * An open-addressing index from a 64-bit hash to entry numbers of an
 * array kept elsewhere; the hashes are kept here by entry number, so it
 * can grow without asking the owner.
 */
struct oc_index {
	__u32 *slots;		/* [cap]: entry number + 1, 0 = empty */
	size_t cap;		/* a power of 2, or 0 */
	__u64 *hashes;		/* [nr] the hash of each entry */
	size_t nr;		/* entries indexed */
	size_t hashes_cap;
};

/* One task seen switching: an interval it may have open. */
struct oc_task {
	__u32 pid, tid;
	bool pending;		/* it left in a counted state and has not come back */
	__u64 t_out;		/* when it left */
	__u64 state;		/* prev_state then */
	__u32 stack;		/* the stack it left in */
	/*
	 * A switch-in that found no open interval and may end one whose
	 * switch-out is still to come (read late from another ring); 0: none
	 */
	__u64 early_in;
};

/* One distinct callchain, its ips in the pool. */
struct oc_stack {
	size_t off;		/* first ip in oc->pool */
	__u32 nr;
};

/* What perf's BPF map holds: the total for one (pid, tid, stack, state). */
struct oc_entry {
	__u32 pid, tid;
	__u32 stack;
	__u64 state;
	__u64 total;		/* ns blocked */
};

/* A queued record, until the pass is sorted. */
struct oc_event {
	__u64 time;
	__u64 state;		/* switch-out: prev_state */
	__u32 pid, tid;
	__u32 stack;		/* switch-out: the interned callchain */
	__u32 seq;		/* arrival order, to keep the sort stable */
	bool out;		/* a switch-out (else a switch-in) */
};

struct pulse_offcpu {
	struct perf_event_attr attr;	/* the sched_switch event's */
	unsigned int state_offset, state_size;
	__u64 states;			/* prev_state bits that count */
	__u32 exclude_pid;		/* switches not counted; 0: none */
	struct oc_task *tasks;		/* by first switch */
	size_t nr_tasks, tasks_cap;
	struct oc_index task_ix;	/* tid -> tasks[] */
	struct oc_stack *stacks;
	size_t nr_stacks, stacks_cap;
	struct oc_index stack_ix;	/* callchain -> stacks[] */
	__u64 *pool;			/* every stack's ips, end to end */
	size_t pool_len, pool_cap;
	struct oc_entry *entries;	/* in the order first seen: the samples */
	size_t nr_entries, entries_cap;
	struct oc_index entry_ix;	/* (pid, tid, stack, state) -> entries[] */
	struct oc_event *queue;		/* this pass's records */
	size_t nr_queue, queue_cap;
	__u32 seq;
	struct pulse_offcpu_stats st;
};

/* Grow @*p (of @*cap elements of @size) to hold @need: 0 or -ENOMEM. */
int oc_reserve(void **p, size_t *cap, size_t need, size_t size);

#endif
