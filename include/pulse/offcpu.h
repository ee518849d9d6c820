/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU time (lib/offcpu/): how long tasks were blocked, and in which
 * stack, made from the sched:sched_switch records a recorder sees, written
 * as perf 6.1's "offcpu-time" samples (tools/perf/util/bpf_off_cpu.c).
 *
 * perf 6.1 needs BPF for this; pulse needs two kinds of records from one
 * task-bound (or CPU-wide) sched:sched_switch event opened with
 * attr.context_switch:
 *  - its SAMPLE, taken when a task switches out (the tracepoint runs in
 *    the context of the task leaving): TID, TIME, CALLCHAIN (the stack the
 *    task blocked in) and RAW, whose prev_state says why it left;
 *  - the PERF_RECORD_SWITCH (or SWITCH_CPU_WIDE) records without the
 *    SWITCH_OUT bit, whose sample_id names the task switching in and when:
 *    a task-bound tracepoint never fires for a task coming in (the
 *    tracepoint runs in the context of the one leaving), so the sample
 *    alone cannot end an interval.
 * An interval opens when a task leaves in one of the counted states
 * (TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE, as perf's BPF program) and
 * closes when it comes back; it is added to the total of its (pid, tid,
 * stack, state), as perf's BPF map aggregates. A task that leaves running
 * (preempted), stopped or dead opens nothing (a dying task's last switch is
 * TASK_DEAD); a task still blocked when the recording ends is not counted,
 * as in perf (its interval has no end).
 *
 * Records from several rings arrive out of order; each pass is sorted by
 * time (pulse_offcpu__flush()) and a switch-in seen before the switch-out
 * it ends (a record still being written in another ring when its ring was
 * read) is kept until that switch-out comes.
 *
 *	pulse_offcpu__new(&oc, &opts);
 *	pulse_offcpu__add_record(oc, rec, size);	(each sched_switch record)
 *	pulse_offcpu__flush(oc);			(after each pass)
 *	pulse_offcpu__write(oc, &attr, id, emit, arg);	(at the end)
 *	pulse_offcpu__delete(oc);
 */
#ifndef PULSE_OFFCPU_H
#define PULSE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <linux/types.h>

/* perf 6.1's name of the event (util/off_cpu.h OFFCPU_EVENT) */
#define PULSE_OFFCPU_EVENT "offcpu-time"

/* perf 6.1's OFFCPU_SAMPLE_TYPES: the offcpu-time evsel's sample_type is masked with it */
#define PULSE_OFFCPU_SAMPLE_TYPES                                                       \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | \
	 PERF_SAMPLE_CGROUP)

/**
 * pulse_offcpu__event_attr - the offcpu-time event as perf 6.1's
 * off_cpu_config() makes it: a software BPF_OUTPUT event, freq 1, period
 * 1, sample_type CALLCHAIN (the recorder's config adds its bits; the
 * samples written keep those of PULSE_OFFCPU_SAMPLE_TYPES)
 * @attr: its type, config, freq, sample_period and sample_type are set;
 *	the other fields are left as they are
 */
void pulse_offcpu__event_attr(struct perf_event_attr *attr);

/*
 * sched_switch's prev_state as the tracepoint reports it (the kernel's
 * TASK_REPORT bits: __trace_sched_switch_state()): S and D count by default
 */
#define PULSE_OFFCPU_STATE_S 0x1	/* TASK_INTERRUPTIBLE */
#define PULSE_OFFCPU_STATE_D 0x2	/* TASK_UNINTERRUPTIBLE */

struct pulse_offcpu_opts {
	size_t sz;			/* sizeof(struct pulse_offcpu_opts) */
	/* the sched_switch event's attr: how its records are laid out (copied) */
	const struct perf_event_attr *attr;
	/* prev_state in its RAW data (from the tracepoint's format file) */
	unsigned int state_offset;
	unsigned int state_size;	/* 1, 2, 4 or 8 */
	__u64 states;			/* prev_state bits that count; 0: S|D */
	/*
	 * A process whose switches are left out (the recorder's own: under
	 * -a its waits for the rings are not the workload's); 0: none (pid 0
	 * is the idle task, which never blocks)
	 */
	__u32 exclude_pid;
};

struct pulse_offcpu;

