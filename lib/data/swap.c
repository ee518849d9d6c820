// SPDX-License-Identifier: GPL-2.0
/*
 * Byte swapping of on-disk structures, both ways, for reading a file
 * recorded on a machine of the other endianness (and for tools that write
 * one): attrs and records here; a feature payload is swapped by its row of
 * the feature table (feat.h), with the same cursor (swap.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pulse/branch.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include "core/internal.h"
#include "data/swap.h"

/* Bitfields are allocated from the other end of the word: reverse each byte. */
static unsigned char revbyte(unsigned char b)
{
	b = (b >> 4) | (b << 4);
	b = ((b & 0xcc) >> 2) | ((b & 0x33) << 2);
	return ((b & 0xaa) >> 1) | ((b & 0x55) << 1);
}

/**
 * pulse_attr__swap - byte-swap an on-disk perf_event_attr in place
 * @attr: attr.size bytes (0 means the first ABI, 64 bytes)
 * @avail: bytes at @attr
 * @to_native: @attr is foreign and becomes native (else the reverse)
 *
 * Every field is swapped at its width; the flags word is a bitfield, so its
 * bytes keep their place and their bits are reversed, as perf's
 * perf_event__attr_swap() does. Only fields inside attr.size are touched.
 *
 * Return: 0, or -EBADMSG when attr.size does not fit @avail.
 */
int pulse_attr__swap(void *attr, size_t avail, bool to_native)
{
	/* offset, width: config ... config3 (attr ABI 0 to 8) */
	static const unsigned char fields[][2] = {
		{ 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 48, 4 }, { 52, 4 },
		{ 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 }, { 92, 4 },
		{ 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 }, { 116, 4 },
		{ 120, 8 }, { 128, 8 },
	};
	unsigned char *a = attr;
	struct swc c = { a, avail, to_native };
	__u32 size;

	_Static_assert(offsetof(struct perf_event_attr, read_format) == 32, "attr layout");
	_Static_assert(offsetof(struct perf_event_attr, bp_type) == 52, "attr layout");
	_Static_assert(offsetof(struct perf_event_attr, sample_regs_intr) == 96, "attr layout");
	if (sw_u32(&c, NULL) || sw_u32(&c, &size))
		return -EBADMSG;
	if (!size)
		size = 64;
	if (size > avail)
		return -EBADMSG;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		struct swc f = { a + fields[i][0], 8, to_native };

		if (fields[i][0] + fields[i][1] > size)
			break;
		if (fields[i][1] == 8)
			sw_u64(&f, NULL);
		else if (fields[i][1] == 4)
			sw_u32(&f, NULL);
		else
			sw_u16(&f, NULL);
	}
	if (size >= 48)
		for (int i = 40; i < 48; i++)
			a[i] = revbyte(a[i]);
	return 0;
}

static int sw_read(struct swc *c, __u64 fmt)
{
	__u64 nr = 1, per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	__u64 head = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (fmt & PERF_FORMAT_GROUP && sw_u64(c, &nr))
		return -EBADMSG;
	if (nr > c->left / 8 / per)
		return -EBADMSG;
	return sw_u64s(c, head + (fmt & PERF_FORMAT_GROUP ? nr * per : per));
}

static int sw_regs(struct swc *c, __u64 mask)
{
	__u64 abi;

	if (sw_u64(c, &abi))
		return -EBADMSG;
	return abi ? sw_u64s(c, __builtin_popcountll(mask)) : 0;
}

