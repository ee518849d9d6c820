// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof converter's pipe to a second thread (lib/convert/pprof-pipe.c):
 * every byte arrives once, in order, in chunks no larger than asked, the
 * last chunk flagged; a consumer's error comes back to the writer and to
 * finish, and later chunks are dropped.
 */
#include <errno.h>
#include <string.h>
#include "convert/pprof-int.h"
#include "test.h"

struct sink {
	uint8_t got[1 << 16];
	size_t len;
	int chunks, lasts;
	size_t fail_after;	/* fail once this many bytes came; 0: never */
};

static int consume(void *arg, const uint8_t *data, size_t len, bool last)
{
	struct sink *s = arg;

	if (s->fail_after && s->len >= s->fail_after)
		return -EIO;
	if (s->len + len > sizeof(s->got))
		return -E2BIG;
	memcpy(s->got + s->len, data, len);
	s->len += len;
	s->chunks++;
	s->lasts += last;
	return 0;
}

static void test_pipe__order(void)
{
	static struct sink s;
	struct pp_pipe *p;
	uint8_t want[40000];
	int err;

	for (size_t i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(i * 7 + i / 251);
	ASSERT_EQ(pp_pipe__new(&p, 1000, consume, &s), 0);
	/* writes that span chunks, then reserved records that never do */
	ASSERT_EQ(pp_pipe__write(p, want, 25000), 0);
	for (size_t at = 25000; at < sizeof(want); at += 300) {
		size_t n = sizeof(want) - at < 300 ? sizeof(want) - at : 300;
		uint8_t *r = pp_pipe__reserve(p, n, &err);

		ASSERT_TRUE(r != NULL);
		memcpy(r, want + at, n);
		pp_pipe__commit(p, n);
	}
	ASSERT_TRUE(pp_pipe__reserve(p, 1001, &err) == NULL);
	ASSERT_EQ(err, -E2BIG);
	ASSERT_EQ(pp_pipe__finish(p), 0);
	pp_pipe__delete(p);
	ASSERT_EQ(s.len, sizeof(want));
	ASSERT_TRUE(!memcmp(s.got, want, sizeof(want)));
	ASSERT_EQ(s.lasts, 1);
	ASSERT_TRUE(s.chunks >= 40);
}

static void test_pipe__error(void)
{
	static struct sink s = { .fail_after = 3000 };
	struct pp_pipe *p;
	uint8_t buf[500] = { 0 };
	int err = 0;

	ASSERT_EQ(pp_pipe__new(&p, 1000, consume, &s), 0);
	/* the failure shows at a later hand-over, or at finish at the latest */
	for (int i = 0; i < 40 && !err; i++)
		err = pp_pipe__write(p, buf, sizeof(buf));
	ASSERT_EQ(pp_pipe__finish(p), -EIO);
	pp_pipe__delete(p);
	ASSERT_TRUE(err == 0 || err == -EIO);
	ASSERT_EQ(s.len, 3000);
	ASSERT_EQ(s.lasts, 0);
}

TEST_MAIN(TEST(test_pipe__order), TEST(test_pipe__error))
