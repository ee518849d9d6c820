// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for pulse_sample__parse() and the id position helpers. Every
 * record is built byte by byte, field after field in kernel order, so the
 * tests check the layout rules rather than a copy of the parser's logic.
 */
#include <errno.h>
#include <stdint.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include "test.h"

struct rb {
	unsigned char buf[8192];
	size_t len;
};

static void rb_u64(struct rb *b, __u64 v)
{
	memcpy(b->buf + b->len, &v, 8);
	b->len += 8;
}

static void rb_u32(struct rb *b, __u32 v)
{
	memcpy(b->buf + b->len, &v, 4);
	b->len += 4;
}

static void rb_bytes(struct rb *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void rb_header(struct rb *b, __u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	b->len = 0;
	rb_bytes(b, &h, sizeof(h));
}

/* Patch header.size to the bytes written so far. */
static void rb_done(struct rb *b)
{
	__u16 sz = b->len;

	memcpy(b->buf + 6, &sz, 2);
}

#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))

static __u32 get_u32_test(const void *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return v;
}

static __u64 u64_at(const void *p, size_t i)
{
	__u64 v;

	memcpy(&v, (const char *)p + 8 * i, 8);
	return v;
}

static void test_sample__basic_fields(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
	};
	struct pulse_sample s;
	struct rb b;

	rb_header(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&b, 77);			/* identifier */
	rb_u64(&b, 0x401000);		/* ip */
	rb_u32(&b, 10); rb_u32(&b, 11);	/* pid, tid */
	rb_u64(&b, 123456789);		/* time */
	rb_u64(&b, 0xdead);		/* addr */
	rb_u64(&b, 77);			/* id */
	rb_u64(&b, 88);			/* stream_id */
	rb_u32(&b, 3); rb_u32(&b, 0);	/* cpu, res */
	rb_u64(&b, 1000);		/* period */
	rb_done(&b);

	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.id, 77);
	ASSERT_EQ(s.ip, 0x401000);
	ASSERT_EQ(s.pid, 10);
	ASSERT_EQ(s.tid, 11);
	ASSERT_EQ(s.time, 123456789);
	ASSERT_EQ(s.addr, 0xdead);
	ASSERT_EQ(s.stream_id, 88);
	ASSERT_EQ(s.cpu, 3);
	ASSERT_EQ(s.period, 1000);
	ASSERT_EQ(s.type, PERF_RECORD_SAMPLE);
	ASSERT_EQ(s.misc, PERF_RECORD_MISC_USER);
	ASSERT_EQ(s.callchain_nr, 0);
	ASSERT_TRUE(s.callchain == NULL);
	ASSERT_TRUE(s.read == NULL);
}

/* Without IDENTIFIER the id comes from ID; unrequested fields stay zero. */
static void test_sample__id_without_identifier(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD,
	};
	struct pulse_sample s;
	struct rb b;

	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 5);
	rb_u64(&b, 0x1234);
	rb_u64(&b, 9);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.time, 5);
	ASSERT_EQ(s.id, 0x1234);
	ASSERT_EQ(s.period, 9);
	ASSERT_EQ(s.ip, 0);
	ASSERT_EQ(s.pid, 0);
}

static void test_sample__read_formats(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			       PERF_FORMAT_ID | PERF_FORMAT_LOST,
	};
	struct pulse_sample s;
	struct rb b;

	/* non-group: value, enabled, running, id, lost */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 42);
	for (int i = 0; i < 5; i++)
		rb_u64(&b, 100 + i);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.period, 42);
	ASSERT_EQ(s.read_size, 40);
	ASSERT_EQ(u64_at(s.read, 0), 100);
	ASSERT_EQ(u64_at(s.read, 4), 104);

	/* group of 3: nr, enabled, running, {value, id, lost} x 3; then callchain */
	attr.read_format |= PERF_FORMAT_GROUP;
	attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 42);
	rb_u64(&b, 3);
	rb_u64(&b, 1000);
	rb_u64(&b, 900);
	for (int i = 0; i < 9; i++)
		rb_u64(&b, 200 + i);
	rb_u64(&b, 1);			/* callchain nr */
	rb_u64(&b, 0xabc);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.read_size, 8 * (3 + 9));
	ASSERT_EQ(u64_at(s.read, 0), 3);
	ASSERT_EQ(u64_at(s.read, 11), 208);
	ASSERT_EQ(s.callchain_nr, 1);
	ASSERT_EQ(u64_at(s.callchain, 0), 0xabc);

	/* group nr too large for the record */
	memset(b.buf + 16, 0xff, 8);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);
}

