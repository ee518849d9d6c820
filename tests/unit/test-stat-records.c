// SPDX-License-Identifier: GPL-2.0
/*
 * The records of a stat file: the bytes perf 6.1 wrote (taken from a
 * `perf stat record` file) decoded, every builder read back by its
 * decoder, every CPU_MAP layout, records cut short or claiming more
 * entries than they hold, the other byte order through pulse_event__swap,
 * and a whole file written with the data writer and read back through the
 * reader (simpleperf's round trip).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include <pulse/stat-records.h>
#include "test.h"

/* From `perf stat record -o x.data -- true` (perf 6.1, x86_64). */
static const unsigned char perf_cpu_map[16] = {
	0x4a, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 1, 0, 0xff, 0xff, 0, 0,
};
static const unsigned char perf_range_map[16] = {	/* perf stat record -a, 2 cpus */
	0x4a, 0, 0, 0, 0, 0, 0x10, 0, 2, 0, 0, 0, 0, 0, 1, 0,
};
static const unsigned char perf_config[64] = {
	0x4b, 0, 0, 0, 0, 0, 0x40, 0, 3, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
};
static const unsigned char perf_stat[48] = {
	0x4c, 0, 0, 0, 0, 0, 0x30, 0, 0x43, 0x96, 0x0b, 0, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x76, 0x78, 0x07, 0, 0, 0, 0, 0,
	0x76, 0x78, 0x07, 0, 0, 0, 0, 0, 0x76, 0x78, 0x07, 0, 0, 0, 0, 0,
};
static const unsigned char perf_round[24] = {
	0x4d, 0, 0, 0, 0, 0, 0x18, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	0x99, 0xd9, 0x0d, 0, 0, 0, 0, 0,
};
static const unsigned char perf_threads[40] = {
	0x49, 0, 0, 0, 0, 0, 0x28, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	0xd6, 0x2d, 0, 0, 0, 0, 0, 0,
};

static void test_stat_records__perf_bytes(void)
{
	struct pulse_thread_map_entry *t;
	struct pulse_stat_config c;
	struct pulse_stat_values v;
	struct pulse_stat_round r;
	int *cpus, layout;
	size_t nr;

	ASSERT_EQ(pulse_cpu_map__parse(perf_cpu_map, 16, &cpus, &nr, &layout), 0);
	ASSERT_EQ(layout, PULSE_CPU_MAP_CPUS);
	ASSERT_EQ(nr, 1);
	ASSERT_EQ(cpus[0], -1);
	free(cpus);
	ASSERT_EQ(pulse_cpu_map__parse(perf_range_map, 16, &cpus, &nr, &layout), 0);
	ASSERT_EQ(layout, PULSE_CPU_MAP_RANGE);
	ASSERT_EQ(nr, 2);
	ASSERT_EQ(cpus[0], 0);
	ASSERT_EQ(cpus[1], 1);
	free(cpus);
	ASSERT_EQ(pulse_stat_config__parse(perf_config, 64, &c), 0);
	ASSERT_EQ(c.aggr_mode, 1);
	ASSERT_EQ(c.scale, 1);
	ASSERT_EQ(c.interval, 0);
	ASSERT_EQ(c.present, 7);
	ASSERT_EQ(pulse_stat_values__parse(perf_stat, 48, &v), 0);
	ASSERT_EQ(v.id, 759363);
	ASSERT_EQ((int)v.cpu, -1);
	ASSERT_EQ(v.thread, 0);
	ASSERT_EQ(v.val, 489590);
	ASSERT_EQ(v.ena, 489590);
	ASSERT_EQ(v.run, 489590);
	ASSERT_EQ(pulse_stat_round__parse(perf_round, 24, &r), 0);
	ASSERT_EQ(r.type, PULSE_STAT_ROUND_FINAL);
	ASSERT_EQ(r.time, 907673);
	ASSERT_EQ(pulse_thread_map__parse(perf_threads, 40, &t, &nr), 0);
	ASSERT_EQ(nr, 1);
	ASSERT_EQ(t[0].pid, 11734);
	ASSERT_STREQ(t[0].comm, "");
	free(t);
}

