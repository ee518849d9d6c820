// SPDX-License-Identifier: GPL-2.0
/*
 * The feature table and the feature accessors: a file written with the
 * writer (file and pipe mode) is read back and OSRELEASE, SAMPLE_TIME,
 * CLOCK_DATA and the BUILD_ID entries come out of the accessors as they
 * went in; short or damaged payloads give the documented errors; every
 * feature perf 6.1 knows has a row.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include "test.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const __u64 ids0[] = { 7 };

/* The features to write: id and payload. */
struct feat_in {
	int feat;
	const void *p;
	size_t len;
};

/* Write a file with one attr and @feats, read it back in @d. */
static int roundtrip(bool pipe, const struct feat_in *feats, size_t nr, struct pulse_data **d,
		     char *path)
{
	struct pulse_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe };
	struct pulse_data_attr a = { 0 };
	struct pulse_data_writer *w;
	int fd, err;

	strcpy(path, "/tmp/pulse-feat-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	a.attr.size = sizeof(a.attr);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
	a.ids = ids0;
	a.nr_ids = 1;
	err = pulse_data_writer__new(&w, fd, &a, 1, &o);
	for (size_t i = 0; i < nr && !err; i++)
		err = pulse_data_writer__add_feature(w, feats[i].feat, feats[i].p, feats[i].len);
	if (!err)
		err = pulse_data_writer__finish(w);
	pulse_data_writer__delete(w);
	close(fd);
	if (!err)
		err = pulse_data__open(d, path);
	unlink(path);
	return err;
}

static void build(struct pulse_buf *b, int feat, const struct pulse_feat_ctx *ctx)
{
	memset(b, 0, sizeof(*b));
	if (pulse_feat__build(feat, b, ctx))
		abort();
}

static void check_accessors(bool pipe)
{
	static const struct pulse_build_id_entry bids[] = {
		{ -1, PERF_RECORD_MISC_KERNEL, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
						 16, 17, 18, 19, 20 }, 20, "[kernel.kallsyms]" },
		{ -1, PERF_RECORD_MISC_USER, { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x11, 0x22 }, 8,
		  "/usr/lib/libc.so.6" },
	};
	struct pulse_feat_ctx ctx = {
		.first_time = 1000000123, .last_time = 2000000456,
		.build_ids = bids, .nr_build_ids = 2,
	};
	struct pulse_buf rel = { 0 }, st, bid;
	unsigned char clock[24];
	struct pulse_clock_data cd;
	struct pulse_build_id_entry e;
	struct pulse_data *d = NULL;
	__u32 v32;
	__u64 v64, first, last;
	const char *s;
	size_t len, pos, n = 0;
	char path[64];

	ASSERT_EQ(pulse_buf__add_string(&rel, "6.1.0-test"), 0);
	build(&st, PULSE_FEAT_SAMPLE_TIME, &ctx);
	build(&bid, PULSE_FEAT_BUILD_ID, &ctx);
	v32 = 1;
	memcpy(clock, &v32, 4);
	v32 = 4;	/* CLOCK_MONOTONIC_RAW */
	memcpy(clock + 4, &v32, 4);
	v64 = 1700000000123456789ULL;
	memcpy(clock + 8, &v64, 8);
	v64 = 5000;
	memcpy(clock + 16, &v64, 8);
	{
		const struct feat_in feats[] = {
			{ PULSE_FEAT_BUILD_ID, bid.p, bid.len },
			{ PULSE_FEAT_OSRELEASE, rel.p, rel.len },
			{ PULSE_FEAT_SAMPLE_TIME, st.p, st.len },
			{ PULSE_FEAT_CLOCK_DATA, clock, sizeof(clock) },
		};

		ASSERT_EQ(roundtrip(pipe, feats, N_ELEMS(feats), &d, path), 0);
	}
	pulse_buf__release(&rel);
	pulse_buf__release(&st);
	pulse_buf__release(&bid);

	ASSERT_EQ(pulse_data__osrelease(d, &s, &len), 0);
	ASSERT_EQ(len, 10);
	ASSERT_MEMEQ(s, "6.1.0-test", 10);

	ASSERT_EQ(pulse_data__sample_time(d, &first, &last), 0);
	ASSERT_EQ(first, 1000000123);
	ASSERT_EQ(last, 2000000456);

	ASSERT_EQ(pulse_data__clock_data(d, &cd), 0);
	ASSERT_EQ(cd.version, 1);
	ASSERT_EQ(cd.clockid, 4);
	ASSERT_TRUE(cd.tod_ns == 1700000000123456789ULL);
	ASSERT_EQ(cd.clockid_ns, 5000);

	pulse_data__for_each_build_id(d, pos, &e) {
		ASSERT_TRUE(n < 2);
		ASSERT_EQ(e.pid, -1);
		ASSERT_EQ(e.misc, bids[n].misc | PERF_RECORD_MISC_BUILD_ID_SIZE);
		ASSERT_EQ(e.size, bids[n].size);
		ASSERT_MEMEQ(e.id, bids[n].id, PULSE_BUILD_ID_SIZE);
		ASSERT_EQ(e.filename_len, strlen(bids[n].filename));
		ASSERT_MEMEQ(e.filename, bids[n].filename, e.filename_len);
		n++;
	}
	/* the writer leaves BUILD_ID out of a pipe, as perf does */
	ASSERT_EQ(n, pipe ? 0 : 2);
	pulse_data__close(d);
}

