// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's pump (lib/record/pump.c) fed by lib/ring's model producer
 * instead of a kernel: it hands whole records to whatever output it is
 * pointed at (a fake one here, which may be swapped between passes or
 * keep only part of a batch), counts only what the output kept, and the
 * file output writes BUILD_ID and SAMPLE_TIME from the records it stored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/mmap.h>
#include <pulse/reader.h>
#include <pulse/record-output.h>
#include <pulse/ring-model.h>
#include "core/internal.h"
#include "test.h"

/* a model, or NULL */
static struct pulse_ring_model *ring_model_new(size_t size, bool backward)
{
	struct pulse_ring_model *m;

	return pulse_ring_model__new(&m, size, backward) ? NULL : m;
}

#define PAGE PULSE_RING_MODEL_PAGE
#define RING 4096

/* A fake output: the bytes it was given, and how much of a batch it keeps. */
struct fake_output {
	struct pulse_record_output core;
	unsigned char data[4 * RING];
	size_t len;
	int writes;
	size_t keep;		/* keep at most this many bytes of a write, then fail */
};

static struct fake_output *to_fake(struct pulse_record_output *out)
{
	return container_of(out, struct fake_output, core);
}

static int fake_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		      size_t *kept)
{
	struct fake_output *f = to_fake(out);
	size_t n = 0;

	f->writes++;
	for (int i = 0; i < cnt; i++) {
		size_t k = iov[i].iov_len;

		if (f->keep && n + k > f->keep)
			k = f->keep - n;
		memcpy(f->data + f->len, iov[i].iov_base, k);
		f->len += k;
		n += k;
	}
	*kept = n;
	return f->keep && n == f->keep ? -ENOSPC : 0;
}

static __u64 fake_data_size(const struct pulse_record_output *out)
{
	return container_of(out, struct fake_output, core)->len;
}

static const struct pulse_record_output_ops fake_ops = {
	.write = fake_write,
	.data_size = fake_data_size,
};

/* SAMPLE with IP|TID|TIME. */
struct sample {
	struct perf_event_header h;
	__u64 ip;
	__u32 pid, tid;
	__u64 time;
};

static int put(struct pulse_ring_model *rm, const void *rec, size_t size)
{
	struct pulse_ring_handle h;

	if (pulse_ring_model__output_begin(rm, &h, size))
		return -1;
	pulse_ring_model__output_copy(&h, rec, size);
	pulse_ring_model__output_end(&h);
	return 0;
}

static int put_sample(struct pulse_ring_model *rm, __u32 pid, __u64 ip, __u64 time)
{
	struct sample s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, ip, pid,
			    pid, time };

	return put(rm, &s, sizeof(s));
}

static int put_lost(struct pulse_ring_model *rm, __u64 lost)
{
	struct { struct perf_event_header h; __u64 id, lost; } r = {
		{ PERF_RECORD_LOST, 0, sizeof(r) }, 1, lost };

	return put(rm, &r, sizeof(r));
}

/* Records the tracking ignores, to move the ring's head. */
static int put_filler(struct pulse_ring_model *rm, size_t size)
{
	unsigned char b[256] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SWITCH, 0, (__u16)size };

	memcpy(b, &h, sizeof(h));
	return put(rm, b, size);
}

static int count_type(const unsigned char *p, size_t len, __u32 type)
{
	struct perf_event_header h;
	int n = 0;

	for (size_t pos = 0; pos + sizeof(h) <= len; pos += h.size) {
		memcpy(&h, p + pos, sizeof(h));
		if (h.size < sizeof(h))
			return -1;
		n += h.type == type;
	}
	return n;
}