/* What the bookkeeping saw, for tests and the summary. */
struct pulse_offcpu_stats {
	__u64 switch_out;		/* switch-out samples taken in */
	__u64 switch_in;		/* switch-in records taken in */
	__u64 intervals;		/* blocked intervals closed */
	__u64 total_ns;			/* their sum */
	__u64 entries;			/* (pid, tid, stack, state) totals: samples to write */
	__u64 stacks;			/* distinct callchains */
	__u64 bad;			/* records too short for their attr, skipped */
	__u64 lost;			/* events the kernel dropped (LOST records): intervals missed */
	__u64 lost_chunks;		/* LOST records */
};

/**
 * pulse_offcpu__new - empty bookkeeping
 * @out: set to the object, NULL on failure
 * @opts: the sched_switch layout; state_size must be 1, 2, 4 or 8
 *
 * Return: 0, -EINVAL (bad opts, an attr without TID and TIME), -ENOMEM.
 * Free it with pulse_offcpu__delete().
 */
int pulse_offcpu__new(struct pulse_offcpu **out, const struct pulse_offcpu_opts *opts);

/* Free @oc (NULL is a no-op). */
void pulse_offcpu__delete(struct pulse_offcpu *oc);

/**
 * pulse_offcpu__add_record - take one record of the sched_switch event's ring
 * @rec: the record, from its perf_event_header (need not be aligned)
 * @size: bytes at @rec
 *
 * SAMPLE (a switch-out) and SWITCH/SWITCH_CPU_WIDE without SWITCH_OUT (a
 * switch-in) are queued until pulse_offcpu__flush(); LOST records are
 * counted; other records are ignored. A record shorter than its header or its attr's fields is
 * counted as bad and skipped.
 *
 * Return: 0 or -ENOMEM.
 */
int pulse_offcpu__add_record(struct pulse_offcpu *oc, const void *rec, size_t size);

/*
 * The two events the records stand for, for callers (and tests) that
 * decoded them already: a switch-out of @tid in @state with the callchain
 * @ips[@nr] (PERF_CONTEXT_* markers included), and a switch-in.
 * Queued as add_record's. Return: 0 or -ENOMEM.
 */
int pulse_offcpu__switch_out(struct pulse_offcpu *oc, __u32 pid, __u32 tid, __u64 time,
			     __u64 state, const __u64 *ips, __u64 nr);
int pulse_offcpu__switch_in(struct pulse_offcpu *oc, __u32 pid, __u32 tid, __u64 time);

/**
 * pulse_offcpu__flush - sort what was queued by time and account for it
 *
 * Call it after each pass over the rings (the records of one pass may come
 * from several rings in any order) and before pulse_offcpu__write().
 * Return: 0 or -ENOMEM.
 */
int pulse_offcpu__flush(struct pulse_offcpu *oc);

/* Counters so far (pulse_offcpu__flush() first for the queued ones). */
void pulse_offcpu__stats(const struct pulse_offcpu *oc, struct pulse_offcpu_stats *st);

/**
 * pulse_offcpu__write - the totals as perf 6.1's offcpu-time samples
 * @attr: the offcpu-time event's attr: its sample_type picks the fields
 *	(only those of PULSE_OFFCPU_SAMPLE_TYPES)
 * @id: its id, for IDENTIFIER and ID
 * @emit: called with each SAMPLE record (8-byte aligned, valid during the
 *	call); a non-zero return stops the walk and is returned
 *
 * One sample per (pid, tid, stack, state), in the order they were first
 * seen, as perf's off_cpu_write(): period = the nanoseconds blocked,
 * callchain = the stack at the switch-out (ip = its first entry), time =
 * perf's stand-in 0xffffffff00000000 + n, which sorts them after every
 * recorded sample; cpu 0; misc = the cpumode of the ip.
 *
 * Return: 0, -EINVAL for a sample_type outside PULSE_OFFCPU_SAMPLE_TYPES,
 * or what @emit returned.
 */
int pulse_offcpu__write(struct pulse_offcpu *oc, const struct perf_event_attr *attr, __u64 id,
			int (*emit)(void *arg, const void *rec, size_t size), void *arg);

/**
 * pulse_offcpu__parse_format - where prev_state sits in sched_switch's RAW
 * @text: the tracepoint's format file (NUL-terminated)
 * @offset, @size: set from its "field:... prev_state;" line
 *
 * Return: 0, or -ENOENT when there is no usable prev_state field.
 */
int pulse_offcpu__parse_format(const char *text, unsigned int *offset, unsigned int *size);

#endif
