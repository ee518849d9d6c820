// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of pulse record -z's zstd layer (lib/record/compress.c): the
 * COMPRESSED records it makes are within perf's size, unpadded, and
 * unpack (one zstd stream, in order) to exactly the records given; each
 * call's output unpacks on its own to that call's input (perf's reader
 * unpacks a record into a buffer of one ring's size); the byte counts give
 * perf's rounded ratio. Also a file written by the file output with -z,
 * read back through pulse_data.
 */
#include <errno.h>
#include <stdbool.h>
#include <unistd.h>
#include <zstd.h>
#include <linux/perf_event.h>
#include <pulse/perf-abi.h>
#include <pulse/mmap.h>
#include <pulse/reader.h>
#include <pulse/ring-model.h>
#include <pulse/record-output.h>
#include "core/internal.h"
#include "record/compress.h"
#include "test.h"

#define TYPE_TEST 100

/* @n records of @size bytes in @buf; random bytes when @noisy, else a pattern. */
static void make_records(unsigned char *buf, size_t n, size_t size, bool noisy, __u32 *seed)
{
	for (size_t i = 0; i < n; i++) {
		struct perf_event_header h = { TYPE_TEST, 0, (__u16)size };
		unsigned char *p = buf + i * size;

		memcpy(p, &h, sizeof(h));
		for (size_t j = sizeof(h); j < size; j++) {
			*seed = *seed * 1103515245 + 12345;
			p[j] = noisy ? (unsigned char)(*seed >> 16) : (unsigned char)(i + j % 7);
		}
	}
}

/*
 * Walk @len bytes of COMPRESSED records, checking each header, and unpack
 * their payloads through @dctx into @out (at most @cap): the bytes unpacked.
 */
static size_t unpack(ZSTD_DCtx *dctx, const unsigned char *recs, size_t len, unsigned char *out,
		     size_t cap, int *nr_recs, bool *bad)
{
	size_t off = 0, got = 0;

	while (off < len) {
		struct perf_event_header h;
		ZSTD_inBuffer in;
		ZSTD_outBuffer o;

		memcpy(&h, recs + off, sizeof(h));
		if (h.type != PERF_RECORD_COMPRESSED || h.misc || h.size <= sizeof(h) ||
		    h.size - sizeof(h) > PULSE_COMPRESSED_MAX_DATA || off + h.size > len) {
			*bad = true;
			return got;
		}
		in = (ZSTD_inBuffer){ recs + off + sizeof(h), h.size - sizeof(h), 0 };
		while (in.pos < in.size) {
			o = (ZSTD_outBuffer){ out + got, cap - got, 0 };
			if (ZSTD_isError(ZSTD_decompressStream(dctx, &o, &in)) || !o.size) {
				*bad = true;
				return got;
			}
			got += o.pos;
		}
		off += h.size;
		(*nr_recs)++;
	}
	return got;
}

static void test_record_compress__records_unpack_to_the_input(void)
{
	const size_t n = 6000, size = 88, total = n * size;	/* 528000 bytes, noisy */
	unsigned char *in = malloc(total), *out = malloc(total + 1);
	struct pulse_record_zstd *z = NULL;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	__u64 made = 0, tr, co;
	__u32 seed = 1;
	bool bad = false;
	int nr = 0;

	if (!in || !out || !dctx)
		TEST_FAIL("out of memory");
	make_records(in, n, size, true, &seed);
	ASSERT_EQ(pulse_record_zstd__new(&z, 1), 0);
	/* three calls: one iovec, two (a wrapped batch, cut inside a record), one */
	{
		struct iovec a = { in, 100 * size };
		struct iovec b[2] = { { in + 100 * size, 3000 * size + 5 },
				      { in + 3100 * size + 5, 2000 * size - 5 } };
		struct iovec c = { in + 5100 * size, 900 * size };
		const struct iovec *calls[3] = { &a, b, &c };
		const int cnts[3] = { 1, 2, 1 };
		size_t done = 0;

		for (int k = 0; k < 3; k++) {
			const void *recs;
			size_t len, in_len = 0, got;
			int before = nr;

			for (int i = 0; i < cnts[k]; i++)
				in_len += calls[k][i].iov_len;
			ASSERT_EQ(pulse_record_zstd__compress(z, calls[k], cnts[k], &recs, &len), 0);
			made += len;
			/* flushed: this call's records alone give back its input */
			got = unpack(dctx, recs, len, out + done, total + 1 - done, &nr, &bad);
			ASSERT_TRUE(!bad);
			ASSERT_EQ(got, in_len);
			done += got;
			/* noisy data does not shrink: more than one record for the big call */
			if (k == 1)
				ASSERT_TRUE(nr - before > 1);
		}
		ASSERT_EQ(done, total);
		ASSERT_MEMEQ(in, out, total);
	}
	pulse_record_zstd__stats(z, &tr, &co);
	ASSERT_EQ(tr, total);
	ASSERT_EQ(co, made);
	pulse_record_zstd__delete(z);
	ZSTD_freeDCtx(dctx);
	free(in);
	free(out);
}

static void test_record_compress__levels_and_ratio(void)
{
	const size_t n = 1000, size = 64;
	unsigned char *in = malloc(n * size);
	struct pulse_record_zstd *z = NULL;
	struct iovec iov = { in, n * size };
	const void *recs;
	size_t len;
	__u64 tr, co;
	__u32 seed = 7;
	float ratio;

	if (!in)
		TEST_FAIL("out of memory");
	ASSERT_EQ(pulse_record_zstd__new(&z, 0), -EINVAL);
	ASSERT_TRUE(z == NULL);
	ASSERT_EQ(pulse_record_zstd__new(&z, 23), -EINVAL);
	ASSERT_EQ(pulse_record_zstd__new(&z, 22), 0);
	pulse_record_zstd__stats(z, &tr, &co);
	ASSERT_EQ(pulse_record_zstd__ratio(tr, co), 0);	/* nothing yet: perf writes 0 */
	make_records(in, n, size, false, &seed);
	ASSERT_EQ(pulse_record_zstd__compress(z, &iov, 1, &recs, &len), 0);
	ASSERT_TRUE(len > 0 && len < n * size / 4);
	/* an empty call makes nothing */
	iov.iov_len = 0;
	ASSERT_EQ(pulse_record_zstd__compress(z, &iov, 1, &recs, &len), 0);
	ASSERT_EQ(len, 0);
	pulse_record_zstd__stats(z, &tr, &co);
	ratio = (float)tr / (float)co;
	ASSERT_EQ(pulse_record_zstd__ratio(tr, co), (__u32)(ratio + 0.5));
	/* several streams' bytes added up, as --threads has one per reader */
	ASSERT_EQ(pulse_record_zstd__ratio(3 * tr, 3 * co), (__u32)(ratio + 0.5));
	pulse_record_zstd__delete(z);
	pulse_record_zstd__delete(NULL);
	free(in);
}

struct walk {
	int test_records;	/* TYPE_TEST records delivered, unpacked */
	int rounds;		/* FINISHED_ROUND, left uncompressed */
	bool order_ok;
};

static int on_record(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		     void *arg)
{
	struct walk *w = arg;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.type == TYPE_TEST) {
		unsigned char b;

		memcpy(&b, (const unsigned char *)rec + sizeof(h), 1);
		if (b != (unsigned char)(w->test_records + sizeof(h) % 7))
			w->order_ok = false;
		w->test_records++;
	} else if (h.type == PERF_RECORD_FINISHED_ROUND) {
		w->rounds++;
	}
	return 0;
}

