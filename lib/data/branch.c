// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stack entries and their flags word (include/pulse/branch.h). The
 * entries were bounds-checked by pulse_sample__parse(); this reads them
 * with memcpy, as records are not aligned.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <pulse/branch.h>
#include <pulse/data.h>
#include "core/internal.h"

/*
 * The fields of the flags word, { first bit, width } on a little-endian
 * machine: mispred, predicted, in_tx, abort, cycles, type, spec, new_type,
 * priv, reserved (perf 6.1's struct branch_flags).
 */
static const unsigned char flag_fields[][2] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 }, { 24, 2 }, { 26, 4 },
	{ 30, 3 }, { 33, 31 },
};

static bool host_is_big_endian(void)
{
	const __u16 one = 1;

	return *(const unsigned char *)&one == 0;
}

static __u64 field(__u64 v, unsigned int pos, unsigned int width)
{
	return (v >> pos) & (width == 64 ? ~0ULL : (1ULL << width) - 1);
}

/* The first bit of field @i in this machine's layout. */
static unsigned int native_pos(size_t i)
{
	unsigned int pos = flag_fields[i][0], width = flag_fields[i][1];

	return host_is_big_endian() ? 63 - (pos + width - 1) : pos;
}

void pulse_branch_flags__decode(__u64 raw, struct pulse_branch_flags *f)
{
	__u64 v[ARRAY_SIZE(flag_fields)];

	for (size_t i = 0; i < ARRAY_SIZE(flag_fields); i++)
		v[i] = field(raw, native_pos(i), flag_fields[i][1]);
	f->mispred = v[0];
	f->predicted = v[1];
	f->in_tx = v[2];
	f->abort = v[3];
	f->cycles = v[4];
	f->type = v[5];
	f->spec = v[6];
	f->new_type = v[7];
	f->priv = v[8];
	f->reserved = v[9];
}

/*
 * The fields perf 6.1's evsel__bitfield_swap_branch_flags() moves: it
 * still moves the bits above type as one 40-bit block, as before spec,
 * new_type and priv were split out of it, so those three come out of a
 * file of the other endianness in other bits than they went in. pulse
 * moves the same way, to read such files as perf 6.1 does.
 */
static const unsigned char swap_fields[][2] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 }, { 24, 40 },
};

__u64 pulse_branch_flags__swap(__u64 raw, bool to_native)
{
	/* the layout the word is in before the move: little-endian or not */
	bool from_le = to_native == host_is_big_endian();
	__u64 v = to_native ? __builtin_bswap64(raw) : raw, out = 0;

	for (size_t i = 0; i < ARRAY_SIZE(swap_fields); i++) {
		unsigned int le = swap_fields[i][0], width = swap_fields[i][1];
		unsigned int be = 63 - (le + width - 1);

		out |= field(v, from_le ? le : be, width) << (from_le ? be : le);
	}
	return to_native ? out : __builtin_bswap64(out);
}

int pulse_branch__entry(const struct pulse_sample *s, __u64 i, struct pulse_branch_entry *e)
{
	const unsigned char *p;

	if (i >= s->branch_nr)
		return -ERANGE;
	p = (const unsigned char *)s->branch + 24 * i;
	e->from = get_u64(p);
	e->to = get_u64(p + 8);
	pulse_branch_flags__decode(get_u64(p + 16), &e->flags);
	return 0;
}

const char *pulse_branch__type_name_of(unsigned int type)
{
	static const char *const names[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};

	return type < ARRAY_SIZE(names) ? names[type] : NULL;
}

const char *pulse_branch__new_type_name(unsigned int new_type)
{
	/* perf names ARCH_* by the machine it runs on, not the file's: x86 here */
	static const char *const names[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};

	return new_type < ARRAY_SIZE(names) ? names[new_type] : NULL;
}

const char *pulse_branch__type_name(const struct pulse_branch_flags *f)
{
	if (!f->type)
		return "";
	if (f->type == PULSE_BR_EXTEND_ABI)
		return pulse_branch__new_type_name(f->new_type);
	return pulse_branch__type_name_of(f->type);
}

char pulse_branch__pred_char(const struct pulse_branch_flags *f)
{
	if (!f->mispred && !f->predicted)
		return '-';
	return f->predicted ? 'P' : 'M';
}

int pulse_branch__lbr_callchain(struct pulse_sample *s, __u64 **buf, size_t *alloc)
{
	__u64 kernel_nr, nr, *chain;
	struct pulse_branch_entry e;

	for (kernel_nr = 0; kernel_nr < s->callchain_nr; kernel_nr++)
		if (get_u64((const char *)s->callchain + 8 * kernel_nr) == PERF_CONTEXT_USER)
			break;
	/* LBR only replaces the user part */
	if (kernel_nr == s->callchain_nr)
		return 0;
	nr = kernel_nr + 1 + s->branch_nr + 1;
	if (nr > *alloc) {
		chain = realloc(*buf, nr * sizeof(*chain));
		if (!chain)
			return -ENOMEM;
		*buf = chain;
		*alloc = nr;
	}
	chain = *buf;
	memcpy(chain, s->callchain, (kernel_nr + 1) * 8);
	/*
	 * perf takes the first entry's target even from an empty stack,
	 * reading what follows it; a 0 frame is what it shows most often
	 */
	chain[kernel_nr + 1] = pulse_branch__entry(s, 0, &e) ? 0 : e.to;
	for (__u64 i = 0; !pulse_branch__entry(s, i, &e); i++)
		chain[kernel_nr + 2 + i] = e.from;
	s->callchain = chain;
	s->callchain_nr = nr;
	return 1;
}
