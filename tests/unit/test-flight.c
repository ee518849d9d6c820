// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the flight recorder's parts: the deep ring of compressed chunks
 * (lib/flight/ring.c), the side-band state (lib/flight/state.c), and the
 * backward walk over an overwrite ring that snapshots rely on
 * (lib/ring/mmap.c against the model of the kernel's producer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/flight.h>
#include <pulse/mmap.h>
#include <pulse/perf-abi.h>
#include <pulse/ring-model.h>
#include "core/internal.h"
#include "test.h"

/* A SAMPLE of @size bytes: IDENTIFIER, IP, TID, TIME(=seed), then filler. */
static void make_sample(unsigned char *buf, size_t size, __u64 seed)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, size };

	memset(buf, 0, size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 32, &seed, 8);
	for (size_t i = 40; i < size; i++)
		buf[i] = (unsigned char)(seed * 31 + i);
}

static size_t sample_size(__u64 seed)
{
	return 40 + 8 * (seed % 13);
}

struct collect {
	unsigned char *buf;
	size_t len, cap;
};

static int collect_cb(const void *p, size_t len, void *arg)
{
	struct collect *c = arg;

	if (c->len + len > c->cap) {
		c->cap = (c->len + len) * 2;
		c->buf = realloc(c->buf, c->cap);
		if (!c->buf)
			return -ENOMEM;
	}
	memcpy(c->buf + c->len, p, len);
	c->len += len;
	return 0;
}

/* Check @c holds whole samples with consecutive seeds; return the first seed. */
static __u64 check_stream(const struct collect *c, __u64 *last, size_t *nr)
{
	__u64 first = 0, prev = 0;
	size_t off = 0;

	*nr = 0;
	while (off < c->len) {
		struct perf_event_header h;
		unsigned char want[256];
		__u64 seed;

		memcpy(&h, c->buf + off, sizeof(h));
		if (h.type != PERF_RECORD_SAMPLE || off + h.size > c->len)
			return 0;
		seed = get_u64(c->buf + off + 32);
		make_sample(want, sample_size(seed), seed);
		if (h.size != sample_size(seed) || memcmp(want, c->buf + off, h.size))
			return 0;
		if (*nr && seed != prev + 1)
			return 0;
		if (!*nr)
			first = seed;
		prev = seed;
		(*nr)++;
		off += h.size;
	}
	*last = prev;
	return first;
}

static void test_flight__ring_keeps_all_that_fits(void)
{
	struct pulse_flight_ring *r;
	struct pulse_flight_ring_stats st;
	static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	unsigned char a[4096], b[4096];
	struct collect c = { 0 };
	__u64 seed = 1, last;
	size_t nr;

	ASSERT_EQ(pulse_flight_ring__new(&r, 4 << 20, 1, 32), 0);
	/* batches over two iovecs, records cut between them, rounds among them */
	for (int batch = 0; batch < 200; batch++) {
		size_t la = 0, lb = 0, cut;
		unsigned char tmp[1024];
		struct iovec iov[2];

		while (la + 300 < sizeof(a)) {
			size_t sz = sample_size(seed);

			make_sample(a + la, sz, seed++);
			la += sz;
		}
		memcpy(a + la, &round, 8);
		la += 8;
		/* move the tail of the last records to b: a cut mid-record */
		cut = la - 100;
		memcpy(tmp, a + cut, la - cut);
		memcpy(b, tmp, la - cut);
		lb = la - cut;
		iov[0].iov_base = a;
		iov[0].iov_len = cut;
		iov[1].iov_base = b;
		iov[1].iov_len = lb;
		ASSERT_EQ(pulse_flight_ring__append(r, iov, 2), 0);
	}
	pulse_flight_ring__stats(r, &st);
	ASSERT_EQ(st.chunks_dropped, 0);
	ASSERT_EQ(st.samples_held, seed - 1);
	ASSERT_EQ(pulse_flight_ring__oldest(r), 1);
	ASSERT_EQ(pulse_flight_ring__flush(r, collect_cb, &c), 0);
	ASSERT_EQ(check_stream(&c, &last, &nr), 1);	/* the rounds are gone */
	ASSERT_EQ(nr, seed - 1);
	ASSERT_EQ(last, seed - 1);
	/* the flush emptied it */
	pulse_flight_ring__stats(r, &st);
	ASSERT_EQ(st.samples_held, 0);
	ASSERT_EQ(pulse_flight_ring__oldest(r), 0);
	free(c.buf);
	pulse_flight_ring__delete(r);
}

