// SPDX-License-Identifier: GPL-2.0
/*
 * A big file's data section read into reused buffers (lib/data/chunks.c,
 * PULSE_READ_CHUNK=N forces it for any file) hands out the same records
 * as the walk of its mapping: every byte, every offset, records of every
 * size cut by every read. Pinned records keep their bytes after the walk
 * has moved on and reused the other buffers; past the pin limit a record
 * is not pinned (the caller copies it) and the walk still ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include "test.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW)

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Samples of every size (a RAW part of 4 to ~65 KB), @bytes of them, in a file at @path. */
static int write_file(char *path, size_t bytes)
{
	static const __u64 ids[] = { 1 };
	struct pulse_data_attr a = { .ids = ids, .nr_ids = 1 };
	struct pulse_data_writer *w;
	unsigned char *rec = malloc(65536);
	size_t done = 0;
	uint64_t n = 0;
	int fd, err;

	strcpy(path, "/tmp/pulse-chunks-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !rec) {
		free(rec);
		return -errno;
	}
	a.attr.size = sizeof(a.attr);
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.sample_type = ST;
	a.attr.sample_id_all = 1;
	err = pulse_data_writer__new(&w, fd, &a, 1, NULL);
	while (!err && done < bytes) {
		/* header, ip, pid/tid, time, raw size, raw bytes, padding */
		uint32_t raw = n % 7 == 0 ? 65496 - 4 : (uint32_t)(rng() % 20000) + 4;
		size_t size = (8 + 8 + 8 + 8 + 4 + raw + 7) & ~(size_t)7;
		struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, size };
		uint64_t v[3] = { 0x400000 + n, 7 | (uint64_t)7 << 32, 1000 + n };

		memcpy(rec, &h, 8);
		memcpy(rec + 8, v, 24);
		memcpy(rec + 32, &raw, 4);
		for (size_t i = 36; i < size; i++)
			rec[i] = (unsigned char)(n * 31 + i);
		err = pulse_data_writer__write(w, rec, size);
		done += size;
		n++;
	}
	if (!err)
		err = pulse_data_writer__finish(w);
	pulse_data_writer__delete(w);
	close(fd);
	free(rec);
	return err;
}

struct seen {
	uint64_t off[4096];
	uint64_t sum[4096];
	size_t nr;
	/* pinning: every @pin_every-th record held until the end */
	unsigned int pin_every;
	const void *held[4096];
	void *pins[4096];
	uint64_t held_off[4096];
	size_t nr_held, refused;
};

static uint64_t sum(const void *p, size_t len)
{
	const unsigned char *c = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

static int collect(struct pulse_data *d, const struct perf_event_header *h, __u64 off, void *arg)
{
	struct seen *s = arg;

	if (s->nr == 4096)
		return -E2BIG;
	s->off[s->nr] = off;
	s->sum[s->nr] = sum(h, h->size);
	if (s->pin_every && s->nr % s->pin_every == 0) {
		void *pin = pulse_data__record_pin(d, h, h->size);

		if (!pin) {
			s->refused++;
		} else {
			s->held[s->nr_held] = h;
			s->pins[s->nr_held] = pin;
			s->held_off[s->nr_held++] = off;
		}
	}
	s->nr++;
	return 0;
}

static int walk(const char *path, const char *chunk, struct seen *s, struct pulse_data **keep)
{
	struct pulse_data *d;
	int err;

	if (chunk)
		setenv("PULSE_READ_CHUNK", chunk, 1);
	else
		unsetenv("PULSE_READ_CHUNK");
	err = pulse_data__open(&d, path);
	if (!err)
		err = pulse_data__for_each_record(d, collect, s);
	unsetenv("PULSE_READ_CHUNK");
	if (keep && !err)
		*keep = d;
	else
		pulse_data__close(d);
	return err;
}

static void test_data_chunks__same_records(void)
{
	static struct seen mapped, chunked;
	static const char *const sizes[] = { "65536", "200000", "1048576" };
	char path[64];

	ASSERT_EQ(write_file(path, 3 << 20), 0);
	memset(&mapped, 0, sizeof(mapped));
	ASSERT_EQ(walk(path, "0", &mapped, NULL), 0);
	ASSERT_TRUE(mapped.nr > 100);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&chunked, 0, sizeof(chunked));
		ASSERT_EQ(walk(path, sizes[i], &chunked, NULL), 0);
		ASSERT_EQ(chunked.nr, mapped.nr);
		ASSERT_MEMEQ(chunked.off, mapped.off, mapped.nr * sizeof(mapped.off[0]));
		ASSERT_MEMEQ(chunked.sum, mapped.sum, mapped.nr * sizeof(mapped.sum[0]));
	}
	unlink(path);
}

