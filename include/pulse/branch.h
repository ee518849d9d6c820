/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branch stacks (PERF_SAMPLE_BRANCH_STACK): the entries of a sample, their
 * flags word decoded as perf 6.1 reads it (util/branch.h struct
 * branch_flags), perf's names for branch types, and the byte swap of the
 * flags word for files from a machine of the other endianness.
 *
 * On disk a branch stack is u64 nr, a u64 hw_idx when the attr's
 * branch_sample_type has PERF_SAMPLE_BRANCH_HW_INDEX, then nr entries of
 * { u64 from, to, flags }. The flags word is a C bitfield of the recording
 * machine: its fields start at bit 0 on a little-endian machine and at bit
 * 63 on a big-endian one.
 */
#ifndef PULSE_BRANCH_H
#define PULSE_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct pulse_sample;

/* The flags word's fields (perf 6.1 names and widths). */
struct pulse_branch_flags {
	bool mispred;		/* target mispredicted */
	bool predicted;		/* target predicted */
	bool in_tx;		/* in a transaction */
	bool abort;		/* transaction abort */
	unsigned int cycles;	/* 16 bits: cycles since the last branch */
	unsigned int type;	/* 4 bits: PERF_BR_* */
	unsigned int spec;	/* 2 bits: speculation outcome */
	unsigned int new_type;	/* 4 bits: PERF_BR_NEW_* when type is EXTEND_ABI */
	unsigned int priv;	/* 3 bits: privilege level */
	__u64 reserved;		/* 31 bits */
};

struct pulse_branch_entry {
	__u64 from, to;
	struct pulse_branch_flags flags;
};

/* perf's PERF_BR_EXTEND_ABI: the type is in new_type */
#define PULSE_BR_EXTEND_ABI 15

/**
 * pulse_branch__entry - entry @i of @s's branch stack, decoded
 * Return: 0, or -ERANGE when @i >= s->branch_nr.
 */
int pulse_branch__entry(const struct pulse_sample *s, __u64 i, struct pulse_branch_entry *e);

/* Decode a native flags word. */
void pulse_branch_flags__decode(__u64 raw, struct pulse_branch_flags *f);

/*
 * perf's get_branch_type(): "" for an unknown type, the PERF_BR_NEW_* name
 * for EXTEND_ABI, else the PERF_BR_* name; NULL where perf's tables have
 * no name (perf then prints "(null)").
 */
const char *pulse_branch__type_name(const struct pulse_branch_flags *f);

/* perf's branch_type_name(): PERF_BR_* names, NULL outside the table. */
const char *pulse_branch__type_name_of(unsigned int type);

/* perf's branch_new_name() (x86 build): PERF_BR_NEW_* names, NULL outside. */
const char *pulse_branch__new_type_name(unsigned int new_type);

/* perf script's mispred_str(): 'P' when predicted, 'M' when mispredicted, else '-'. */
char pulse_branch__pred_char(const struct pulse_branch_flags *f);

/**
 * pulse_branch__lbr_callchain - in call-stack mode (branch_sample_type has
 * CALL_STACK) perf 6.1 builds the user part of a sample's callchain from
 * its branch stack: the kernel part up to the user context marker, then
 * the first entry's target and every entry's source
 * @buf, @alloc: scratch the chain is built in, grown as needed; the caller
 *               frees *buf
 *
 * Return: 1 when s->callchain and s->callchain_nr now point into *buf, 0
 * when the chain has no user part (it stays), or -ENOMEM.
 */
int pulse_branch__lbr_callchain(struct pulse_sample *s, __u64 **buf, size_t *alloc);

/**
 * pulse_branch_flags__swap - swap a flags word between this machine's
 * layout and the other endianness's, both ways (@to_native: @raw is the
 * foreign word as read from the file)
 *
 * A bitfield cannot be byte-swapped as a number: the bytes are swapped and
 * then every field moves to the other end of the word with its value kept,
 * as perf's evsel__bitfield_swap_branch_flags() does.
 */
__u64 pulse_branch_flags__swap(__u64 raw, bool to_native);

#endif
