// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the Intel PT decoder (lib/aux/pt-*.c): the input is
 * a trace. Its first byte picks the decoder's parameters (return
 * compression, branch enable, the period kind, MTC period) and where the
 * trace is cut into two AUXTRACE buffers; the rest is the trace, and also
 * the code the walk reads, mapped at CODE_BASE (so that the instruction
 * classifier sees arbitrary bytes too). Every state is decoded to the end
 * of the data, as pulse script does, with a bound on the steps. Built by
 * `make fuzz`; run by tests/fuzz/run-fuzz.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "aux/pt-int.h"

#define CODE_BASE 0x400000ULL
#define MAX_STEPS 200000

struct input {
	const uint8_t *trace;
	size_t len, cut;
	int next;		/* the next buffer to hand out */
	bool seen_error;	/* perf's two-strike rule for the one binary */
	int errors;
};

static int get_trace(struct pt_buffer *b, void *data)
{
	struct input *in = data;

	memset(b, 0, sizeof(*b));
	if (in->next == 0) {
		b->buf = in->trace;
		b->len = in->cut;
		b->ref_timestamp = 0x1000000;
	} else if (in->next == 1) {
		b->buf = in->trace + in->cut;
		b->len = in->len - in->cut;
		b->offset = in->cut;
		b->consecutive = true;
	}
	in->next++;
	return 0;
}

static int walk_insn(struct pt_insn_info *insn, uint64_t *insn_cnt, uint64_t *ip, uint64_t to_ip,
		     uint64_t max_insn_cnt, void *data)
{
	struct input *in = data;
	uint64_t cnt = 0;

	insn->length = 0;
	if (to_ip && *ip == to_ip)
		goto out;
	for (;;) {
		uint64_t off;

		if (*ip < CODE_BASE || *ip - CODE_BASE >= in->len) {
			if (in->errors++ > 1 && in->seen_error)
				return -ENOENT;
			in->seen_error = true;
			return -EINVAL;
		}
		off = *ip - CODE_BASE;
		if (pt_insn__decode(in->trace + off, in->len - off < 16 ? in->len - off : 16, true,
				    insn))
			return -EINVAL;
		cnt++;
		if (insn->branch != PT_BR_NO_BRANCH)
			break;
		if (max_insn_cnt && cnt >= max_insn_cnt)
			break;
		*ip += insn->length;
		if (to_ip && *ip == to_ip) {
			insn->length = 0;
			break;
		}
	}
out:
	*insn_cnt = cnt;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { 0 };
	struct pt_params p = { 0 };
	struct pt_decoder *d;
	uint8_t cfg;

	if (size < 2)
		return 0;
	cfg = data[0];
	in.trace = data + 1;
	in.len = size - 1;
	in.cut = cfg & 0x80 ? in.len / 2 : in.len;
	p.get_trace = get_trace;
	p.walk_insn = walk_insn;
	p.data = &in;
	p.return_compression = cfg & 1;
	p.branch_enable = !(cfg & 2);
	p.period_type = (cfg >> 2) & 3;
	if (p.period_type > PT_PERIOD_TICKS)
		p.period_type = PT_PERIOD_NONE;
	p.period = p.period_type == PT_PERIOD_TICKS ? 100 : 3;
	p.max_non_turbo_ratio = cfg & 0x10 ? 0 : 24;
	p.mtc_period = cfg & 0x20 ? 3 : 10;
	p.tsc_ctc_ratio_n = cfg & 0x40 ? 7 : 100;
	p.tsc_ctc_ratio_d = cfg & 0x40 ? 3 : 2;
	d = pt_decoder__new(&p);
	if (!d)
		return 0;
	for (int i = 0; i < MAX_STEPS; i++) {
		const struct pt_state *st = pt_decoder__decode(d);

		if (st->err == PT_ERR_NODATA)
			break;
		(void)pt_err_msg(st->err);
	}
	pt_decoder__delete(d);
	return 0;
}
