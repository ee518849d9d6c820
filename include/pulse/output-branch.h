/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branch stacks printed as perf 6.1 prints them (lib/output/branch.c):
 * report -D's "... branch stack" block (util/session.c
 * branch_stack__printf()) and its "... LBR call chain" (call-stack mode),
 * and perf script's brstack, brstacksym and brstackoff fields
 * (builtin-script.c perf_sample__fprintf_brstack*()).
 */
#ifndef PULSE_OUTPUT_BRANCH_H
#define PULSE_OUTPUT_BRANCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pulse_sample;
struct pulse_machine;

/*
 * -D: "... branch stack: nr:N" and a line per entry; with @callstack
 * (branch_sample_type has CALL_STACK) "... branch callstack: nr:N+1" and
 * the addresses the entries make a call stack of.
 */
void pulse_branch__fprintf_dump(FILE *out, const struct pulse_sample *s, bool callstack);

/*
 * -D in call-stack mode, before the FP chain: "... LBR call chain" (the
 * callchain's kernel part, then the branch entries as the user part);
 * nothing when the callchain has no user context or the stack is empty.
 */
void pulse_branch__fprintf_lbr_callchain(FILE *out, const struct pulse_sample *s);

enum pulse_brstack_style {
	PULSE_BRSTACK_ADDR,	/* brstack: " 0xFROM/0xTO/flags " */
	PULSE_BRSTACK_SYM,	/* brstacksym: "sym+0xoff/sym+0xoff/flags " */
	PULSE_BRSTACK_OFF,	/* brstackoff: addresses inside their DSOs */
};

/**
 * pulse_branch__fprintf_script - one of perf script's branch stack fields
 * @m: resolves the addresses, in the thread of @s and the mode @cpumode
 *     of its record, as perf's thread__find_*_fb() on x86
 * @dso: perf's -F dso: each address followed by "(dso)"
 *
 * Return: 0 or -ENOMEM.
 */
int pulse_branch__fprintf_script(FILE *fp, struct pulse_machine *m, const struct pulse_sample *s,
				 uint8_t cpumode, enum pulse_brstack_style style, bool dso);

#endif
