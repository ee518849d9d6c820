// SPDX-License-Identifier: GPL-2.0
/*
 * The walk states of the Intel PT decoder, in perf 6.1's order and with its
 * choices (intel-pt-decoder.c): a PSB+ synchronizes; TNT, TIP and FUP
 * packets are matched against the instructions walk_insn finds; an error
 * leaves the walk in NO_IP (scan for the next packet with a full address),
 * ERR_RESYNC (the next packet with an address) or the current state, as
 * perf's ERR1..ERR4 do.
 */
#include <errno.h>
#include "aux/pt-dec.h"

int pt_dec__overflow(struct pt_decoder *d)
{
	d->tx_flags = 0;
	d->timestamp_insn_cnt = 0;
	d->pkt_state = PT_STATE_IN_SYNC;
	d->state.from_ip = d->ip;
	d->ip = 0;
	d->pge = false;
	d->set_fup_tx_flags = d->set_fup_ptw = d->set_fup_mwait = false;
	d->set_fup_pwre = d->set_fup_exstop = false;
	d->overflow = true;
	return -EOVERFLOW;
}

/* perf's intel_pt_walk_insn(): one call of the binary walker */
static int walk_insn(struct pt_decoder *d, struct pt_insn_info *insn, uint64_t ip)
{
	uint64_t max_insn_cnt, insn_cnt = 0;
	int err;

	d->mtc_insn = true;
	max_insn_cnt = pt_dec__next_sample(d);
	*insn = (struct pt_insn_info){ 0 };
	err = d->p.walk_insn(insn, &insn_cnt, &d->ip, ip, max_insn_cnt, d->p.data);
	d->tot_insn_cnt += insn_cnt;
	d->timestamp_insn_cnt += insn_cnt;
	d->sample_insn_cnt += insn_cnt;
	d->period_insn_cnt += insn_cnt;
	if (err) {
		d->no_progress = 0;
		d->pkt_state = PT_STATE_NO_IP;
		/* a binary already known to be unreadable: on, silently */
		return err == -ENOENT ? -ENOLINK : -EILSEQ;
	}
	if (ip && d->ip == ip) {
		err = -EAGAIN;
		goto out;
	}
	if (max_insn_cnt && insn_cnt >= max_insn_cnt)
		pt_dec__sample_insn(d);
	if (insn->branch == PT_BR_NO_BRANCH) {
		d->state.type = PTS_INSTRUCTION;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->ip += insn->length;
		err = PT_RETURN;
		goto out;
	}
	if (insn->op == PT_OP_CALL) {
		/* zero-length calls (call next) are not pushed */
		if (insn->branch != PT_BR_UNCONDITIONAL || insn->rel) {
			err = pt_dec__push(d, d->ip + insn->length);
			if (err)
				goto out;
		}
	} else if (insn->op == PT_OP_RET) {
		d->ret_addr = pt_dec__pop(d);
	}
	if (insn->branch == PT_BR_UNCONDITIONAL) {
		int cnt = d->no_progress++;

		d->state.from_ip = d->ip;
		d->ip += (int64_t)insn->length + insn->rel;
		d->state.to_ip = d->ip;
		err = PT_RETURN;
		/* stuck in a loop that consumes no packet: there must be a jump */
		if (cnt) {
			if (cnt == 1) {
				d->stuck_ip = d->state.to_ip;
				d->stuck_ip_prd = 1;
				d->stuck_ip_cnt = 1;
			} else if (cnt > 100000 || d->state.to_ip == d->stuck_ip) {
				d->pkt_state = PT_STATE_ERR_RESYNC;
				err = -ELOOP;
				goto out;
			} else if (!--d->stuck_ip_cnt) {
				d->stuck_ip_prd += 1;
				d->stuck_ip_cnt = d->stuck_ip_prd;
				d->stuck_ip = d->state.to_ip;
			}
		}
		goto out_no_progress;
	}
out:
	d->no_progress = 0;
out_no_progress:
	d->state.insn_op = insn->op;
	d->state.insn_len = insn->length;
	if (d->tx_flags & PT_IN_TX)
		d->state.flags |= PT_IN_TX;
	return err;
}