/* Builders reproduce perf's bytes. */
static void test_stat_records__build_as_perf(void)
{
	struct pulse_stat_config c = { .aggr_mode = 1, .scale = true };
	struct pulse_stat_values v = { 759363, (__u32)-1, 0, 489590, 489590, 489590 };
	struct pulse_stat_round r = { PULSE_STAT_ROUND_FINAL, 907673 };
	struct pulse_thread_map_entry t = { .pid = 11734 };
	struct pulse_buf b = { 0 };
	int any = -1, two[2] = { 0, 1 };

	ASSERT_EQ(pulse_thread_map__build(&b, &t, 1), 0);
	ASSERT_EQ(pulse_cpu_map__build(&b, &any, 1, PULSE_CPU_MAP_AUTO), 0);
	ASSERT_EQ(pulse_cpu_map__build(&b, two, 2, PULSE_CPU_MAP_AUTO), 0);
	ASSERT_EQ(pulse_stat_config__build(&b, &c), 0);
	ASSERT_EQ(pulse_stat_values__build(&b, &v), 0);
	ASSERT_EQ(pulse_stat_round__build(&b, &r), 0);
	ASSERT_EQ(b.len, 40 + 16 + 16 + 64 + 48 + 24);
	ASSERT_MEMEQ(b.p, perf_threads, 40);
	ASSERT_MEMEQ(b.p + 40, perf_cpu_map, 16);
	ASSERT_MEMEQ(b.p + 56, perf_range_map, 16);
	ASSERT_MEMEQ(b.p + 72, perf_config, 64);
	ASSERT_MEMEQ(b.p + 136, perf_stat, 48);
	ASSERT_MEMEQ(b.p + 184, perf_round, 24);
	pulse_buf__release(&b);
}

/* Every layout, built then read back, gives the cpus back. */
static void test_stat_records__cpu_map_layouts(void)
{
	static const int sets[][5] = {
		{ 0, 1, 2, 3, -2 }, { 1, 5, 64, 130, -2 }, { -1, 0, 1, -2 }, { 31, 32, 33, -2 },
	};
	static const int layouts[] = { PULSE_CPU_MAP_CPUS, PULSE_CPU_MAP_MASK, PULSE_CPU_MAP_MASK32,
				       PULSE_CPU_MAP_RANGE, PULSE_CPU_MAP_AUTO };

	for (size_t s = 0; s < 4; s++) {
		size_t n = 0;

		while (sets[s][n] != -2)
			n++;
		for (size_t l = 0; l < 5; l++) {
			struct pulse_buf b = { 0 };
			int *cpus, got, err;
			size_t nr;
			bool contiguous = sets[s][n - 1] - sets[s][sets[s][0] == -1] + 1 ==
					  (int)(n - (sets[s][0] == -1));

			err = pulse_cpu_map__build(&b, sets[s], n, layouts[l]);
			if ((layouts[l] == PULSE_CPU_MAP_MASK || layouts[l] == PULSE_CPU_MAP_MASK32) &&
			    sets[s][0] == -1) {
				ASSERT_EQ(err, -EINVAL);	/* a mask cannot say -1 */
				continue;
			}
			if (layouts[l] == PULSE_CPU_MAP_RANGE && !contiguous) {
				pulse_buf__release(&b);
				continue;	/* a range of the ends: a different set */
			}
			ASSERT_EQ(err, 0);
			ASSERT_EQ(b.len % 8, 0);
			ASSERT_EQ(pulse_cpu_map__parse(b.p, b.len, &cpus, &nr, &got), 0);
			if (layouts[l] != PULSE_CPU_MAP_AUTO)
				ASSERT_EQ(got, layouts[l]);
			ASSERT_EQ(nr, n);
			for (size_t i = 0; i < n; i++)
				ASSERT_EQ(cpus[i], sets[s][i]);
			free(cpus);
			pulse_buf__release(&b);
		}
	}
}

static void put_size(unsigned char *rec, __u16 size)
{
	memcpy(rec + 6, &size, 2);
}

