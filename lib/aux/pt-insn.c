// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 instructions the Intel PT walk needs to know: each one's length,
 * and for branches their kind and displacement, classified as perf's
 * intel-pt-insn-decoder.c does (call, ret, jcc, jmp, loop, iret, int,
 * syscall, sysret, vmentry; indirect, conditional or unconditional).
 * libipt has such a decoder inside but does not export it; this is a
 * table-driven length decoder for the 64-bit and 32-bit modes (legacy and
 * REX prefixes, VEX and EVEX, the 0F, 0F38 and 0F3A maps, ModRM/SIB and
 * displacements, immediates). 16-bit addressing is not handled.
 */
#include <errno.h>
#include <string.h>
#include "aux/pt-int.h"

static bool has_modrm1(uint8_t op)
{
	switch (op) {
	case 0x00 ... 0x03: case 0x08 ... 0x0b: case 0x10 ... 0x13: case 0x18 ... 0x1b:
	case 0x20 ... 0x23: case 0x28 ... 0x2b: case 0x30 ... 0x33: case 0x38 ... 0x3b:
	case 0x62: case 0x63: case 0x69: case 0x6b: case 0x80 ... 0x8f:
	case 0xc0: case 0xc1: case 0xc4 ... 0xc7: case 0xd0 ... 0xd3: case 0xd8 ... 0xdf:
	case 0xf6: case 0xf7: case 0xfe: case 0xff:
		return true;
	default:
		return false;
	}
}

static bool has_modrm2(uint8_t op)
{
	switch (op) {
	case 0x04 ... 0x09: case 0x0b: case 0x0e: case 0x30 ... 0x37: case 0x77:
	case 0x80 ... 0x8f: case 0xa0 ... 0xa2: case 0xa8: case 0xa9: case 0xaa:
	case 0xc8 ... 0xcf:
		return false;
	default:
		return true;
	}
}

static int imm2(uint8_t op)
{
	switch (op) {
	case 0x0f: case 0x70 ... 0x73: case 0xa4: case 0xac: case 0xba: case 0xc2:
	case 0xc4 ... 0xc6:
		return 1;
	default:
		return 0;
	}
}

/* the ModRM, SIB and displacement bytes at @p (@left of them); <0: too short */
static int modrm_len(const uint8_t *p, size_t left)
{
	uint8_t modrm, mod, rm;
	int n = 1;

	if (!left)
		return -1;
	modrm = p[0];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (left < 2)
			return -1;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2)
		n += 4;
	return n;
}

static void set(struct pt_insn_info *insn, int op, int branch)
{
	insn->op = op;
	insn->branch = branch;
}