static void test_data_feat__accessors_file(void)
{
	check_accessors(false);
}

static void test_data_feat__accessors_pipe(void)
{
	check_accessors(true);
}

static void test_data_feat__absent_and_damaged(void)
{
	static const unsigned char short_rel[2] = { 64, 0 };
	unsigned char clock[24] = { 2 };	/* version 2 */
	/* u32 len 64 but only 8 bytes of string */
	unsigned char cut_rel[12] = { 64, 0, 0, 0, 'a', 'b', 'c' };
	struct pulse_build_id_entry e;
	struct pulse_clock_data cd;
	struct pulse_data *d = NULL;
	__u64 first, last;
	const char *s;
	size_t len, pos = 0;
	char path[64];

	/* nothing written: each accessor says absent */
	ASSERT_EQ(roundtrip(false, NULL, 0, &d, path), 0);
	ASSERT_EQ(pulse_data__osrelease(d, &s, &len), -ENOENT);
	ASSERT_TRUE(!s && !len);
	ASSERT_EQ(pulse_data__sample_time(d, &first, &last), -ENODATA);
	ASSERT_EQ(pulse_data__clock_data(d, &cd), -ENOENT);
	ASSERT_EQ(pulse_data__build_id_next(d, &pos, &e), -ENOENT);
	pulse_data__close(d);

	{
		/* a BUILD_ID entry whose header.size runs past the payload */
		unsigned char bid[100] = { 0 };
		struct perf_event_header h = { 0, PERF_RECORD_MISC_USER, 200 };
		const struct feat_in feats[] = {
			{ PULSE_FEAT_OSRELEASE, short_rel, sizeof(short_rel) },
			{ PULSE_FEAT_CLOCK_DATA, clock, 16 },
			{ PULSE_FEAT_SAMPLE_TIME, clock, 8 },
			{ PULSE_FEAT_BUILD_ID, bid, sizeof(bid) },
		};

		memcpy(bid, &h, sizeof(h));
		ASSERT_EQ(roundtrip(false, feats, N_ELEMS(feats), &d, path), 0);
	}
	ASSERT_EQ(pulse_data__osrelease(d, &s, &len), -EBADMSG);
	ASSERT_EQ(pulse_data__clock_data(d, &cd), -EBADMSG);
	ASSERT_EQ(pulse_data__sample_time(d, &first, &last), -ENODATA);
	ASSERT_EQ(pulse_data__build_id_next(d, &pos, &e), -EBADMSG);
	ASSERT_EQ(pos, 0);
	pulse_data__close(d);

	{
		const struct feat_in feats[] = {
			{ PULSE_FEAT_OSRELEASE, cut_rel, sizeof(cut_rel) },
			{ PULSE_FEAT_CLOCK_DATA, clock, sizeof(clock) },
		};

		ASSERT_EQ(roundtrip(false, feats, N_ELEMS(feats), &d, path), 0);
	}
	/* the string stops at its NUL, within the payload */
	ASSERT_EQ(pulse_data__osrelease(d, &s, &len), 0);
	ASSERT_EQ(len, 3);
	ASSERT_MEMEQ(s, "abc", 3);
	ASSERT_EQ(pulse_data__clock_data(d, &cd), -EOPNOTSUPP);
	ASSERT_EQ(cd.version, 2);
	pulse_data__close(d);
}

