/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the Intel PT decoder (lib/aux/pt*.c).
 *
 * pt-decoder.c  the trace walk: perf 6.1's decoder state machine
 *               (tools/perf/util/intel-pt-decoder/intel-pt-decoder.c) over
 *               the packets libipt's packet decoder reads; timestamps
 * pt-insn.c     the x86 instruction classifier the walk needs
 * pt.c          queues of AUXTRACE buffers, side-band, the samples and
 *               errors perf's intel-pt.c synthesizes from the walk
 * pt-code.c     reading code from the binaries the maps name
 *
 * Why not libipt's own instruction or block decoder: perf does not use
 * libipt, and its output (which errors, where it resynchronizes, which
 * samples carry which timestamps) is the walk of its own decoder. libipt
 * reads the packets; the walk over them is perf's, so that the lines match.
 */
#ifndef PULSE_AUX_PT_INT_H
#define PULSE_AUX_PT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* perf's packet types, the subset libipt 2.0 reads */
enum pt_pkt_type {
	PTP_BAD, PTP_PAD, PTP_TNT, PTP_TIP_PGD, PTP_TIP_PGE, PTP_TSC, PTP_TMA, PTP_MODE_EXEC,
	PTP_MODE_TSX, PTP_MTC, PTP_TIP, PTP_FUP, PTP_CYC, PTP_VMCS, PTP_PSB, PTP_PSBEND,
	PTP_CBR, PTP_TRACESTOP, PTP_PIP, PTP_OVF, PTP_MNT, PTP_PTWRITE, PTP_PTWRITE_IP,
	PTP_EXSTOP, PTP_EXSTOP_IP, PTP_MWAIT, PTP_PWRE, PTP_PWRX,
};

struct pt_pkt {
	int type;
	int count;		/* IP compression; TNT bits; TMA fc; MODE_TSX unused */
	uint64_t payload;	/* TNT: left-aligned, the oldest bit in bit 63 */
};

/* perf's intel_pt_insn: what the walk needs of one instruction */
enum { PT_BR_NO_BRANCH, PT_BR_INDIRECT, PT_BR_CONDITIONAL, PT_BR_UNCONDITIONAL };
enum {
	PT_OP_OTHER, PT_OP_CALL, PT_OP_RET, PT_OP_JCC, PT_OP_JMP, PT_OP_LOOP, PT_OP_IRET,
	PT_OP_INT, PT_OP_SYSCALL, PT_OP_SYSRET, PT_OP_VMENTRY,
};

struct pt_insn_info {
	int op, branch;
	int length;
	int32_t rel;
};

/* pt-insn.c: classify the instruction at @buf (@len bytes, 64-bit mode or not) */
int pt_insn__decode(const uint8_t *buf, size_t len, bool x86_64, struct pt_insn_info *insn);
/* perf's intel_pt_insn_type(): the PERF_IP_FLAG_* bits of a branch op */
uint32_t pt_insn__flags(int op);

/* the decoder's sample types (perf's enum intel_pt_sample_type) */
enum {
	PTS_BRANCH = 1 << 0, PTS_INSTRUCTION = 1 << 1, PTS_TRANSACTION = 1 << 2,
	PTS_PTW = 1 << 3, PTS_MWAIT_OP = 1 << 4, PTS_PWR_ENTRY = 1 << 5, PTS_EX_STOP = 1 << 6,
	PTS_PWR_EXIT = 1 << 7, PTS_CBR_CHG = 1 << 8, PTS_TRACE_BEGIN = 1 << 9,
	PTS_TRACE_END = 1 << 10, PTS_PSB_EVT = 1 << 12,
};
#define PT_IN_TX (1 << 0)
#define PT_ABORT_TX (1 << 1)
#define PT_ASYNC (1 << 2)
#define PT_FUP_IP (1 << 3)

/* perf's INTEL_PT_ERR_* (the code an error event carries) */
enum {
	PT_ERR_NOMEM = 1, PT_ERR_INTERN, PT_ERR_BADPKT, PT_ERR_NODATA, PT_ERR_NOINSN,
	PT_ERR_MISMAT, PT_ERR_OVR, PT_ERR_LOST, PT_ERR_UNK, PT_ERR_NELOOP, PT_ERR_MAX,
};
const char *pt_err_msg(int code);

enum pt_period_type { PT_PERIOD_NONE, PT_PERIOD_INSTRUCTIONS, PT_PERIOD_TICKS };

struct pt_state {
	int type;
	int err;
	uint32_t flags;
	uint64_t from_ip, to_ip;
	uint64_t timestamp, est_timestamp;
	uint64_t tot_insn_cnt;
	uint64_t psb_offset;
	uint64_t ptw_payload, mwait_payload, pwre_payload, pwrx_payload, cbr_payload;
	unsigned int cbr;
	int insn_op, insn_len;
	int trace_nr;
};

/* the next buffer of a queue: data, length, consecutive?, reference TSC */
struct pt_buffer {
	const uint8_t *buf;
	size_t len;
	uint64_t ref_timestamp;
	uint64_t offset;	/* where it starts in the queue's trace */
	bool consecutive;	/* continues the previous buffer */
	int trace_nr;
};

typedef int (*pt_get_trace_fn)(struct pt_buffer *b, void *data);
/*
 * perf's walk_insn callback: from *@ip, walk instructions up to a branch
 * (returned in @insn, *@ip left on it), @to_ip or @max_insn_cnt; 0, -EINVAL
 * (an error the user sees) or -ENOENT (a binary already known to be unreadable)
 */
typedef int (*pt_walk_insn_fn)(struct pt_insn_info *insn, uint64_t *insn_cnt, uint64_t *ip,
			       uint64_t to_ip, uint64_t max_insn_cnt, void *data);

struct pt_params {
	pt_get_trace_fn get_trace;
	pt_walk_insn_fn walk_insn;
	void *data;
	bool return_compression, branch_enable;
	enum pt_period_type period_type;
	uint64_t period;
	unsigned int max_non_turbo_ratio;
	int mtc_period;
	uint32_t tsc_ctc_ratio_n, tsc_ctc_ratio_d;
};

struct pt_decoder;
struct pt_decoder *pt_decoder__new(const struct pt_params *p);
void pt_decoder__delete(struct pt_decoder *d);
const struct pt_state *pt_decoder__decode(struct pt_decoder *d);

#endif
