// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel PT trace walk, as perf 6.1's decoder does it
 * (tools/perf/util/intel-pt-decoder/intel-pt-decoder.c): the states it
 * passes through, where it resynchronizes after an error (the next IP
 * packet that carries a full address, not the next PSB as libipt's
 * decoders do), which PSBs give a psb event, the timestamps it derives
 * from TSC, TMA, MTC and CBR. libipt's packet decoder reads the packets
 * (pt_pkt_next()); this file only walks them. Written from the behaviour
 * of perf's decoder, not copied: perf prints what this walk produces, so
 * the walk is perf's.
 *
 * Not done (perf's decoder has them): hop/leap mode (--itrace=q), the
 * CYC-to-TSC lookahead (CYC timestamps use the CBR ratio only), VM time
 * correlation, PEBS-via-PT block items, address filter ends (pgd_ip).
 * Timestamps are in TSC ticks; pt.c converts them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <intel-pt.h>
#include "aux/pt-int.h"
#include "aux/pt-dec.h"

static const char *const err_msgs[] = {
	[PT_ERR_NOMEM] = "Memory allocation failed",
	[PT_ERR_INTERN] = "Internal error",
	[PT_ERR_BADPKT] = "Bad packet",
	[PT_ERR_NODATA] = "No more data",
	[PT_ERR_NOINSN] = "Failed to get instruction",
	[PT_ERR_MISMAT] = "Trace doesn't match instruction",
	[PT_ERR_OVR] = "Overflow packet",
	[PT_ERR_LOST] = "Lost trace data",
	[PT_ERR_UNK] = "Unknown error!",
	[PT_ERR_NELOOP] = "Never-ending loop (refer perf config intel-pt.max-loops)",
};

const char *pt_err_msg(int code)
{
	if (code < 1 || code >= PT_ERR_MAX)
		code = PT_ERR_UNK;
	return err_msgs[code];
}

static int ext_err(int code)
{
	switch (code) {
	case -ENOMEM: return PT_ERR_NOMEM;
	case -ENOSYS: return PT_ERR_INTERN;
	case -EBADMSG: return PT_ERR_BADPKT;
	case -ENODATA: return PT_ERR_NODATA;
	case -EILSEQ: return PT_ERR_NOINSN;
	case -ENOENT: return PT_ERR_MISMAT;
	case -EOVERFLOW: return PT_ERR_OVR;
	case -ENOSPC: return PT_ERR_LOST;
	case -ELOOP: return PT_ERR_NELOOP;
	default: return PT_ERR_UNK;
	}
}

/* ---- packets ------------------------------------------------------------ */

/* one libipt packet as perf's packet decoder would have given it */
static void convert(const struct pt_packet *p, struct pt_pkt *o)
{
	o->count = 0;
	o->payload = 0;
	switch (p->type) {
	case ppt_pad: o->type = PTP_PAD; break;
	case ppt_psb: o->type = PTP_PSB; break;
	case ppt_psbend: o->type = PTP_PSBEND; break;
	case ppt_fup: o->type = PTP_FUP; goto ip;
	case ppt_tip: o->type = PTP_TIP; goto ip;
	case ppt_tip_pge: o->type = PTP_TIP_PGE; goto ip;
	case ppt_tip_pgd: o->type = PTP_TIP_PGD;
ip:
		o->count = p->payload.ip.ipc;
		o->payload = p->payload.ip.ip;
		break;
	case ppt_tnt_8:
	case ppt_tnt_64:
		o->type = PTP_TNT;
		o->count = p->payload.tnt.bit_size;
		o->payload = o->count ? p->payload.tnt.payload << (64 - o->count) : 0;
		break;
	case ppt_mode:
		if (p->payload.mode.leaf == pt_mol_tsx) {
			o->type = PTP_MODE_TSX;
			o->payload = p->payload.mode.bits.tsx.intx |
				     (uint64_t)p->payload.mode.bits.tsx.abrt << 1;
		} else {
			o->type = PTP_MODE_EXEC;
			o->payload = p->payload.mode.bits.exec.csl | p->payload.mode.bits.exec.csd << 1;
		}
		break;
	case ppt_pip: o->type = PTP_PIP; o->payload = p->payload.pip.cr3; break;
	case ppt_vmcs: o->type = PTP_VMCS; break;
	case ppt_cbr: o->type = PTP_CBR; o->payload = p->payload.cbr.ratio; break;
	case ppt_tsc: o->type = PTP_TSC; o->payload = p->payload.tsc.tsc; break;
	case ppt_tma:
		o->type = PTP_TMA;
		o->payload = p->payload.tma.ctc;
		o->count = p->payload.tma.fc;
		break;
	case ppt_mtc: o->type = PTP_MTC; o->payload = p->payload.mtc.ctc; break;
	case ppt_cyc: o->type = PTP_CYC; o->payload = p->payload.cyc.value; break;
	case ppt_stop: o->type = PTP_TRACESTOP; break;
	case ppt_ovf: o->type = PTP_OVF; break;
	case ppt_mnt: o->type = PTP_MNT; break;
	case ppt_exstop: o->type = p->payload.exstop.ip ? PTP_EXSTOP_IP : PTP_EXSTOP; break;
	case ppt_mwait:
		o->type = PTP_MWAIT;
		o->payload = p->payload.mwait.hints | (uint64_t)p->payload.mwait.ext << 32;
		break;
	case ppt_pwre:
		o->type = PTP_PWRE;
		o->payload = (uint64_t)p->payload.pwre.hw << 7 | (uint64_t)p->payload.pwre.state << 12 |
			     (uint64_t)p->payload.pwre.sub_state << 8;
		break;
	case ppt_pwrx:
		o->type = PTP_PWRX;
		o->payload = p->payload.pwrx.last | (uint64_t)p->payload.pwrx.deepest << 4 |
			     (uint64_t)(p->payload.pwrx.interrupt | p->payload.pwrx.store << 1 |
					p->payload.pwrx.autonomous << 2) << 8;
		break;
	case ppt_ptw:
		o->type = p->payload.ptw.ip ? PTP_PTWRITE_IP : PTP_PTWRITE;
		o->payload = p->payload.ptw.payload;
		break;
	default:
		o->type = PTP_BAD;
		break;
	}
}

/* the packet at @off of the current buffer: its length, 0 at the end, <0 bad */
static int read_packet(struct pt_decoder *d, size_t off, struct pt_pkt *o)
{
	struct pt_packet p;
	int ret;

	if (off >= d->len)
		return 0;
	if (pt_pkt_sync_set(d->pd, off) < 0)
		return -1;
	ret = pt_pkt_next(d->pd, &p, sizeof(p));
	if (ret < 0)
		return -1;	/* bad, or cut short by the end of the buffer */
	convert(&p, o);
	return p.size;
}

static void reposition(struct pt_decoder *d)
{
	d->ip = 0;
	d->pkt_state = PT_STATE_NO_PSB;
	d->timestamp = 0;
	d->have_tma = false;
}

/*
 * The next buffer: perf's intel_pt_get_data(). A queue's first buffer starts
 * the decoding afresh (NO_PSB, its reference TSC); the next ones continue
 * the trace, as perf takes a full-trace recording's buffers (consecutive;
 * snapshot mode's overlapping buffers are not handled).
 */
static int get_data(struct pt_decoder *d)
{
	struct pt_buffer b = { 0 };
	struct pt_config cfg;
	int ret;

	d->pkt_step = 0;
	ret = d->p.get_trace(&b, d->p.data);
	if (ret)
		return ret;
	if (!b.len)
		return -ENODATA;
	if (d->pd)
		pt_pkt_free_decoder(d->pd);
	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.begin = (uint8_t *)b.buf;
	cfg.end = (uint8_t *)b.buf + b.len;
	d->pd = pt_pkt_alloc_decoder(&cfg);
	if (!d->pd)
		return -ENOMEM;
	d->buf = b.buf;
	d->len = b.len;
	d->off = 0;
	if (b.consecutive)
		return 0;
	d->pos = b.offset;
	reposition(d);
	d->ref_timestamp = b.ref_timestamp;
	d->state.trace_nr = b.trace_nr;
	return -ENOLINK;
}

static int bad_packet(struct pt_decoder *d)
{
	d->tx_flags = 0;
	d->have_tma = false;
	d->pkt_len = 1;
	d->pkt_step = 1;
	/* ERR1: the state stays */
	return -EBADMSG;
}

/* perf's intel_pt_get_next_packet(): PADs skipped */
int pt_dec__next_packet(struct pt_decoder *d)
{
	int ret;

	d->last_packet_type = d->packet.type;
	do {
		d->pos += d->pkt_step;
		d->off += d->pkt_step;
		if (!d->buf || d->off >= d->len) {
			ret = get_data(d);
			if (ret)
				return ret;
		}
		ret = read_packet(d, d->off, &d->packet);
		if (ret <= 0) {
			d->packet.type = PTP_BAD;
			return bad_packet(d);
		}
		d->pkt_len = ret;
		d->pkt_step = ret;
	} while (d->packet.type == PTP_PAD);
	return 0;
}

/* perf's intel_pt_pkt_lookahead(): @cb on each later packet of this buffer until it says 1 */
int pt_dec__lookahead(struct pt_decoder *d, int (*cb)(const struct pt_pkt *p, void *arg),
		      void *arg)
{
	size_t off = d->off + d->pkt_step;
	struct pt_pkt p;
	int ret;

	for (;;) {
		do {
			ret = read_packet(d, off, &p);
			if (ret <= 0)
				return 0;
			off += ret;
		} while (p.type == PTP_PAD);
		if (cb(&p, arg))
			return 0;
	}
}

/* perf's intel_pt_scan_for_psb(): memmem for the PSB pattern */
int pt_dec__scan_for_psb(struct pt_decoder *d)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	const uint8_t *next;
	int ret;

	for (;;) {
		if (!d->buf || d->off >= d->len) {
			ret = get_data(d);
			if (ret && ret != -ENOLINK)
				return ret;
		}
		next = memmem(d->buf + d->off, d->len - d->off, psb, sizeof(psb));
		if (!next) {
			/* a PSB split across buffers cannot be: buffers are not consecutive */
			d->pos += d->len - d->off;
			d->off = d->len;
			d->pkt_step = 0;
			continue;
		}
		d->pkt_step = next - (d->buf + d->off);
		return pt_dec__next_packet(d);
	}
}

