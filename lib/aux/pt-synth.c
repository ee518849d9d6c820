// SPDX-License-Identifier: GPL-2.0
/*
 * What perf 6.1's intel-pt.c makes of the decoder's states: the events it
 * adds to the file ("branches", "instructions", "transactions", "ptwrite",
 * "cbr", "psb", in that order, ids from the intel_pt event's first id plus
 * 1000000000), the SAMPLE records it delivers for each state (flags,
 * periods, the calls/returns filter, --itrace=s), and the error events.
 */
#include <errno.h>
#include <string.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "aux/pt-q.h"

/* perf's PERF_IP_FLAG_* */
#define IPF_BRANCH (1U << 0)
#define IPF_CALL (1U << 1)
#define IPF_RETURN (1U << 2)
#define IPF_ASYNC (1U << 5)
#define IPF_INTERRUPT (1U << 6)
#define IPF_TX_ABORT (1U << 7)
#define IPF_TRACE_BEGIN (1U << 8)
#define IPF_TRACE_END (1U << 9)
#define IPF_IN_TX (1U << 10)

#define SAMPLE_MASK (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
		     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER)

uint64_t pt_tsc_to_perf_time(const struct pulse_pt *pt, uint64_t tsc)
{
	uint64_t quot = tsc >> pt->tc_shift;
	uint64_t rem = tsc & ((1ULL << pt->tc_shift) - 1);

	return pt->tc_zero + quot * pt->tc_mult + ((rem * pt->tc_mult) >> pt->tc_shift);
}

uint64_t pt_perf_time_to_tsc(const struct pulse_pt *pt, uint64_t ns)
{
	uint64_t t = ns - pt->tc_zero, quot, rem;

	if (!pt->tc_mult)
		return 0;
	quot = t / pt->tc_mult;
	rem = t % pt->tc_mult;
	return (quot << pt->tc_shift) + (rem << pt->tc_shift) / pt->tc_mult;
}

static int add_event(struct pulse_pt *pt, const char *name, struct perf_event_attr *attr,
		     uint64_t id)
{
	return pulse_data__add_synth_attr(pt->d, attr, id, name);
}