static void test_flight__ring_drops_oldest_whole_chunks(void)
{
	struct pulse_flight_ring *r;
	struct pulse_flight_ring_stats st;
	struct collect c = { 0 };
	unsigned char buf[256];
	__u64 seed, first, last;
	size_t nr;

	ASSERT_EQ(pulse_flight_ring__new(&r, 1, 1, 32), -EINVAL);
	ASSERT_EQ(pulse_flight_ring__new(&r, PULSE_FLIGHT_MIN_MEMORY, 1, 32), 0);
	/* incompressible-ish filler would defeat zstd; ours compresses, so push a lot */
	for (seed = 1; seed <= 400000; seed++) {
		struct iovec iov = { buf, sample_size(seed) };

		make_sample(buf, iov.iov_len, seed);
		ASSERT_EQ(pulse_flight_ring__append(r, &iov, 1), 0);
	}
	pulse_flight_ring__stats(r, &st);
	ASSERT_TRUE(st.chunks_dropped > 0);
	ASSERT_TRUE(st.held <= PULSE_FLIGHT_MIN_MEMORY);
	ASSERT_EQ(st.samples_held + st.samples_dropped, 400000);
	first = pulse_flight_ring__oldest(r);
	ASSERT_EQ(first, st.samples_dropped + 1);
	ASSERT_EQ(pulse_flight_ring__flush(r, collect_cb, &c), 0);
	/* the newest, whole and in order, right after the last one dropped */
	ASSERT_EQ(check_stream(&c, &last, &nr), first);
	ASSERT_EQ(last, 400000);
	ASSERT_EQ(nr, st.samples_held);
	free(c.buf);
	pulse_flight_ring__delete(r);
}

/* ---- state ------------------------------------------------------------ */

#define ID_SIZE 16	/* sample_id: TID, TIME */

static size_t comm_rec(unsigned char *b, int pid, int tid, const char *comm, __u64 t, bool exec)
{
	size_t body = 8 + 8 + PULSE_ALIGN(strlen(comm) + 1, 8);
	struct perf_event_header h = { PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
				       body + ID_SIZE };

	memset(b, 0, h.size);
	memcpy(b, &h, 8);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &tid, 4);
	strcpy((char *)b + 16, comm);
	memcpy(b + body + 8, &t, 8);
	return h.size;
}

static size_t task_rec(unsigned char *b, __u32 type, int pid, int ppid, int tid, __u64 t)
{
	struct perf_event_header h = { type, 0, 32 + ID_SIZE };

	memset(b, 0, h.size);
	memcpy(b, &h, 8);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &ppid, 4);
	memcpy(b + 16, &tid, 4);
	memcpy(b + 20, &tid, 4);
	memcpy(b + 24, &t, 8);
	memcpy(b + 40, &t, 8);
	return h.size;
}

static size_t mmap2_rec(unsigned char *b, int pid, __u64 start, __u64 len, const char *f, __u64 t)
{
	size_t body = 72 + PULSE_ALIGN(strlen(f) + 1, 8);
	struct perf_event_header h = { PERF_RECORD_MMAP2, 0, body + ID_SIZE };

	memset(b, 0, h.size);
	memcpy(b, &h, 8);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	strcpy((char *)b + 72, f);
	memcpy(b + body + 8, &t, 8);
	return h.size;
}

struct names {
	char seen[64][32];
	int nr;
};