static void test_data_feat__table(void)
{
	unsigned char p[16] = { 0 };
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	ASSERT_STREQ(pulse_feat__name(PULSE_FEAT_RESERVED), "RESERVED");
	ASSERT_STREQ(pulse_feat__name(PULSE_FEAT_HOSTNAME), "HOSTNAME");
	ASSERT_STREQ(pulse_feat__name(PULSE_FEAT_PMU_CAPS), "PMU_CAPS");
	ASSERT_TRUE(!pulse_feat__name(PULSE_FEAT_LAST_KNOWN_BY_PERF61 + 1));
	ASSERT_TRUE(!pulse_feat__name(-1));
	for (int f = 1; f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61; f++)
		ASSERT_TRUE(pulse_feat__name(f) && *pulse_feat__name(f));

	/* rows without a known layout: dropped from a swapped file */
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_BPF_PROG_INFO, p, sizeof(p), true), -EOPNOTSUPP);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_PMU_CAPS, p, sizeof(p), true), -EOPNOTSUPP);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_RESERVED, p, sizeof(p), true), -EOPNOTSUPP);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_LAST_KNOWN_BY_PERF61 + 1, p, sizeof(p), true),
		  -EOPNOTSUPP);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_STAT, p, 0, true), 0);
	/* SAMPLE_TIME: two u64, swapped at their width */
	p[0] = 1;
	p[15] = 2;
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_SAMPLE_TIME, p, sizeof(p), true), 0);
	ASSERT_EQ(p[7], 1);
	ASSERT_EQ(p[8], 2);

	/* rows pulse does not write */
	{
		struct pulse_buf b = { 0 };

		ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CPU_TOPOLOGY, &b, NULL), -EOPNOTSUPP);
		ASSERT_EQ(pulse_feat__build(0, &b, NULL), -EOPNOTSUPP);
		ASSERT_EQ(pulse_feat__build(PULSE_FEAT_MAX, &b, NULL), -EOPNOTSUPP);
		ASSERT_EQ(b.len, 0);
	}

	/* a -I feature without -I: perf's hint, with the row's name */
	m = open_memstream(&out, &size);
	ASSERT_TRUE(m);
	ASSERT_EQ(pulse_feat__fprintf(m, PULSE_FEAT_CACHE, p, sizeof(p), NULL), 0);
	/* GROUP_DESC needs the file's attrs: nothing without them */
	ASSERT_EQ(pulse_feat__fprintf(m, PULSE_FEAT_GROUP_DESC, p, sizeof(p), NULL), 0);
	/* a damaged EVENT_DESC prints perf's line */
	ASSERT_EQ(pulse_feat__fprintf(m, PULSE_FEAT_EVENT_DESC, p, 4, NULL), -EINVAL);
	fclose(m);
	ASSERT_STREQ(out, "# CACHE info available, use -I to display\n"
			  "# event desc: not available or unable to read\n");
	free(out);
}

TEST_MAIN(TEST(test_data_feat__accessors_file), TEST(test_data_feat__accessors_pipe),
	  TEST(test_data_feat__absent_and_damaged), TEST(test_data_feat__table))