static int sw_sample(struct swc *c, const struct perf_event_attr *attr)
{
	__u64 t = attr->sample_type, v;
	__u32 raw;

	if (t & PERF_SAMPLE_IDENTIFIER && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_IP && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_TID && (sw_u32(c, NULL) || sw_u32(c, NULL)))
		return -EBADMSG;
	if (t & PERF_SAMPLE_TIME && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_ADDR && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_ID && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_STREAM_ID && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_CPU && (sw_u32(c, NULL) || sw_u32(c, NULL)))
		return -EBADMSG;
	if (t & PERF_SAMPLE_PERIOD && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_READ && sw_read(c, attr->read_format))
		return -EBADMSG;
	if (t & PERF_SAMPLE_CALLCHAIN && (sw_u64(c, &v) || sw_u64s(c, v == ~0ULL ? v - 1 : v)))
		return -EBADMSG;
	/* the tracepoint payload keeps the recording machine's order: the
	 * tracing data says which it is */
	if (t & PERF_SAMPLE_RAW && (sw_u32(c, &raw) || sw_skip(c, raw)))
		return -EBADMSG;
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (sw_u64(c, &v))
			return -EBADMSG;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX && sw_u64(c, NULL))
			return -EBADMSG;
		if (v > c->left / 24)
			return -EBADMSG;
		for (__u64 i = 0; i < v; i++) {
			__u64 flags;

			sw_u64s(c, 2);
			flags = pulse_branch_flags__swap(get_u64(c->p), c->to_native);
			memcpy(c->p, &flags, 8);
			sw_skip(c, 8);
		}
	}
	if (t & PERF_SAMPLE_REGS_USER && sw_regs(c, attr->sample_regs_user))
		return -EBADMSG;
	if (t & PERF_SAMPLE_STACK_USER) {
		if (sw_u64(c, &v))
			return -EBADMSG;
		if (v && (sw_skip(c, v) || sw_u64(c, NULL)))
			return -EBADMSG;
	}
	/*
	 * WEIGHT_STRUCT too is one u64: the kernel writes weight.full, and
	 * the uapi union orders its u32/u16/u16 by endianness so that
	 * var1_dw is the low half either way (perf swaps it as a u64)
	 */
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT) && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_DATA_SRC && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_TRANSACTION && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_REGS_INTR && sw_regs(c, attr->sample_regs_intr))
		return -EBADMSG;
	if (t & PERF_SAMPLE_PHYS_ADDR && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_CGROUP && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE && sw_u64(c, NULL))
		return -EBADMSG;
	if (t & PERF_SAMPLE_AUX && (sw_u64(c, &v) || sw_skip(c, v)))
		return -EBADMSG;
	return 0;
}

/* The sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void sw_trailer(struct swc *c, __u64 t)
{
	if (t & PERF_SAMPLE_TID)
		sw_layout(c, "44");
	if (t & PERF_SAMPLE_TIME)
		sw_u64(c, NULL);
	if (t & PERF_SAMPLE_ID)
		sw_u64(c, NULL);
	if (t & PERF_SAMPLE_STREAM_ID)
		sw_u64(c, NULL);
	if (t & PERF_SAMPLE_CPU)
		sw_layout(c, "44");
	if (t & PERF_SAMPLE_IDENTIFIER)
		sw_u64(c, NULL);
}

/* CPU_MAP data and EVENT_UPDATE CPUS: u16 type, then cpus, a mask or a range. */
static int sw_cpu_map(struct swc *c)
{
	__u16 type, nr, long_size;

	if (sw_u16(c, &type))
		return -EBADMSG;
	switch (type) {
	case 0:		/* u16 nr; u16 cpu[nr] */
		if (sw_u16(c, &nr))
			return -EBADMSG;
		while (nr-- && !sw_u16(c, NULL))
			;
		return 0;
	case 1:		/* u16 nr; u16 long_size; masks of long_size bytes */
		if (sw_u16(c, &nr) || sw_u16(c, &long_size))
			return -EBADMSG;
		if (long_size == 4) {
			while (nr-- && !sw_u32(c, NULL))
				;
		} else if (long_size == 8 && !sw_u32(c, NULL)) {
			sw_u64s(c, nr < c->left / 8 ? nr : c->left / 8);
		}
		return 0;
	case 2:		/* u8 any_cpu; u8 pad; u16 start, end */
		return sw_layout(c, "1122");
	}
	return 0;
}

static const char *const kernel_layouts[] = {
	[PERF_RECORD_MMAP] = "44888",
	[PERF_RECORD_LOST] = "88",
	[PERF_RECORD_COMM] = "44",
	[PERF_RECORD_EXIT] = "44448",
	[PERF_RECORD_THROTTLE] = "888",
	[PERF_RECORD_UNTHROTTLE] = "888",
	[PERF_RECORD_FORK] = "44448",
	[PERF_RECORD_READ] = "44*",
	[PERF_RECORD_AUX] = "888",
	[PERF_RECORD_ITRACE_START] = "44",
	[PERF_RECORD_LOST_SAMPLES] = "8",
	[PERF_RECORD_SWITCH] = "",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "44",
	[PERF_RECORD_NAMESPACES] = "44*",
	[PERF_RECORD_KSYMBOL] = "8422",
	[PERF_RECORD_BPF_EVENT] = "224",
	[PERF_RECORD_CGROUP] = "8",
	[PERF_RECORD_TEXT_POKE] = "822",
	[21] = "8",	/* AUX_OUTPUT_HW_ID */
};

static const char *const user_layouts[] = {
	[65 - 64] = "8",		/* HEADER_EVENT_TYPE: id, name */
	[66 - 64] = "44",		/* HEADER_TRACING_DATA: size */
	[67 - 64] = "4B112",		/* HEADER_BUILD_ID: pid, id, size */
	[69 - 64] = "*",		/* ID_INDEX */
	[70 - 64] = "44*",		/* AUXTRACE_INFO */
	[71 - 64] = "8884444",		/* AUXTRACE */
	[75 - 64] = "*",		/* STAT_CONFIG */
	[76 - 64] = "8448*",		/* STAT */
	[77 - 64] = "*",		/* STAT_ROUND */
	[79 - 64] = "*",		/* TIME_CONV */
	[83 - 64] = "8",		/* COMPRESSED2: data_size */
};

