/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel PT session state (perf's struct intel_pt and intel_pt_queue),
 * shared by pt.c (set-up, queues, side-band, the walker's code reads) and
 * pt-synth.c (the samples and errors). Private to lib/aux.
 */
#ifndef PULSE_AUX_PT_Q_H
#define PULSE_AUX_PT_Q_H

#include <pulse/auxtrace.h>
#include <pulse/itrace.h>
#include <pulse/pt-decode.h>
#include "aux/pt-code.h"
#include "aux/pt-int.h"

struct pulse_machine;
struct pulse_data;

struct pt_buf {
	const uint8_t *data;
	size_t len;
	uint64_t offset, reference;
	uint8_t *owned;		/* a pipe's copy */
	struct pt_buf *next;
};

struct pt_queue {
	struct pulse_pt *pt;
	unsigned int idx;
	int cpu, buf_tid;		/* of its AUXTRACE records */
	struct pt_buf *head, *tail, *next_buf;
	uint64_t pos;			/* where the next buffer starts in the trace */
	int trace_nr;
	struct pt_decoder *dec;
	const struct pt_state *state;
	bool on_heap, have_sample, set_up;
	uint64_t ordinal;		/* the heap's key: where decoding got to (TSC) */
	uint64_t timestamp;		/* TSC of the current sample */
	int32_t pid, tid;
	uint32_t flags;			/* PERF_IP_FLAG_* of the current sample */
	int insn_len;
	unsigned int cbr_seen;
	uint64_t last_insn_cnt;
};

/* ids and sample types of the events the decoder adds */
struct pt_events {
	uint64_t branches_id, instructions_id, transactions_id, ptwrites_id, cbr_id, psb_id;
	uint64_t branches_type, instructions_type, transactions_type, ptwrites_type, pwr_type;
	bool branches, instructions, transactions, ptwrites, pwr_events;
};

/* perf's branch_entry: from, to, flags (bit 2 in_tx, bit 3 abort) */
struct pt_br {
	uint64_t from, to, flags;
};

struct pt_tstack_entry {
	uint64_t ret;
	bool trace_end;
};

/* a thread's call stack (pt-stack.c) */
struct pt_tstack {
	int32_t tid;
	int trace_nr;
	struct pt_tstack_entry *e;
	size_t cnt, alloc;
	/* --itrace=l: the last branches, a ring filled downwards (perf's br_stack_rb) */
	struct pt_br *br;
	unsigned int br_pos, br_nr;
};

struct pt_tstacks {
	struct pt_tstack *v;
	size_t n, alloc;
};

/* a walk from a code offset to its branch (perf's intel_pt_cache_entry) */
struct pt_walk_cache {
	const struct pt_code *code;
	uint64_t off;
	uint64_t byte_cnt, insn_cnt;
	struct pt_insn_info insn;
};

#define PT_WCACHE 4096

struct pt_cur_tid {
	int32_t pid, tid;
};

struct pulse_pt {
	struct pulse_session *s;
	struct pulse_data *d;
	struct pulse_machine *m;
	struct pulse_pt_opts opts;
	struct pulse_itrace_opts synth;	/* the --itrace in force */
	bool have_info;			/* an Intel PT AUXTRACE_INFO was met */
	uint32_t unsupported;		/* another PMU's auxtrace type */
	struct pulse_pt_info info;
	struct perf_event_attr pt_attr;	/* the intel_pt event's */
	bool have_pt_attr;
	uint64_t tc_shift, tc_mult, tc_zero;
	uint32_t cbr2khz;
	unsigned int max_non_turbo_ratio;
	uint32_t branches_filter;
	int have_sched_switch;
	bool per_cpu_mmaps, snapshot;
	uint64_t kernel_start;
	struct pt_events ev;
	struct pt_queue **queues;
	size_t nr_queues;
	bool new_data;
	struct pt_cur_tid *cur_tid;	/* per CPU, from ITRACE_START and switches */
	size_t nr_cur_tid;
	struct pt_codes codes;
	const struct pulse_dso *last_dso;	/* the code of the last walk's DSO */
	struct pt_code *last_code;
	struct pt_walk_cache wcache[PT_WCACHE];
	/* the walk's address spaces checked for an unwinder, by pid (see pt.c) */
	int32_t *probed_pids;
	size_t nr_probed, alloc_probed;
	bool kernel_probed;
	unsigned long long nr_events;	/* --itrace=s: events seen */
	bool use_thread_stack, callstack;
	struct pt_tstacks stacks;
	uint64_t chain[1 + PULSE_ITRACE_MAX_CALLCHAIN_SZ + 1 + 16];
	unsigned int br_stack_sz;	/* --itrace=l/L: the branches kept; 0: none */
	struct pt_br brs[PULSE_ITRACE_MAX_LAST_BRANCH_SZ];	/* a sample's branch stack */
	bool delivering;
	uint32_t cur_flags;		/* of the sample being delivered */
	uint8_t evbuf[512 + sizeof(uint64_t) * (PULSE_ITRACE_MAX_CALLCHAIN_SZ + 20) +
		      sizeof(struct pt_br) * PULSE_ITRACE_MAX_LAST_BRANCH_SZ];
};

/* pt-synth.c */
int pt_synth__events(struct pulse_pt *pt);
int pt_synth__sample(struct pt_queue *q);
int pt_synth__error(struct pulse_pt *pt, int code, int cpu, int32_t pid, int32_t tid, uint64_t ip,
		    uint64_t tsc, bool have_time);
void pt_synth__flags(struct pt_queue *q);
uint64_t pt_tsc_to_perf_time(const struct pulse_pt *pt, uint64_t tsc);
uint64_t pt_perf_time_to_tsc(const struct pulse_pt *pt, uint64_t ns);

/* pt-stack.c */
int pt_stack__event(struct pulse_pt *pt, int32_t tid, uint32_t flags, uint64_t from,
		    uint64_t to, int insn_len, int trace_nr);
size_t pt_stack__br_sample(struct pulse_pt *pt, int32_t tid, struct pt_br *dst, unsigned int sz);
size_t pt_stack__sample(struct pulse_pt *pt, int32_t tid, uint64_t *ips, size_t sz, uint64_t ip);
size_t pt_stack__sample_late(struct pulse_pt *pt, int32_t tid, uint64_t *ips, size_t sz,
			     uint64_t sample_ip);
void pt_stacks__exit(struct pulse_pt *pt);

#endif
