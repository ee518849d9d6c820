// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the ring buffer consumer (lib/ring/mmap.c) against the model of
 * the kernel producer (lib/ring/model.c) and against real perf mappings,
 * and a two-thread stress test: a producer (with nested writers) and a
 * sometimes slow consumer, checking that no record is torn, reordered or
 * unaccounted for. PULSE_RING_RECORDS sets the stress size; `make tsan`
 * runs it under ThreadSanitizer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pulse/mmap.h>
#include <pulse/ring-model.h>
#include "core/internal.h"
#include "test.h"

/* a model, or NULL */
static struct pulse_ring_model *ring_model_new(size_t size, bool backward)
{
	struct pulse_ring_model *m;

	return pulse_ring_model__new(&m, size, backward) ? NULL : m;
}

#define PAGE		PULSE_RING_MODEL_PAGE
#define TYPE_TEST	100
#define TYPE_END	101

/* A record of @size bytes: a header, then bytes derived from @seed. */
static void make_record(unsigned char *buf, size_t size, __u64 seed)
{
	struct perf_event_header h = { .type = TYPE_TEST, .misc = 0, .size = size };

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		buf[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 8));
}

static int put(struct pulse_ring_model *rm, size_t size, __u64 seed)
{
	unsigned char buf[size];	/* not static: put() nests in irq hooks */
	struct pulse_ring_handle h;
	int err;

	make_record(buf, size, seed);
	err = pulse_ring_model__output_begin(rm, &h, size);
	if (err)
		return err;
	pulse_ring_model__output_copy(&h, buf, size);
	pulse_ring_model__output_end(&h);
	return 0;
}

static bool is_record(const struct perf_event_header *ev, size_t size, __u64 seed)
{
	unsigned char want[65536];

	make_record(want, size, seed);
	return ev && !memcmp(ev, want, size);
}

static __u64 data_head(struct pulse_ring_model *rm)
{
	struct perf_event_mmap_page *pc = pulse_ring_model__base(rm);

	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
}

static __u64 data_tail(struct pulse_mmap *m)
{
	struct perf_event_mmap_page *pc = m->base;

	return __atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE);
}

/* Write and consume fillers until the forward ring is empty at @target. */
static int advance_to(struct pulse_ring_model *rm, struct pulse_mmap *m, __u64 target)
{
	while (m->prev < target) {
		__u64 n = target - m->prev;

		if (put(rm, n > 1024 ? 1024 : n, 0) || pulse_mmap__read_init(m))
			return -1;
		while (pulse_mmap__read_event(m))
			;
		pulse_mmap__read_done(m);
	}
	return m->prev == target && data_tail(m) == target ? 0 : -1;
}

static void test_ring__single_record(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	const struct perf_event_header *ev;
	struct pulse_mmap m;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	ASSERT_EQ(put(rm, 40, 1), 0);
	ASSERT_EQ(data_head(rm), 40);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)m.data);
	ASSERT_TRUE(is_record(ev, 40, 1));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(data_tail(&m), 0);	/* nothing released before consume */
	pulse_mmap__consume(&m);
	ASSERT_EQ(data_tail(&m), 40);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 40);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

static void test_ring__record_at_end_and_wrapping(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	const struct perf_event_header *ev;
	struct pulse_mmap m;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	/* Ends exactly at the end of the data: no bounce copy; next at 0. */
	ASSERT_EQ(advance_to(rm, &m, 4096 - 32), 0);
	ASSERT_EQ(put(rm, 32, 2), 0);
	ASSERT_EQ(put(rm, 16, 3), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)(m.data + 4096 - 32));
	ASSERT_TRUE(is_record(ev, 32, 2));
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)m.data);
	ASSERT_TRUE(is_record(ev, 16, 3));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 4096 + 16);

	/* Straddles the end: copied whole into the bounce buffer. */
	ASSERT_EQ(advance_to(rm, &m, 2 * 4096 - 24), 0);
	ASSERT_EQ(put(rm, 64, 4), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)m.bounce);
	ASSERT_TRUE(is_record(ev, 64, 4));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 2 * 4096 + 40);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

