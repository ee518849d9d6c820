/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decoder's state, shared by pt-decoder.c (packets, the decode loop),
 * pt-walk.c (the walk states) and pt-time.c (timestamps). Private to
 * lib/aux.
 */
#ifndef PULSE_AUX_PT_DEC_H
#define PULSE_AUX_PT_DEC_H

#include <errno.h>
#include "aux/pt-int.h"

struct pt_packet_decoder;

/* perf's enum intel_pt_pkt_state */
enum {
	PT_STATE_NO_PSB, PT_STATE_NO_IP, PT_STATE_ERR_RESYNC, PT_STATE_IN_SYNC,
	PT_STATE_TNT_CONT, PT_STATE_TNT, PT_STATE_TIP, PT_STATE_TIP_PGD, PT_STATE_FUP,
	PT_STATE_FUP_NO_TIP, PT_STATE_FUP_IN_PSB,
};

#define PT_RETURN 1	/* walk_insn: a sample is ready */

struct pt_decoder {
	struct pt_params p;
	struct pt_state state;
	/* the current buffer and packet */
	struct pt_packet_decoder *pd;
	const uint8_t *buf;
	size_t len, off;		/* off: the current packet in buf */
	uint64_t pos;			/* the current packet in the queue's trace */
	int pkt_step, pkt_len;
	struct pt_pkt packet, tnt;
	int last_packet_type;
	int pkt_state;
	/* where the walk is */
	bool pge, have_last_ip, in_psb, mtc_insn, continuous_period, overflow;
	uint64_t ip, last_ip, psb_ip, ret_addr;
	uint64_t *stack;
	size_t stack_n, stack_alloc;
	int no_progress;
	uint64_t stuck_ip;
	int stuck_ip_prd, stuck_ip_cnt;
	/* FUP-bound events */
	bool set_fup_tx_flags, set_fup_ptw, set_fup_mwait, set_fup_pwre, set_fup_exstop;
	unsigned int fup_tx_flags, tx_flags;
	uint64_t fup_ptw_payload, fup_mwait_payload, fup_pwre_payload;
	/* time */
	uint64_t timestamp, tsc_timestamp, ref_timestamp, sample_timestamp;
	uint64_t ctc_timestamp, ctc_delta, cycle_cnt, cyc_ref_timestamp;
	uint32_t last_mtc, tsc_ctc_ratio_n, tsc_ctc_ratio_d, tsc_ctc_mult, tsc_slip;
	uint32_t ctc_rem_mask;
	int mtc_shift;
	bool have_tma, fixup_last_mtc, have_cyc;
	unsigned int cbr, cbr_seen, max_non_turbo_ratio;
	double max_non_turbo_ratio_fp, cbr_cyc_to_tsc;
	uint64_t cbr_payload;
	/* instruction counts and the period */
	uint64_t tot_insn_cnt, timestamp_insn_cnt, sample_insn_cnt, period_insn_cnt;
	uint64_t period_mask, period_ticks, last_masked_timestamp;
};

int pt_dec__next_packet(struct pt_decoder *d);
int pt_dec__lookahead(struct pt_decoder *d, int (*cb)(const struct pt_pkt *p, void *arg),
		      void *arg);
int pt_dec__scan_for_psb(struct pt_decoder *d);
int pt_dec__push(struct pt_decoder *d, uint64_t ip);
uint64_t pt_dec__pop(struct pt_decoder *d);

#define BIT63 (1ULL << 63)

static inline uint64_t pt_calc_ip(const struct pt_pkt *p, uint64_t last_ip)
{
	uint64_t ip;

	switch (p->count) {
	case 1:
		return (last_ip & 0xffffffffffff0000ULL) | p->payload;
	case 2:
		return (last_ip & 0xffffffff00000000ULL) | p->payload;
	case 3:
		ip = p->payload;
		if (ip & 0x800000000000ULL)
			ip |= 0xffff000000000000ULL;
		return ip;
	case 4:
		return (last_ip & 0xffff000000000000ULL) | p->payload;
	case 6:
		return p->payload;
	default:
		return 0;
	}
}

static inline void set_last_ip(struct pt_decoder *d)
{
	d->last_ip = pt_calc_ip(&d->packet, d->last_ip);
	d->have_last_ip = true;
}

static inline void set_ip(struct pt_decoder *d)
{
	set_last_ip(d);
	d->ip = d->last_ip;
}

static inline bool have_ip(struct pt_decoder *d)
{
	return d->packet.count &&
	       (d->have_last_ip || d->packet.count == 3 || d->packet.count == 6);
}

static inline int bug(struct pt_decoder *d)
{
	d->pkt_state = PT_STATE_NO_PSB;
	return -ENOSYS;
}

static inline void update_in_tx(struct pt_decoder *d)
{
	d->tx_flags = d->packet.payload & PT_IN_TX;
}

/* pt-walk.c */
int pt_dec__overflow(struct pt_decoder *d);
bool pt_dec__fup_event(struct pt_decoder *d);
int pt_dec__sync(struct pt_decoder *d);
int pt_dec__sync_ip(struct pt_decoder *d);
int pt_dec__walk_trace(struct pt_decoder *d);
int pt_dec__walk_tnt(struct pt_decoder *d);
int pt_dec__walk_tip(struct pt_decoder *d);
int pt_dec__walk_fup(struct pt_decoder *d);
int pt_dec__walk_fup_tip(struct pt_decoder *d);
int pt_dec__fup_in_psb(struct pt_decoder *d);

/* pt-sync.c */
int pt_dec__psb(struct pt_decoder *d);
bool pt_dec__psb_with_fup(struct pt_decoder *d, int *err);

/* pt-time.c */
void pt_dec__calc_tsc(struct pt_decoder *d);
void pt_dec__calc_tma(struct pt_decoder *d);
void pt_dec__calc_mtc(struct pt_decoder *d);
/* a TRACESTOP packet: tracing stopped, no transaction, the timing restarts */
static inline void pt_dec__trace_stop(struct pt_decoder *d)
{
	d->pge = false;
	d->continuous_period = false;
	d->tx_flags = 0;
	d->have_tma = false;
}

/* MTC, TSC, TMA or CYC: the one of them @d's packet is (the walks treat them alike) */
void pt_dec__calc_time(struct pt_decoder *d);
void pt_dec__calc_cbr(struct pt_decoder *d);
void pt_dec__calc_cyc(struct pt_decoder *d);
uint64_t pt_dec__next_sample(struct pt_decoder *d);
void pt_dec__sample_insn(struct pt_decoder *d);

#endif
