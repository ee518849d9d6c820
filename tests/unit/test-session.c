// SPDX-License-Identifier: GPL-2.0
/*
 * The session's walk (lib/session/session.c) over a pipe-format image built
 * byte by byte: every record reaches the read callback in file order, user
 * records the user callback in file order, kernel records the sample and
 * event callbacks in time order (a pipe is always ordered) with the
 * side-band applied to the machine before the samples after it; a tool
 * asking for file order gets file order; a synthesized record delivered
 * from a callback arrives right there; event names follow perf's rule.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>
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

/* pipe header, one cpu-clock attr sampling ip, tid, time, period; sample_id_all */
static void build_start(void)
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
	put64(7);	/* its id */
}

static void sample(uint32_t tid, uint64_t time, uint64_t period)
{
	header(PERF_RECORD_SAMPLE, 8 + 32);
	put64(0x1000 + time);
	put32(tid);
	put32(tid);
	put64(time);
	put64(period);
}

/* COMM: pid, tid, name (8 bytes with its NUL), then the sample_id (tid, time) */
static void comm(uint32_t tid, const char name[8], uint64_t time)
{
	header(PERF_RECORD_COMM, 8 + 8 + 8 + 16);
	put32(tid);
	put32(tid);
	put(name, 8);
	put32(tid);
	put32(tid);
	put64(time);
}

static void round_end(void)
{
	header(PERF_RECORD_FINISHED_ROUND, 8);
}

/* the stream: COMM t=5, SAMPLE t=30, SAMPLE t=10, ROUND, SAMPLE t=20 */
static void build(void)
{
	build_start();
	comm(42, "alpha\0\0", 5);
	sample(42, 30, 1);
	sample(42, 10, 1);
	round_end();
	sample(42, 20, 1);
}

struct log {
	int nr_read, nr_user, nr_sample, nr_event;
	uint32_t user_types[8];
	uint64_t times[8];		/* samples' times, in delivery order */
	uint64_t periods[8];
	char comm_at_sample[32];	/* thread 42's comm when the first sample came */
	bool inject;			/* deliver a synthesized sample after t=10 */
	int synth_err;
};

static uint64_t field(const struct perf_event_header *rec, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)rec + off, 8);
	return v;
}

static int on_read(struct pulse_session *s, const struct perf_event_header *rec, uint64_t off,
		   void *arg)
{
	((struct log *)arg)->nr_read++;
	return 0;
}

static int on_user(struct pulse_session *s, const struct perf_event_header *rec, uint64_t off,
		   void *arg)
{
	struct log *l = arg;

	if (l->nr_user < 8)
		l->user_types[l->nr_user] = rec->type;
	l->nr_user++;
	return 0;
}

static int on_sample(struct pulse_session *s, const struct perf_event_header *rec, uint64_t off,
		     void *arg)
{
	struct log *l = arg;

	if (!l->nr_sample) {
		struct pulse_addr_loc al;

		if (!pulse_machine__resolve(pulse_session__machine(s), 42, 42,
					    PERF_RECORD_MISC_USER, 0x1000, &al))
			snprintf(l->comm_at_sample, sizeof(l->comm_at_sample), "%s",
				 al.thread->comm);
	}
	if (l->nr_sample < 8) {
		l->times[l->nr_sample] = field(rec, 8 + 16);
		l->periods[l->nr_sample] = field(rec, 8 + 24);
	}
	l->nr_sample++;
	if (l->inject && field(rec, 8 + 16) == 10) {
		/* a decoder's sample: same layout, period 999 */
		struct {
			struct perf_event_header h;
			uint64_t ip;
			uint32_t pid, tid;
			uint64_t time, period;
		} synth = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(synth) },
			    0x2000, 42, 42, 11, 999 };

		l->synth_err = pulse_session__deliver_synth(s, &synth.h);
	}
	return 0;
}