/* Note each COMM's name and each MMAP2's file. */
static int names_cb(const void *rec, size_t size, void *arg)
{
	struct names *n = arg;
	struct perf_event_header h;

	memcpy(&h, rec, 8);
	if (n->nr < 64 && h.type == PERF_RECORD_COMM)
		snprintf(n->seen[n->nr++], 32, "comm:%s", (const char *)rec + 16);
	else if (n->nr < 64 && h.type == PERF_RECORD_MMAP2)
		snprintf(n->seen[n->nr++], 32, "mmap:%s", (const char *)rec + 72);
	else if (n->nr < 64 && h.type == PERF_RECORD_FORK)
		snprintf(n->seen[n->nr++], 32, "fork");
	return 0;
}

static bool has(const struct names *n, const char *s)
{
	for (int i = 0; i < n->nr; i++)
		if (!strcmp(n->seen[i], s))
			return true;
	return false;
}

static void fold(struct pulse_flight_state *s, const unsigned char *b, size_t len)
{
	ASSERT_EQ(pulse_flight_state__fold(s, b, len), 0);
}

static void test_flight__state_keeps_the_exited_until_aged(void)
{
	struct pulse_flight_state *s;
	unsigned char b[256];
	struct names n = { 0 };
	__u64 since = 0;
	size_t recs, bytes;

	ASSERT_EQ(pulse_flight_state__new(&s, ID_SIZE - 8, 0), 0);
	fold(s, b, comm_rec(b, 1, 1, "init", 0, false));
	fold(s, b, task_rec(b, PERF_RECORD_FORK, 100, 1, 100, 10));
	fold(s, b, comm_rec(b, 100, 100, "crasher", 11, true));
	fold(s, b, mmap2_rec(b, 100, 0x400000, 0x1000, "/bin/crasher", 12));
	fold(s, b, mmap2_rec(b, 100, 0x7f0000, 0x1000, "/lib/libc.so", 13));
	fold(s, b, task_rec(b, PERF_RECORD_EXIT, 100, 1, 100, 50));
	/* exited at 50, but samples from before may still be held: named */
	ASSERT_EQ(pulse_flight_state__emit(s, NULL, names_cb, &n), 0);
	ASSERT_TRUE(has(&n, "comm:crasher") && has(&n, "mmap:/bin/crasher"));
	ASSERT_TRUE(has(&n, "comm:init"));
	/* only new records after an emit with a cursor */
	ASSERT_EQ(pulse_flight_state__emit(s, &since, names_cb, &n), 0);
	n.nr = 0;
	fold(s, b, comm_rec(b, 1, 1, "systemd", 60, true));
	ASSERT_EQ(pulse_flight_state__emit(s, &since, names_cb, &n), 0);
	ASSERT_EQ(n.nr, 1);
	ASSERT_TRUE(has(&n, "comm:systemd"));
	/* nothing held is older than 51: the exited task goes, init's old name too */
	pulse_flight_state__age(s, 70);
	n.nr = 0;
	ASSERT_EQ(pulse_flight_state__emit(s, NULL, names_cb, &n), 0);
	ASSERT_TRUE(!has(&n, "comm:crasher") && !has(&n, "mmap:/bin/crasher"));
	ASSERT_TRUE(!has(&n, "comm:init"));
	ASSERT_TRUE(has(&n, "comm:systemd"));
	pulse_flight_state__usage(s, &recs, &bytes);
	ASSERT_EQ(recs, 1);
	pulse_flight_state__delete(s);
}

static void test_flight__state_exec_and_remap(void)
{
	struct pulse_flight_state *s;
	unsigned char b[256];
	struct names n = { 0 };

	ASSERT_EQ(pulse_flight_state__new(&s, ID_SIZE - 8, 0), 0);
	fold(s, b, comm_rec(b, 7, 7, "sh", 1, false));
	fold(s, b, mmap2_rec(b, 7, 0x1000, 0x1000, "/bin/sh", 2));
	fold(s, b, mmap2_rec(b, 7, 0x1000, 0x1000, "/bin/sh2", 3));	/* same range again */
	fold(s, b, comm_rec(b, 7, 7, "prog", 4, true));			/* exec */
	fold(s, b, mmap2_rec(b, 7, 0x5000, 0x1000, "/bin/prog", 5));
	pulse_flight_state__age(s, 10);
	ASSERT_EQ(pulse_flight_state__emit(s, NULL, names_cb, &n), 0);
	ASSERT_EQ(n.nr, 2);
	ASSERT_TRUE(has(&n, "comm:prog") && has(&n, "mmap:/bin/prog"));
	pulse_flight_state__delete(s);
}