static void test_sample__callchain_raw_branch(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			       PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_WEIGHT,
	};
	const char raw[12] = "tracepoint!";
	struct pulse_sample s;
	struct rb b;

	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x1111);
	rb_u64(&b, 3);
	rb_u64(&b, PERF_CONTEXT_USER);
	rb_u64(&b, 0x2222);
	rb_u64(&b, 0x3333);
	rb_u32(&b, sizeof(raw));
	rb_bytes(&b, raw, sizeof(raw));
	rb_u64(&b, 2);			/* branch nr */
	for (int i = 0; i < 6; i++)
		rb_u64(&b, 0x500 + i);
	rb_u64(&b, 31);			/* weight */
	rb_done(&b);

	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.ip, 0x1111);
	ASSERT_EQ(s.callchain_nr, 3);
	ASSERT_EQ(u64_at(s.callchain, 0), PERF_CONTEXT_USER);
	ASSERT_EQ(u64_at(s.callchain, 2), 0x3333);
	ASSERT_EQ(s.raw_size, 12);
	ASSERT_MEMEQ(s.raw, raw, 12);
	ASSERT_EQ(s.branch_nr, 2);
	ASSERT_EQ(u64_at(s.branch, 0), 0x500);
	ASSERT_EQ(u64_at(s.branch, 5), 0x505);
	ASSERT_EQ(s.weight, 31);

	/* with HW_INDEX an extra u64 sits between nr and the entries */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x1111);
	rb_u64(&b, 0);			/* empty callchain */
	rb_u32(&b, 4);
	rb_u32(&b, 0xcafe);
	rb_u64(&b, 1);			/* branch nr */
	rb_u64(&b, 7);			/* hw_idx */
	rb_u64(&b, 0x600);
	rb_u64(&b, 0x601);
	rb_u64(&b, 0x602);
	rb_u64(&b, 44);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.callchain_nr, 0);
	ASSERT_EQ(s.raw_size, 4);
	ASSERT_EQ(get_u32_test(s.raw), 0xcafe);
	ASSERT_EQ(s.branch_nr, 1);
	ASSERT_EQ(u64_at(s.branch, 0), 0x600);
	ASSERT_EQ(u64_at(s.branch, 2), 0x602);
	ASSERT_EQ(s.weight, 44);
}

static void test_sample__regs_stack_tail(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			       PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
			       PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
			       PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
			       PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |
			       PERF_SAMPLE_AUX,
		.sample_regs_user = 0x7,	/* 3 regs */
		.sample_regs_intr = 0x30,	/* 2 regs */
	};
	unsigned char stack[16];
	struct pulse_sample s;
	struct rb b;

	for (size_t i = 0; i < sizeof(stack); i++)
		stack[i] = i;
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(&b, 0xa0); rb_u64(&b, 0xa1); rb_u64(&b, 0xa2);
	rb_u64(&b, sizeof(stack));
	rb_bytes(&b, stack, sizeof(stack));
	rb_u64(&b, 8);			/* dyn_size */
	rb_u64(&b, 0x10);		/* weight */
	rb_u64(&b, 0x20);		/* data_src */
	rb_u64(&b, 0x30);		/* transaction */
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(&b, 0xb0); rb_u64(&b, 0xb1);
	rb_u64(&b, 0x40);		/* phys_addr */
	rb_u64(&b, 0x50);		/* cgroup */
	rb_u64(&b, 4096);		/* data_page_size */
	rb_u64(&b, 2097152);		/* code_page_size */
	rb_u64(&b, 8);			/* aux size */
	rb_u64(&b, 0x77);
	rb_done(&b);

	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.user_abi, PERF_SAMPLE_REGS_ABI_64);
	ASSERT_EQ(u64_at(s.user_regs, 0), 0xa0);
	ASSERT_EQ(u64_at(s.user_regs, 2), 0xa2);
	ASSERT_EQ(s.user_stack_size, 8);
	ASSERT_MEMEQ(s.user_stack, stack, 16);
	ASSERT_EQ(s.weight, 0x10);
	ASSERT_EQ(s.data_src, 0x20);
	ASSERT_EQ(s.transaction, 0x30);
	ASSERT_EQ(s.phys_addr, 0x40);
	ASSERT_EQ(s.cgroup, 0x50);
	ASSERT_EQ(s.data_page_size, 4096);
	ASSERT_EQ(s.code_page_size, 2097152);

	/* every cut of the record is detected */
	for (size_t cut = 8; cut < b.len; cut += 8) {
		__u16 sz = cut;

		memcpy(b.buf + 6, &sz, 2);
		ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);
	}

	/* abi 0: no regs follow; stack size 0: no data, no dyn_size */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	rb_u64(&b, 0);			/* stack size */
	rb_u64(&b, 0x11);
	rb_u64(&b, 0x21);
	rb_u64(&b, 0x31);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	rb_u64(&b, 0x41);
	rb_u64(&b, 0x51);
	rb_u64(&b, 1);
	rb_u64(&b, 2);
	rb_u64(&b, 0);			/* aux size */
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.user_abi, 0);
	ASSERT_TRUE(s.user_regs == NULL);
	ASSERT_EQ(s.user_stack_size, 0);
	ASSERT_EQ(s.weight, 0x11);
	ASSERT_EQ(s.phys_addr, 0x41);
	ASSERT_EQ(s.code_page_size, 2);
}