static void test_record_compress__file_output_reads_back(void)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.sample_type = PERF_SAMPLE_IP };
	__u64 id = 1;
	struct pulse_data_attr da = { .attr = attr, .name = "cpu-clock", .ids = &id, .nr_ids = 1 };
	struct pulse_record_output_info info = { .sz = sizeof(info), .attrs = &da, .nr_attrs = 1,
						 .comp_level = 3, .mmap_len = 129 * 4096,
						 .no_buildid = true };
	static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	char path[] = "/tmp/pulse-test-compress-XXXXXX";
	struct pulse_record_output *out = NULL;
	struct pulse_data *d = NULL;
	struct walk w = { .order_ok = true };
	unsigned char *recs = malloc(500 * 40);
	struct iovec iov;
	size_t kept;
	__u64 tr, co;
	__u32 seed = 0;
	int fd = mkstemp(path);

	if (fd < 0 || !recs)
		TEST_FAIL("no temporary file");
	make_records(recs, 500, 40, false, &seed);
	ASSERT_EQ(pulse_record_output__new_file(&out, fd), 0);
	ASSERT_EQ(pulse_record_output__start(out, &info), 0);
	iov = (struct iovec){ recs, 300 * 40 };
	ASSERT_EQ(pulse_record_output__write(out, &iov, 1, &kept), 0);
	ASSERT_EQ(kept, 300 * 40);
	iov = (struct iovec){ (void *)&round, sizeof(round) };
	ASSERT_EQ(pulse_record_output__write(out, &iov, 1, &kept), 0);
	iov = (struct iovec){ recs + 300 * 40, 200 * 40 };
	ASSERT_EQ(pulse_record_output__write(out, &iov, 1, &kept), 0);
	ASSERT_EQ(pulse_record_output__finish(out), 0);
	pulse_record_output__comp_stats(out, &tr, &co);
	ASSERT_EQ(tr, 500 * 40);
	ASSERT_EQ(co, pulse_record_output__data_size(out) - sizeof(round));

	ASSERT_EQ(pulse_data__open(&d, path), 0);
	unlink(path);
	ASSERT_TRUE(pulse_data__has_feat(d, PULSE_FEAT_COMPRESSED));
	ASSERT_EQ(pulse_data__for_each_record(d, on_record, &w), 0);
	ASSERT_EQ(w.test_records, 500);
	ASSERT_EQ(w.rounds, 1);
	ASSERT_TRUE(w.order_ok);
	pulse_data__close(d);
	pulse_record_output__delete(out);
	close(fd);
	free(recs);
}

