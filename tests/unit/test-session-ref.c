// SPDX-License-Identifier: GPL-2.0
/*
 * Records read in place from a mapped file are queued for time ordering by
 * reference (pulse_ordered__queue_ref()), not copied: a sample reaches the
 * tool at the very address the read callback saw it, in time order; from a
 * buffer in memory (pulse_data__record_stays() false) it is a copy, with
 * the same bytes. The image is a pipe-format stream built byte by byte.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/ordering.h>
#include <pulse/session.h>
#include "test.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static unsigned char img[4096];
static size_t img_len;

static void put(const void *p, size_t n)
{
	memcpy(img + img_len, p, n);
	img_len += n;
}

static void put64(uint64_t v) { put(&v, 8); }
static void put32(uint32_t v) { put(&v, 4); }

static void header(uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = PERF_RECORD_MISC_USER, .size = size };

	put(&h, sizeof(h));
}

static void sample(uint64_t time)
{
	header(PERF_RECORD_SAMPLE, 8 + 32);
	put64(0x1000 + time);
	put32(42);
	put32(42);
	put64(time);
	put64(1);
}

/* a pipe image: one attr, samples at t = 30, 10, 20 */
static void build(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type = ST,
		.sample_id_all = 1,
	};

	img_len = 0;
	put("PERFILE2", 8);
	put64(16);
	header(PERF_RECORD_HEADER_ATTR, 8 + sizeof(attr) + 8);
	put(&attr, sizeof(attr));
	put64(7);
	sample(30);
	sample(10);
	sample(20);
}

struct log {
	const void *read_at[8];		/* by file offset / 8 */
	uint64_t read_off[8];
	int nr_read;
	uint64_t times[8];
	int same_place, copies, nr_sample;
};

static int on_read(struct pulse_session *s, const struct perf_event_header *rec, uint64_t off,
		   void *arg)
{
	struct log *l = arg;

	if (l->nr_read < 8) {
		l->read_at[l->nr_read] = rec;
		l->read_off[l->nr_read] = off;
	}
	l->nr_read++;
	return 0;
}

static int on_sample(struct pulse_session *s, const struct perf_event_header *rec, uint64_t off,
		     void *arg)
{
	struct log *l = arg;

	for (int i = 0; i < l->nr_read && i < 8; i++) {
		if (l->read_off[i] != off)
			continue;
		if (l->read_at[i] == rec)
			l->same_place++;
		else
			l->copies++;
	}
	if (l->nr_sample < 8)
		memcpy(&l->times[l->nr_sample], (const char *)rec + 8 + 16, 8);
	l->nr_sample++;
	return 0;
}

static int walk(struct pulse_session *s, struct log *l)
{
	struct pulse_tool tool = { .read = on_read, .sample = on_sample };
	int err = pulse_session__process(s, &tool, l);

	pulse_session__delete(s);
	return err;
}

static void test_session_ref__mapped_file_by_reference(void)
{
	char path[] = "/tmp/pulse-test-session-ref.XXXXXX";
	struct pulse_session *s;
	struct log l = { 0 };
	int fd, err;

	build();
	fd = mkstemp(path);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(write(fd, img, img_len), (long long)img_len);
	close(fd);
	err = pulse_session__new(&s, path, NULL);
	if (!err)
		err = walk(s, &l);
	unlink(path);
	ASSERT_EQ(err, 0);
	ASSERT_EQ(l.nr_sample, 3);
	ASSERT_EQ(l.times[0], 10);
	ASSERT_EQ(l.times[1], 20);
	ASSERT_EQ(l.times[2], 30);
	ASSERT_EQ(l.same_place, 3);
	ASSERT_EQ(l.copies, 0);
}

static void test_session_ref__memory_copied(void)
{
	struct pulse_session *s;
	struct log l = { 0 };

	build();
	ASSERT_EQ(pulse_session__new_mem(&s, img, img_len, NULL), 0);
	ASSERT_EQ(walk(s, &l), 0);
	ASSERT_EQ(l.nr_sample, 3);
	ASSERT_EQ(l.times[0], 10);
	ASSERT_EQ(l.times[2], 30);
	ASSERT_EQ(l.copies, 3);
}

static int count_rec(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	const struct perf_event_header **seen = arg;

	seen[file_offset] = rec;
	return 0;
}

static void test_session_ref__queue_ref_keeps_the_pointer(void)
{
	struct perf_event_header a = { PERF_RECORD_SAMPLE, 0, 8 }, b = a;
	const struct perf_event_header *seen[2] = { NULL, NULL };
	struct pulse_ordered *q;

	ASSERT_EQ(pulse_ordered__new(&q, count_rec, seen), 0);
	ASSERT_EQ(pulse_ordered__queue_ref(q, &a, 20, 0, NULL), 0);
	ASSERT_EQ(pulse_ordered__queue_from(q, &b, 10, 1, NULL), 0);
	ASSERT_EQ(pulse_ordered__queue_ref(q, &a, 0, 0, NULL), -ETIME);
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	pulse_ordered__delete(q);
	ASSERT_TRUE(seen[0] == &a);
	ASSERT_TRUE(seen[1] && seen[1] != &b);
}

TEST_MAIN(TEST(test_session_ref__mapped_file_by_reference),
	  TEST(test_session_ref__memory_copied),
	  TEST(test_session_ref__queue_ref_keeps_the_pointer))
