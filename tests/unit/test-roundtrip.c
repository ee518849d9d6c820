// SPDX-License-Identifier: GPL-2.0
/*
 * Write -> read round trips of every record type through the library: one
 * record of each kernel type (with its sample_id trailer, for two attrs
 * whose trailers differ) and of each user type perf writes, through the
 * writer in file and in pipe mode, read back with the reader: same bytes,
 * same order, routed to the right attr, trailer fields intact (simpleperf's
 * record_file_test does the same).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include "test.h"

#define MAX_RECS 64

struct rec {
	unsigned char b[512];
	size_t len;		/* header.size */
	size_t extra;		/* out-of-band payload after it (AUXTRACE) */
	int attr;		/* -1: no trailer */
};

static struct rec recs[MAX_RECS];
static int nr_recs;
static const __u64 ids0[] = { 100, 101 }, ids1[] = { 200 };
static struct pulse_data_attr attrs[2];

#define ST0 (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
#define ST1 (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

static void put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->len, p, n);
	r->len += n;
}

static void put64(struct rec *r, __u64 v) { put(r, &v, 8); }
static void put32(struct rec *r, __u32 v) { put(r, &v, 4); }

static void put_str(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) & ~(size_t)7;

	memset(r->b + r->len, 0, pad);
	memcpy(r->b + r->len, s, n);
	r->len += pad;
}

/* Start a record: header filled in by end_rec. */
static struct rec *begin(void)
{
	struct rec *r = &recs[nr_recs++];

	memset(r, 0, sizeof(*r));
	r->len = 8;
	r->attr = -1;
	return r;
}

static void end_rec(struct rec *r, __u32 type, __u16 misc, int attr)
{
	struct perf_event_header h = { type, misc, 0 };
	__u64 seq = (__u64)(r - recs);

	r->attr = attr;
	if (attr == 0) {	/* pid,tid time cpu,res identifier */
		put32(r, 1000 + seq);
		put32(r, 2000 + seq);
		put64(r, 5000 + seq);
		put32(r, 1);
		put32(r, 0);
		put64(r, ids0[1]);
	} else if (attr == 1) {	/* pid,tid time identifier */
		put32(r, 1000 + seq);
		put32(r, 2000 + seq);
		put64(r, 5000 + seq);
		put64(r, ids1[0]);
	}
	h.size = (__u16)r->len;
	memcpy(r->b, &h, 8);
}

