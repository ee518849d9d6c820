// SPDX-License-Identifier: GPL-2.0
/*
 * Timestamps of the trace walk, in TSC ticks, as perf 6.1's decoder keeps
 * them: a TSC packet (7 bytes, the top byte from the buffer's reference
 * TSC or the last timestamp), TMA (the CTC at that TSC), MTC (CTC slices,
 * each a step of ctc_delta * TSC:CTC ratio from the TMA's base), CYC (cycle
 * counts at the CBR's ratio), and the instruction periods of --itrace=i.
 */
#include "aux/pt-dec.h"

static uint64_t multdiv(uint64_t t, uint32_t n, uint32_t d)
{
	if (!d)
		return 0;
	return (t / d) * n + ((t % d) * n) / d;
}

static uint64_t tsc_8b(uint64_t timestamp, uint64_t ref)
{
	timestamp |= ref & (0xffULL << 56);
	if (timestamp < ref) {
		if (ref - timestamp > (1ULL << 55))
			timestamp += 1ULL << 56;
	} else if (timestamp - ref > (1ULL << 55)) {
		timestamp -= 1ULL << 56;
	}
	return timestamp;
}

void pt_dec__calc_tsc(struct pt_decoder *d)
{
	uint64_t timestamp;

	d->have_tma = false;
	if (d->ref_timestamp) {
		timestamp = tsc_8b(d->packet.payload, d->ref_timestamp);
		d->tsc_timestamp = timestamp;
		d->timestamp = timestamp;
		d->ref_timestamp = 0;
		d->timestamp_insn_cnt = 0;
	} else if (d->timestamp) {
		timestamp = d->packet.payload | (d->timestamp & (0xffULL << 56));
		d->tsc_timestamp = timestamp;
		/* a TSC can slip behind MTCs a little: keep the later time */
		if (timestamp < d->timestamp && d->timestamp - timestamp < d->tsc_slip)
			timestamp = d->timestamp;
		if (timestamp < d->timestamp) {
			timestamp += 1ULL << 56;
			d->tsc_timestamp = timestamp;
		}
		d->timestamp = timestamp;
		d->timestamp_insn_cnt = 0;
	}
	/*
	 * Cycles count from a TSC that follows a CYC; perf 6.1 also counts
	 * them from the first TSC of the trace (seen in its intel_pt.log: the
	 * CYCs after the first PSB+ advance the time from its TSC).
	 */
	if (d->last_packet_type == PTP_CYC || !d->cyc_ref_timestamp) {
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
	}
}

void pt_dec__calc_tma(struct pt_decoder *d)
{
	uint32_t ctc = d->packet.payload;
	uint32_t fc = d->packet.count;
	uint32_t ctc_rem = ctc & d->ctc_rem_mask;

	if (!d->tsc_ctc_ratio_d)
		return;
	d->last_mtc = (ctc >> d->mtc_shift) & 0xff;
	d->ctc_timestamp = d->tsc_timestamp - fc;
	if (d->tsc_ctc_mult)
		d->ctc_timestamp -= (uint64_t)ctc_rem * d->tsc_ctc_mult;
	else
		d->ctc_timestamp -= multdiv(ctc_rem, d->tsc_ctc_ratio_n, d->tsc_ctc_ratio_d);
	d->ctc_delta = 0;
	d->have_tma = true;
	d->fixup_last_mtc = true;
}

/*
 * The TMA gives only 16 bits of CTC: with an MTC period above 8 some bits
 * of the MTC are not in it. Take them from the first MTC, assuming it comes
 * after the TMA's.
 */
static void fixup_last_mtc(uint32_t mtc, int mtc_shift, uint32_t *last_mtc)
{
	uint32_t first_missing_bit = 1U << (16 - mtc_shift);
	uint32_t mask = ~(first_missing_bit - 1);

	*last_mtc |= mtc & mask;
	if (*last_mtc >= mtc) {
		*last_mtc -= first_missing_bit;
		*last_mtc &= 0xff;
	}
}