static void test_record_pump__outputs_can_change(void)
{
	struct pulse_ring_model *rm[2] = { ring_model_new(RING, false),
					   ring_model_new(RING, false) };
	struct fake_output a = { { &fake_ops } }, b = { { &fake_ops } };
	__u64 lost_per_cpu[2] = { 0 };
	struct pulse_record_stats st = { .lost_per_cpu = lost_per_cpu };
	struct pulse_record_pump *pump;
	struct pulse_mmap maps[2];

	ASSERT_TRUE(rm[0] && rm[1]);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(pulse_mmap__init_mem(&maps[i], pulse_ring_model__base(rm[i]), PAGE,
					       RING, false), 0);
	ASSERT_EQ(pulse_record_pump__new(&pump, maps, 2, &st), 0);

	/* no output yet: a pass does nothing and keeps the data */
	ASSERT_EQ(put_sample(rm[0], 10, 0x1000, 5), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);

	pulse_record_pump__set_output(pump, &a.core);
	ASSERT_EQ(put_lost(rm[1], 5), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(a.len, sizeof(struct sample) + 24 + 8);
	ASSERT_EQ(count_type(a.data, a.len, PERF_RECORD_SAMPLE), 1);
	ASSERT_EQ(count_type(a.data, a.len, PERF_RECORD_FINISHED_ROUND), 1);
	ASSERT_EQ(pulse_record_pump__pass_bytes(pump), a.len - 8);
	ASSERT_EQ(st.samples, 1);
	ASSERT_EQ(st.lost_events, 5);
	ASSERT_EQ(st.lost_chunks, 1);
	ASSERT_EQ(lost_per_cpu[1], 5);

	/* an empty pass writes no FINISHED_ROUND */
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(a.writes, 3);

	/* the next passes go to another output; the first keeps what it had */
	pulse_record_pump__set_output(pump, &b.core);
	ASSERT_EQ(put_sample(rm[0], 10, 0x1008, 6), 0);
	ASSERT_EQ(put_sample(rm[1], 11, 0x1010, 7), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(a.len, sizeof(struct sample) + 24 + 8);
	ASSERT_EQ(count_type(b.data, b.len, PERF_RECORD_SAMPLE), 2);
	ASSERT_EQ(count_type(b.data, b.len, PERF_RECORD_FINISHED_ROUND), 1);
	ASSERT_EQ(st.samples, 3);

	pulse_record_pump__delete(pump);
	for (int i = 0; i < 2; i++) {
		pulse_mmap__munmap(&maps[i]);
		pulse_ring_model__delete(rm[i]);
	}
}

static void test_record_pump__counts_only_what_was_kept(void)
{
	struct pulse_ring_model *rm = ring_model_new(RING, false);
	struct fake_output f = { { &fake_ops }, .keep = sizeof(struct sample) };
	struct pulse_record_stats st = { 0 };
	struct pulse_record_pump *pump;
	struct pulse_mmap m;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, RING, false), 0);
	ASSERT_EQ(pulse_record_pump__new(&pump, &m, 1, &st), 0);
	pulse_record_pump__set_output(pump, &f.core);
	ASSERT_EQ(put_sample(rm, 10, 0x1000, 5), 0);
	ASSERT_EQ(put_sample(rm, 10, 0x1000, 6), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), -ENOSPC);
	ASSERT_EQ(st.samples, 1);
	ASSERT_TRUE(st.disk_full);
	ASSERT_EQ(count_type(f.data, f.len, PERF_RECORD_FINISHED_ROUND), 0);
	pulse_record_pump__delete(pump);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

/* MMAP2 carrying its build-id (PERF_RECORD_MISC_MMAP_BUILD_ID), so no file is read. */
static void mmap2(unsigned char *rec, size_t *size, __u32 pid, __u64 start, __u64 len,
		  const char *name, __u8 id_byte)
{
	struct perf_event_header h = { PERF_RECORD_MMAP2,
				       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, 0 };
	size_t n = PULSE_ALIGN(strlen(name) + 1, 8);

	memset(rec, 0, 72 + n);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &pid, 4);
	memcpy(rec + 16, &start, 8);
	memcpy(rec + 24, &len, 8);
	rec[40] = 20;			/* build_id_size */
	memset(rec + 44, id_byte, 20);	/* build_id */
	strcpy((char *)rec + 72, name);
	*size = 72 + n;
	h.size = (__u16)*size;
	memcpy(rec, &h, sizeof(h));
}

