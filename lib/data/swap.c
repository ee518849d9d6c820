// SPDX-License-Identifier: GPL-2.0
/*
 * Byte swapping of on-disk structures: attrs, records and feature
 * payloads, both ways, for reading a file recorded on a machine of the
 * other endianness (and for tools that write one).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pulse/branch.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include "core/internal.h"

/*
 * A file recorded on a machine of the other endianness is turned into a
 * native one record by record. Every field is swapped at its own width, so
 * the cursor needs the layout; counts inside the record (callchain nr, raw
 * size...) are read on the native side of the swap, which depends on the
 * direction: before swapping when making a foreign file, after when reading
 * one. Payloads that are byte streams (strings, raw tracepoint data, user
 * stacks, AUX data) stay as they are, as perf leaves them.
 */
struct swc {
	unsigned char *p;
	size_t left;
	bool to_native;
};

static int sw_u64(struct swc *c, __u64 *v)
{
	__u64 raw, s;

	if (c->left < 8)
		return -EBADMSG;
	raw = get_u64(c->p);
	s = __builtin_bswap64(raw);
	memcpy(c->p, &s, 8);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 8;
	c->left -= 8;
	return 0;
}

static int sw_u32(struct swc *c, __u32 *v)
{
	__u32 raw, s;

	if (c->left < 4)
		return -EBADMSG;
	raw = get_u32(c->p);
	s = __builtin_bswap32(raw);
	memcpy(c->p, &s, 4);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 4;
	c->left -= 4;
	return 0;
}

static int sw_u16(struct swc *c, __u16 *v)
{
	__u16 raw, s;

	if (c->left < 2)
		return -EBADMSG;
	raw = get_u16(c->p);
	s = __builtin_bswap16(raw);
	memcpy(c->p, &s, 2);
	if (v)
		*v = c->to_native ? s : raw;
	c->p += 2;
	c->left -= 2;
	return 0;
}

static int sw_skip(struct swc *c, __u64 n)
{
	if (n > c->left)
		return -EBADMSG;
	c->p += n;
	c->left -= n;
	return 0;
}

/* @n u64s; ~0 for every whole u64 left. */
static int sw_u64s(struct swc *c, __u64 n)
{
	if (n == ~0ULL)
		n = c->left / 8;
	if (n > c->left / 8)
		return -EBADMSG;
	while (n--)
		sw_u64(c, NULL);
	return 0;
}

/*
 * A fixed layout: '8', '4', '2' swap a field of that width, '1' skips a
 * byte, 'B' skips a 20-byte build-id, 'M' a 64-byte message, '*' swaps
 * every whole u64 left; the rest of the region is left alone. A record
 * shorter than its layout (an older perf) is swapped as far as it goes.
 */
static int sw_layout(struct swc *c, const char *f)
{
	for (; *f; f++) {
		int err = 0;

		switch (*f) {
		case '8': err = sw_u64(c, NULL); break;
		case '4': err = sw_u32(c, NULL); break;
		case '2': err = sw_u16(c, NULL); break;
		case '1': err = sw_skip(c, 1); break;
		case 'B': err = sw_skip(c, 20); break;
		case 'M': err = sw_skip(c, 64); break;
		case '*': err = sw_u64s(c, ~0ULL); break;
		}
		if (err)
			return 0;
	}
	return 0;
}

/* perf_header_string: u32 len, then len bytes */
static int sw_str(struct swc *c)
{
	__u32 len;

	return sw_u32(c, &len) ?: sw_skip(c, len);
}

static int sw_strs(struct swc *c, __u64 n)
{
	for (__u64 i = 0; i < n; i++)
		if (sw_str(c))
			return -EBADMSG;
	return 0;
}

/* a u32 at @p as the file means it */
static __u32 sw_peek32(const struct swc *c, const unsigned char *p)
{
	__u32 raw = get_u32(p);

	return c->to_native ? __builtin_bswap32(raw) : raw;
}

/* Do @n CPUs' core and socket ids, the dies and their ids fill what is left? */
static bool sw_dies_fit(const struct swc *c, size_t n, size_t *budget)
{
	const unsigned char *p = c->p + 8 * n;
	size_t left = c->left - 8 * n - 4;
	__u32 dies = sw_peek32(c, p);

	p += 4;
	for (__u32 i = 0; i < dies; i++) {
		__u32 len;

		if (left < 4 * n + 4 || !*budget)
			return false;
		(*budget)--;
		len = sw_peek32(c, p);
		if (len > left - 4 - 4 * n)
			return false;
		p += 4 + len;
		left -= 4 + len;
	}
	return left == 4 * n;
}

/*
 * CPU_TOPOLOGY: sibling sockets and threads (u32 nr; strings each), then a
 * u32 core and socket id for each of NRCPUS's n CPUs, then (newer perf) the
 * sibling dies (u32 nr; strings) and a u32 die id per CPU. n is not in the
 * section: the first n for which the dies fill the rest exactly (the search
 * bounded for damaged input), else u32s to the end (perf before dies).
 */
static int sw_cpu_topology(struct swc *c)
{
	size_t budget = 1 << 20;
	__u32 nr;

	if (sw_u32(c, &nr) || sw_strs(c, nr) || sw_u32(c, &nr) || sw_strs(c, nr))
		return -EBADMSG;
	for (size_t n = 0; 12 * n + 4 <= c->left; n++) {
		if (!sw_dies_fit(c, n, &budget))
			continue;
		for (size_t i = 0; i < 2 * n; i++)
			sw_u32(c, NULL);
		if (sw_u32(c, &nr) || sw_strs(c, nr))
			return -EBADMSG;
		break;
	}
	while (c->left >= 4)
		sw_u32(c, NULL);
	return 0;
}

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
	[72 - 64] = "4444448M44",	/* AUXTRACE_ERROR */
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