static void test_ring__header_in_last_8_bytes(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	const struct perf_event_header *ev;
	struct pulse_mmap m;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	ASSERT_EQ(advance_to(rm, &m, 4096 - 8), 0);
	ASSERT_EQ(put(rm, 48, 5), 0);
	ASSERT_EQ(put(rm, 24, 6), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)m.bounce);
	ASSERT_TRUE(is_record(ev, 48, 5));
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)(m.data + 40));
	ASSERT_TRUE(is_record(ev, 24, 6));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 4096 - 8 + 72);
	/* Header alone at the end, one word of payload at the start. */
	ASSERT_EQ(advance_to(rm, &m, 2 * 4096 - 8), 0);
	ASSERT_EQ(put(rm, 16, 7), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev == (const void *)m.bounce);
	ASSERT_TRUE(is_record(ev, 16, 7));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

static void test_ring__empty_batch(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	struct pulse_mmap m;
	struct iovec iov[2];
	pulse_print_fn_t old;
	int err;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	ASSERT_EQ(pulse_mmap__batch_iov(&m, iov), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(put(rm, 64, 7), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) != NULL);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	/* A size that is no power of two is rejected rather than masked wrongly. */
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 3000, false), -EINVAL);
	/* So is one that disagrees with the data_size the producer wrote. */
	old = pulse_set_print(NULL);
	err = pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 8192, false);
	pulse_set_print(old);
	ASSERT_EQ(err, -EINVAL);
	pulse_ring_model__delete(rm);
}

/* A ring in plain memory, to write what no producer would. */
static unsigned char *raw_ring(size_t data_size)
{
	unsigned char *base = aligned_alloc(PAGE, PAGE + data_size);

	if (base)
		memset(base, 0, PAGE + data_size);
	return base;
}

static void raw_header(unsigned char *base, __u64 pos, __u16 size)
{
	struct perf_event_header h = { .type = TYPE_TEST, .size = size };

	memcpy(base + PAGE + (pos & 4095), &h, sizeof(h));
}

static void raw_head(unsigned char *base, __u64 head)
{
	__atomic_store_n(&((struct perf_event_mmap_page *)base)->data_head, head,
			 __ATOMIC_RELEASE);
}

static void test_ring__bad_header_size(void)
{
	unsigned char *base = raw_ring(4096);
	struct pulse_mmap m;

	ASSERT_TRUE(base);
	ASSERT_EQ(pulse_mmap__init_mem(&m, base, PAGE, 4096, false), 0);
	/* A good record, then one smaller than its header. */
	raw_header(base, 0, 32);
	raw_header(base, 32, 4);
	raw_head(base, 96);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) != NULL);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(m.lost_bytes, 64);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 96);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);

	/* Size 0: must not loop. */
	raw_header(base, 96, 0);
	raw_head(base, 128);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(m.lost_bytes, 64 + 32);
	pulse_mmap__read_done(&m);

	/* Larger than what is left of the batch. */
	raw_header(base, 128, 200);
	raw_head(base, 128 + 64);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(m.lost_bytes, 64 + 32 + 64);
	pulse_mmap__read_done(&m);

	/* A batch shorter than a header. */
	raw_head(base, 128 + 64 + 4);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	ASSERT_EQ(m.lost_bytes, 64 + 32 + 64 + 4);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 128 + 64 + 4);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	pulse_mmap__munmap(&m);
	free(base);
}

static void test_ring__reader_fell_behind(void)
{
	unsigned char *base = raw_ring(4096);
	struct pulse_mmap m;

	ASSERT_TRUE(base);
	ASSERT_EQ(pulse_mmap__init_mem(&m, base, PAGE, 4096, false), 0);
	raw_head(base, 3 * 4096 + 64);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	ASSERT_EQ(m.lost_bytes, 3 * 4096 + 64);
	ASSERT_EQ(data_tail(&m), 3 * 4096 + 64);
	/* Exactly one buffer behind is still readable. */
	raw_header(base, 3 * 4096 + 64, 4096);
	raw_head(base, 4 * 4096 + 64);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(pulse_mmap__read_event(&m) == (const void *)m.bounce);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(m.lost_bytes, 3 * 4096 + 64);
	pulse_mmap__munmap(&m);
	free(base);
}