static void test_record_pump__file_output_writes_its_own_features(void)
{
	struct pulse_ring_model *rm = ring_model_new(RING, false);
	static const __u64 ids[] = { 7 };
	struct pulse_data_attr attr = { .ids = ids, .nr_ids = 1, .name = "fake" };
	struct pulse_record_output_info info = { .sz = sizeof(info), .attrs = &attr,
						 .nr_attrs = 1 };
	struct pulse_record_stats st = { 0 };
	struct pulse_record_output *out;
	struct pulse_record_pump *pump;
	struct pulse_data *d = NULL;
	char path[] = "/tmp/pulse-test-pump.XXXXXX";
	unsigned char rec[256], hit_id[20];
	const unsigned char *feat;
	struct pulse_mmap m;
	size_t size, len;
	__u64 range[2];
	int fd = mkstemp(path);

	ASSERT_TRUE(rm && fd >= 0);
	attr.attr.type = PERF_TYPE_SOFTWARE;
	attr.attr.size = sizeof(attr.attr);
	attr.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.attr.sample_id_all = 1;
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, RING, false), 0);
	ASSERT_EQ(pulse_record_output__new_file(&out, fd), 0);
	ASSERT_EQ(pulse_record_output__start(out, &info), 0);
	mmap2(rec, &size, 100, 0x1000, 0x1000, "/hit/libhit.so", 0xaa);
	ASSERT_EQ(pulse_record_output__write_sideband(out, rec, size), 0);
	mmap2(rec, &size, 100, 0x8000, 0x1000, "/not/hit.so", 0xbb);
	ASSERT_EQ(pulse_record_output__write_sideband(out, rec, size), 0);

	ASSERT_EQ(pulse_record_pump__new(&pump, &m, 1, &st), 0);
	pulse_record_pump__set_output(pump, out);
	ASSERT_EQ(put_sample(rm, 100, 0x1500, 30), 0);
	/* move the head so that the next sample straddles the ring's end */
	for (size_t used = sizeof(struct sample); used < RING - 16; used += 8)
		ASSERT_EQ(put_filler(rm, 8), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(put_sample(rm, 100, 0x1600, 10), 0);
	ASSERT_EQ(pulse_record_pump__drain(pump), 0);
	ASSERT_EQ(st.samples, 2);
	ASSERT_EQ(pulse_record_output__finish(out), 0);

	ASSERT_EQ(pulse_data__open(&d, path), 0);
	unlink(path);
	feat = pulse_data__feat(d, PULSE_FEAT_SAMPLE_TIME, &len);
	ASSERT_TRUE(feat && len == sizeof(range));
	memcpy(range, feat, sizeof(range));
	ASSERT_EQ(range[0], 10);
	ASSERT_EQ(range[1], 30);
	feat = pulse_data__feat(d, PULSE_FEAT_BUILD_ID, &len);
	ASSERT_TRUE(feat);
	memset(hit_id, 0xaa, sizeof(hit_id));
	ASSERT_TRUE(memmem(feat, len, hit_id, sizeof(hit_id)) != NULL);
	ASSERT_TRUE(memmem(feat, len, "/hit/libhit.so", 14) != NULL);
	ASSERT_TRUE(memmem(feat, len, "/not/hit.so", 11) == NULL);

	pulse_data__close(d);
	pulse_record_pump__delete(pump);
	pulse_record_output__delete(out);
	close(fd);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

/*
 * --threads: a reader's data.N may hand a sample to the data file's
 * tracking before another reader hands the MMAP2 of its DSO. The DSO is
 * still in BUILD_ID, and a DSO nobody sampled still is not.
 */
static void test_record_pump__readers_out_of_order(void)
{
	static const __u64 ids[] = { 7 };
	struct pulse_data_attr attr = { .ids = ids, .nr_ids = 1, .name = "fake" };
	struct pulse_record_output_info info = { .sz = sizeof(info), .attrs = &attr,
						 .nr_attrs = 1 };
	struct pulse_record_output *out, *raw[2];
	struct sample smp = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(smp) }, 0x1500,
			      100, 100, 10 };
	struct pulse_data *d = NULL;
	char path[] = "/tmp/pulse-test-pump.XXXXXX", raw_path[] = "/tmp/pulse-test-raw.XXXXXX";
	unsigned char rec[256], id[20];
	const unsigned char *feat;
	struct iovec iov;
	size_t size, len, kept;
	int fd = mkstemp(path), rfd = mkstemp(raw_path);

	ASSERT_TRUE(fd >= 0 && rfd >= 0);
	unlink(raw_path);
	attr.attr.type = PERF_TYPE_SOFTWARE;
	attr.attr.size = sizeof(attr.attr);
	attr.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.attr.sample_id_all = 1;
	ASSERT_EQ(pulse_record_output__new_file(&out, fd), 0);
	ASSERT_EQ(pulse_record_output__start(out, &info), 0);
	ASSERT_EQ(pulse_record_output__new_raw(&raw[0], rfd, out, 0), 0);
	ASSERT_EQ(pulse_record_output__new_raw(&raw[1], rfd, out, 0), 0);
	/* reader 1: the samples, then reader 0: the maps */
	iov = (struct iovec){ &smp, sizeof(smp) };
	ASSERT_EQ(pulse_record_output__write(raw[1], &iov, 1, &kept), 0);
	smp.ip = 0x1600;
	ASSERT_EQ(pulse_record_output__write(raw[1], &iov, 1, &kept), 0);
	mmap2(rec, &size, 100, 0x1000, 0x1000, "/hit/libhit.so", 0xaa);
	iov = (struct iovec){ rec, size };
	ASSERT_EQ(pulse_record_output__write(raw[0], &iov, 1, &kept), 0);
	mmap2(rec, &size, 100, 0x8000, 0x1000, "/not/hit.so", 0xbb);
	ASSERT_EQ(pulse_record_output__write(raw[0], &iov, 1, &kept), 0);
	ASSERT_EQ(pulse_record_output__finish(out), 0);

	ASSERT_EQ(pulse_data__open(&d, path), 0);
	unlink(path);
	feat = pulse_data__feat(d, PULSE_FEAT_BUILD_ID, &len);
	ASSERT_TRUE(feat);
	memset(id, 0xaa, sizeof(id));
	ASSERT_TRUE(memmem(feat, len, id, sizeof(id)) != NULL);
	ASSERT_TRUE(memmem(feat, len, "/not/hit.so", 11) == NULL);
	pulse_data__close(d);
	pulse_record_output__delete(raw[0]);
	pulse_record_output__delete(raw[1]);
	pulse_record_output__delete(out);
	close(rfd);
	close(fd);
}

int main(void)
{
	static const struct test_case cases[] = {
		TEST(test_record_pump__outputs_can_change),
		TEST(test_record_pump__counts_only_what_was_kept),
		TEST(test_record_pump__file_output_writes_its_own_features),
		TEST(test_record_pump__readers_out_of_order),
	};

	return test__run_all(cases, ARRAY_SIZE(cases));
}