/**
 * pulse_feat__swap - byte-swap a feature section's payload in place
 * @feat: the feature bit (enum pulse_feature)
 * @p, @len: the payload
 * @to_native: @p is foreign and becomes native (else the reverse)
 *
 * Return: 0; -EBADMSG when the payload does not fit its own counts;
 * -EOPNOTSUPP for a feature whose layout is not known here (BPF_*,
 * PMU_CAPS and unknown ids): callers drop it.
 */
int pulse_feat__swap(int feat, void *p, size_t len, bool to_native)
{
	struct swc c = { p, len, to_native };
	__u32 nr, asz;

	switch (feat) {
	case PULSE_FEAT_TRACING_DATA:	/* says its own byte order */
	case PULSE_FEAT_BRANCH_STACK:	/* no payload */
	case PULSE_FEAT_STAT:
		return 0;
	case PULSE_FEAT_HOSTNAME: case PULSE_FEAT_OSRELEASE: case PULSE_FEAT_VERSION:
	case PULSE_FEAT_ARCH: case PULSE_FEAT_CPUDESC: case PULSE_FEAT_CPUID:
		return sw_str(&c);
	case PULSE_FEAT_NRCPUS:
		return sw_u32(&c, NULL) ?: sw_u32(&c, NULL);
	case PULSE_FEAT_TOTAL_MEM: case PULSE_FEAT_CLOCKID: case PULSE_FEAT_DIR_FORMAT:
		return sw_u64(&c, NULL);
	case PULSE_FEAT_SAMPLE_TIME:
		return sw_u64s(&c, 2);
	case PULSE_FEAT_AUXTRACE:	/* u64 nr; { u64 offset, size } */
		return sw_u64s(&c, ~0ULL);
	case PULSE_FEAT_COMPRESSED:	/* version, type, level, ratio, mmap_len */
		for (int i = 0; i < 5; i++)
			if (sw_u32(&c, NULL))
				return -EBADMSG;
		return 0;
	case PULSE_FEAT_CLOCK_DATA:	/* version, clockid, tod_ns, clockid_ns */
		return sw_u32(&c, NULL) ?: sw_u32(&c, NULL) ?: sw_u64s(&c, 2);
	case PULSE_FEAT_CMDLINE:
		return sw_u32(&c, &nr) ?: sw_strs(&c, nr);
	case PULSE_FEAT_CPU_PMU_CAPS:	/* u32 nr; { name, value } strings */
		return sw_u32(&c, &nr) ?: sw_strs(&c, (__u64)nr * 2);
	case PULSE_FEAT_HYBRID_TOPOLOGY:	/* u32 nr; { pmu, cpus } strings */
		return sw_u32(&c, &nr) ?: sw_strs(&c, (__u64)nr * 2);
	case PULSE_FEAT_PMU_MAPPINGS:	/* u32 nr; { u32 type; name } */
		if (sw_u32(&c, &nr))
			return -EBADMSG;
		while (nr--)
			if (sw_u32(&c, NULL) || sw_str(&c))
				return -EBADMSG;
		return 0;
	case PULSE_FEAT_GROUP_DESC:	/* u32 nr; { name; u32 leader, nr_members } */
		if (sw_u32(&c, &nr))
			return -EBADMSG;
		while (nr--)
			if (sw_str(&c) || sw_u32(&c, NULL) || sw_u32(&c, NULL))
				return -EBADMSG;
		return 0;
	case PULSE_FEAT_NUMA_TOPOLOGY:	/* u32 nr; { u32 node; u64 total, free; cpus } */
		if (sw_u32(&c, &nr))
			return -EBADMSG;
		while (nr--)
			if (sw_u32(&c, NULL) || sw_u64s(&c, 2) || sw_str(&c))
				return -EBADMSG;
		return 0;
	case PULSE_FEAT_CPU_TOPOLOGY:
		return sw_cpu_topology(&c);
	case PULSE_FEAT_MEM_TOPOLOGY:	/* version, block size, nr; { node, size, bits, words } */
		return sw_u64s(&c, ~0ULL);
	case PULSE_FEAT_CACHE:		/* u32 version, nr; { 4 u32; type, size, map } */
		if (sw_u32(&c, NULL) || sw_u32(&c, &nr))
			return -EBADMSG;
		while (nr--)
			if (sw_u32(&c, NULL) || sw_u32(&c, NULL) || sw_u32(&c, NULL) ||
			    sw_u32(&c, NULL) || sw_strs(&c, 3))
				return -EBADMSG;
		return 0;
	case PULSE_FEAT_BUILD_ID:	/* build-id records back to back */
		while (c.left >= 8) {
			__u16 size;
			struct swc r;

			if (sw_u32(&c, NULL) || sw_u16(&c, NULL) || sw_u16(&c, &size))
				return -EBADMSG;
			if (size < 8 || size - 8 > c.left)
				return -EBADMSG;
			r = (struct swc){ c.p, size - 8, to_native };
			sw_layout(&r, "4B112");
			sw_skip(&c, size - 8);
		}
		return 0;
	case PULSE_FEAT_EVENT_DESC:	/* u32 nr, attr_size; { attr; u32 nr_ids; name; ids } */
		if (sw_u32(&c, &nr) || sw_u32(&c, &asz))
			return -EBADMSG;
		while (nr--) {
			__u32 nr_ids;

			if (asz > c.left || pulse_attr__swap(c.p, asz, to_native))
				return -EBADMSG;
			sw_skip(&c, asz);
			if (sw_u32(&c, &nr_ids) || sw_str(&c) || nr_ids > c.left / 8)
				return -EBADMSG;
			sw_u64s(&c, nr_ids);
		}
		return 0;
	}
	return -EOPNOTSUPP;
}