static void test_flight__state_is_bounded(void)
{
	struct pulse_flight_state *s;
	unsigned char b[256];
	size_t recs, bytes;

	/* a churn of short-lived tasks, never aged: the cap holds */
	ASSERT_EQ(pulse_flight_state__new(&s, ID_SIZE - 8, 64 * 1024), 0);
	for (int pid = 1000; pid < 60000; pid++) {
		__u64 t = pid * 10ULL;

		fold(s, b, task_rec(b, PERF_RECORD_FORK, pid, 1, pid, t));
		fold(s, b, comm_rec(b, pid, pid, "short", t + 1, true));
		fold(s, b, mmap2_rec(b, pid, 0x400000, 0x1000, "/bin/short", t + 2));
		fold(s, b, task_rec(b, PERF_RECORD_EXIT, pid, 1, pid, t + 3));
	}
	pulse_flight_state__usage(s, &recs, &bytes);
	ASSERT_TRUE(bytes <= 64 * 1024 + 256);
	ASSERT_TRUE(recs > 100);	/* the newest are kept */
	/* bad records are refused, not folded */
	memset(b, 0, 8);
	ASSERT_EQ(pulse_flight_state__fold(s, b, 4), -EINVAL);
	pulse_flight_state__delete(s);
}

/* ---- the backward walk ------------------------------------------------ */

static int put_rec(struct pulse_ring_model *rm, size_t size, __u64 seed)
{
	unsigned char buf[512];
	struct pulse_ring_handle h;

	make_sample(buf, size, seed);
	if (pulse_ring_model__output_begin(rm, &h, size))
		return -1;
	pulse_ring_model__output_copy(&h, buf, size);
	pulse_ring_model__output_end(&h);
	return 0;
}

/*
 * Snapshots at irregular points of a backward ring written many times
 * round, with sizes that leave records cut at the ring's end: each walk
 * starts at the newest record, goes back over whole records with
 * consecutive seeds only, and covers only what came since the last.
 */
static void test_flight__backward_snapshots(void)
{
	struct pulse_ring_model *rm;
	struct pulse_mmap m;
	__u64 seed = 1, prev_newest = 0;
	int walks = 0;

	ASSERT_EQ(pulse_ring_model__new(&rm, 8192, true), 0);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PULSE_RING_MODEL_PAGE,
				       8192, true), 0);
	for (int round = 0; round < 300; round++) {
		const struct perf_event_header *ev;
		int n = 1 + (round * 37) % 400;
		__u64 expect;
		size_t got = 0;

		for (int i = 0; i < n; i++, seed++)
			ASSERT_EQ(put_rec(rm, sample_size(seed), seed), 0);
		ASSERT_EQ(pulse_mmap__read_init(&m), 0);
		expect = seed - 1;
		while ((ev = pulse_mmap__read_event(&m)) != NULL) {
			unsigned char want[256];
			__u64 s = get_u64((const unsigned char *)ev + 32);

			ASSERT_EQ(s, expect);
			make_sample(want, sample_size(s), s);
			ASSERT_TRUE(!memcmp(ev, want, ev->size));
			got += ev->size;
			expect--;
		}
		ASSERT_TRUE(got <= 8192);
		/* all that is new since the last walk, when it fits */
		if (seed - 1 - prev_newest <= 8192 / 136)
			ASSERT_EQ(expect, prev_newest);
		pulse_mmap__read_done(&m);
		prev_newest = seed - 1;
		walks++;
	}
	ASSERT_EQ(m.lost_bytes, 0);
	ASSERT_EQ(walks, 300);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

TEST_MAIN(TEST(test_flight__ring_keeps_all_that_fits),
	  TEST(test_flight__ring_drops_oldest_whole_chunks),
	  TEST(test_flight__state_keeps_the_exited_until_aged),
	  TEST(test_flight__state_exec_and_remap),
	  TEST(test_flight__state_is_bounded),
	  TEST(test_flight__backward_snapshots))