/* Short records and counts past the end are -EBADMSG, never a read past. */
static void test_stat_records__damaged(void)
{
	unsigned char buf[64];
	struct pulse_thread_map_entry *t;
	struct pulse_stat_config c;
	struct pulse_stat_values v;
	struct pulse_stat_round r;
	int *cpus;
	size_t nr;

	/* each record with a header.size one short of its fixed part */
	memcpy(buf, perf_stat, 48);
	put_size(buf, 40);
	ASSERT_EQ(pulse_stat_values__parse(buf, 48, &v), -EBADMSG);
	ASSERT_EQ(pulse_stat_values__parse(perf_stat, 47, &v), -EBADMSG);	/* size > avail */
	memcpy(buf, perf_round, 24);
	put_size(buf, 16);
	ASSERT_EQ(pulse_stat_round__parse(buf, 24, &r), -EBADMSG);
	/* nr entries that do not fit */
	memcpy(buf, perf_config, 64);
	buf[8] = 4;
	ASSERT_EQ(pulse_stat_config__parse(buf, 64, &c), -EBADMSG);
	memcpy(buf, perf_threads, 40);
	buf[8] = 2;
	ASSERT_EQ(pulse_thread_map__parse(buf, 40, &t, &nr), -EBADMSG);
	ASSERT_TRUE(t == NULL);
	memcpy(buf, perf_threads, 40);
	buf[15] = 0x80;		/* a huge u64 count */
	ASSERT_EQ(pulse_thread_map__parse(buf, 40, &t, &nr), -EBADMSG);
	/* CPU_MAP: cpus nr past the end, mask long_size 3, range end < start */
	memcpy(buf, perf_cpu_map, 16);
	buf[10] = 5;
	ASSERT_EQ(pulse_cpu_map__parse(buf, 16, &cpus, &nr, NULL), -EBADMSG);
	static const unsigned char mask3[16] = { 0x4a, 0, 0, 0, 0, 0, 16, 0, 1, 0, 1, 0, 3, 0 };
	ASSERT_EQ(pulse_cpu_map__parse(mask3, 16, &cpus, &nr, NULL), -EBADMSG);
	static const unsigned char mask64[16] = { 0x4a, 0, 0, 0, 0, 0, 16, 0, 1, 0, 1, 0, 8, 0 };
	ASSERT_EQ(pulse_cpu_map__parse(mask64, 16, &cpus, &nr, NULL), -EBADMSG);
	memcpy(buf, perf_range_map, 16);
	buf[12] = 5;
	ASSERT_EQ(pulse_cpu_map__parse(buf, 16, &cpus, &nr, NULL), -EBADMSG);
	buf[8] = 9;		/* unknown type */
	ASSERT_EQ(pulse_cpu_map__parse(buf, 16, &cpus, &nr, NULL), -EOPNOTSUPP);
	ASSERT_EQ(pulse_cpu_map__parse(perf_cpu_map, 9, &cpus, &nr, NULL), -EBADMSG);
	ASSERT_EQ(pulse_cpu_map__parse(perf_cpu_map, 4, &cpus, &nr, NULL), -EBADMSG);
	ASSERT_TRUE(cpus == NULL);
}

/* Swapped to the other byte order and back, as the reader does for a foreign file. */
static void test_stat_records__other_byte_order(void)
{
	struct pulse_stat_values v = { 0x0102030405060708ULL, 3, 1, 10, 20, 5 };
	struct pulse_stat_config c = { .aggr_mode = 2, .interval = 100, .scale = true };
	struct pulse_thread_map_entry t[2] = { { 11, "a" }, { 0x1234, "bb" } };
	int cpus[3] = { 1, 40, 70 }, *got;
	struct pulse_buf b = { 0 };
	struct pulse_stat_values v2;
	struct pulse_stat_config c2;
	struct pulse_thread_map_entry *t2;
	size_t nr, off = 0;

	ASSERT_EQ(pulse_stat_values__build(&b, &v), 0);
	ASSERT_EQ(pulse_stat_config__build(&b, &c), 0);
	ASSERT_EQ(pulse_thread_map__build(&b, t, 2), 0);
	ASSERT_EQ(pulse_cpu_map__build(&b, cpus, 3, PULSE_CPU_MAP_MASK), 0);
	for (int pass = 0; pass < 2; pass++) {
		for (off = 0; off < b.len;) {
			struct perf_event_header h;

			memcpy(&h, b.p + off, sizeof(h));
			if (pass) {	/* now foreign: header.size is swapped too */
				ASSERT_EQ(pulse_event__swap(b.p + off, __builtin_bswap16(h.size),
							    NULL, true), 0);
				memcpy(&h, b.p + off, sizeof(h));
			} else {
				ASSERT_EQ(pulse_event__swap(b.p + off, h.size, NULL, false), 0);
			}
			off += h.size;
		}
		if (!pass) {	/* a foreign STAT reads as garbage, not as v */
			ASSERT_EQ(pulse_stat_values__parse(b.p, 48, &v2), -EBADMSG);
		}
	}
	ASSERT_EQ(pulse_stat_values__parse(b.p, b.len, &v2), 0);
	ASSERT_MEMEQ(&v2, &v, sizeof(v));
	ASSERT_EQ(pulse_stat_config__parse(b.p + 48, b.len - 48, &c2), 0);
	ASSERT_EQ(c2.aggr_mode, 2);
	ASSERT_EQ(c2.interval, 100);
	ASSERT_EQ(c2.scale, 1);
	ASSERT_EQ(pulse_thread_map__parse(b.p + 112, b.len - 112, &t2, &nr), 0);
	ASSERT_EQ(nr, 2);
	ASSERT_EQ(t2[1].pid, 0x1234);
	ASSERT_STREQ(t2[1].comm, "bb");
	free(t2);
	ASSERT_EQ(pulse_cpu_map__parse(b.p + 176, b.len - 176, &got, &nr, NULL), 0);
	ASSERT_EQ(nr, 3);
	ASSERT_EQ(got[2], 70);
	free(got);
	pulse_buf__release(&b);
}

