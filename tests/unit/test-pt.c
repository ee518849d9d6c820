// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel PT decoder's parts: the x86 classifier the walk uses (lengths,
 * branch kinds and displacements of common encodings), and the walk on
 * packets libipt's encoder writes: a PSB+ is a psb event at its FUP, a
 * TIP.PGE a trace start, an unreadable binary an error then silence, and a
 * corrupt CYC count (found by tests/fuzz/fuzz-pt) leaves the time alone.
 */
#include <errno.h>
#include <intel-pt.h>
#include "aux/pt-int.h"
#include "test.h"

static void check_insn(const char *hex, int len, int op, int branch, int rel, int line)
{
	uint8_t b[16];
	struct pt_insn_info insn;
	size_t n = 0;

	for (const char *p = hex; p[0] && p[1]; p += 2)
		sscanf(p, "%2hhx", &b[n++]);
	if (pt_insn__decode(b, n, true, &insn) || insn.length != len || insn.op != op ||
	    insn.branch != branch || insn.rel != rel) {
		printf("#   line %d: %s: length %d op %d branch %d rel %d\n", line, hex, insn.length,
		       insn.op, insn.branch, insn.rel);
		test__failed = 1;
	}
}

#define INSN(h, l, o, b, r) check_insn(h, l, o, b, r, __LINE__)

