// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF expressions of CFI rules (DW_CFA_def_cfa_expression, DW_CFA_expression,
 * DW_CFA_val_expression), as libdw hands them over: glibc's PLT entries and
 * signal trampoline, GCC's stack realignment (DRAP). A small stack machine
 * over the sampled registers and memory; every operand is checked, the
 * stack is bounded and so is the number of operations run (a backward
 * DW_OP_skip cannot loop forever).
 */
#include <dwarf.h>
#include <errno.h>

#include "unwind-int.h"

#define STACK_MAX	64
#define STEPS_MAX	1024

/* The index of the operation at byte offset @off of the expression, or -1. */
static long op_at(const Dwarf_Op *ops, size_t nops, uint64_t off)
{
	for (size_t i = 0; i < nops; i++)
		if (ops[i].offset == off)
			return i;
	return -1;
}

static int reg_value(const struct unw_regs *regs, uint64_t r, uint64_t *v)
{
	if (r >= UNW_NREGS || !(regs->valid & (1u << r)))
		return -EINVAL;
	*v = regs->val[r];
	return 0;
}

static int deref(unw_read_fn rd, void *arg, uint64_t addr, unsigned int size, uint64_t *v)
{
	uint64_t w;

	if (size == 0 || size > 8 || rd(arg, addr, &w))
		return -EINVAL;
	if (size < 8)
		w &= (1ull << (8 * size)) - 1;
	*v = w;
	return 0;
}

int unw_expr__eval(const Dwarf_Op *ops, size_t nops, const struct unw_regs *regs, uint64_t cfa,
		   unw_read_fn rd, void *arg, uint64_t *out)
{
	uint64_t st[STACK_MAX], a, b;
	size_t sp = 0, i = 0;
	unsigned int steps = 0;
	long j;

#define NEED(n)	do { if (sp < (n)) return -EINVAL; } while (0)
#define PUSH(v)	do { uint64_t __v = (v); if (sp >= STACK_MAX) return -EINVAL; st[sp++] = __v; } while (0)
	while (i < nops) {
		const Dwarf_Op *op = &ops[i++];
		uint8_t at = op->atom;

		if (++steps > STEPS_MAX)
			return -EINVAL;
		if (at >= DW_OP_lit0 && at <= DW_OP_lit31) {
			PUSH(at - DW_OP_lit0);
			continue;
		}
		if (at >= DW_OP_breg0 && at <= DW_OP_breg31) {
			if (reg_value(regs, at - DW_OP_breg0, &a))
				return -EINVAL;
			PUSH(a + op->number);
			continue;
		}
		switch (at) {
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u:
		case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_bregx:
			if (reg_value(regs, op->number, &a))
				return -EINVAL;
			PUSH(a + op->number2);
			break;
		case DW_OP_call_frame_cfa:
			PUSH(cfa);
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(st[sp - 2]);
			break;
		case DW_OP_pick:
			NEED(op->number + 1);
			PUSH(st[sp - 1 - op->number]);
			break;
		case DW_OP_swap:
			NEED(2);
			a = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = a;
			break;
		case DW_OP_rot:
			NEED(3);
			a = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = st[sp - 3], st[sp - 3] = a;
			break;
		case DW_OP_deref:
			NEED(1);
			if (deref(rd, arg, st[sp - 1], 8, &st[sp - 1]))
				return -EINVAL;
			break;
		case DW_OP_deref_size:
			NEED(1);
			if (deref(rd, arg, st[sp - 1], op->number, &st[sp - 1]))
				return -EINVAL;
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] += op->number;
			break;
		case DW_OP_abs:
			NEED(1);
			if ((int64_t)st[sp - 1] < 0)
				st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = ~st[sp - 1];
			break;
		case DW_OP_and: case DW_OP_div: case DW_OP_minus: case DW_OP_mod: case DW_OP_mul:
		case DW_OP_or: case DW_OP_plus: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
		case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
		case DW_OP_lt: case DW_OP_ne:
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (at) {
			case DW_OP_and: a &= b; break;
			case DW_OP_div:
				if (!b || ((int64_t)a == INT64_MIN && (int64_t)b == -1))
					return -EINVAL;
				a = (int64_t)a / (int64_t)b;
				break;
			case DW_OP_minus: a -= b; break;
			case DW_OP_mod:
				if (!b)
					return -EINVAL;
				a %= b;
				break;
			case DW_OP_mul: a *= b; break;
			case DW_OP_or: a |= b; break;
			case DW_OP_plus: a += b; break;
			case DW_OP_shl: a = b < 64 ? a << b : 0; break;
			case DW_OP_shr: a = b < 64 ? a >> b : 0; break;
			case DW_OP_shra:
				a = b < 64 ? (uint64_t)((int64_t)a >> b) : ((int64_t)a < 0 ? ~0ull : 0);
				break;
			case DW_OP_xor: a ^= b; break;
			case DW_OP_eq: a = a == b; break;
			case DW_OP_ge: a = (int64_t)a >= (int64_t)b; break;
			case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
			case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
			case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
			default: a = a != b; break;
			}
			st[sp - 1] = a;
			break;
		case DW_OP_skip:
		case DW_OP_bra:
			if (at == DW_OP_bra) {
				NEED(1);
				if (!st[--sp])
					break;
			}
			/* the target is relative to the next operation (1 byte op + 2 operand) */
			j = op_at(ops, nops, op->offset + 3 + (int64_t)(int16_t)op->number);
			if (j < 0)
				return -EINVAL;
			i = j;
			break;
		case DW_OP_nop:
			break;
		default:
			return -EINVAL;
		}
	}
#undef NEED
#undef PUSH
	if (!sp)
		return -EINVAL;
	*out = st[sp - 1];
	return 0;
}