static int walk(struct log *l, bool file_order, bool default_event)
{
	struct pulse_tool tool = {
		.read = on_read,
		.user = on_user,
		.sample = on_sample,
		.file_order = file_order,
	};
	struct pulse_symbol_opts sym = { .sz = sizeof(sym), .no_vdso = true };
	struct pulse_session *s;
	int err;

	err = pulse_session__new_mem(&s, img, img_len, NULL);
	if (err)
		return err;
	err = pulse_session__init_machine(s, default_event ? &sym : NULL);
	if (!err)
		err = pulse_session__process(s, &tool, l);
	pulse_session__delete(s);
	return err;
}

static void test_session__time_order_and_side_band(void)
{
	struct log l = { 0 };

	build();
	ASSERT_EQ(walk(&l, false, true), 0);
	ASSERT_EQ(l.nr_read, 6);		/* ATTR, COMM, 3 SAMPLE, ROUND */
	ASSERT_EQ(l.nr_user, 2);
	ASSERT_EQ(l.user_types[0], PERF_RECORD_HEADER_ATTR);
	ASSERT_EQ(l.user_types[1], PERF_RECORD_FINISHED_ROUND);
	ASSERT_EQ(l.nr_sample, 3);
	ASSERT_EQ(l.times[0], 10);
	ASSERT_EQ(l.times[1], 20);
	ASSERT_EQ(l.times[2], 30);
	/* the COMM (t=5) was applied before the first sample (t=10) */
	ASSERT_STREQ(l.comm_at_sample, "alpha");
}

static void test_session__file_order(void)
{
	struct log l = { 0 };

	build();
	ASSERT_EQ(walk(&l, true, false), 0);
	ASSERT_EQ(l.nr_sample, 3);
	ASSERT_EQ(l.times[0], 30);
	ASSERT_EQ(l.times[1], 10);
	ASSERT_EQ(l.times[2], 20);
}

static void test_session__deliver_synth(void)
{
	struct log l = { .inject = true };

	build();
	ASSERT_EQ(walk(&l, false, false), 0);
	ASSERT_EQ(l.synth_err, 0);
	ASSERT_EQ(l.nr_sample, 4);
	ASSERT_EQ(l.times[0], 10);
	ASSERT_EQ(l.times[1], 11);
	ASSERT_EQ(l.periods[1], 999);
	ASSERT_EQ(l.times[2], 20);
}

static void test_session__event_name_and_no_walk(void)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 };
	struct pulse_session *s;
	char buf[64];

	build();
	ASSERT_EQ(pulse_session__new_mem(&s, img, img_len, NULL), 0);
	/* a pipe's attrs come as it is read; perf names an attr excluding neither host nor guest :HG */
	ASSERT_EQ(pulse_session__process(s, &(struct pulse_tool){ 0 }, NULL), 0);
	ASSERT_STREQ(pulse_session__event_name(s, 0, buf, sizeof(buf)), "cpu-clock:HG");
	ASSERT_STREQ(pulse_session__event_name(s, 5, buf, sizeof(buf)), "unknown");
	ASSERT_EQ(pulse_session__deliver_synth(s, &h), -EINVAL);
	ASSERT_TRUE(!pulse_session__has_tracepoints(s));
	pulse_session__delete(s);
}

static void test_session__empty_and_bad_input(void)
{
	struct pulse_session *s = (struct pulse_session *)1;

	ASSERT_EQ(pulse_session__new_mem(&s, img, 0, NULL), -ENODATA);
	ASSERT_TRUE(s == NULL);
	ASSERT_EQ(pulse_session__new_mem(&s, "NOTPERF!xxxxxxxx", 16, NULL), -EBADMSG);
	pulse_session__delete(NULL);
}

TEST_MAIN(TEST(test_session__time_order_and_side_band), TEST(test_session__file_order),
	  TEST(test_session__deliver_synth), TEST(test_session__event_name_and_no_walk),
	  TEST(test_session__empty_and_bad_input))