static void test_pt__insn(void)
{
	INSN("e838000000", 5, PT_OP_CALL, PT_BR_UNCONDITIONAL, 0x38);
	INSN("c3", 1, PT_OP_RET, PT_BR_INDIRECT, 0);
	INSN("7404", 2, PT_OP_JCC, PT_BR_CONDITIONAL, 4);
	INSN("75da", 2, PT_OP_JCC, PT_BR_CONDITIONAL, -38);
	INSN("ffd1", 2, PT_OP_CALL, PT_BR_INDIRECT, 0);
	INSN("ffe2", 2, PT_OP_JMP, PT_BR_INDIRECT, 0);
	INSN("488d0d1a000000", 7, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("0f05", 2, PT_OP_SYSCALL, PT_BR_INDIRECT, 0);
	INSN("0f8410000000", 6, PT_OP_JCC, PT_BR_CONDITIONAL, 0x10);
	INSN("48b80102030405060708", 10, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("c4e279180500000000", 9, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("660f1f440000", 6, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("f30f1efa", 4, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("ebfe", 2, PT_OP_JMP, PT_BR_UNCONDITIONAL, -2);
	INSN("e9fbffffff", 5, PT_OP_JMP, PT_BR_UNCONDITIONAL, -5);
	INSN("cd80", 2, PT_OP_INT, PT_BR_INDIRECT, 0);
	INSN("48cf", 2, PT_OP_IRET, PT_BR_INDIRECT, 0);
	INSN("8b442408", 4, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
	INSN("c7442408ffffffff", 8, PT_OP_OTHER, PT_BR_NO_BRANCH, 0);
}

struct trace {
	uint8_t buf[256];
	size_t len;
	bool given;
	int walks;
};

static int get_trace(struct pt_buffer *b, void *data)
{
	struct trace *t = data;

	memset(b, 0, sizeof(*b));
	if (!t->given) {
		b->buf = t->buf;
		b->len = t->len;
		b->ref_timestamp = 0x100000;
		t->given = true;
	}
	return 0;
}

/* no binary at all: the first walk an error, the next ones silent */
static int walk_insn(struct pt_insn_info *insn, uint64_t *cnt, uint64_t *ip, uint64_t to_ip,
		     uint64_t max, void *data)
{
	struct trace *t = data;

	*cnt = 0;
	if (to_ip && *ip == to_ip)
		return 0;
	return t->walks++ ? -ENOENT : -EINVAL;
}

static void encode(struct trace *t, const struct pt_packet *p, size_t n)
{
	struct pt_config cfg = { .size = sizeof(cfg), .begin = t->buf,
				 .end = t->buf + sizeof(t->buf) };
	struct pt_encoder *e = pt_alloc_encoder(&cfg);

	for (size_t i = 0; i < n; i++)
		if (pt_enc_next(e, &p[i]) < 0)
			printf("#   packet %zu not encoded\n", i);
	{
		uint64_t off = 0;

		pt_enc_get_offset(e, &off);
		t->len = off;
	}
	pt_free_encoder(e);
}

static void test_pt__walk(void)
{
	struct pt_packet p[8] = {
		{ .type = ppt_psb },
		{ .type = ppt_fup, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = 0x401000 } },
		{ .type = ppt_tsc, .payload.tsc.tsc = 0x1234 },
		{ .type = ppt_cbr, .payload.cbr.ratio = 20 },
		{ .type = ppt_psbend },
		{ .type = ppt_tnt_8, .payload.tnt = { .bit_size = 1, .payload = 1 } },
		{ .type = ppt_tip_pge, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = 0x402000 } },
		{ .type = ppt_tnt_8, .payload.tnt = { .bit_size = 1, .payload = 1 } },
	};
	struct trace t = { .len = 0 };
	struct pt_params par = { .get_trace = get_trace, .walk_insn = walk_insn, .data = &t,
				 .branch_enable = true, .max_non_turbo_ratio = 20 };
	struct pt_decoder *d;
	const struct pt_state *st;

	encode(&t, p, 8);
	ASSERT_TRUE(t.len > 20);
	d = pt_decoder__new(&par);
	ASSERT_TRUE(d);
	/* the PSB+: a psb event at its FUP, with the CBR */
	st = pt_decoder__decode(d);
	ASSERT_EQ(st->err, 0);
	ASSERT_TRUE(st->type & PTS_PSB_EVT);
	ASSERT_TRUE(st->type & PTS_CBR_CHG);
	ASSERT_EQ(st->from_ip, 0x401000);
	ASSERT_EQ(st->cbr, 20);
	ASSERT_EQ(st->timestamp, 0x1234);
	/* the walk from the FUP: no binary, an error at it */
	st = pt_decoder__decode(d);
	ASSERT_EQ(st->err, PT_ERR_NOINSN);
	ASSERT_EQ(st->from_ip, 0x401000);
	/* resynchronized at the TIP.PGE: a trace start to it */
	st = pt_decoder__decode(d);
	ASSERT_EQ(st->err, 0);
	ASSERT_TRUE(st->type & PTS_TRACE_BEGIN);
	ASSERT_EQ(st->from_ip, 0);
	ASSERT_EQ(st->to_ip, 0x402000);
	/* the next walk fails silently: then the end of the data */
	st = pt_decoder__decode(d);
	ASSERT_EQ(st->err, PT_ERR_NODATA);
	ASSERT_EQ(t.walks, 2);
	pt_decoder__delete(d);
}

static void test_pt__huge_cyc(void)
{
	struct pt_packet p[6] = {
		{ .type = ppt_psb },
		{ .type = ppt_tsc, .payload.tsc.tsc = 0x1234 },
		{ .type = ppt_cbr, .payload.cbr.ratio = 1 },
		{ .type = ppt_psbend },
		{ .type = ppt_cyc, .payload.cyc.value = 1ULL << 60 },
		{ .type = ppt_tip_pge, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = 0x402000 } },
	};
	struct trace t = { .len = 0 };
	struct pt_params par = { .get_trace = get_trace, .walk_insn = walk_insn, .data = &t,
				 .branch_enable = true, .max_non_turbo_ratio = 40 };
	struct pt_decoder *d;
	const struct pt_state *st;

	encode(&t, p, 6);
	d = pt_decoder__new(&par);
	ASSERT_TRUE(d);
	st = pt_decoder__decode(d);
	ASSERT_EQ(st->timestamp, 0x1234);
	st = pt_decoder__decode(d);
	ASSERT_TRUE(st->type & PTS_TRACE_BEGIN);
	/* 2^60 cycles at 40 TSC ticks each do not fit: the time stays */
	ASSERT_EQ(st->timestamp, 0x1234);
	pt_decoder__delete(d);
}

TEST_MAIN(TEST(test_pt__insn),
	  TEST(test_pt__walk),
	  TEST(test_pt__huge_cyc))