static void test_ring__batch_iov(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	unsigned char want[144], got[144];
	struct pulse_mmap m;
	struct iovec iov[2];

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	ASSERT_EQ(advance_to(rm, &m, 4096 - 64), 0);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(put(rm, 48, 10 + i), 0);
		make_record(want + 48 * i, 48, 10 + i);
	}
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_EQ(pulse_mmap__batch_iov(&m, iov), 2);
	ASSERT_EQ(iov[0].iov_len, 64);
	ASSERT_EQ(iov[1].iov_len, 80);
	ASSERT_TRUE(iov[1].iov_base == (void *)m.data);
	memcpy(got, iov[0].iov_base, 64);
	memcpy(got + 64, iov[1].iov_base, 80);
	ASSERT_MEMEQ(got, want, sizeof(want));
	/* After one record, the rest of the batch no longer wraps... */
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 48, 10));
	ASSERT_EQ(pulse_mmap__batch_iov(&m, iov), 2);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 48, 11));
	/* ...after two it lies at the start. */
	ASSERT_EQ(pulse_mmap__batch_iov(&m, iov), 1);
	ASSERT_TRUE(iov[0].iov_base == (void *)(m.data + 32));
	ASSERT_EQ(iov[0].iov_len, 48);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(data_tail(&m), 4096 - 64 + 144);
	ASSERT_EQ(pulse_mmap__batch_iov(&m, iov), 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

static void test_ring__lost_record(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	const struct perf_event_header *ev;
	struct pulse_ring_model_stats st;
	struct pulse_mmap m;
	int ok = 0, dropped = 0;

	ASSERT_TRUE(rm);
	pulse_ring_model__set_id(rm, 0x1234);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);
	/* 4095 bytes of space at most: three 1 KiB records fit, no more. */
	for (int i = 0; i < 8; i++) {
		int err = put(rm, 1024, i);

		if (!err)
			ok++;
		else if (err == -ENOSPC)
			dropped++;
	}
	ASSERT_EQ(ok, 3);
	ASSERT_EQ(dropped, 5);
	ASSERT_EQ(pulse_ring_model__lost(rm), 5);
	ASSERT_EQ(data_head(rm), 3072);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	for (int i = 0; i < 3; i++)
		ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 1024, i));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);

	ASSERT_EQ(put(rm, 64, 99), 0);
	ASSERT_EQ(data_head(rm), 3072 + 24 + 64);
	ASSERT_EQ(put(rm, 32, 100), 0);	/* reported once only */
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ev = pulse_mmap__read_event(&m);
	ASSERT_TRUE(ev != NULL);
	ASSERT_EQ(ev->type, PERF_RECORD_LOST);
	ASSERT_EQ(ev->size, 24);
	ASSERT_EQ(get_u64((const char *)ev + 8), 0x1234);
	ASSERT_EQ(get_u64((const char *)ev + 16), 5);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 64, 99));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 32, 100));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	pulse_ring_model__stats(rm, &st);
	ASSERT_EQ(st.lost, 5);
	ASSERT_EQ(st.lost_records, 1);
	ASSERT_EQ(st.records, 5);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

struct irq_ctx {
	enum pulse_ring_irq_point at;
	int armed;		/* nested writers left to run */
	int fired;
	__u64 seed;
};

static void irq_write(struct pulse_ring_model *rm, enum pulse_ring_irq_point at, void *arg)
{
	struct irq_ctx *c = arg;

	if (at != c->at || !c->armed)
		return;
	c->armed--;
	c->fired++;
	put(rm, 24, c->seed++);
}

static void test_ring__nested_writers(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, false);
	struct pulse_ring_model_stats st;
	struct pulse_ring_handle h;
	unsigned char rec[64];
	struct irq_ctx c;
	struct pulse_mmap m;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, false), 0);

	/* Interrupted between begin and end: head waits for the outer writer. */
	make_record(rec, 64, 20);
	ASSERT_EQ(pulse_ring_model__output_begin(rm, &h, 64), 0);
	pulse_ring_model__output_copy(&h, rec, 32);
	ASSERT_EQ(put(rm, 32, 21), 0);
	ASSERT_EQ(pulse_ring_model__head(rm), 96);
	ASSERT_EQ(data_head(rm), 0);
	pulse_ring_model__output_copy(&h, rec + 32, 32);
	ASSERT_EQ(data_head(rm), 0);
	pulse_ring_model__output_end(&h);
	ASSERT_EQ(data_head(rm), 96);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 64, 20));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 32, 21));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);

	/* Interrupted after put_handle read rb->head: it must publish again. */
	c = (struct irq_ctx){ .at = PULSE_RING_IRQ_PUBLISH, .armed = 1, .seed = 30 };
	pulse_ring_model__set_irq(rm, irq_write, &c);
	ASSERT_EQ(put(rm, 40, 22), 0);
	pulse_ring_model__set_irq(rm, NULL, NULL);
	ASSERT_EQ(c.fired, 1);
	ASSERT_EQ(data_head(rm), 96 + 40 + 24);
	pulse_ring_model__stats(rm, &st);
	ASSERT_EQ(st.publish_retries, 1);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 40, 22));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 24, 30));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);

	/* Interrupted before the cmpxchg: the inner record goes first. */
	c = (struct irq_ctx){ .at = PULSE_RING_IRQ_RESERVE, .armed = 1, .seed = 40 };
	pulse_ring_model__set_irq(rm, irq_write, &c);
	ASSERT_EQ(put(rm, 56, 23), 0);
	pulse_ring_model__set_irq(rm, NULL, NULL);
	ASSERT_EQ(c.fired, 1);
	pulse_ring_model__stats(rm, &st);
	ASSERT_EQ(st.reserve_retries, 1);
	ASSERT_EQ(data_head(rm), 160 + 24 + 56);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 24, 40));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 56, 23));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