static void test_sample__bad_lengths(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_STACK_USER,
	};
	struct pulse_sample s;
	struct rb b;

	/* callchain nr larger than the record, including one that overflows *8 */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 3);
	rb_u64(&b, 1);
	rb_u64(&b, 2);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);
	ASSERT_EQ(s.callchain_nr, 0);	/* no half-filled result */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x2000000000000001ULL);
	rb_u64(&b, 1);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);

	/* raw size past the end */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0);
	rb_u32(&b, 0xfffffff0);
	rb_u32(&b, 0);
	rb_u64(&b, 0);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);

	/* stack size past the end */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0);
	rb_u32(&b, 4);
	rb_u32(&b, 0);
	rb_u64(&b, 64);
	rb_u64(&b, 0);
	rb_u64(&b, 0);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);

	/* dyn_size larger than the dumped stack */
	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0);
	rb_u32(&b, 4);
	rb_u32(&b, 0);
	rb_u64(&b, 8);
	rb_u64(&b, 0);
	rb_u64(&b, 9);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);
	b.len -= 8;
	rb_u64(&b, 8);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.user_stack_size, 8);
	/* dyn_size 0: the kernel copied nothing (perf's user_stack.size 0), not "all" */
	b.len -= 8;
	rb_u64(&b, 0);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.user_stack_size, 0);
	ASSERT_TRUE(s.user_stack != NULL);

	/* header.size beyond the buffer, or below the header itself */
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len - 1, &attr, &s), -EBADMSG);
	ASSERT_EQ(pulse_sample__parse(b.buf, 4, &attr, &s), -EBADMSG);
	memset(b.buf + 6, 0, 2);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);
}

static void test_sample__id_trailer(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CALLCHAIN,
		.sample_id_all = 1,
	};
	struct pulse_sample s;
	struct rb b;

	ASSERT_EQ(pulse_sample__id_size(&attr), 48);

	/* a COMM record: pid, tid, "true\0\0\0\0", then the trailer */
	rb_header(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32(&b, 100); rb_u32(&b, 100);
	rb_bytes(&b, "true\0\0\0\0", 8);
	rb_u32(&b, 100); rb_u32(&b, 101);
	rb_u64(&b, 5555);
	rb_u64(&b, 9);			/* id */
	rb_u64(&b, 10);			/* stream_id */
	rb_u32(&b, 1); rb_u32(&b, 0);
	rb_u64(&b, 9);			/* identifier */
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.type, PERF_RECORD_COMM);
	ASSERT_EQ(s.misc, PERF_RECORD_MISC_COMM_EXEC);
	ASSERT_EQ(s.pid, 100);
	ASSERT_EQ(s.tid, 101);
	ASSERT_EQ(s.time, 5555);
	ASSERT_EQ(s.id, 9);
	ASSERT_EQ(s.stream_id, 10);
	ASSERT_EQ(s.cpu, 1);
	ASSERT_EQ(s.ip, 0);		/* IP is never part of a trailer */
	ASSERT_EQ(u64_at(b.buf, b.len / 8 + pulse_sample__id_offset(attr.sample_type, false) / 8), 9);

	/* a trailer longer than the record body */
	rb_header(&b, PERF_RECORD_EXIT, 0);
	for (int i = 0; i < 5; i++)
		rb_u64(&b, i);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), -EBADMSG);

	/* without sample_id_all nothing is decoded */
	attr.sample_id_all = 0;
	ASSERT_EQ(pulse_sample__id_size(&attr), 0);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.type, PERF_RECORD_EXIT);
	ASSERT_EQ(s.time, 0);
	ASSERT_EQ(s.id, 0);

	/* ID without IDENTIFIER: the id sits before STREAM_ID and CPU */
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU;
	rb_header(&b, PERF_RECORD_EXIT, 0);
	for (int i = 0; i < 4; i++)	/* pid, ppid, tid, ptid, time */
		rb_u32(&b, 7);
	rb_u64(&b, 1);
	rb_u32(&b, 7); rb_u32(&b, 8);
	rb_u64(&b, 999);
	rb_u64(&b, 31);
	rb_u32(&b, 2); rb_u32(&b, 0);
	rb_done(&b);
	ASSERT_EQ(pulse_sample__id_size(&attr), 32);
	ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
	ASSERT_EQ(s.id, 31);
	ASSERT_EQ(s.time, 999);
	ASSERT_EQ(s.tid, 8);
	ASSERT_EQ(s.cpu, 2);
	ASSERT_EQ(pulse_sample__id_offset(attr.sample_type, false), -16);
}