void pt_dec__calc_mtc(struct pt_decoder *d)
{
	uint64_t timestamp;
	uint32_t mtc, mtc_delta;

	if (!d->have_tma)
		return;
	mtc = d->packet.payload;
	if (d->mtc_shift > 8 && d->fixup_last_mtc) {
		d->fixup_last_mtc = false;
		fixup_last_mtc(mtc, d->mtc_shift, &d->last_mtc);
	}
	if (mtc > d->last_mtc)
		mtc_delta = mtc - d->last_mtc;
	else
		mtc_delta = mtc + 256 - d->last_mtc;
	d->ctc_delta += (uint64_t)mtc_delta << d->mtc_shift;
	if (d->tsc_ctc_mult)
		timestamp = d->ctc_timestamp + d->ctc_delta * d->tsc_ctc_mult;
	else
		timestamp = d->ctc_timestamp +
			    multdiv(d->ctc_delta, d->tsc_ctc_ratio_n, d->tsc_ctc_ratio_d);
	/* never backwards */
	if (timestamp >= d->timestamp)
		d->timestamp = timestamp;
	d->timestamp_insn_cnt = 0;
	d->last_mtc = mtc;
	if (d->last_packet_type == PTP_CYC) {
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
	}
}

void pt_dec__calc_cbr(struct pt_decoder *d)
{
	unsigned int cbr = d->packet.payload & 0xff;

	d->cbr_payload = d->packet.payload;
	if (d->cbr == cbr || !cbr)
		return;
	d->cbr = cbr;
	d->cbr_cyc_to_tsc = d->max_non_turbo_ratio_fp / cbr;
}

/*
 * perf first tries to calibrate cycles against the next MTC (a lookahead);
 * pulse uses the CBR ratio alone, perf's fallback: CYC-based times may
 * differ from perf's by the calibration.
 */
void pt_dec__calc_cyc(struct pt_decoder *d)
{
	uint64_t timestamp = d->cyc_ref_timestamp;

	d->have_cyc = true;
	d->cycle_cnt += d->packet.payload;
	if (!d->cyc_ref_timestamp || !d->cbr)
		return;
	/* a count too big for a timestamp (corrupt data): no time from it */
	if ((double)d->cycle_cnt * d->cbr_cyc_to_tsc >= 1.8e19 - (double)timestamp)
		return;
	timestamp += d->cycle_cnt * d->cbr_cyc_to_tsc;
	if (timestamp >= d->timestamp)
		d->timestamp = timestamp;
	d->timestamp_insn_cnt = 0;
}

/* ---- instruction periods ---------------------------------------------------- */

static uint64_t next_period(struct pt_decoder *d)
{
	uint64_t timestamp, masked;

	timestamp = d->timestamp + d->timestamp_insn_cnt;
	masked = timestamp & d->period_mask;
	if (d->continuous_period) {
		if (masked > d->last_masked_timestamp)
			return 1;
	} else {
		timestamp += 1;
		masked = timestamp & d->period_mask;
		if (masked > d->last_masked_timestamp) {
			d->last_masked_timestamp = masked;
			d->continuous_period = true;
		}
	}
	if (masked < d->last_masked_timestamp)
		return d->period_ticks;
	return d->period_ticks - (timestamp - masked);
}

/* how many instructions until the next instruction sample; 0: none */
uint64_t pt_dec__next_sample(struct pt_decoder *d)
{
	switch (d->p.period_type) {
	case PT_PERIOD_INSTRUCTIONS:
		return d->p.period - d->period_insn_cnt;
	case PT_PERIOD_TICKS:
		return next_period(d);
	default:
		return 0;
	}
}

void pt_dec__sample_insn(struct pt_decoder *d)
{
	uint64_t timestamp, masked;

	switch (d->p.period_type) {
	case PT_PERIOD_INSTRUCTIONS:
		d->period_insn_cnt = 0;
		break;
	case PT_PERIOD_TICKS:
		timestamp = d->timestamp + d->timestamp_insn_cnt;
		masked = timestamp & d->period_mask;
		if (masked > d->last_masked_timestamp)
			d->last_masked_timestamp = masked;
		else
			d->last_masked_timestamp += d->period_ticks;
		break;
	default:
		break;
	}
	d->state.type |= PTS_INSTRUCTION;
}

/* perf repeats these four cases in each of its walks: here they are one */
void pt_dec__calc_time(struct pt_decoder *d)
{
	switch (d->packet.type) {
	case PTP_MTC:
		pt_dec__calc_mtc(d);
		break;
	case PTP_TSC:
		pt_dec__calc_tsc(d);
		break;
	case PTP_TMA:
		pt_dec__calc_tma(d);
		break;
	case PTP_CYC:
		pt_dec__calc_cyc(d);
		break;
	default:
		break;
	}
}