struct seen {
	size_t nr[8];
	__u64 val_sum, round_time;
};

static int visit(struct pulse_data *d, const struct perf_event_header *rec, __u64 off, void *arg)
{
	struct seen *s = arg;
	struct pulse_stat_values v;
	struct pulse_stat_round r;

	if (rec->type >= PERF_RECORD_THREAD_MAP && rec->type <= PERF_RECORD_STAT_ROUND)
		s->nr[rec->type - PERF_RECORD_THREAD_MAP]++;
	if (rec->type == PERF_RECORD_STAT && !pulse_stat_values__parse(rec, rec->size, &v))
		s->val_sum += v.val * 1000 + v.run;
	if (rec->type == PERF_RECORD_STAT_ROUND && !pulse_stat_round__parse(rec, rec->size, &r))
		s->round_time = r.time;
	return 0;
}

/* A whole stat file through the writer and back through the reader. */
static void test_stat_records__file_round_trip(void)
{
	struct pulse_data_attr a = { 0 };
	struct pulse_stat_values v = { 5, (__u32)-1, 0, 7, 100, 50 };
	struct pulse_stat_round r = { PULSE_STAT_ROUND_FINAL, 12345 };
	struct pulse_stat_config c = { .aggr_mode = 1, .scale = true };
	struct pulse_thread_map_entry t = { 42, "x" };
	struct pulse_feat_ctx ctx = { 0 };
	struct pulse_data_writer *w;
	struct pulse_buf b = { 0 };
	struct pulse_data *d;
	struct seen s = { 0 };
	char path[] = "/tmp/pulse-statrec-XXXXXX";
	__u64 id = 5;
	int any = -1, fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	a.attr.size = PULSE_FILE_ATTR_SIZE;
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.sample_type = PERF_SAMPLE_IDENTIFIER;
	a.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.name = "cpu-clock";
	a.ids = &id;
	a.nr_ids = 1;
	ctx.attrs = &a;
	ctx.nr_attrs = 1;
	ASSERT_EQ(pulse_data_writer__new(&w, fd, &a, 1, NULL), 0);
	ASSERT_EQ(pulse_data_writer__add_stat_features(w, &ctx), 0);
	ASSERT_EQ(pulse_thread_map__build(&b, &t, 1), 0);
	ASSERT_EQ(pulse_cpu_map__build(&b, &any, 1, PULSE_CPU_MAP_AUTO), 0);
	ASSERT_EQ(pulse_stat_config__build(&b, &c), 0);
	ASSERT_EQ(pulse_stat_values__build(&b, &v), 0);
	ASSERT_EQ(pulse_stat_round__build(&b, &r), 0);
	ASSERT_EQ(pulse_data_writer__write(w, b.p, b.len), 0);
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);
	pulse_buf__release(&b);
	close(fd);

	ASSERT_EQ(pulse_data__open(&d, path), 0);
	unlink(path);
	ASSERT_TRUE(pulse_data__has_feat(d, PULSE_FEAT_STAT));
	ASSERT_TRUE(pulse_data__has_feat(d, PULSE_FEAT_EVENT_DESC));
	ASSERT_TRUE(!pulse_data__has_feat(d, PULSE_FEAT_BUILD_ID));
	ASSERT_EQ(pulse_data__for_each_record(d, visit, &s), 0);
	pulse_data__close(d);
	ASSERT_EQ(s.nr[0], 1);
	ASSERT_EQ(s.nr[1], 1);
	ASSERT_EQ(s.nr[2], 1);
	ASSERT_EQ(s.nr[3], 1);
	ASSERT_EQ(s.nr[4], 1);
	ASSERT_EQ(s.val_sum, 7050);
	ASSERT_EQ(s.round_time, 12345);
}

TEST_MAIN(TEST(test_stat_records__perf_bytes), TEST(test_stat_records__build_as_perf),
	  TEST(test_stat_records__cpu_map_layouts), TEST(test_stat_records__damaged),
	  TEST(test_stat_records__other_byte_order), TEST(test_stat_records__file_round_trip))