/* The id offsets agree with records built from the layout, for every mix of id-ish bits. */
static void test_sample__id_offset_all_combos(void)
{
	static const __u64 bits[] = {
		PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
		PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_IDENTIFIER,
	};

	for (unsigned mask = 0; mask < 1u << ARRAY_SIZE_T(bits); mask++) {
		struct perf_event_attr attr = { .sample_id_all = 1 };
		struct pulse_sample s;
		struct rb b;
		int off;

		for (size_t i = 0; i < ARRAY_SIZE_T(bits); i++)
			if (mask & 1u << i)
				attr.sample_type |= bits[i];

		/* SAMPLE: fields in kernel order, each value = 0x100 + field index */
		rb_header(&b, PERF_RECORD_SAMPLE, 0);
		if (attr.sample_type & PERF_SAMPLE_IDENTIFIER)
			rb_u64(&b, 0x4242);
		for (size_t i = 0; i < 8; i++)
			if (attr.sample_type & bits[i])
				rb_u64(&b, bits[i] == PERF_SAMPLE_ID ? 0x4242 : 0x100 + i);
		rb_done(&b);
		ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
		off = pulse_sample__id_offset(attr.sample_type, true);
		if (attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) {
			ASSERT_EQ(s.id, 0x4242);
			ASSERT_TRUE(off >= 8 && (size_t)off + 8 <= b.len);
			ASSERT_EQ(u64_at(b.buf + off, 0), 0x4242);
		} else {
			ASSERT_EQ(off, INT32_MIN);
		}

		/* trailer of a 16-byte-body record */
		rb_header(&b, PERF_RECORD_LOST, 0);
		rb_u64(&b, 1);
		rb_u64(&b, 2);
		{
			static const __u64 order[] = {
				PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
				PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
			};
			for (size_t i = 0; i < 6; i++)
				if (attr.sample_type & order[i])
					rb_u64(&b, order[i] & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)
						   ? 0x4343 : 0x200 + i);
		}
		rb_done(&b);
		ASSERT_EQ(b.len, 24 + pulse_sample__id_size(&attr));
		ASSERT_EQ(pulse_sample__parse(b.buf, b.len, &attr, &s), 0);
		off = pulse_sample__id_offset(attr.sample_type, false);
		if (attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) {
			ASSERT_EQ(s.id, 0x4343);
			ASSERT_TRUE(off < 0 && -off <= (int)b.len - 8);
			ASSERT_EQ(u64_at(b.buf + b.len + off, 0), 0x4343);
		} else {
			ASSERT_EQ(off, INT32_MIN);
			ASSERT_EQ(s.id, 0);
		}
	}
}

/* Records at odd addresses parse the same (UBSan would flag a cast). */
static void test_sample__unaligned(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
	};
	static unsigned char buf[256];
	struct pulse_sample s;
	struct rb b;

	rb_header(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x999);
	rb_u32(&b, 1); rb_u32(&b, 2);
	rb_u64(&b, 2);
	rb_u64(&b, 0x10);
	rb_u64(&b, 0x20);
	rb_done(&b);
	for (int shift = 1; shift < 8; shift++) {
		memcpy(buf + shift, b.buf, b.len);
		ASSERT_EQ(pulse_sample__parse(buf + shift, b.len, &attr, &s), 0);
		ASSERT_EQ(s.ip, 0x999);
		ASSERT_EQ(s.tid, 2);
		ASSERT_EQ(u64_at(s.callchain, 1), 0x20);
	}
}

