// SPDX-License-Identifier: GPL-2.0
/*
 * pulse_sample__time() against pulse_sample__parse(): the ordering reads
 * every record's time through the former, so for any layout, whole or cut
 * short or with a callchain count past its end, both must agree on whether
 * the record is whole and on its time.
 */
#include <errno.h>
#include <stdint.h>
#include <pulse/data.h>
#include "test.h"

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const __u64 bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW, PERF_SAMPLE_READ,
	PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_PHYS_ADDR,
};

/* Agreement of the two on one record. */
static int agree(const void *rec, size_t size, const struct perf_event_attr *attr)
{
	struct pulse_sample s;
	int perr = pulse_sample__parse(rec, size, attr, &s), terr;
	__u64 t = 0xdead;

	__u32 type;
	__u16 end;

	terr = pulse_sample__time(rec, size, attr, &t);
	memcpy(&type, rec, 4);
	memcpy(&end, (const char *)rec + 6, 2);
	/* a record without a time has none, whole or not */
	if (end >= 8 && end <= size && (!(attr->sample_type & PERF_SAMPLE_TIME) ||
					(type != PERF_RECORD_SAMPLE && !attr->sample_id_all)))
		return terr == -ENOENT;
	if (perr)
		return terr == -EBADMSG;
	return terr == 0 && t == s.time;
}

static void test_sample_time__agrees_with_parse(void)
{
	unsigned char rec[512];

	for (int i = 0; i < 200000; i++) {
		struct perf_event_attr attr = { .size = sizeof(attr) };
		__u64 r = next_rand(), nr;
		__u16 size;
		__u32 type;

		for (size_t b = 0; b < sizeof(bits) / sizeof(bits[0]); b++)
			if (next_rand() % 3 == 0)
				attr.sample_type |= bits[b];
		/* mostly the fast layouts, where the two differ in code */
		if (r & 1)
			attr.sample_type &= ~(__u64)(PERF_SAMPLE_RAW | PERF_SAMPLE_READ |
						     PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
						     PERF_SAMPLE_PHYS_ADDR);
		attr.sample_id_all = (r >> 1) & 1;
		attr.read_format = PERF_FORMAT_ID;
		for (size_t k = 0; k < sizeof(rec); k += 8) {
			__u64 v = next_rand();

			/* small counts, so that callchains and raw data often fit */
			if (next_rand() % 2)
				v %= 12;
			memcpy(rec + k, &v, 8);
		}
		type = (r >> 2) % 4 ? PERF_RECORD_SAMPLE : PERF_RECORD_MMAP;
		size = 8 + (r >> 8) % 200;
		memcpy(rec, &type, 4);
		memcpy(rec + 6, &size, 2);
		nr = (r >> 20) % 8;
		if (type == PERF_RECORD_SAMPLE && attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
			/* callchain_nr where the parse finds it, some fitting, some not */
			size_t off = 8 + 8 * __builtin_popcountll(attr.sample_type &
					(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
					 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD));

			if (!(attr.sample_type & PERF_SAMPLE_READ) && off + 8 <= sizeof(rec))
				memcpy(rec + off, &nr, 8);
		}
		if (!agree(rec, size, &attr))
			TEST_FAIL("record %d: sample_type %#llx id_all %d type %u size %u", i,
				  (unsigned long long)attr.sample_type, attr.sample_id_all, type,
				  size);
		/* bytes available short of header.size */
		if (!agree(rec, size / 2, &attr))
			TEST_FAIL("record %d cut at %u", i, size / 2);
	}
}

static void test_sample_time__fixed_offset(void)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD };
	__u64 rec[12] = { 0 }, t = 0;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 * 10 };

	/* header, ip, pid/tid, time, id, cpu, period, nr 2, two ips */
	memcpy(rec, &h, 8);
	rec[3] = 123456789;
	rec[7] = 2;
	ASSERT_EQ(pulse_sample__time(rec, sizeof(rec), &attr, &t), 0);
	ASSERT_EQ(t, 123456789);
	/* one ip short */
	rec[7] = 3;
	ASSERT_EQ(pulse_sample__time(rec, sizeof(rec), &attr, &t), -EBADMSG);

	/* a COMM with the trailer: tid, time, id, cpu from the end */
	h = (struct perf_event_header){ PERF_RECORD_COMM, 0, 8 * 6 };
	memcpy(rec, &h, 8);
	rec[3] = 987654321;
	ASSERT_EQ(pulse_sample__time(rec, 48, &attr, &t), 0);
	ASSERT_EQ(t, 987654321);
	attr.sample_id_all = 0;
	ASSERT_EQ(pulse_sample__time(rec, 48, &attr, &t), -ENOENT);
}

TEST_MAIN(TEST(test_sample_time__agrees_with_parse),
	  TEST(test_sample_time__fixed_offset))