static int put(struct pulse_ring_model *rm, const void *rec, size_t size)
{
	struct pulse_ring_handle h;

	if (pulse_ring_model__output_begin(rm, &h, size))
		return -1;
	pulse_ring_model__output_copy(&h, rec, size);
	pulse_ring_model__output_end(&h);
	return 0;
}

/*
 * The pump into a -z file output: its pass_bytes (the busy-ring measure of
 * the main loop) counts ring bytes, not the fewer compressed ones; with
 * --mmap-flush a smaller batch stays in the ring until the flush size is
 * dropped for the last pass.
 */
static void test_record_compress__pump_counts_ring_bytes_and_flushes(void)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.sample_type = PERF_SAMPLE_IP };
	__u64 id = 1;
	struct pulse_data_attr da = { .attr = attr, .name = "cpu-clock", .ids = &id, .nr_ids = 1 };
	struct pulse_record_output_info info = { .sz = sizeof(info), .attrs = &da, .nr_attrs = 1,
						 .comp_level = 1, .mmap_len = 17 * 4096,
						 .no_buildid = true };
	struct pulse_ring_model *rm = NULL;
	struct pulse_record_output *out = NULL;
	struct pulse_record_pump *pump = NULL;
	struct pulse_record_stats st = { 0 };
	struct pulse_mmap m;
	unsigned char rec[40];
	char path[] = "/tmp/pulse-test-compress-XXXXXX";
	__u32 seed = 0;
	__u64 before;
	int fd = mkstemp(path);

	if (fd < 0)
		TEST_FAIL("no temporary file");
	unlink(path);
	ASSERT_EQ(pulse_ring_model__new(&rm, 16 * 4096, false), 0);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PULSE_RING_MODEL_PAGE,
				       16 * 4096, false), 0);
	ASSERT_EQ(pulse_record_output__new_file(&out, fd), 0);
	ASSERT_EQ(pulse_record_output__start(out, &info), 0);
	ASSERT_EQ(pulse_record_pump__new(&pump, &m, 1, &st), 0);
	pulse_record_pump__set_output(pump, out);

	make_records(rec, 1, sizeof(rec), false, &seed);
	for (int i = 0; i < 200; i++)
		ASSERT_EQ(put(rm, rec, sizeof(rec)), 0);
	before = pulse_record_output__data_size(out);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(pulse_record_pump__pass_bytes(pump), 200 * sizeof(rec));
	/* compressed: far fewer bytes reached the file (and one FINISHED_ROUND) */
	ASSERT_TRUE(pulse_record_output__data_size(out) - before < 200 * sizeof(rec) / 4);

	/* 100 records (4000 bytes) wait under a 4096-byte flush, then go */
	pulse_record_pump__set_flush(pump, 4096);
	for (int i = 0; i < 100; i++)
		ASSERT_EQ(put(rm, rec, sizeof(rec)), 0);
	before = pulse_record_output__data_size(out);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(pulse_record_pump__pass_bytes(pump), 0);
	ASSERT_EQ(pulse_record_output__data_size(out), before);
	ASSERT_EQ(put(rm, rec, sizeof(rec)), 0);	/* 4040 bytes: still under */
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(pulse_record_pump__pass_bytes(pump), 0);
	pulse_record_pump__set_flush(pump, 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(pulse_record_pump__pass_bytes(pump), 101 * sizeof(rec));
	ASSERT_TRUE(pulse_record_output__data_size(out) > before);

	pulse_record_pump__delete(pump);
	pulse_record_output__delete(out);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
	close(fd);
}

int main(void)
{
	static const struct test_case cases[] = {
		TEST(test_record_compress__records_unpack_to_the_input),
		TEST(test_record_compress__levels_and_ratio),
		TEST(test_record_compress__file_output_reads_back),
		TEST(test_record_compress__pump_counts_ring_bytes_and_flushes),
	};

	return test__run_all(cases, ARRAY_SIZE(cases));
}
