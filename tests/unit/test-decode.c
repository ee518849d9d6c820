// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the TRACING_DATA parser and tracepoint printing
 * (lib/trace/decode.c): the blobs of the golden perf files in tests/data,
 * a blob built from the fake tracefs with a sched_switch payload whose
 * decoding perf 6.1 prints as checked here, and damaged blobs (every cut
 * and corrupted byte must fail cleanly, never crash).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <pulse/buf.h>
#include <pulse/core.h>
#include <pulse/reader.h>
#include <pulse/trace.h>
#include <pulse/trace-decode.h>
#include "test.h"

static char *data_path(const char *name)
{
	const char *top = getenv("PULSE_TOP");
	char *p;

	if (asprintf(&p, "%s/tests/data/%s", top ? top : ".", name) < 0)
		abort();
	return p;
}

/* Print through the decoder into a string. */
static char *decode(struct pulse_trace *t, struct tep_event *ev, int cpu, const void *raw,
		    size_t size)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	if (!fp)
		abort();
	pulse_trace__fprintf(t, ev, cpu, raw, size, fp);
	fclose(fp);
	return out;
}

static int walk_nothing(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
			void *arg)
{
	return 0;
}

/* The golden file's blob: its tracepoint by the attr's id, and its name. */
static void check_golden(const char *name)
{
	struct pulse_data *d;
	struct pulse_trace *t = NULL;
	const struct perf_event_attr *attr;
	const void *blob = NULL;
	char *path = data_path(name), buf[128];
	size_t len = 0;

	if (pulse_data__open(&d, path))
		TEST_FAIL("cannot open %s", path);
	free(path);
	blob = pulse_data__tracing_data(d, &len);
	ASSERT_TRUE(blob != NULL);
	ASSERT_EQ(pulse_trace__parse(&t, blob, len), 0);
	attr = pulse_data__attr(d, 0);
	ASSERT_EQ(attr->type, PERF_TYPE_TRACEPOINT);
	ASSERT_TRUE(pulse_trace__event(t, attr->config) != NULL);
	ASSERT_STREQ(pulse_trace__event_name(t, attr->config, buf, sizeof(buf)),
		     "syscalls:sys_enter_getppid");
	ASSERT_TRUE(pulse_trace__event_name(t, 999999, buf, sizeof(buf)) == NULL);
	pulse_trace__delete(t);
	pulse_data__close(d);
}

static void test_decode__golden_file(void)
{
	check_golden("perf-tp.data");
}

static void test_decode__golden_pipe(void)
{
	struct pulse_data *d;
	struct pulse_trace *t = NULL;
	const void *blob;
	char *path = data_path("perf-pipe-tp.data"), buf[128];
	size_t len = 0;

	if (pulse_data__open(&d, path))
		TEST_FAIL("cannot open %s", path);
	free(path);
	ASSERT_EQ(pulse_data__for_each_record(d, walk_nothing, NULL), 0);
	blob = pulse_data__tracing_data(d, &len);
	ASSERT_TRUE(blob != NULL);
	ASSERT_EQ(pulse_trace__parse(&t, blob, len), 0);
	ASSERT_STREQ(pulse_trace__event_name(t, pulse_data__attr(d, 0)->config, buf, sizeof(buf)),
		     "syscalls:sys_enter_getppid");
	pulse_trace__delete(t);
	pulse_data__close(d);
}

/* A blob of the fake tracefs with sched_switch (id 372) and sys_enter_getppid. */
static int fake_blob(struct pulse_buf *b)
{
	static const char *const sys[] = { "sched", "syscalls" };
	static const char *const ev[] = { "sched_switch", "sys_enter_getppid" };
	char *dir = data_path("tracefs-fake");
	int err;

	memset(b, 0, sizeof(*b));
	err = pulse_tracing_data__build(b, dir, sys, ev, 2);
	free(dir);
	return err;
}

static void put_switch(unsigned char *raw, const char *prev, int prev_pid, long state,
		       const char *next, int next_pid)
{
	unsigned short type = 372;
	int prio = 120;

	memset(raw, 0, 64);
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &prev_pid, 4);
	strncpy((char *)raw + 8, prev, 16);
	memcpy(raw + 24, &prev_pid, 4);
	memcpy(raw + 28, &prio, 4);
	memcpy(raw + 32, &state, 8);
	strncpy((char *)raw + 40, next, 16);
	memcpy(raw + 56, &next_pid, 4);
	memcpy(raw + 60, &prio, 4);
}

static void test_decode__sched_switch(void)
{
	struct pulse_buf b;
	struct pulse_trace *t = NULL;
	struct tep_event *ev;
	unsigned char raw[64];
	char *s;

	ASSERT_EQ(fake_blob(&b), 0);
	ASSERT_EQ(pulse_trace__parse(&t, b.p, b.len), 0);
	ev = pulse_trace__event(t, 372);
	ASSERT_TRUE(ev != NULL);

	/* what perf 6.1 script prints for these payloads (checked on a real run) */
	put_switch(raw, "perf", 17909, 2, "migration/0", 18);
	s = decode(t, ev, 0, raw, sizeof(raw));
	ASSERT_STREQ(s, "prev_comm=perf prev_pid=17909 prev_prio=120 prev_state=D ==> "
			"next_comm=migration/0 next_pid=18 next_prio=120");
	free(s);
	put_switch(raw, "test-ring", 16994, 0, "swapper/1", 0);
	s = decode(t, ev, 1, raw, sizeof(raw));
	ASSERT_STREQ(s, "prev_comm=test-ring prev_pid=16994 prev_prio=120 prev_state=R ==> "
			"next_comm=swapper/1 next_pid=0 next_prio=120");
	free(s);
	/* a payload cut short reads zeroes, not past the buffer */
	s = decode(t, ev, 1, raw, 30);
	ASSERT_TRUE(s != NULL && strstr(s, "next_pid=0") != NULL);
	free(s);
	pulse_trace__delete(t);
	pulse_buf__release(&b);
}

/* Every truncation and every single-byte corruption: an answer, no crash. */
static void test_decode__damage(void)
{
	struct pulse_buf b;
	struct pulse_trace *t;
	pulse_print_fn_t old = pulse_set_print(NULL);
	unsigned char *copy;
	int bad = 0;

	ASSERT_EQ(fake_blob(&b), 0);
	copy = malloc(b.len);
	for (size_t n = 0; n < b.len; n += 7) {
		memcpy(copy, b.p, n);
		t = NULL;
		if (pulse_trace__parse(&t, copy, n) == 0)
			pulse_trace__delete(t);
		else
			bad++;
	}
	ASSERT_TRUE(bad > 0);
	ASSERT_EQ(pulse_trace__parse(&t, "not a blob", 10), -EBADMSG);
	for (size_t i = 0; i < b.len && i < 200; i++) {
		memcpy(copy, b.p, b.len);
		copy[i] ^= 0xff;
		t = NULL;
		if (pulse_trace__parse(&t, copy, b.len) == 0)
			pulse_trace__delete(t);
	}
	pulse_set_print(old);
	free(copy);
	pulse_buf__release(&b);
}

TEST_MAIN(TEST(test_decode__golden_file),
	  TEST(test_decode__golden_pipe),
	  TEST(test_decode__sched_switch),
	  TEST(test_decode__damage))