/* Held records, checked against the file once the walk is over. */
static void check_held(const char *path, struct seen *s, struct pulse_data *d)
{
	int fd = open(path, O_RDONLY);
	unsigned char *buf = malloc(65536);

	ASSERT_TRUE(fd >= 0 && buf);
	for (size_t i = 0; i < s->nr_held; i++) {
		const struct perf_event_header *h = s->held[i];

		ASSERT_TRUE(h->type == PERF_RECORD_SAMPLE && h->size >= 8);
		ASSERT_EQ(pread(fd, buf, h->size, s->held_off[i]), h->size);
		ASSERT_MEMEQ(buf, h, h->size);
		pulse_data__record_unpin(d, s->pins[i]);
	}
	close(fd);
	free(buf);
}

static void test_data_chunks__pinned_records_stay(void)
{
	static struct seen s;
	struct pulse_data *d = NULL;
	char path[64];

	ASSERT_EQ(write_file(path, 3 << 20), 0);
	memset(&s, 0, sizeof(s));
	s.pin_every = 5;
	ASSERT_EQ(walk(path, "65536", &s, &d), 0);
	ASSERT_TRUE(s.nr_held > 20);
	ASSERT_EQ(s.refused, 0);
	check_held(path, &s, d);
	pulse_data__close(d);
	/* the mapped walk pins nothing: its records stay where they are */
	memset(&s, 0, sizeof(s));
	s.pin_every = 1;
	ASSERT_EQ(walk(path, "0", &s, &d), 0);
	ASSERT_EQ(s.nr_held, 0);
	pulse_data__close(d);
	unlink(path);
}

static void test_data_chunks__pin_limit(void)
{
	static struct seen s;
	struct pulse_data *d = NULL;
	char path[64];

	/* every record held: more buffers than the limit would have to stay */
	ASSERT_EQ(write_file(path, 12 << 20), 0);
	memset(&s, 0, sizeof(s));
	s.pin_every = 1;
	ASSERT_EQ(walk(path, "65536", &s, &d), 0);
	ASSERT_TRUE(s.refused > 0);
	ASSERT_TRUE(s.nr_held > 100);
	ASSERT_EQ(s.nr_held + s.refused, s.nr);
	check_held(path, &s, d);
	pulse_data__close(d);
	unlink(path);
}

/* Both walks of a damaged file: the same records and the same damage. */
static void compare_damaged(const char *path)
{
	static struct seen mapped, chunked;
	struct pulse_data *dm = NULL, *dc = NULL;
	__u64 bm = 0, om = 0, bc = 0, oc = 0;

	memset(&mapped, 0, sizeof(mapped));
	memset(&chunked, 0, sizeof(chunked));
	ASSERT_EQ(walk(path, "0", &mapped, &dm), 0);
	ASSERT_EQ(walk(path, "65536", &chunked, &dc), 0);
	ASSERT_TRUE(mapped.nr > 10);
	ASSERT_EQ(chunked.nr, mapped.nr);
	ASSERT_MEMEQ(chunked.off, mapped.off, mapped.nr * sizeof(mapped.off[0]));
	ASSERT_MEMEQ(chunked.sum, mapped.sum, mapped.nr * sizeof(mapped.sum[0]));
	ASSERT_TRUE(pulse_data__unreadable(dm, &bm, &om));
	ASSERT_TRUE(pulse_data__unreadable(dc, &bc, &oc));
	ASSERT_EQ(oc, om);
	ASSERT_EQ(bc, bm);
	pulse_data__close(dm);
	pulse_data__close(dc);
}

/* A record's size zeroed half-way; a file cut inside its last record. */
static void test_data_chunks__damage(void)
{
	static struct seen whole;
	char path[64];
	int fd;

	for (int cut = 0; cut < 2; cut++) {
		ASSERT_EQ(write_file(path, 2 << 20), 0);
		memset(&whole, 0, sizeof(whole));
		ASSERT_EQ(walk(path, "0", &whole, NULL), 0);
		fd = open(path, O_RDWR);
		ASSERT_TRUE(fd >= 0);
		if (cut)
			ASSERT_EQ(ftruncate(fd, whole.off[whole.nr - 1] + 100), 0);
		else
			ASSERT_EQ(pwrite(fd, "\0\0", 2, whole.off[whole.nr / 2] + 6), 2);
		close(fd);
		compare_damaged(path);
		unlink(path);
	}
}

TEST_MAIN(TEST(test_data_chunks__same_records), TEST(test_data_chunks__pinned_records_stay),
	  TEST(test_data_chunks__pin_limit), TEST(test_data_chunks__damage))