static void build_records(void)
{
	struct rec *r;
	int a = 0;

	nr_recs = 0;
	/* kernel record types, alternating the two attrs' trailers */
#define K(type, ...) do { r = begin(); __VA_ARGS__; end_rec(r, type, PERF_RECORD_MISC_USER, a); a ^= 1; } while (0)
	K(PERF_RECORD_MMAP, { put32(r, 1); put32(r, 1); put64(r, 0x400000); put64(r, 0x1000);
			      put64(r, 0); put_str(r, "/bin/true"); });
	K(PERF_RECORD_LOST, { put64(r, ids0[0]); put64(r, 17); });
	K(PERF_RECORD_COMM, { put32(r, 1); put32(r, 1); put_str(r, "comm-name"); });
	K(PERF_RECORD_EXIT, { put32(r, 2); put32(r, 1); put32(r, 2); put32(r, 1); put64(r, 9); });
	K(PERF_RECORD_THROTTLE, { put64(r, 9); put64(r, ids0[0]); put64(r, ids0[0]); });
	K(PERF_RECORD_UNTHROTTLE, { put64(r, 10); put64(r, ids0[0]); put64(r, ids0[0]); });
	K(PERF_RECORD_FORK, { put32(r, 3); put32(r, 1); put32(r, 3); put32(r, 1); put64(r, 11); });
	K(PERF_RECORD_READ, { put32(r, 3); put32(r, 3); put64(r, 42); put64(r, ids0[0]); put64(r, 0); });
	K(PERF_RECORD_MMAP2, { put32(r, 1); put32(r, 1); put64(r, 0x7f0000); put64(r, 0x2000);
			       put64(r, 0x1000); put32(r, 8); put32(r, 1); put64(r, 1234); put64(r, 0);
			       put32(r, 5); put32(r, 2); put_str(r, "/lib/libc.so.6"); });
	K(PERF_RECORD_AUX, { put64(r, 0); put64(r, 4096); put64(r, 1); });
	K(PERF_RECORD_ITRACE_START, { put32(r, 1); put32(r, 1); });
	K(PERF_RECORD_LOST_SAMPLES, { put64(r, 5); });
	K(PERF_RECORD_SWITCH, { ; });
	K(PERF_RECORD_SWITCH_CPU_WIDE, { put32(r, 7); put32(r, 8); });
	K(PERF_RECORD_NAMESPACES, { put32(r, 1); put32(r, 1); put64(r, 1); put64(r, 3); put64(r, 4026531836ULL); });
	K(PERF_RECORD_KSYMBOL, { put64(r, 0xffffffffc0000000ULL); put32(r, 64);
				 __u16 t = 1, f = 0; put(r, &t, 2); put(r, &f, 2); put_str(r, "bpf_prog_x"); });
	K(PERF_RECORD_BPF_EVENT, { __u16 t = 1, f = 0; put(r, &t, 2); put(r, &f, 2); put32(r, 12);
				   put64(r, 0x0102030405060708ULL); });
	K(PERF_RECORD_CGROUP, { put64(r, 1); put_str(r, "/"); });
	K(PERF_RECORD_TEXT_POKE, { put64(r, 0xffffffff81000000ULL);
				   __u16 o = 2, n = 2; put(r, &o, 2); put(r, &n, 2);
				   put32(r, 0x90909090); });
	K(PERF_RECORD_AUX_OUTPUT_HW_ID, { put64(r, 3); });
	/* a SAMPLE of each attr: identifier first */
	r = begin();
	put64(r, ids0[0]); put64(r, 0x401000); put32(r, 7); put32(r, 8); put64(r, 123);
	put32(r, 1); put32(r, 0); put64(r, 250000); put64(r, 2); put64(r, (__u64)-512);
	put64(r, 0x401000); put32(r, 12); put64(r, 0x1122334455667788ULL); put32(r, 0xaabbccdd);
	{ struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (__u16)r->len };
	  memcpy(r->b, &h, 8); r->attr = 0; }
	r = begin();
	put64(r, ids1[0]); put32(r, 9); put32(r, 10); put64(r, 124);
	{ struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (__u16)r->len };
	  memcpy(r->b, &h, 8); r->attr = 1; }
	/* user types (no trailer) */
#define U(type, ...) do { r = begin(); __VA_ARGS__; end_rec(r, type, 0, -1); } while (0)
	U(PERF_RECORD_FINISHED_ROUND, { ; });
	U(PERF_RECORD_ID_INDEX, { put64(r, 1); put64(r, ids0[0]); put64(r, 0); put64(r, 0); put64(r, 1); });
	U(PERF_RECORD_AUXTRACE_INFO, { put32(r, 1); put32(r, 0); put64(r, 7); });
	U(PERF_RECORD_AUXTRACE, { put64(r, 16); put64(r, 0); put64(r, 1); put32(r, 0); put32(r, 1);
				  put32(r, 0); put32(r, 0); });
	recs[nr_recs - 1].extra = 16;
	U(PERF_RECORD_AUXTRACE_ERROR, { put32(r, 1); put32(r, 2); put32(r, 0); put32(r, 1);
					put32(r, 1); put32(r, 0); put64(r, 0x400000); put64(r, 5);
					char msg[64] = "decoder error"; put(r, msg, 64); put32(r, 0); put32(r, 0); });
	U(PERF_RECORD_THREAD_MAP, { put64(r, 1); put64(r, 1); char c[16] = "init"; put(r, c, 16); });
	U(PERF_RECORD_CPU_MAP, { __u16 v[4] = { 0, 2, 0, 1 }; put(r, v, 8); });
	U(PERF_RECORD_EVENT_UPDATE, { put64(r, 2); put64(r, ids0[0]); put_str(r, "cpu-clock"); });
	U(PERF_RECORD_TIME_CONV, { put64(r, 10); put64(r, 20); put64(r, 30); put64(r, 0);
				   put64(r, 0); put64(r, 0); });
	U(PERF_RECORD_FINISHED_INIT, { ; });
}

static int tmp_fd(char *path)
{
	strcpy(path, "/tmp/pulse-rt-XXXXXX");
	return mkstemp(path);
}