/* the events a FUP completes (perf's intel_pt_fup_event()) */
bool pt_dec__fup_event(struct pt_decoder *d)
{
	int type = d->state.type;
	bool ret = false;

	d->state.type &= ~PTS_BRANCH;
	if (d->set_fup_tx_flags) {
		d->set_fup_tx_flags = false;
		d->tx_flags = d->fup_tx_flags;
		d->state.type |= PTS_TRANSACTION;
		if (d->fup_tx_flags & PT_ABORT_TX)
			d->state.type |= PTS_BRANCH;
		d->state.flags = d->fup_tx_flags;
		ret = true;
	}
	if (d->set_fup_ptw) {
		d->set_fup_ptw = false;
		d->state.type |= PTS_PTW;
		d->state.flags |= PT_FUP_IP;
		d->state.ptw_payload = d->fup_ptw_payload;
		ret = true;
	}
	if (d->set_fup_mwait) {
		d->set_fup_mwait = false;
		d->state.type |= PTS_MWAIT_OP;
		d->state.mwait_payload = d->fup_mwait_payload;
		ret = true;
	}
	if (d->set_fup_pwre) {
		d->set_fup_pwre = false;
		d->state.type |= PTS_PWR_ENTRY;
		d->state.pwre_payload = d->fup_pwre_payload;
		ret = true;
	}
	if (d->set_fup_exstop) {
		d->set_fup_exstop = false;
		d->state.type |= PTS_EX_STOP;
		d->state.flags |= PT_FUP_IP;
		ret = true;
	}
	/* the FUP after an overflow: tracing resumes there */
	if (d->overflow) {
		d->overflow = false;
		if (!ret && !d->pge) {
			d->pge = true;
			d->state.type |= PTS_BRANCH | PTS_TRACE_BEGIN;
			d->state.from_ip = 0;
			d->state.to_ip = d->ip;
			return true;
		}
	}
	if (ret) {
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
	} else {
		d->state.type = type;
	}
	return ret;
}

int pt_dec__walk_fup(struct pt_decoder *d)
{
	struct pt_insn_info insn;
	uint64_t ip = d->last_ip;
	int err;

	for (;;) {
		err = walk_insn(d, &insn, ip);
		if (err == PT_RETURN)
			return 0;
		if (err == -EAGAIN) {
			bool no_tip = d->pkt_state != PT_STATE_FUP;

			d->pkt_state = PT_STATE_IN_SYNC;
			if (pt_dec__fup_event(d) && no_tip)
				return 0;
			return -EAGAIN;
		}
		d->set_fup_tx_flags = false;
		if (err)
			return err;
		/* a FUP's address is where the walk must stop: no branch before it */
		if (insn.branch == PT_BR_INDIRECT || insn.branch == PT_BR_CONDITIONAL) {
			d->pkt_state = PT_STATE_ERR_RESYNC;
			return -ENOENT;
		}
		return bug(d);
	}
}

int pt_dec__walk_tip(struct pt_decoder *d)
{
	struct pt_insn_info insn;
	int err;

	err = walk_insn(d, &insn, 0);
	if (err == PT_RETURN)
		return 0;
	if (err)
		return err;
	if (insn.branch == PT_BR_INDIRECT) {
		if (d->pkt_state == PT_STATE_TIP_PGD) {
			d->pge = false;
			d->continuous_period = false;
			d->state.type |= PTS_TRACE_END;
		}
		d->pkt_state = PT_STATE_IN_SYNC;
		d->state.from_ip = d->ip;
		if (d->packet.count == 0) {
			d->state.to_ip = 0;
		} else {
			d->state.to_ip = d->last_ip;
			d->ip = d->last_ip;
		}
		return 0;
	}
	if (insn.branch == PT_BR_CONDITIONAL) {
		/* a conditional branch where the TIP wants an indirect one */
		d->pkt_state = PT_STATE_ERR_RESYNC;
		return -ENOENT;
	}
	return bug(d);
}