/**
 * pulse_event__swap - byte-swap one record (perf's union perf_event) in place
 * @rec: the record, header.size bytes (@size)
 * @size: bytes at @rec
 * @attr: the attr the record belongs to (its sample layout); NULL: none
 * @to_native: @rec is foreign and becomes native (else the reverse)
 *
 * Return: 0; -EBADMSG when the header size is not @size or a length inside
 * does not fit (what could be swapped is); -EOPNOTSUPP for a HEADER_FEATURE
 * whose payload layout this pulse does not know (its feature id is swapped).
 */
int pulse_event__swap(void *rec, size_t size, const struct perf_event_attr *attr, bool to_native)
{
	struct swc c = { rec, size, to_native };
	__u32 type;
	__u16 hsize;
	size_t body, trailer = 0;
	const char *layout = NULL;
	__u64 v;

	if (sw_u32(&c, &type) || sw_u16(&c, NULL) || sw_u16(&c, &hsize) || hsize != size)
		return -EBADMSG;
	if (type < PERF_RECORD_USER_TYPE_START && type != PERF_RECORD_SAMPLE && attr)
		trailer = pulse_sample__id_size(attr);
	if (trailer > c.left)
		return -EBADMSG;
	body = c.left - trailer;
	if (trailer) {
		struct swc t = { c.p + body, trailer, to_native };

		sw_trailer(&t, attr->sample_type);
	}
	c.left = body;

	if (type == PERF_RECORD_SAMPLE)
		return attr ? sw_sample(&c, attr) : 0;
	if (type == PERF_RECORD_MMAP2) {
		__u16 misc = get_u16((unsigned char *)rec + 4);

		/* PERF_RECORD_MISC_MMAP_BUILD_ID: a build-id instead of dev/inode */
		return sw_layout(&c, misc & (1 << 14) ? "44888112B44" : "44888448844");
	}
	if (type < ARRAY_SIZE(kernel_layouts))
		layout = kernel_layouts[type];
	else if (type >= 64 && type - 64 < ARRAY_SIZE(user_layouts))
		layout = user_layouts[type - 64];
	if (layout)
		return sw_layout(&c, layout);

	switch (type) {
	case PERF_RECORD_HEADER_ATTR: {
		__u32 asz;

		if (c.left < 8)
			return -EBADMSG;
		if (to_native) {
			if (pulse_attr__swap(c.p, c.left, true))
				return -EBADMSG;
			asz = get_u32(c.p + 4);
		} else {
			asz = get_u32(c.p + 4);
			if (pulse_attr__swap(c.p, c.left, false))
				return -EBADMSG;
		}
		sw_skip(&c, asz ? asz : 64);
		return sw_u64s(&c, ~0ULL);
	}
	case 73:	/* THREAD_MAP: u64 nr; { u64 pid; char comm[16]; } */
		if (sw_u64(&c, &v))
			return -EBADMSG;
		while (v-- && !sw_u64(&c, NULL) && !sw_skip(&c, 16))
			;
		return 0;
	case PERF_RECORD_AUXTRACE_ERROR: {
		/*
		 * type, code, cpu, pid, tid, fmt, ip; fmt 1 adds the time before
		 * the message (fmt 0 has the message there), fmt 2 machine_pid
		 * and vcpu after it (perf_event__auxtrace_error_swap())
		 */
		__u32 fmt;

		if (sw_layout(&c, "44444") || sw_u32(&c, &fmt) || sw_u64(&c, NULL))
			return -EBADMSG;
		if (fmt && sw_u64(&c, NULL))
			return -EBADMSG;
		if (fmt >= 2 && (sw_skip(&c, 64) || sw_layout(&c, "44")))
			return -EBADMSG;
		return 0;
	}
	case 74:	/* CPU_MAP */
		return sw_cpu_map(&c);
	case 78:	/* EVENT_UPDATE: u64 type, id; then by type */
		if (sw_u64(&c, &v) || sw_u64(&c, NULL))
			return -EBADMSG;
		if (v == 1)		/* SCALE: a double */
			return sw_u64(&c, NULL);
		if (v == 3)		/* CPUS */
			return sw_cpu_map(&c);
		return 0;
	case PERF_RECORD_HEADER_FEATURE:
		if (sw_u64(&c, &v))
			return -EBADMSG;
		return pulse_feat__swap(v > INT32_MAX ? -1 : (int)v, c.p, c.left, to_native);
	}
	return 0;
}
