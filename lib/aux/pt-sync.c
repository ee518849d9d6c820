// SPDX-License-Identifier: GPL-2.0
/*
 * Getting in sync, as perf 6.1's Intel PT decoder does: the first PSB+ of a
 * buffer (a psb event with the PSB+'s FUP address), a PSB+ met when in
 * sync (its FUP walked to first, perf's psb_with_fup lookahead), and after
 * an error the scan for the next packet that carries a full address.
 */
#include <errno.h>
#include "aux/pt-dec.h"

/* PSB+ when in sync: perf's intel_pt_walk_psbend() */
static int walk_psbend(struct pt_decoder *d)
{
	int err;

	d->in_psb = true;
	for (;;) {
		err = pt_dec__next_packet(d);
		if (err)
			break;
		switch (d->packet.type) {
		case PTP_PSBEND:
			err = 0;
			goto out;
		case PTP_TIP_PGD: case PTP_TIP_PGE: case PTP_TIP: case PTP_TNT:
		case PTP_TRACESTOP: case PTP_BAD: case PTP_PSB: case PTP_PTWRITE:
		case PTP_PTWRITE_IP: case PTP_EXSTOP: case PTP_EXSTOP_IP: case PTP_MWAIT:
		case PTP_PWRE: case PTP_PWRX:
			d->have_tma = false;
			err = -EAGAIN;
			goto out;
		case PTP_OVF:
			err = pt_dec__overflow(d);
			goto out;
		case PTP_TSC:
			pt_dec__calc_tsc(d);
			break;
		case PTP_TMA:
			pt_dec__calc_tma(d);
			break;
		case PTP_CBR:
			pt_dec__calc_cbr(d);
			break;
		case PTP_FUP:
			d->pge = true;
			if (d->packet.count) {
				set_last_ip(d);
				d->psb_ip = d->last_ip;
			}
			break;
		case PTP_MODE_TSX:
			update_in_tx(d);
			break;
		case PTP_MTC:
			pt_dec__calc_mtc(d);
			break;
		default:
			break;
		}
	}
out:
	d->in_psb = false;
	return err;
}

int pt_dec__psb(struct pt_decoder *d)
{
	int err;

	d->last_ip = 0;
	d->psb_ip = 0;
	d->have_last_ip = true;
	d->stack_n = 0;
	err = walk_psbend(d);
	if (err)
		return err;
	d->state.type = PTS_PSB_EVT;
	d->state.from_ip = d->psb_ip;
	d->state.to_ip = 0;
	return 0;
}

int pt_dec__fup_in_psb(struct pt_decoder *d)
{
	int err;

	if (d->ip != d->last_ip) {
		err = pt_dec__walk_fup(d);
		if (!err || err != -EAGAIN)
			return err;
	}
	d->pkt_state = PT_STATE_IN_SYNC;
	err = pt_dec__psb(d);
	if (err) {
		d->pkt_state = PT_STATE_ERR_RESYNC;
		return -ENOENT;
	}
	return 0;
}

struct psb_info {
	struct pt_pkt fup_packet;
	bool fup;
	int after_psbend;
};

/* the FUP of a PSB+ ahead, unless a TIP.PGE follows it (perf's lookahead) */
static int psb_lookahead_cb(const struct pt_pkt *p, void *arg)
{
	struct psb_info *data = arg;

	switch (p->type) {
	case PTP_PAD: case PTP_MNT: case PTP_TSC: case PTP_TMA: case PTP_MODE_EXEC:
	case PTP_MODE_TSX: case PTP_MTC: case PTP_CYC: case PTP_VMCS: case PTP_CBR: case PTP_PIP:
		if (data->after_psbend && !--data->after_psbend)
			return 1;
		return 0;
	case PTP_FUP:
		if (data->after_psbend || data->fup || p->count == 0)
			return 1;
		data->fup_packet = *p;
		data->fup = true;
		return 0;
	case PTP_PSBEND:
		if (!data->fup)
			return 1;
		data->after_psbend = 6;
		return 0;
	case PTP_TIP_PGE:
		if (data->after_psbend)
			data->fup = false;
		return 1;
	case PTP_PTWRITE: case PTP_PTWRITE_IP: case PTP_EXSTOP: case PTP_EXSTOP_IP:
	case PTP_MWAIT: case PTP_PWRE: case PTP_PWRX:
		if (data->after_psbend) {
			if (!--data->after_psbend)
				return 1;
			return 0;
		}
		return 1;
	default:
		return 1;
	}
}

bool pt_dec__psb_with_fup(struct pt_decoder *d, int *err)
{
	struct psb_info data = { .fup = false };

	if (!d->p.branch_enable || !d->pge)
		return false;
	pt_dec__lookahead(d, psb_lookahead_cb, &data);
	if (!data.fup)
		return false;
	d->packet = data.fup_packet;
	set_last_ip(d);
	d->pkt_state = PT_STATE_FUP_IN_PSB;
	*err = pt_dec__fup_in_psb(d);
	return true;
}