int pt_dec__walk_tnt(struct pt_decoder *d)
{
	struct pt_insn_info insn;
	int err;

	for (;;) {
		err = walk_insn(d, &insn, 0);
		if (err == PT_RETURN)
			return 0;
		if (err)
			return err;
		if (insn.op == PT_OP_RET) {
			if (!d->p.return_compression || !d->ret_addr ||
			    !(d->tnt.payload & BIT63)) {
				d->pkt_state = PT_STATE_ERR_RESYNC;
				return -ENOENT;
			}
			d->tnt.count -= 1;
			d->pkt_state = d->tnt.count ? PT_STATE_TNT_CONT : PT_STATE_IN_SYNC;
			d->tnt.payload <<= 1;
			d->state.from_ip = d->ip;
			d->ip = d->ret_addr;
			d->state.to_ip = d->ip;
			return 0;
		}
		if (insn.branch == PT_BR_INDIRECT) {
			/* a deferred TIP */
			err = pt_dec__next_packet(d);
			if (err)
				return err;
			if (d->packet.type != PTP_TIP || d->packet.count == 0) {
				d->pkt_state = PT_STATE_ERR_RESYNC;
				d->pkt_step = 0;
				return -ENOENT;
			}
			set_last_ip(d);
			d->state.from_ip = d->ip;
			d->state.to_ip = d->last_ip;
			d->ip = d->last_ip;
			return 0;
		}
		if (insn.branch == PT_BR_CONDITIONAL) {
			d->tnt.count -= 1;
			d->pkt_state = d->tnt.count ? PT_STATE_TNT_CONT : PT_STATE_IN_SYNC;
			if (d->tnt.payload & BIT63) {
				d->tnt.payload <<= 1;
				d->state.from_ip = d->ip;
				d->ip += (int64_t)insn.length + insn.rel;
				d->state.to_ip = d->ip;
				return 0;
			}
			/* an instruction sample on a branch not taken */
			if (d->state.type & PTS_INSTRUCTION) {
				d->tnt.payload <<= 1;
				d->state.type = PTS_INSTRUCTION;
				d->state.from_ip = d->ip;
				d->state.to_ip = 0;
				d->ip += insn.length;
				return 0;
			}
			d->ip += insn.length;
			if (!d->tnt.count) {
				d->sample_timestamp = d->timestamp;
				d->sample_insn_cnt = d->timestamp_insn_cnt;
				return -EAGAIN;
			}
			d->tnt.payload <<= 1;
			continue;
		}
		return bug(d);
	}
}

static int mode_tsx(struct pt_decoder *d, bool *no_tip)
{
	unsigned int fup_tx_flags = d->packet.payload & (PT_IN_TX | PT_ABORT_TX);
	int err;

	err = pt_dec__next_packet(d);
	if (err)
		return err;
	if (d->packet.type == PTP_FUP) {
		d->fup_tx_flags = fup_tx_flags;
		d->set_fup_tx_flags = true;
		if (!(d->fup_tx_flags & PT_ABORT_TX))
			*no_tip = true;
	} else {
		update_in_tx(d);
	}
	return 0;
}

int pt_dec__walk_fup_tip(struct pt_decoder *d)
{
	int err;

	if (d->tx_flags & PT_ABORT_TX) {
		d->tx_flags = 0;
		d->state.flags &= ~PT_IN_TX;
		d->state.flags |= PT_ABORT_TX;
	} else {
		d->state.flags |= PT_ASYNC;
	}
	for (;;) {
		err = pt_dec__next_packet(d);
		if (err)
			return err;
		switch (d->packet.type) {
		case PTP_CBR:
			pt_dec__calc_cbr(d);
			break;
		case PTP_OVF:
			return pt_dec__overflow(d);
		case PTP_TIP_PGD:
		case PTP_TIP_PGE:
		case PTP_TIP:
			d->state.from_ip = d->packet.type == PTP_TIP_PGE ? 0 : d->ip;
			if (d->packet.count == 0) {
				d->state.to_ip = 0;
			} else {
				set_ip(d);
				d->state.to_ip = d->ip;
			}
			if (d->packet.type == PTP_TIP_PGD) {
				d->pge = false;
				d->continuous_period = false;
				d->state.type |= PTS_TRACE_END;
			} else if (d->packet.type == PTP_TIP_PGE) {
				d->pge = true;
				d->state.type |= PTS_TRACE_BEGIN;
			}
			return 0;
		case PTP_PIP:
		case PTP_VMCS:
		case PTP_MNT:
		case PTP_PAD:
			break;
		case PTP_MTC:
			pt_dec__calc_mtc(d);
			break;
		case PTP_CYC:
			pt_dec__calc_cyc(d);
			break;
		case PTP_MODE_EXEC:
			break;
		default:
			/* a FUP not followed by its TIP */
			d->pkt_state = PT_STATE_ERR_RESYNC;
			d->pkt_step = 0;
			return -ENOENT;
		}
	}
}