/* perf's intel_pt_synth_events() */
int pt_synth__events(struct pulse_pt *pt)
{
	struct perf_event_attr attr;
	const struct perf_event_attr *pa = &pt->pt_attr;
	uint64_t id = pt->ev.branches_id;	/* the first, set by the caller */
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.sample_type = (pa->sample_type & SAMPLE_MASK) | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_TIME;
	if (!pt->per_cpu_mmaps)
		attr.sample_type &= ~(uint64_t)PERF_SAMPLE_CPU;
	attr.exclude_user = pa->exclude_user;
	attr.exclude_kernel = pa->exclude_kernel;
	attr.exclude_hv = pa->exclude_hv;
	attr.exclude_host = pa->exclude_host;
	attr.exclude_guest = pa->exclude_guest;
	attr.sample_id_all = pa->sample_id_all;
	attr.read_format = pa->read_format;

	if (pt->synth.branches) {
		attr.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
		attr.sample_period = 1;
		attr.sample_type |= PERF_SAMPLE_ADDR;
		err = add_event(pt, "branches", &attr, id);
		if (err)
			return err;
		pt->ev.branches = true;
		pt->ev.branches_type = attr.sample_type;
		pt->ev.branches_id = id++;
		attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ADDR;
	}
	if (pt->synth.callchain)
		attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (pt->synth.last_branch) {
		/* perf's format with hw_idx (always 0 here) */
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (pt->synth.instructions) {
		attr.config = PERF_COUNT_HW_INSTRUCTIONS;
		if (pt->synth.period_type == PULSE_ITRACE_PERIOD_NANOSECS)
			attr.sample_period = pt_perf_time_to_tsc(pt, pt->tc_zero + pt->synth.period);
		else
			attr.sample_period = pt->synth.period;
		err = add_event(pt, "instructions", &attr, id);
		if (err)
			return err;
		pt->ev.instructions = true;
		pt->ev.instructions_type = attr.sample_type;
		pt->ev.instructions_id = id++;
	}
	attr.sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	attr.sample_period = 1;
	if (pt->synth.transactions) {
		attr.config = PERF_COUNT_HW_INSTRUCTIONS;
		err = add_event(pt, "transactions", &attr, id);
		if (err)
			return err;
		pt->ev.transactions = true;
		pt->ev.transactions_type = attr.sample_type;
		pt->ev.transactions_id = id++;
	}
	attr.type = PULSE_TYPE_SYNTH;
	attr.sample_type |= PERF_SAMPLE_RAW;
	if (pt->synth.ptwrites) {
		attr.config = PULSE_SYNTH_INTEL_PTWRITE;
		err = add_event(pt, "ptwrite", &attr, id);
		if (err)
			return err;
		pt->ev.ptwrites = true;
		pt->ev.ptwrites_type = attr.sample_type;
		pt->ev.ptwrites_id = id++;
	}
	if (pt->synth.pwr_events) {
		pt->ev.pwr_events = true;
		pt->ev.pwr_type = attr.sample_type;
		attr.config = PULSE_SYNTH_INTEL_CBR;
		err = add_event(pt, "cbr", &attr, id);
		if (err)
			return err;
		pt->ev.cbr_id = id++;
		attr.config = PULSE_SYNTH_INTEL_PSB;
		err = add_event(pt, "psb", &attr, id);
		if (err)
			return err;
		pt->ev.psb_id = id++;
	}
	return 0;
}

/* ---- samples -------------------------------------------------------------- */

struct synth_sample {
	uint64_t id, ip, time, addr, period;
	int32_t pid, tid, cpu;
	uint8_t cpumode;
	uint32_t flags;
	const uint64_t *chain;
	size_t chain_nr;
	const struct pt_br *br;
	size_t br_nr;
	const void *raw;
	uint32_t raw_size;
};

static void put64(uint8_t **p, uint64_t v)
{
	memcpy(*p, &v, 8);
	*p += 8;
}

static void put32x2(uint8_t **p, uint32_t a, uint32_t b)
{
	memcpy(*p, &a, 4);
	memcpy(*p + 4, &b, 4);
	*p += 8;
}

/* the SAMPLE record of @s for @type, handed to the walk's tool */
static int deliver(struct pulse_pt *pt, const struct synth_sample *s, uint64_t type)
{
	struct perf_event_header *h = (struct perf_event_header *)pt->evbuf;
	uint8_t *p = pt->evbuf + sizeof(*h);
	int err;

	if (type & PERF_SAMPLE_IDENTIFIER)
		put64(&p, s->id);
	if (type & PERF_SAMPLE_IP)
		put64(&p, s->ip);
	if (type & PERF_SAMPLE_TID)
		put32x2(&p, s->pid, s->tid);
	if (type & PERF_SAMPLE_TIME)
		put64(&p, s->time);
	if (type & PERF_SAMPLE_ADDR)
		put64(&p, s->addr);
	if (type & PERF_SAMPLE_ID)
		put64(&p, s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		put64(&p, s->id);
	if (type & PERF_SAMPLE_CPU)
		put32x2(&p, s->cpu, 0);
	if (type & PERF_SAMPLE_PERIOD)
		put64(&p, s->period);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		put64(&p, s->chain_nr);
		memcpy(p, s->chain, s->chain_nr * 8);
		p += s->chain_nr * 8;
	}
	if (type & PERF_SAMPLE_RAW) {
		uint32_t n = s->raw_size;

		memcpy(p, &n, 4);
		memcpy(p + 4, s->raw, n);
		memset(p + 4 + n, 0, ((4 + n + 7) & ~7u) - (4 + n));
		p += (4 + n + 7) & ~7u;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		put64(&p, s->br_nr);
		put64(&p, 0);	/* hw_idx */
		memcpy(p, s->br, s->br_nr * sizeof(*s->br));
		p += s->br_nr * sizeof(*s->br);
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = s->cpumode;
	h->size = p - pt->evbuf;
	pt->delivering = true;
	pt->cur_flags = s->flags;
	err = pulse_session__deliver_synth(pt->s, h);
	pt->delivering = false;
	pt->cur_flags = 0;
	return err;
}

static uint8_t cpumode_of(const struct pulse_pt *pt, uint64_t from, uint64_t to)
{
	uint64_t ip = from ? from : to;

	return ip >= pt->kernel_start ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}

/* perf's intel_pt_prep_b_sample() */
static void prep(struct pt_queue *q, struct synth_sample *s, uint64_t id)
{
	const struct pt_state *st = q->state;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->pid = q->pid;
	s->tid = q->tid;
	s->cpu = q->cpu;
	s->time = pt_tsc_to_perf_time(q->pt, q->timestamp);
	s->ip = st->from_ip;
	s->addr = st->to_ip;
	s->cpumode = cpumode_of(q->pt, st->from_ip, st->to_ip);
	s->period = 1;
	s->flags = q->flags;
}

/* perf's intel_pt_prep_sample(): with --itrace=g, the thread stack's callchain */
static void prep_sample(struct pt_queue *q, struct synth_sample *s, uint64_t id)
{
	struct pulse_pt *pt = q->pt;

	prep(q, s, id);
	if (pt->synth.callchain) {
		s->chain_nr = pt_stack__sample(pt, q->tid, pt->chain, pt->synth.callchain_sz + 1,
					       s->ip);
		s->chain = pt->chain;
	}
	if (pt->synth.last_branch) {
		s->br_nr = pt_stack__br_sample(pt, q->tid, pt->brs, pt->br_stack_sz);
		s->br = pt->brs;
	}
}

/* --itrace=s: the first N events are skipped */
static bool skip_event(struct pulse_pt *pt)
{
	return pt->synth.initial_skip && pt->nr_events++ < pt->synth.initial_skip;
}

void pt_synth__flags(struct pt_queue *q)
{
	const struct pt_state *st = q->state;

	q->insn_len = 0;
	if (st->flags & PT_ABORT_TX) {
		q->flags = IPF_BRANCH | IPF_TX_ABORT;
	} else if (st->flags & PT_ASYNC) {
		if (!st->to_ip)
			q->flags = IPF_BRANCH | IPF_ASYNC | IPF_TRACE_END;
		else
			q->flags = IPF_BRANCH | IPF_CALL | IPF_ASYNC | IPF_INTERRUPT;
	} else {
		if (st->from_ip)
			q->flags = pt_insn__flags(st->insn_op);
		else
			q->flags = IPF_BRANCH | IPF_TRACE_BEGIN;
		if (st->flags & PT_IN_TX)
			q->flags |= IPF_IN_TX;
		q->insn_len = st->insn_len;
	}
	if (st->type & PTS_TRACE_BEGIN)
		q->flags |= IPF_TRACE_BEGIN;
	if (st->type & PTS_TRACE_END)
		q->flags |= IPF_TRACE_END;
}

static int synth_raw(struct pt_queue *q, uint64_t id, const void *raw, uint32_t size,
		     uint64_t type)
{
	struct synth_sample s;

	if (skip_event(q->pt))
		return 0;
	prep_sample(q, &s, id);
	/* perf's intel_pt_prep_p_sample(): no IP is no trace start here */
	if (!s.ip)
		s.flags = 0;
	s.raw = raw;
	s.raw_size = size;
	return deliver(q->pt, &s, type);
}

static int synth_psb(struct pt_queue *q)
{
	/* perf_synth_intel_psb after its padding word: reserved, offset */
	uint8_t raw[12] = { 0 };

	memcpy(raw + 4, &q->state->psb_offset, 8);
	return synth_raw(q, q->pt->ev.psb_id, raw, sizeof(raw), q->pt->ev.pwr_type);
}

static int synth_cbr(struct pt_queue *q)
{
	struct pulse_pt *pt = q->pt;
	uint32_t raw[3];

	q->cbr_seen = q->state->cbr;
	/* flags: cbr, max non-turbo ratio << 16; freq in MHz; reserved */
	raw[0] = (uint16_t)q->state->cbr_payload |
		 (uint32_t)pt->max_non_turbo_ratio << 16;
	raw[1] = (uint64_t)(q->state->cbr_payload & 0xff) * pt->cbr2khz / 1000;
	raw[2] = 0;
	return synth_raw(q, pt->ev.cbr_id, raw, sizeof(raw), pt->ev.pwr_type);
}

static int synth_branch(struct pt_queue *q)
{
	struct pulse_pt *pt = q->pt;
	struct synth_sample s;

	if (pt->branches_filter && !(pt->branches_filter & q->flags))
		return 0;
	if (skip_event(pt))
		return 0;
	prep(q, &s, pt->ev.branches_id);
	return deliver(pt, &s, pt->ev.branches_type);
}

static int synth_instruction(struct pt_queue *q)
{
	struct pulse_pt *pt = q->pt;
	struct synth_sample s;

	if (skip_event(pt))
		return 0;
	prep_sample(q, &s, pt->ev.instructions_id);
	s.period = pt->synth.quick ? 1 : q->state->tot_insn_cnt - q->last_insn_cnt;
	q->last_insn_cnt = q->state->tot_insn_cnt;
	return deliver(pt, &s, pt->ev.instructions_type);
}

static int synth_transaction(struct pt_queue *q)
{
	struct pulse_pt *pt = q->pt;
	struct synth_sample s;

	if (skip_event(pt))
		return 0;
	prep_sample(q, &s, pt->ev.transactions_id);
	return deliver(pt, &s, pt->ev.transactions_type);
}

static int synth_ptwrite(struct pt_queue *q)
{
	uint8_t raw[12] = { 0 };
	uint32_t ip = !!(q->state->flags & PT_FUP_IP);

	memcpy(raw, &ip, 4);
	memcpy(raw + 4, &q->state->ptw_payload, 8);
	return synth_raw(q, q->pt->ev.ptwrites_id, raw, sizeof(raw), q->pt->ev.ptwrites_type);
}

/* perf's intel_pt_sample(): what the current state gives */
int pt_synth__sample(struct pt_queue *q)
{
	struct pulse_pt *pt = q->pt;
	const struct pt_state *st = q->state;
	int err;

	if (!q->have_sample)
		return 0;
	q->have_sample = false;
	if (pt->ev.pwr_events) {
		if (st->type & PTS_PSB_EVT) {
			err = synth_psb(q);
			if (err)
				return err;
		}
		if (st->cbr != q->cbr_seen) {
			err = synth_cbr(q);
			if (err)
				return err;
		}
	}
	if ((st->type & PTS_INSTRUCTION) && pt->ev.instructions) {
		err = synth_instruction(q);
		if (err)
			return err;
	}
	if (pt->ev.transactions && (st->type & PTS_TRANSACTION)) {
		err = synth_transaction(q);
		if (err)
			return err;
	}
	if (pt->ev.ptwrites && (st->type & PTS_PTW)) {
		err = synth_ptwrite(q);
		if (err)
			return err;
	}
	if (!(st->type & PTS_BRANCH))
		return 0;
	if (pt->use_thread_stack)
		pt_stack__event(pt, q->tid, q->flags, st->from_ip, st->to_ip, q->insn_len,
				st->trace_nr);
	if (pt->ev.branches)
		return synth_branch(q);
	return 0;
}

int pt_synth__error(struct pulse_pt *pt, int code, int cpu, int32_t pid, int32_t tid, uint64_t ip,
		    uint64_t tsc, bool have_time)
{
	struct pulse_pt_error e = {
		.type = 1,
		.code = code,
		.cpu = cpu,
		.pid = pid,
		.tid = tid,
		.ip = ip,
		.time = have_time ? pt_tsc_to_perf_time(pt, tsc) : tsc,
		.msg = pt_err_msg(code),
	};

	/* --itrace=e-o, e-l: no overflow, no lost-data errors */
	if (code == PT_ERR_OVR && (pt->synth.error_minus_flags & (1U << ('o' - 'a'))))
		return 0;
	if (code == PT_ERR_LOST && (pt->synth.error_minus_flags & (1U << ('l' - 'a'))))
		return 0;
	if (!pt->opts.error)
		return 0;
	return pt->opts.error(&e, pt->opts.arg);
}

uint32_t pulse_pt__sample_flags(const struct pulse_pt *pt)
{
	return pt && pt->delivering ? pt->cur_flags : 0;
}