/* PSB+ to get in sync: perf's intel_pt_walk_psb() */
static int walk_psb(struct pt_decoder *d)
{
	int err;

	d->in_psb = true;
	for (;;) {
		err = pt_dec__next_packet(d);
		if (err)
			goto out;
		switch (d->packet.type) {
		case PTP_TIP_PGD:
			d->continuous_period = false;
			/* fall through */
		case PTP_TIP_PGE: case PTP_TIP: case PTP_PTWRITE: case PTP_PTWRITE_IP:
		case PTP_EXSTOP: case PTP_EXSTOP_IP: case PTP_MWAIT: case PTP_PWRE: case PTP_PWRX:
			err = -ENOENT;
			goto out;
		case PTP_FUP:
			d->pge = true;
			if (have_ip(d)) {
				set_ip(d);
				d->psb_ip = d->ip;
			}
			break;
		case PTP_MTC: case PTP_TSC: case PTP_TMA: case PTP_CYC:
			pt_dec__calc_time(d);
			break;
		case PTP_CBR:
			pt_dec__calc_cbr(d);
			break;
		case PTP_MODE_TSX:
			update_in_tx(d);
			break;
		case PTP_TRACESTOP:
			pt_dec__trace_stop(d);
			/* fall through */
		case PTP_TNT:
			d->have_tma = false;
			d->pkt_state = d->ip ? PT_STATE_IN_SYNC : PT_STATE_ERR_RESYNC;
			err = -ENOENT;
			goto out;
		case PTP_BAD:
			err = bug(d);
			goto out;
		case PTP_OVF:
			err = pt_dec__overflow(d);
			goto out;
		case PTP_PSBEND:
			err = 0;
			goto out;
		default:
			break;
		}
	}
out:
	d->in_psb = false;
	return err;
}

/* scan for a packet with a full address: perf's intel_pt_walk_to_ip() */
static int walk_to_ip(struct pt_decoder *d)
{
	int err;

	for (;;) {
		err = pt_dec__next_packet(d);
		if (err)
			return err;
		switch (d->packet.type) {
		case PTP_TIP_PGD:
			d->continuous_period = false;
			d->pge = false;
			if (have_ip(d))
				set_ip(d);
			if (!d->ip)
				break;
			d->state.type |= PTS_TRACE_END;
			return 0;
		case PTP_TIP_PGE:
		case PTP_TIP:
			d->pge = true;
			if (have_ip(d))
				set_ip(d);
			if (!d->ip)
				break;
			if (d->packet.type == PTP_TIP_PGE)
				d->state.type |= PTS_TRACE_BEGIN;
			return 0;
		case PTP_FUP:
			if (have_ip(d))
				set_ip(d);
			if (d->ip)
				return 0;
			break;
		case PTP_MTC: case PTP_TSC: case PTP_TMA: case PTP_CYC:
			pt_dec__calc_time(d);
			break;
		case PTP_CBR:
			pt_dec__calc_cbr(d);
			break;
		case PTP_MODE_TSX:
			update_in_tx(d);
			break;
		case PTP_OVF:
			return pt_dec__overflow(d);
		case PTP_BAD:
			return bug(d);
		case PTP_TRACESTOP:
			pt_dec__trace_stop(d);
			break;
		case PTP_PSB:
			d->state.psb_offset = d->pos;
			d->psb_ip = 0;
			d->last_ip = 0;
			d->have_last_ip = true;
			d->stack_n = 0;
			err = walk_psb(d);
			if (err)
				return err;
			d->state.type = PTS_PSB_EVT;
			d->state.from_ip = d->psb_ip;
			d->state.to_ip = 0;
			return 0;
		default:
			break;
		}
	}
}

int pt_dec__sync_ip(struct pt_decoder *d)
{
	int err;

	d->set_fup_tx_flags = d->set_fup_ptw = d->set_fup_mwait = false;
	d->set_fup_pwre = d->set_fup_exstop = false;
	if (!d->p.branch_enable) {
		d->pkt_state = PT_STATE_IN_SYNC;
		d->overflow = false;
		d->state.type = 0;
		return 0;
	}
	err = walk_to_ip(d);
	if (err || ((d->state.type & PTS_PSB_EVT) && !d->ip))
		return err;
	d->pkt_state = PT_STATE_IN_SYNC;
	d->overflow = false;
	d->state.from_ip = 0;
	d->state.to_ip = d->ip;
	return 0;
}

int pt_dec__sync(struct pt_decoder *d)
{
	int err;

	d->pge = false;
	d->continuous_period = false;
	d->have_last_ip = false;
	d->last_ip = 0;
	d->psb_ip = 0;
	d->ip = 0;
	d->stack_n = 0;
	err = pt_dec__scan_for_psb(d);
	if (err)
		return err;
	d->state.psb_offset = d->pos;
	d->have_last_ip = true;
	d->pkt_state = PT_STATE_NO_IP;
	err = walk_psb(d);
	if (err)
		return err;
	d->state.type = PTS_PSB_EVT;
	d->state.from_ip = d->psb_ip;
	d->state.to_ip = 0;
	if (d->ip)
		d->pkt_state = PT_STATE_IN_SYNC;
	return 0;
}