int pt_dec__walk_trace(struct pt_decoder *d)
{
	bool no_tip = false;
	int err;

	for (;;) {
		err = pt_dec__next_packet(d);
		if (err)
			return err;
next:
		switch (d->packet.type) {
		case PTP_TNT:
			if (!d->packet.count)
				break;
			d->tnt = d->packet;
			d->pkt_state = PT_STATE_TNT;
			err = pt_dec__walk_tnt(d);
			if (err == -EAGAIN)
				break;
			return err;
		case PTP_TIP_PGD:
			if (d->packet.count != 0)
				set_last_ip(d);
			d->pkt_state = PT_STATE_TIP_PGD;
			return pt_dec__walk_tip(d);
		case PTP_TIP_PGE:
			d->pge = true;
			d->overflow = false;
			if (d->packet.count == 0)
				break;
			set_ip(d);
			d->state.from_ip = 0;
			d->state.to_ip = d->ip;
			d->state.type |= PTS_TRACE_BEGIN;
			return 0;
		case PTP_OVF:
			return pt_dec__overflow(d);
		case PTP_TIP:
			if (d->packet.count != 0)
				set_last_ip(d);
			d->pkt_state = PT_STATE_TIP;
			return pt_dec__walk_tip(d);
		case PTP_FUP:
			if (d->packet.count == 0) {
				no_tip = false;
				break;
			}
			set_last_ip(d);
			if (!d->p.branch_enable || !d->pge) {
				d->ip = d->last_ip;
				if (pt_dec__fup_event(d))
					return 0;
				no_tip = false;
				break;
			}
			if (d->set_fup_mwait)
				no_tip = true;
			d->pkt_state = no_tip ? PT_STATE_FUP_NO_TIP : PT_STATE_FUP;
			err = pt_dec__walk_fup(d);
			if (err != -EAGAIN)
				return err;
			if (no_tip) {
				no_tip = false;
				break;
			}
			return pt_dec__walk_fup_tip(d);
		case PTP_TRACESTOP:
			pt_dec__trace_stop(d);
			break;
		case PTP_PSB:
			d->state.psb_offset = d->pos;
			d->psb_ip = 0;
			if (pt_dec__psb_with_fup(d, &err))
				return err;
			err = pt_dec__psb(d);
			if (err == -EAGAIN)
				goto next;
			return err;
		case PTP_MTC: case PTP_TSC: case PTP_TMA: case PTP_CYC:
			pt_dec__calc_time(d);
			break;
		case PTP_CBR:
			pt_dec__calc_cbr(d);
			if (d->cbr != d->cbr_seen) {
				d->state.type = 0;
				return 0;
			}
			break;
		case PTP_MODE_TSX:
			if (!d->pge || d->in_psb) {
				update_in_tx(d);
				break;
			}
			err = mode_tsx(d, &no_tip);
			if (err)
				return err;
			goto next;
		case PTP_BAD:
			return bug(d);
		case PTP_PTWRITE_IP:
			d->fup_ptw_payload = d->packet.payload;
			err = pt_dec__next_packet(d);
			if (err)
				return err;
			if (d->packet.type == PTP_FUP) {
				d->set_fup_ptw = true;
				no_tip = true;
			}
			goto next;
		case PTP_PTWRITE:
			d->state.type = PTS_PTW;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.ptw_payload = d->packet.payload;
			return 0;
		case PTP_MWAIT:
			d->fup_mwait_payload = d->packet.payload;
			d->set_fup_mwait = true;
			break;
		case PTP_PWRE:
			if (d->set_fup_mwait) {
				d->fup_pwre_payload = d->packet.payload;
				d->set_fup_pwre = true;
				break;
			}
			d->state.type = PTS_PWR_ENTRY;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.pwrx_payload = d->packet.payload;
			return 0;
		case PTP_EXSTOP_IP:
			err = pt_dec__next_packet(d);
			if (err)
				return err;
			if (d->packet.type == PTP_FUP) {
				d->set_fup_exstop = true;
				no_tip = true;
			}
			goto next;
		case PTP_EXSTOP:
			d->state.type = PTS_EX_STOP;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			return 0;
		case PTP_PWRX:
			d->state.type = PTS_PWR_EXIT;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.pwrx_payload = d->packet.payload;
			return 0;
		default:	/* PSBEND, VMCS, MNT, PAD, PIP, MODE_EXEC */
			break;
		}
	}
}