int pt_insn__decode(const uint8_t *buf, size_t len, bool x86_64, struct pt_insn_info *insn)
{
	size_t i = 0;
	bool opsize = false, addrsize = false, rexw = false;
	int map = 1, imm = 0, mr, reg = 0;
	uint8_t op;

	memset(insn, 0, sizeof(*insn));
	/* legacy prefixes, then REX */
	for (; i < len && i < 15; i++) {
		uint8_t b = buf[i];

		if (b == 0x66)
			opsize = true;
		else if (b == 0x67)
			addrsize = true;
		else if (b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 ||
			 b == 0x65 || b == 0xf0 || b == 0xf2 || b == 0xf3)
			;
		else
			break;
	}
	if (i < len && x86_64 && (buf[i] & 0xf0) == 0x40) {
		rexw = buf[i] & 8;
		i++;
	}
	if (i >= len)
		return -EINVAL;
	op = buf[i++];
	/* VEX, EVEX: in 32-bit mode only when ModRM.mod is 3 */
	if ((op == 0xc4 || op == 0xc5 || op == 0x62) && i < len &&
	    (x86_64 || (buf[i] & 0xc0) == 0xc0)) {
		int plen = op == 0xc5 ? 1 : op == 0xc4 ? 2 : 3;

		if (i + plen >= len)
			return -EINVAL;
		int m = op == 0xc5 ? 1 : (buf[i] & (op == 0x62 ? 3 : 0x1f));

		map = m == 2 ? 3 : m == 3 ? 4 : 2;
		i += plen;
		op = buf[i++];
		mr = modrm_len(buf + i, len - i);
		if (mr < 0)
			return -EINVAL;
		i += mr;
		if (map == 4 || (map == 2 && imm2(op)))
			i += 1;
		if (i > len)
			return -EINVAL;
		insn->length = i;
		return 0;
	}
	if (op == 0x0f) {
		if (i >= len)
			return -EINVAL;
		op = buf[i++];
		map = 2;
		if (op == 0x38 || op == 0x3a) {
			map = op == 0x38 ? 3 : 4;
			if (i >= len)
				return -EINVAL;
			op = buf[i++];
		}
	}
	if (map == 1) {
		switch (op) {
		case 0x04: case 0x0c: case 0x14: case 0x1c: case 0x24: case 0x2c: case 0x34:
		case 0x3c: case 0x6a: case 0x6b: case 0x70 ... 0x7f: case 0x80: case 0x82: case 0x83:
		case 0xa8: case 0xb0 ... 0xb7: case 0xc0: case 0xc1: case 0xc6: case 0xcd:
		case 0xd4: case 0xd5: case 0xe0 ... 0xe7: case 0xeb:
			imm = 1;
			break;
		case 0x05: case 0x0d: case 0x15: case 0x1d: case 0x25: case 0x2d: case 0x35:
		case 0x3d: case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
			imm = opsize ? 2 : 4;
			break;
		case 0xe8: case 0xe9:
			imm = opsize && !x86_64 ? 2 : 4;
			break;
		case 0xb8 ... 0xbf:
			imm = rexw ? 8 : opsize ? 2 : 4;
			break;
		case 0xc2: case 0xca:
			imm = 2;
			break;
		case 0xc8:
			imm = 3;
			break;
		case 0xa0 ... 0xa3:
			imm = x86_64 ? (addrsize ? 4 : 8) : (addrsize ? 2 : 4);
			break;
		case 0x9a: case 0xea:
			imm = opsize ? 4 : 6;
			break;
		}
		if (has_modrm1(op)) {
			if (i >= len)
				return -EINVAL;
			reg = (buf[i] >> 3) & 7;
			mr = modrm_len(buf + i, len - i);
			if (mr < 0)
				return -EINVAL;
			i += mr;
			if (op == 0xf6 && reg < 2)
				imm = 1;
			else if (op == 0xf7 && reg < 2)
				imm = opsize ? 2 : 4;
		}
	} else {
		if (map == 4 || (map == 2 && imm2(op)))
			imm = 1;
		if (map == 2 && op >= 0x80 && op <= 0x8f)
			imm = opsize && !x86_64 ? 2 : 4;
		if (map != 2 || has_modrm2(op)) {
			if (i >= len)
				return -EINVAL;
			reg = (buf[i] >> 3) & 7;
			mr = modrm_len(buf + i, len - i);
			if (mr < 0)
				return -EINVAL;
			i += mr;
		}
	}
	i += imm;
	if (i > len || i > 15)
		return -EINVAL;
	insn->length = i;

	/* branches, perf's classification */
	if (map == 1) {
		const uint8_t *ib = buf + i - imm;

		switch (op) {
		case 0x70 ... 0x7f:
			set(insn, PT_OP_JCC, PT_BR_CONDITIONAL);
			insn->rel = (int8_t)ib[0];
			break;
		case 0xe0 ... 0xe2:
			set(insn, PT_OP_LOOP, PT_BR_CONDITIONAL);
			insn->rel = (int8_t)ib[0];
			break;
		case 0xe3:
			set(insn, PT_OP_JCC, PT_BR_CONDITIONAL);
			insn->rel = (int8_t)ib[0];
			break;
		case 0xe8:
		case 0xe9:
			set(insn, op == 0xe8 ? PT_OP_CALL : PT_OP_JMP, PT_BR_UNCONDITIONAL);
			insn->rel = imm == 2 ? (int16_t)(ib[0] | ib[1] << 8) :
				    (int32_t)(ib[0] | ib[1] << 8 | ib[2] << 16 | (uint32_t)ib[3] << 24);
			break;
		case 0xeb:
			set(insn, PT_OP_JMP, PT_BR_UNCONDITIONAL);
			insn->rel = (int8_t)ib[0];
			break;
		case 0xc2: case 0xc3: case 0xca: case 0xcb:
			set(insn, PT_OP_RET, PT_BR_INDIRECT);
			break;
		case 0xcc: case 0xcd: case 0xce:
			set(insn, PT_OP_INT, PT_BR_INDIRECT);
			break;
		case 0xcf:
			set(insn, PT_OP_IRET, PT_BR_INDIRECT);
			break;
		case 0x9a:
			set(insn, PT_OP_CALL, PT_BR_INDIRECT);
			break;
		case 0xea:
			set(insn, PT_OP_JMP, PT_BR_INDIRECT);
			break;
		case 0xff:
			if (reg == 2 || reg == 3)
				set(insn, PT_OP_CALL, PT_BR_INDIRECT);
			else if (reg == 4 || reg == 5)
				set(insn, PT_OP_JMP, PT_BR_INDIRECT);
			break;
		}
	} else if (map == 2) {
		const uint8_t *ib = buf + i - imm;

		switch (op) {
		case 0x80 ... 0x8f:
			set(insn, PT_OP_JCC, PT_BR_CONDITIONAL);
			insn->rel = imm == 2 ? (int16_t)(ib[0] | ib[1] << 8) :
				    (int32_t)(ib[0] | ib[1] << 8 | ib[2] << 16 | (uint32_t)ib[3] << 24);
			break;
		case 0x05: case 0x34:
			set(insn, PT_OP_SYSCALL, PT_BR_INDIRECT);
			break;
		case 0x07: case 0x35:
			set(insn, PT_OP_SYSRET, PT_BR_INDIRECT);
			break;
		case 0x01:
			/* vmlaunch, vmresume */
			if (buf[i - 1] == 0xc2 || buf[i - 1] == 0xc3)
				set(insn, PT_OP_VMENTRY, PT_BR_INDIRECT);
			break;
		}
	}
	return 0;
}