static size_t bw_size(__u64 seed)
{
	return 8 * (3 + seed % 50);
}

static void test_ring__backward_wrapped(void)
{
	struct pulse_ring_model *rm = ring_model_new(4096, true);
	const struct perf_event_header *ev;
	struct pulse_mmap m;
	struct iovec iov[2];
	__u64 seed, total = 0, newest;
	size_t got = 0;
	int n;

	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, true), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);
	for (seed = 1; seed <= 3; seed++)
		ASSERT_EQ(put(rm, bw_size(seed), seed), 0);
	total = bw_size(1) + bw_size(2) + bw_size(3);
	ASSERT_EQ(data_head(rm), (__u64)0 - total);
	/* Not wrapped: all of it, newest first. */
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	for (seed = 3; seed >= 1; seed--)
		ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), bw_size(seed), seed));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);

	/* Many times round: the newest whole records that fit in 4096 bytes. */
	for (; seed < 400; seed++)
		ASSERT_EQ(put(rm, bw_size(seed), seed), 0);
	newest = seed - 1;
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	n = pulse_mmap__batch_iov(&m, iov);
	ASSERT_TRUE(n >= 1);
	for (seed = newest; (ev = pulse_mmap__read_event(&m)) != NULL; seed--) {
		ASSERT_TRUE(is_record(ev, bw_size(seed), seed));
		got += bw_size(seed);
	}
	ASSERT_TRUE(got <= 4096);
	ASSERT_TRUE(got + bw_size(seed) > 4096);	/* the partial oldest was dropped */
	ASSERT_EQ(iov[0].iov_len + (n == 2 ? iov[1].iov_len : 0), got);
	ASSERT_TRUE(newest - seed >= 5);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(pulse_mmap__read_init(&m), -EAGAIN);

	/* Only what is new since the last read. */
	ASSERT_EQ(put(rm, 32, 1000), 0);
	ASSERT_EQ(put(rm, 48, 1001), 0);
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 48, 1001));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 32, 1000));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);

	/* A reader far behind an unwrapped buffer stops at never-written space. */
	rm = ring_model_new(4096, true);
	ASSERT_TRUE(rm);
	ASSERT_EQ(pulse_mmap__init_mem(&m, pulse_ring_model__base(rm), PAGE, 4096, true), 0);
	ASSERT_EQ(put(rm, 40, 50), 0);
	ASSERT_EQ(put(rm, 64, 51), 0);
	m.prev = data_head(rm) + 3 * 4096;
	ASSERT_EQ(pulse_mmap__read_init(&m), 0);
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 64, 51));
	ASSERT_TRUE(is_record(pulse_mmap__read_event(&m), 40, 50));
	ASSERT_TRUE(pulse_mmap__read_event(&m) == NULL);
	pulse_mmap__read_done(&m);
	ASSERT_EQ(m.lost_bytes, 0);
	pulse_mmap__munmap(&m);
	pulse_ring_model__delete(rm);
}

/* Real mappings: PERF_RECORD_MMAP records for our own data mappings. */

static int open_dummy(bool backward)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.mmap = 1,
		.mmap_data = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.write_backward = backward,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Map a file three times; return the addresses seen in the ring, in order. */