static int write_all_records(int fd, bool pipe)
{
	struct pulse_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe };
	struct pulse_data_writer *w;
	static const unsigned char payload[16] = "aux trace bytes";

	memset(attrs, 0, sizeof(attrs));
	attrs[0].attr.size = sizeof(attrs[0].attr);
	attrs[0].attr.sample_type = ST0;
	attrs[0].attr.sample_id_all = 1;
	attrs[0].ids = ids0;
	attrs[0].nr_ids = 2;
	attrs[1].attr.size = sizeof(attrs[1].attr);
	attrs[1].attr.config = PERF_COUNT_SW_DUMMY;
	attrs[1].attr.sample_type = ST1;
	attrs[1].attr.sample_id_all = 1;
	attrs[1].ids = ids1;
	attrs[1].nr_ids = 1;
	if (pulse_data_writer__new(&w, fd, attrs, 2, &o))
		return -1;
	for (int i = 0; i < nr_recs; i++) {
		if (pulse_data_writer__write(w, recs[i].b, recs[i].len))
			return -1;
		if (recs[i].extra && pulse_data_writer__write(w, payload, recs[i].extra))
			return -1;
	}
	if (pulse_data_writer__finish(w))
		return -1;
	pulse_data_writer__delete(w);
	return 0;
}

struct check {
	int next;
	int bad;
	char why[256];
};

static int check_cb(struct pulse_data *d, const struct perf_event_header *h, __u64 off, void *arg)
{
	struct check *c = arg;
	struct rec *r;
	struct pulse_sample s;
	int attr;

	if (h->type == PERF_RECORD_HEADER_ATTR || h->type == PERF_RECORD_HEADER_FEATURE)
		return 0; /* pipe-mode prologue */
	if (c->next >= nr_recs) {
		snprintf(c->why, sizeof(c->why), "extra record type %u", h->type);
		c->bad = 1;
		return 1;
	}
	r = &recs[c->next];
	if (h->size != r->len || memcmp(h, r->b, r->len)) {
		snprintf(c->why, sizeof(c->why), "record %d (type %u) differs", c->next, h->type);
		c->bad = 1;
		return 1;
	}
	if (r->attr >= 0) {
		attr = pulse_data__attr_of(d, h, h->size);
		if (attr != r->attr) {
			snprintf(c->why, sizeof(c->why), "record %d routed to attr %d, not %d",
				 c->next, attr, r->attr);
			c->bad = 1;
			return 1;
		}
		if (pulse_sample__parse(h, h->size, pulse_data__attr(d, attr), &s) ||
		    s.id != (attr ? ids1[0] : (h->type == PERF_RECORD_SAMPLE ? ids0[0] : ids0[1])) ||
		    (h->type != PERF_RECORD_SAMPLE &&
		     (s.pid != 1000 + (__u32)c->next || s.tid != 2000 + (__u32)c->next ||
		      s.time != 5000 + (__u64)c->next))) {
			snprintf(c->why, sizeof(c->why), "record %d: sample_id fields wrong", c->next);
			c->bad = 1;
			return 1;
		}
		if (h->type == PERF_RECORD_SAMPLE && attr == 0 &&
		    (s.ip != 0x401000 || s.period != 250000 || s.callchain_nr != 2 || s.raw_size != 12)) {
			snprintf(c->why, sizeof(c->why), "sample fields wrong");
			c->bad = 1;
			return 1;
		}
	}
	c->next++;
	return 0;
}

static void round_trip(bool pipe)
{
	struct pulse_data *d = NULL;
	struct check c = { 0 };
	char path[64];
	int fd = tmp_fd(path);

	build_records();
	ASSERT_EQ(write_all_records(fd, pipe), 0);
	close(fd);
	ASSERT_EQ(pulse_data__open(&d, path), 0);
	ASSERT_EQ(pulse_data__nr_attrs(d), 2);
	ASSERT_EQ(pulse_data__attr(d, 1)->config, PERF_COUNT_SW_DUMMY);
	ASSERT_EQ(pulse_data__for_each_record(d, check_cb, &c), 0);
	pulse_data__close(d);
	unlink(path);
	if (c.bad)
		TEST_FAIL("%s", c.why);
	ASSERT_EQ(c.next, nr_recs);
}

static void test_roundtrip__every_type_file_mode(void)
{
	round_trip(false);
}

static void test_roundtrip__every_type_pipe_mode(void)
{
	round_trip(true);
}

TEST_MAIN(TEST(test_roundtrip__every_type_file_mode), TEST(test_roundtrip__every_type_pipe_mode))