/* perf's PERF_IP_FLAG_* (tools/perf/util/event.h) */
#define IPF_BRANCH (1U << 0)
#define IPF_CALL (1U << 1)
#define IPF_RETURN (1U << 2)
#define IPF_CONDITIONAL (1U << 3)
#define IPF_SYSCALLRET (1U << 4)
#define IPF_INTERRUPT (1U << 6)
#define IPF_VMENTRY (1U << 11)

uint32_t pt_insn__flags(int op)
{
	switch (op) {
	case PT_OP_CALL: return IPF_BRANCH | IPF_CALL;
	case PT_OP_RET: return IPF_BRANCH | IPF_RETURN;
	case PT_OP_JCC: return IPF_BRANCH | IPF_CONDITIONAL;
	case PT_OP_JMP: return IPF_BRANCH;
	case PT_OP_LOOP: return IPF_BRANCH | IPF_CONDITIONAL;
	case PT_OP_IRET: return IPF_BRANCH | IPF_RETURN | IPF_INTERRUPT;
	case PT_OP_INT: return IPF_BRANCH | IPF_CALL | IPF_INTERRUPT;
	case PT_OP_SYSCALL: return IPF_BRANCH | IPF_CALL | IPF_SYSCALLRET;
	case PT_OP_SYSRET: return IPF_BRANCH | IPF_RETURN | IPF_SYSCALLRET;
	case PT_OP_VMENTRY: return IPF_BRANCH | IPF_CALL | IPF_VMENTRY;
	default: return 0;
	}
}