static int mmap_events(bool backward, void *maps[3], void *seen[8], int *nseen)
{
	char path[] = "/tmp/pulse-ring-XXXXXX";
	const struct perf_event_header *ev;
	struct pulse_mmap m;
	int fd, efd, err;

	efd = open_dummy(backward);
	if (efd < 0)
		return -errno;
	err = pulse_mmap__mmap(&m, efd, 4, backward);
	if (err) {
		close(efd);
		return err;
	}
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	if (fd < 0 || ftruncate(fd, 4096)) {
		err = -errno;
		goto out;
	}
	for (int i = 0; i < 3; i++)
		maps[i] = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (backward)
		ioctl(efd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	*nseen = 0;
	err = pulse_mmap__read_init(&m);
	if (!err) {
		while ((ev = pulse_mmap__read_event(&m)) != NULL && *nseen < 8) {
			__u64 addr;

			if (ev->type != PERF_RECORD_MMAP)
				continue;
			addr = get_u64((const char *)ev + 16);
			for (int i = 0; i < 3; i++)
				if (addr == (uintptr_t)maps[i])
					seen[(*nseen)++] = maps[i];
		}
		pulse_mmap__read_done(&m);
	}
	if (!backward)
		err = data_tail(&m) == m.end ? err : -EPROTO;
	for (int i = 0; i < 3; i++)
		if (maps[i] != MAP_FAILED)
			munmap(maps[i], 4096);
out:
	if (fd >= 0)
		close(fd);
	pulse_mmap__munmap(&m);
	close(efd);
	return err;
}

static void test_ring__real_mapping(void)
{
	void *maps[3], *seen[8];
	struct pulse_mmap m;
	int n, err;

	ASSERT_EQ(pulse_mmap__mmap(&m, -1, 3, false), -EINVAL);
	ASSERT_EQ(pulse_mmap__mmap(&m, -1, 0, false), -EINVAL);
	ASSERT_EQ(pulse_mmap__mmap(&m, -1, 1, false), -EBADF);
	err = mmap_events(false, maps, seen, &n);
	if (err == -EACCES || err == -EPERM || err == -ENOENT || err == -ENOSYS) {
		test__skip = "perf_event_open not permitted";
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_EQ(n, 3);
	for (int i = 0; i < 3; i++)
		ASSERT_TRUE(seen[i] == maps[i]);

	err = mmap_events(true, maps, seen, &n);
	if (err == -EINVAL) {
		test__skip = "write_backward not supported";
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_EQ(n, 3);
	for (int i = 0; i < 3; i++)
		ASSERT_TRUE(seen[i] == maps[2 - i]);	/* newest first */
}

/*
 * The stress test. The producer writes records {header, seq, drops, csum,
 * payload} where seq counts successful reservations, so it is the order of
 * the records in the buffer: a nested writer reserves after the writer it
 * interrupted started (or, interrupting its cmpxchg loop, before that
 * writer's retry) and takes the next seq at that moment. The payload is a
 * window of a random pool, and csum covers seq, drops and the payload, so
 * that the producer computes it from prefix sums and the consumer from the
 * bytes it read. drops is the model's drop count when the record was
 * reserved: the LOST records read before it can report no more than that,
 * and exactly that when a LOST record shares its reservation.
 */
#define STRESS_RING	(64 * 1024)
#define STRESS_ID	0xfeedbeefULL
#define REC_FIXED	32
#define REC_MAX		4096
#define POOL_WORDS	(64 * 1024)
#define TYPE_DATA	102
#define STRESS_BACKOFF	256	/* polls of data_tail after a drop */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STRESS_DEFAULT	2000000ULL	/* sanitizers are ~5x slower */
#else
#define STRESS_DEFAULT	10000000ULL
#endif

struct stress {
	struct pulse_ring_model *rm;
	struct pulse_mmap m;
	__u64 nr;
	__u64 *pool, *pa, *pb;		/* words, prefix sums of w and of i*w */
	/* producer thread */
	__u64 prng, attempts, written, nest_copy, nest_reserve, nest_publish;
	int depth;
	/* consumer thread */
	__u64 crng, received, lost_seen, lost_records, expect_seq;
	__u64 batches, iov_batches, slow, idle;
	bool after_lost, end_seen;
	unsigned char lin[STRESS_RING];
	/* either */
	int stop, err_set;
	char err[256];
};

static __u64 xorshift(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static __u64 mix64(__u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static __u64 stress_csum(__u64 seq, __u64 drops, __u64 a, __u64 b)
{
	return mix64(mix64(mix64(seq ^ 0x5eed) + drops) + a) + b;
}

static void stress_fail(struct stress *s, const char *fmt, ...)
{
	va_list ap;
	int zero = 0;

	if (__atomic_compare_exchange_n(&s->err_set, &zero, 1, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		va_start(ap, fmt);
		vsnprintf(s->err, sizeof(s->err), fmt, ap);
		va_end(ap);
	}
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * After a drop, wait a little for the reader to free space: events keep
 * coming at their own pace rather than as fast as a failed reservation
 * returns, so drops come from the reader's slow spells, not from a producer
 * spinning through millions of attempts while the ring is full.
 */
static void stress_backoff(struct stress *s)
{
	struct perf_event_mmap_page *pc = pulse_ring_model__base(s->rm);
	__u64 tail = __atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE);

	for (int i = 0; i < STRESS_BACKOFF; i++) {
		if (__atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE) != tail)
			break;
		cpu_relax();
	}
}

static void stress_write(struct stress *s)
{
	__u64 r = xorshift(&s->prng);
	size_t n = (r >> 8) % ((REC_MAX - REC_FIXED) / 8 + 1);
	size_t size = REC_FIXED + 8 * n, split;
	struct perf_event_header hdr = { .type = TYPE_DATA, .size = size };
	struct pulse_ring_handle h;
	__u64 fixed[4], seq, off, a, b;

	s->attempts++;
	if (pulse_ring_model__output_begin(s->rm, &h, size)) {
		stress_backoff(s);
		return;
	}
	seq = s->written++;
	off = mix64(seq) % (POOL_WORDS - n + 1);
	a = s->pa[off + n] - s->pa[off];
	b = (s->pb[off + n] - s->pb[off]) - (off - 1) * a;	/* sum of (k+1)*w[off+k] */
	memcpy(&fixed[0], &hdr, sizeof(hdr));
	fixed[1] = seq;
	fixed[2] = pulse_ring_model__lost(s->rm);
	fixed[3] = stress_csum(seq, fixed[2], a, b);
	pulse_ring_model__output_copy(&h, fixed, sizeof(fixed));
	split = (r >> 40) % (n + 1);
	pulse_ring_model__output_copy(&h, s->pool + off, 8 * split);
	if (!s->depth && (r & 7) == 0) {
		/* An interrupt in the middle of the copy. */
		s->nest_copy++;
		s->depth++;
		stress_write(s);
		s->depth--;
	}
	pulse_ring_model__output_copy(&h, s->pool + off + split, 8 * (n - split));
	pulse_ring_model__output_end(&h);
}

static void stress_irq(struct pulse_ring_model *rm, enum pulse_ring_irq_point at, void *arg)
{
	struct stress *s = arg;

	if (s->depth > 1 || (xorshift(&s->prng) & 31))
		return;
	if (at == PULSE_RING_IRQ_RESERVE)
		s->nest_reserve++;
	else
		s->nest_publish++;
	s->depth++;
	stress_write(s);
	s->depth--;
}

static void *stress_producer(void *arg)
{
	struct stress *s = arg;
	struct perf_event_mmap_page *pc = pulse_ring_model__base(s->rm);
	struct perf_event_header end = { .type = TYPE_END, .size = 8 };
	struct pulse_ring_handle h;

	for (__u64 i = 0; i < s->nr; i++) {
		if (!(i & 1023) && __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
			return NULL;
		stress_write(s);
	}
	/* Let the reader drain, so the end marker (and a pending LOST) fits. */
	pulse_ring_model__set_irq(s->rm, NULL, NULL);
	while (__atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE) != pulse_ring_model__head(s->rm)) {
		if (__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
			return NULL;
		sched_yield();
	}
	if (pulse_ring_model__output_begin(s->rm, &h, sizeof(end))) {
		stress_fail(s, "end marker dropped on an empty ring");
		return NULL;
	}
	pulse_ring_model__output_copy(&h, &end, sizeof(end));
	pulse_ring_model__output_end(&h);
	return NULL;
}

static int stress_check(struct stress *s, const unsigned char *p)
{
	struct perf_event_header hdr;
	__u64 seq, drops, csum, a = 0, b = 0;
	size_t n;

	memcpy(&hdr, p, sizeof(hdr));
	switch (hdr.type) {
	case PERF_RECORD_LOST:
		if (hdr.size != 24 || get_u64(p + 8) != STRESS_ID) {
			stress_fail(s, "bad LOST record (size %u) after seq %llu", hdr.size,
				    (unsigned long long)s->expect_seq);
			return -1;
		}
		s->lost_seen += get_u64(p + 16);
		s->lost_records++;
		s->after_lost = true;
		return 0;
	case TYPE_END:
		s->end_seen = true;
		return 0;
	case TYPE_DATA:
		break;
	default:
		stress_fail(s, "unknown record type %u after seq %llu", hdr.type,
			    (unsigned long long)s->expect_seq);
		return -1;
	}
	if (hdr.size < REC_FIXED || hdr.size % 8) {
		stress_fail(s, "bad record size %u", hdr.size);
		return -1;
	}
	seq = get_u64(p + 8);
	drops = get_u64(p + 16);
	csum = get_u64(p + 24);
	n = (hdr.size - REC_FIXED) / 8;
	for (size_t k = 0; k < n; k++) {
		__u64 w = get_u64(p + REC_FIXED + 8 * k);

		a += w;
		b += (k + 1) * w;
	}
	if (stress_csum(seq, drops, a, b) != csum) {
		stress_fail(s, "torn record (seq field %llu, expected seq %llu)",
			    (unsigned long long)seq, (unsigned long long)s->expect_seq);
		return -1;
	}
	if (seq != s->expect_seq) {
		stress_fail(s, "record seq %llu where %llu was expected",
			    (unsigned long long)seq, (unsigned long long)s->expect_seq);
		return -1;
	}
	if (drops < s->lost_seen || (s->after_lost && drops != s->lost_seen)) {
		stress_fail(s, "seq %llu: %llu drops when reserved, %llu reported before it",
			    (unsigned long long)seq, (unsigned long long)drops,
			    (unsigned long long)s->lost_seen);
		return -1;
	}
	s->after_lost = false;
	s->expect_seq++;
	s->received++;
	return 0;
}

/* Copy the batch out whole, as a recorder writing it to a file would. */
static int stress_read_iov(struct stress *s)
{
	struct iovec iov[2];
	size_t len = 0, off, sz;
	int n = pulse_mmap__batch_iov(&s->m, iov);

	for (int i = 0; i < n; i++) {
		memcpy(s->lin + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	pulse_mmap__read_done(&s->m);
	for (off = 0; off < len; off += sz) {
		sz = get_u16(s->lin + off + 6);
		if (sz < 8 || off + sz > len) {
			stress_fail(s, "batch split inside a record");
			return -1;
		}
		if (stress_check(s, s->lin + off))
			return -1;
	}
	return 0;
}

static void *stress_consumer(void *arg)
{
	struct stress *s = arg;
	const struct perf_event_header *ev;

	while (!s->end_seen && !__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		__u64 r;

		if (pulse_mmap__read_init(&s->m)) {
			s->idle++;
			sched_yield();
			continue;
		}
		s->batches++;
		r = xorshift(&s->crng);
		if ((r & 7) == 0) {
			s->iov_batches++;
			if (stress_read_iov(s))
				return NULL;
		} else {
			while ((ev = pulse_mmap__read_event(&s->m)) != NULL) {
				if (stress_check(s, (const unsigned char *)ev))
					return NULL;
				/* Release part of the batch early now and then. */
				if ((xorshift(&s->crng) & 15) == 0)
					pulse_mmap__consume(&s->m);
			}
			pulse_mmap__read_done(&s->m);
		}
		if (((r >> 8) & 255) == 0) {
			/* A slow reader: the producer fills the ring and drops. */
			struct timespec ts = { 0, 20000 + (r >> 20) % 100000 };

			s->slow++;
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_ring__stress(void)
{
	const char *env = getenv("PULSE_RING_RECORDS");
	struct pulse_ring_model_stats st;
	pthread_t prod, cons;
	struct stress *s;
	__u64 wraps, lost_total;
	double t0, t;
	int err;

	s = calloc(1, sizeof(*s));
	ASSERT_TRUE(s);
	s->nr = env && *env ? strtoull(env, NULL, 0) : STRESS_DEFAULT;
	s->prng = 0x123456789abcdefULL;
	s->crng = 0xfedcba987654321ULL;
	s->pool = malloc(POOL_WORDS * sizeof(__u64));
	s->pa = malloc((POOL_WORDS + 1) * sizeof(__u64));
	s->pb = malloc((POOL_WORDS + 1) * sizeof(__u64));
	ASSERT_TRUE(s->pool && s->pa && s->pb);
	s->pa[0] = s->pb[0] = 0;
	for (__u64 i = 0, r = 42; i < POOL_WORDS; i++) {
		s->pool[i] = xorshift(&r);
		s->pa[i + 1] = s->pa[i] + s->pool[i];
		s->pb[i + 1] = s->pb[i] + i * s->pool[i];
	}
	s->rm = ring_model_new(STRESS_RING, false);
	ASSERT_TRUE(s->rm);
	pulse_ring_model__set_id(s->rm, STRESS_ID);
	pulse_ring_model__set_irq(s->rm, stress_irq, s);
	ASSERT_EQ(pulse_mmap__init_mem(&s->m, pulse_ring_model__base(s->rm), PAGE, STRESS_RING,
				       false), 0);

	t0 = now();
	err = pthread_create(&cons, NULL, stress_consumer, s);
	ASSERT_EQ(err, 0);
	err = pthread_create(&prod, NULL, stress_producer, s);
	if (err) {
		stress_fail(s, "pthread_create: %d", err);
		pthread_join(cons, NULL);
	} else {
		pthread_join(prod, NULL);
		pthread_join(cons, NULL);
	}
	t = now() - t0;

	pulse_ring_model__stats(s->rm, &st);
	lost_total = pulse_ring_model__lost(s->rm);
	wraps = pulse_ring_model__head(s->rm) / STRESS_RING;
	printf("# stress: %llu records produced (%llu nested: %llu mid-copy, %llu at reserve, "
	       "%llu at publish), %llu received, %llu lost in %llu LOST records\n",
	       (unsigned long long)s->attempts,
	       (unsigned long long)(s->nest_copy + s->nest_reserve + s->nest_publish),
	       (unsigned long long)s->nest_copy, (unsigned long long)s->nest_reserve,
	       (unsigned long long)s->nest_publish, (unsigned long long)s->received,
	       (unsigned long long)s->lost_seen, (unsigned long long)s->lost_records);
	printf("# stress: %llu wraps of %d KiB, %llu batches (%llu via iovec), %llu slow pauses, "
	       "%llu reserve retries, %llu publish retries, %.2f s, %.0f MB/s\n",
	       (unsigned long long)wraps, STRESS_RING / 1024, (unsigned long long)s->batches,
	       (unsigned long long)s->iov_batches, (unsigned long long)s->slow,
	       (unsigned long long)st.reserve_retries, (unsigned long long)st.publish_retries, t,
	       pulse_ring_model__head(s->rm) / t / 1e6);
	if (s->err_set)
		printf("#   %s\n", s->err);

	ASSERT_TRUE(!s->err_set);
	ASSERT_TRUE(s->end_seen);
	ASSERT_EQ(s->m.lost_bytes, 0);
	ASSERT_EQ(s->received, s->written);
	ASSERT_EQ(s->received + s->lost_seen, s->attempts);
	ASSERT_EQ(s->lost_seen, lost_total);
	ASSERT_EQ(s->lost_records, st.lost_records);
	if (s->nr >= 100000) {
		/* Every path was taken. */
		ASSERT_TRUE(s->lost_seen > 0);
		ASSERT_TRUE(s->nest_copy > 0 && s->nest_reserve > 0 && s->nest_publish > 0);
		ASSERT_TRUE(st.reserve_retries > 0 && st.publish_retries > 0);
		ASSERT_TRUE(wraps > 1000);
	}
	pulse_mmap__munmap(&s->m);
	pulse_ring_model__delete(s->rm);
	free(s->pool);
	free(s->pa);
	free(s->pb);
	free(s);
}

TEST_MAIN(TEST(test_ring__single_record),
	  TEST(test_ring__record_at_end_and_wrapping),
	  TEST(test_ring__header_in_last_8_bytes),
	  TEST(test_ring__empty_batch),
	  TEST(test_ring__bad_header_size),
	  TEST(test_ring__reader_fell_behind),
	  TEST(test_ring__batch_iov),
	  TEST(test_ring__lost_record),
	  TEST(test_ring__nested_writers),
	  TEST(test_ring__backward_wrapped),
	  TEST(test_ring__real_mapping),
	  TEST(test_ring__stress))
