// SPDX-License-Identifier: GPL-2.0
/*
 * Feature decoders of lib/output/header.c: perf 6.1's text for well-formed
 * payloads, nothing (or perf's "not available" line) for damaged ones, and
 * every truncation of every payload read without going out of bounds
 * (the sanitizer build checks the last part).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <pulse/buf.h>
#include <pulse/data.h>
#include <pulse/output-header.h>
#include "test.h"

static char out[8192];

/* Print @feat's payload into out[]; the return value of the decoder. */
static int decode(int feat, const void *p, size_t len)
{
	FILE *f;
	int err;

	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");

	if (!f)
		return -ENOMEM;
	err = pulse_header__fprintf_feat(f, feat, p, len, false);
	fclose(f);
	return err;
}

static void add_u32(struct pulse_buf *b, uint32_t v)
{
	pulse_buf__add(b, &v, sizeof(v));
}

static void add_u64(struct pulse_buf *b, uint64_t v)
{
	pulse_buf__add(b, &v, sizeof(v));
}

static void test_header__strings_and_numbers(void)
{
	struct pulse_buf b = { 0 };

	pulse_buf__add_string(&b, "vm");
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, b.p, b.len), 0);
	ASSERT_STREQ(out, "# hostname : vm\n");
	/* the length says more than the section has */
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, b.p, b.len - 1), -EINVAL);
	ASSERT_STREQ(out, "");
	b.len = 0;
	add_u32(&b, 4);
	add_u32(&b, 2);
	ASSERT_EQ(decode(PULSE_FEAT_NRCPUS, b.p, b.len), 0);
	ASSERT_STREQ(out, "# nrcpus online : 2\n# nrcpus avail : 4\n");
	ASSERT_EQ(decode(PULSE_FEAT_NRCPUS, b.p, 7), -EINVAL);
	b.len = 0;
	add_u64(&b, 485649150123ULL);
	add_u64(&b, 485697333999ULL);
	ASSERT_EQ(decode(PULSE_FEAT_SAMPLE_TIME, b.p, b.len), 0);
	ASSERT_STREQ(out, "# time of first sample : 485.649150\n"
			  "# time of last sample : 485.697333\n"
			  "# sample duration :     48.184 ms\n");
	free(b.p);
}

static void test_header__cmdline_and_mappings(void)
{
	struct pulse_buf b = { 0 };

	add_u32(&b, 2);
	pulse_buf__add_string(&b, "perf");
	pulse_buf__add_string(&b, "it's");
	ASSERT_EQ(decode(PULSE_FEAT_CMDLINE, b.p, b.len), 0);
	ASSERT_STREQ(out, "# cmdline : perf it\\'s \n");
	b.len = 0;
	add_u32(&b, 0x7fffffff);	/* more strings than bytes */
	ASSERT_EQ(decode(PULSE_FEAT_CMDLINE, b.p, b.len), -EINVAL);
	b.len = 0;
	add_u32(&b, 2);
	add_u32(&b, 1);
	pulse_buf__add_string(&b, "software");
	add_u32(&b, 2);
	pulse_buf__add_string(&b, "tracepoint");
	ASSERT_EQ(decode(PULSE_FEAT_PMU_MAPPINGS, b.p, b.len), 0);
	ASSERT_STREQ(out, "# pmu mappings: software = 1, tracepoint = 2\n");
	free(b.p);
}

static void test_header__event_desc(void)
{
	struct pulse_buf b = { 0 };
	unsigned char attr[128] = { 0 };
	uint32_t v;
	uint64_t flags = 1 | 1ULL << 18;

	add_u32(&b, 1);
	add_u32(&b, sizeof(attr));
	v = 1;
	memcpy(attr, &v, 4);			/* type */
	v = 128;
	memcpy(attr + 4, &v, 4);		/* size */
	memcpy(attr + 40, &flags, 8);
	attr[24] = 0x7;				/* IP|TID|TIME */
	pulse_buf__add(&b, attr, sizeof(attr));
	add_u32(&b, 2);
	pulse_buf__add_string(&b, "cpu-clock");
	add_u64(&b, 11);
	add_u64(&b, 12);
	ASSERT_EQ(decode(PULSE_FEAT_EVENT_DESC, b.p, b.len), 0);
	ASSERT_STREQ(out, "# event : name = cpu-clock, , id = { 11, 12 }, type = 1, size = 128, "
			  "sample_type = IP|TID|TIME, disabled = 1, sample_id_all = 1\n");
	/* an id count past the end: perf's "not available" line */
	ASSERT_EQ(decode(PULSE_FEAT_EVENT_DESC, b.p, b.len - 1), -EINVAL);
	ASSERT_STREQ(out, "# event desc: not available or unable to read\n");
	free(b.p);
}

/* Every prefix and every one-byte change of each payload: no crash. */
static void test_header__truncated_and_flipped(void)
{
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_NRCPUS, PULSE_FEAT_TOTAL_MEM, PULSE_FEAT_CMDLINE,
		PULSE_FEAT_EVENT_DESC, PULSE_FEAT_PMU_MAPPINGS, PULSE_FEAT_SAMPLE_TIME,
		PULSE_FEAT_CLOCKID, PULSE_FEAT_COMPRESSED, PULSE_FEAT_CPU_PMU_CAPS,
		PULSE_FEAT_CLOCK_DATA, PULSE_FEAT_PMU_CAPS, PULSE_FEAT_BPF_PROG_INFO,
	};
	unsigned char p[256];

	for (size_t i = 0; i < sizeof(p); i++)
		p[i] = (i * 37) & 0xff;
	p[0] = 2, p[1] = p[2] = p[3] = 0;	/* small counts */
	p[4] = 8, p[5] = p[6] = p[7] = 0;
	for (size_t f = 0; f < sizeof(feats) / sizeof(feats[0]); f++) {
		for (size_t len = 0; len <= sizeof(p); len++) {
			unsigned char *copy = malloc(len ? len : 1);

			memcpy(copy, p, len);
			decode(feats[f], copy, len);
			free(copy);
		}
	}
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, NULL, 100), -EINVAL);
	ASSERT_EQ(decode(PULSE_FEAT_MAX + 3, p, sizeof(p)), 0);
}

TEST_MAIN(TEST(test_header__strings_and_numbers), TEST(test_header__cmdline_and_mappings),
	  TEST(test_header__event_desc), TEST(test_header__truncated_and_flipped))
