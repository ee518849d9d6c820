// SPDX-License-Identifier: GPL-2.0
/*
 * Walks over records laid over iovecs (lib/core/iov.c), as a ring's batch
 * comes: in one piece, or two with a record, or only its header, cut
 * between them; and sizes that are no record's.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <linux/perf_event.h>
#include "core/internal.h"
#include "test.h"

/* @n records of sizes 8, 16, 24, 8, 16, 24, ... with a byte pattern each */
static size_t make_records(unsigned char *buf, int n)
{
	size_t pos = 0;

	for (int i = 0; i < n; i++) {
		struct perf_event_header h = { .type = 1 + i, .size = 8 * (1 + i % 3) };

		memcpy(buf + pos, &h, sizeof(h));
		memset(buf + pos + 8, i, h.size - 8);
		pos += h.size;
	}
	return pos;
}

/* Walk @len bytes of @buf cut at @cut: every record, whole, in order. */
static void walk_cut_at(const unsigned char *buf, size_t len, size_t cut, int nr)
{
	struct iovec iov[3] = { { (void *)buf, cut }, { (void *)(buf + cut), 0 },
				{ (void *)(buf + cut), len - cut } };
	unsigned char bounce[64];
	struct pulse_iov_walk w;
	struct perf_event_header h;
	size_t pos = 0;
	int n = 0, ret;

	pulse_iov_walk__init(&w, iov, 3, len);
	while ((ret = pulse_iov_walk__peek(&w, &h)) > 0) {
		const unsigned char *rec = pulse_iov_walk__take(&w, h.size, bounce);

		ASSERT_EQ(h.type, n + 1);
		ASSERT_MEMEQ(rec, buf + pos, h.size);
		/* in place unless cut */
		ASSERT_TRUE((rec == bounce) == (pos < cut && pos + h.size > cut));
		pos += h.size;
		n++;
	}
	ASSERT_EQ(ret, 0);
	ASSERT_EQ(n, nr);
	ASSERT_EQ(w.pos, len);
}

static void test_iov__walk_every_cut(void)
{
	unsigned char buf[16 * 24];
	size_t len = make_records(buf, 12);

	for (size_t cut = 0; cut <= len; cut++)
		walk_cut_at(buf, len, cut, 12);
}

static void test_iov__walk_bad_sizes(void)
{
	unsigned char buf[16 * 24], bounce[64];
	size_t len = make_records(buf, 6);
	struct perf_event_header h, bad = { .type = 9, .size = 4 };
	struct iovec iov = { buf, len };
	struct pulse_iov_walk w;
	int n = 0;

	/* the fourth record's size is smaller than a header: the walk stops there */
	memcpy(buf + 48, &bad, sizeof(bad));
	pulse_iov_walk__init(&w, &iov, 1, len);
	while (pulse_iov_walk__peek(&w, &h) > 0) {
		pulse_iov_walk__take(&w, h.size, bounce);
		n++;
	}
	ASSERT_EQ(n, 3);
	ASSERT_EQ(pulse_iov_walk__peek(&w, &h), -EINVAL);
	ASSERT_EQ(w.pos, 48);

	/* a record that runs past the bytes to walk; a few bytes that are no header */
	make_records(buf, 6);
	pulse_iov_walk__init(&w, &iov, 1, 20);
	ASSERT_EQ(pulse_iov_walk__peek(&w, &h), 1);
	pulse_iov_walk__take(&w, h.size, bounce);
	ASSERT_EQ(pulse_iov_walk__peek(&w, &h), -EINVAL);	/* 16 bytes, 12 left */
	pulse_iov_walk__init(&w, &iov, 1, 12);
	pulse_iov_walk__peek(&w, &h);
	pulse_iov_walk__take(&w, h.size, bounce);
	ASSERT_EQ(pulse_iov_walk__peek(&w, &h), -EINVAL);	/* 4 bytes */

	/* more asked for than the iovecs hold: the walk ends with them */
	pulse_iov_walk__init(&w, &iov, 1, len + 100);
	ASSERT_EQ(w.len, len);
}

static void test_iov__skip(void)
{
	unsigned char buf[16 * 24];
	size_t len = make_records(buf, 12);
	struct perf_event_header h;

	for (size_t cut = 0; cut <= len; cut += 8) {
		struct iovec iov[2] = { { buf, cut }, { buf + cut, len - cut } };
		struct pulse_iov_walk w;
		int n = 0;

		pulse_iov_walk__init(&w, iov, 2, len);
		while (pulse_iov_walk__peek(&w, &h) > 0) {
			ASSERT_EQ(h.type, n + 1);
			pulse_iov_walk__skip(&w, h.size);
			n++;
		}
		ASSERT_EQ(n, 12);
	}
}

TEST_MAIN(TEST(test_iov__walk_every_cut), TEST(test_iov__walk_bad_sizes), TEST(test_iov__skip))