/* ---- the call stack (return compression) --------------------------------- */

int pt_dec__push(struct pt_decoder *d, uint64_t ip)
{
	if (d->stack_n == d->stack_alloc) {
		size_t n = d->stack_alloc ? d->stack_alloc * 2 : 64;
		uint64_t *s = realloc(d->stack, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		d->stack = s;
		d->stack_alloc = n;
	}
	d->stack[d->stack_n++] = ip;
	return 0;
}

uint64_t pt_dec__pop(struct pt_decoder *d)
{
	return d->stack_n ? d->stack[--d->stack_n] : 0;
}

/* ---- the decoder ---------------------------------------------------------- */

struct pt_decoder *pt_decoder__new(const struct pt_params *p)
{
	struct pt_decoder *d;

	if (!p->get_trace || !p->walk_insn)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->p = *p;
	d->mtc_shift = p->mtc_period;
	d->ctc_rem_mask = (1U << d->mtc_shift) - 1;
	d->tsc_ctc_ratio_n = p->tsc_ctc_ratio_n;
	d->tsc_ctc_ratio_d = p->tsc_ctc_ratio_n ? p->tsc_ctc_ratio_d : 0;
	if (d->tsc_ctc_ratio_d && !(d->tsc_ctc_ratio_n % d->tsc_ctc_ratio_d))
		d->tsc_ctc_mult = d->tsc_ctc_ratio_n / d->tsc_ctc_ratio_d;
	d->tsc_slip = 0x10000;
	d->max_non_turbo_ratio = p->max_non_turbo_ratio;
	d->max_non_turbo_ratio_fp = p->max_non_turbo_ratio;
	if (p->period_type == PT_PERIOD_TICKS) {
		uint64_t period = p->period ? p->period : 1;
		int i = 0;

		while (period >> (i + 1))
			i++;
		d->period_ticks = 1ULL << i;
		d->period_mask = ~(d->period_ticks - 1);
	}
	return d;
}

void pt_decoder__delete(struct pt_decoder *d)
{
	if (!d)
		return;
	if (d->pd)
		pt_pkt_free_decoder(d->pd);
	free(d->stack);
	free(d);
}

static bool sample_time_state(int pkt_state)
{
	switch (pkt_state) {
	case PT_STATE_TNT:
	case PT_STATE_TIP:
	case PT_STATE_TIP_PGD:
	case PT_STATE_FUP:
	case PT_STATE_FUP_NO_TIP:
		return false;
	default:
		return true;
	}
}

static uint64_t est_timestamp(struct pt_decoder *d)
{
	uint64_t est = d->sample_insn_cnt << 1;

	if (d->cbr && d->max_non_turbo_ratio) {
		est *= d->max_non_turbo_ratio;
		est /= d->cbr;
	}
	return d->sample_timestamp + est;
}

const struct pt_state *pt_decoder__decode(struct pt_decoder *d)
{
	int err;

	do {
		d->state.type = PTS_BRANCH;
		d->state.flags = 0;
		switch (d->pkt_state) {
		case PT_STATE_NO_PSB:
			err = pt_dec__sync(d);
			break;
		case PT_STATE_NO_IP:
			d->have_last_ip = false;
			d->last_ip = 0;
			d->ip = 0;
			/* fall through */
		case PT_STATE_ERR_RESYNC:
			err = pt_dec__sync_ip(d);
			break;
		case PT_STATE_IN_SYNC:
			err = pt_dec__walk_trace(d);
			break;
		case PT_STATE_TNT:
		case PT_STATE_TNT_CONT:
			err = pt_dec__walk_tnt(d);
			if (err == -EAGAIN)
				err = pt_dec__walk_trace(d);
			break;
		case PT_STATE_TIP:
		case PT_STATE_TIP_PGD:
			err = pt_dec__walk_tip(d);
			break;
		case PT_STATE_FUP:
			err = pt_dec__walk_fup(d);
			if (err == -EAGAIN)
				err = pt_dec__walk_fup_tip(d);
			break;
		case PT_STATE_FUP_NO_TIP:
			err = pt_dec__walk_fup(d);
			if (err == -EAGAIN)
				err = pt_dec__walk_trace(d);
			break;
		case PT_STATE_FUP_IN_PSB:
			err = pt_dec__fup_in_psb(d);
			break;
		default:
			d->pkt_state = PT_STATE_NO_PSB;
			err = -ENOSYS;
			break;
		}
	} while (err == -ENOLINK);

	if (err) {
		d->state.err = ext_err(err);
		/* an overflow reports where the trace was (overflow() kept it) */
		if (err != -EOVERFLOW)
			d->state.from_ip = d->ip;
		d->sample_timestamp = d->timestamp;
		d->sample_insn_cnt = d->timestamp_insn_cnt;
	} else {
		d->state.err = 0;
		if (d->cbr != d->cbr_seen) {
			d->cbr_seen = d->cbr;
			if (!d->state.type) {
				d->state.from_ip = d->ip;
				d->state.to_ip = 0;
			}
			d->state.type |= PTS_CBR_CHG;
			d->state.cbr_payload = d->cbr_payload;
			d->state.cbr = d->cbr;
		}
		if (sample_time_state(d->pkt_state)) {
			d->sample_timestamp = d->timestamp;
			d->sample_insn_cnt = d->timestamp_insn_cnt;
		}
	}
	/* a PSB event always has its TSC's time */
	if ((d->state.type & PTS_PSB_EVT) && d->tsc_timestamp)
		d->sample_timestamp = d->tsc_timestamp;
	d->state.timestamp = d->sample_timestamp;
	d->state.est_timestamp = est_timestamp(d);
	d->state.tot_insn_cnt = d->tot_insn_cnt;
	return &d->state;
}
