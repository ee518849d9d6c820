// SPDX-License-Identifier: GPL-2.0
/*
 * lib/output/dump.c: perf 6.1's raw-event hex layout, record names, the
 * stats block, and records that are too short for their type (printed raw,
 * decoded no further than their bytes). Expected text is perf 6.1's output
 * for the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/dump.h>
#include <pulse/reader.h>
#include "test.h"

/* Run @fn into a memory stream and return what it printed (caller frees). */
static char *capture_hex(const void *buf, size_t len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	pulse_dump__hex(f, buf, len);
	fclose(f);
	return s;
}

static void test_dump__hex_layout(void)
{
	const unsigned char rec[20] = { 0x52, 0, 0, 0, 0, 0, 0x14, 0, 'a', 'b', 0x7f, 0x80,
					' ', '~', 0, 0, 1, 2, 3, 4 };
	char *s = capture_hex(rec, sizeof(rec));

	ASSERT_STREQ(s, ".\n. ... raw event: size 20 bytes\n"
		     ".  0000:  52 00 00 00 00 00 14 00 61 62 7f 80 20 7e 00 00  R.......ab.. ~..\n"
		     ".  0010:  01 02 03 04                                      ....            \n"
		     "\n");
	free(s);
}

static void test_dump__type_names(void)
{
	ASSERT_STREQ(pulse_dump__type_name(PERF_RECORD_MMAP2), "MMAP2");
	ASSERT_STREQ(pulse_dump__type_name(PERF_RECORD_HEADER_ATTR), "ATTR");
	ASSERT_STREQ(pulse_dump__type_name(PERF_RECORD_HEADER_FEATURE), "FEATURE");
	ASSERT_STREQ(pulse_dump__type_name(PERF_RECORD_FINISHED_INIT), "FINISHED_INIT");
	ASSERT_STREQ(pulse_dump__type_name(40), "UNKNOWN");
	ASSERT_STREQ(pulse_dump__type_name(PERF_RECORD_COMPRESSED2), "INVALID");
}

/* A pipe image: header, one attr (TID|TIME, sample_id_all), then @recs. */
static size_t pipe_image(unsigned char *buf, const void *recs, size_t len)
{
	struct perf_event_attr attr = { .type = 1, .size = 128,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME, .sample_id_all = 1 };
	struct perf_event_header h = { PERF_RECORD_HEADER_ATTR, 0, 8 + 128 };
	__u64 magic = 0x32454c4946524550ULL, sz = 16;
	size_t off = 0;

	memcpy(buf + off, &magic, 8), off += 8;
	memcpy(buf + off, &sz, 8), off += 8;
	memcpy(buf + off, &h, 8), off += 8;
	memcpy(buf + off, &attr, 128), off += 128;
	memcpy(buf + off, recs, len);
	return off + len;
}

struct walk {
	struct pulse_dump dump;
	FILE *out;
};

static int walk_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		   void *arg)
{
	struct walk *w = arg;

	pulse_dump__count(&w->dump, rec->type);
	return pulse_dump__record(w->out, d, rec, off - 16, &w->dump);
}

static void test_dump__short_records(void)
{
	/*
	 * an MMAP2 cut to its header and pid/tid (its trailer unreadable: time
	 * -1), then a COMM whose trailer takes its name's bytes
	 */
	unsigned char recs[64] = { 0 }, img[512];
	struct perf_event_header h1 = { PERF_RECORD_MMAP2, 2, 16 };
	struct perf_event_header h2 = { PERF_RECORD_COMM, 0, 24 };
	struct pulse_data *d;
	struct walk w;
	char *s = NULL;
	size_t n = 0, len;

	memcpy(recs, &h1, 8);
	memcpy(recs + 16, &h2, 8);
	memcpy(recs + 32, "abc", 4);
	len = pipe_image(img, recs, 40);
	ASSERT_EQ(pulse_data__open_mem(&d, img, len), 0);
	w.out = open_memstream(&s, &n);
	pulse_dump__init(&w.dump, "pipe", NULL, NULL, NULL);
	ASSERT_EQ(pulse_data__for_each_record(d, walk_cb, &w), 0);
	ASSERT_EQ(pulse_dump__fprintf_stats(w.out, d, &w.dump), 0);
	fclose(w.out);
	/* the short MMAP2 shows its bytes and name, and no fields read past it */
	ASSERT_TRUE(strstr(s, "\n0x88@pipe [0x10]: event: 10\n") != NULL);
	ASSERT_TRUE(strstr(s, "18446744073709551615 0x88 [0x10]: PERF_RECORD_MMAP2\n\n") != NULL);
	ASSERT_TRUE(strstr(s, "\nAggregated stats:\n           TOTAL events:          3\n") != NULL);
	ASSERT_TRUE(strstr(s, "            ATTR events:          1  (33.3%)\n") != NULL);
	pulse_dump__exit(&w.dump);
	pulse_data__close(d);
	free(s);
}

TEST_MAIN(TEST(test_dump__hex_layout),
	  TEST(test_dump__type_names),
	  TEST(test_dump__short_records))