static __u64 ld64(const void *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return v;
}

/* big-endian bytes, written out by hand */
static void put_be(unsigned char *p, __u64 v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = v >> (8 * (n - 1 - i));
}

/*
 * A SAMPLE and an attr as a big-endian machine writes them become native:
 * each field at its own width, the raw payload left alone, the flags
 * bitfield with its bits reversed in place (disabled is the top bit of
 * byte 0 there). Independent of the writer side, which uses the same code.
 */
static void test_sample__swap_from_big_endian(void)
{
	unsigned char attr[128] = { 0 }, rec[64] = { 0 };
	struct perf_event_attr a;
	struct pulse_sample s;

	put_be(attr, PERF_TYPE_SOFTWARE, 4);
	put_be(attr + 4, 128, 4);
	put_be(attr + 8, PERF_COUNT_SW_CPU_CLOCK, 8);
	put_be(attr + 16, 4000, 8);
	put_be(attr + 24, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN |
		       PERF_SAMPLE_RAW, 8);
	attr[40] = 0x80 | 0x10;		/* bits 0 and 3: disabled, exclusive */
	attr[41] = 0x20;		/* bit 10: freq */
	put_be(attr + 48, 7, 4);	/* wakeup_events */
	put_be(attr + 108, 127, 2);	/* sample_max_stack */
	ASSERT_EQ(pulse_attr__swap(attr, sizeof(attr), true), 0);
	memcpy(&a, attr, sizeof(a) < sizeof(attr) ? sizeof(a) : sizeof(attr));
	ASSERT_EQ(a.type, PERF_TYPE_SOFTWARE);
	ASSERT_EQ(a.size, 128);
	ASSERT_EQ(a.sample_period, 4000);
	ASSERT_EQ(a.disabled, 1);
	ASSERT_EQ(a.inherit, 0);
	ASSERT_EQ(a.exclusive, 1);
	ASSERT_EQ(a.freq, 1);
	ASSERT_EQ(a.wakeup_events, 7);
	ASSERT_EQ(a.sample_max_stack, 127);

	/* header; ip; pid, tid; callchain nr 2; raw u32 4 + "abcd" */
	put_be(rec, PERF_RECORD_SAMPLE, 4);
	put_be(rec + 4, PERF_RECORD_MISC_USER, 2);
	put_be(rec + 6, 56, 2);
	put_be(rec + 8, 0x401000, 8);
	put_be(rec + 16, 42, 4);
	put_be(rec + 20, 43, 4);
	put_be(rec + 24, 2, 8);
	put_be(rec + 32, 0x1111, 8);
	put_be(rec + 40, 0x2222, 8);
	put_be(rec + 48, 4, 4);
	memcpy(rec + 52, "abcd", 4);
	ASSERT_EQ(pulse_event__swap(rec, 56, &a, true), 0);
	ASSERT_EQ(pulse_sample__parse(rec, 56, &a, &s), 0);
	ASSERT_EQ(s.misc, PERF_RECORD_MISC_USER);
	ASSERT_EQ(s.ip, 0x401000);
	ASSERT_EQ(s.pid, 42);
	ASSERT_EQ(s.tid, 43);
	ASSERT_EQ(s.callchain_nr, 2);
	ASSERT_EQ(ld64(s.callchain), 0x1111);
	ASSERT_EQ(ld64((const char *)s.callchain + 8), 0x2222);
	ASSERT_EQ(s.raw_size, 4);
	ASSERT_MEMEQ(s.raw, "abcd", 4);

	/* a count that points past the end stops the swap, never overruns */
	put_be(rec + 24, 1000, 8);
	ASSERT_EQ(pulse_event__swap(rec, 56, &a, false) == 0, 0);
}

TEST_MAIN(TEST(test_sample__basic_fields),
	  TEST(test_sample__id_without_identifier),
	  TEST(test_sample__read_formats),
	  TEST(test_sample__callchain_raw_branch),
	  TEST(test_sample__regs_stack_tail),
	  TEST(test_sample__bad_lengths),
	  TEST(test_sample__id_trailer),
	  TEST(test_sample__id_offset_all_combos),
	  TEST(test_sample__unaligned),
	  TEST(test_sample__swap_from_big_endian))
