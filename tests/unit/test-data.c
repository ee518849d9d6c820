// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the perf.data reader. The golden files in tests/data were
 * recorded with perf 6.1; the record counts below are what
 * `perf report -D -i FILE` printed for them (properties of the committed
 * files). Damage is made in memory from those files: cuts at every record
 * boundary and inside records, flipped bytes, broken headers, and a
 * recorder "killed" before its final header. Synthetic files check what
 * perf happened not to produce: other attr sizes, unaligned records,
 * out-of-band payloads, zstd frames split across records, and write→read
 * round trips through pulse_data_writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <pulse/core.h>
#include <pulse/reader.h>
#include "test.h"

/* ---- helpers -------------------------------------------------------------- */

#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN8(x) (((x) + 7) & ~(size_t)7)
/* memcmp() must not see NULL, even for 0 bytes */
#define ASSERT_PREFIX(a, b, n) do { if (n) ASSERT_MEMEQ(a, b, n); } while (0)

static __u16 get_u16_le(const void *p)
{
	__u16 v;

	memcpy(&v, p, 2);
	return v;
}

static __u64 rd64(const void *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return v;
}

static void wr64(void *p, __u64 v)
{
	memcpy(p, &v, 8);
}

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static char *data_path(const char *name)
{
	const char *top = getenv("PULSE_TOP");
	char *p;

	if (asprintf(&p, "%s/tests/data/%s", top ? top : ".", name) < 0)
		return NULL;
	return p;
}

/* The golden file's bytes, in an 8-aligned buffer with slack for edits. */
static unsigned char *load(const char *name, size_t *len)
{
	char *path = data_path(name);
	unsigned char *buf = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY);

	free(path);
	if (fd < 0 || fstat(fd, &st))
		goto out;
	buf = calloc(1, st.st_size + 64);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	*len = st.st_size;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

struct rec_info {
	__u64 off;
	__u32 type;
	__u16 size;
	size_t at;		/* where its bytes start in walk.bytes */
};

struct walk {
	unsigned long count[256];
	struct rec_info *recs;
	size_t nr, cap;
	unsigned char *bytes;
	size_t blen, bcap;
	int unaligned;
	int bad_samples;
	int attr_fail;
	unsigned long per_attr[8];
};

static int collect(struct pulse_data *d, const struct perf_event_header *h, __u64 off, void *arg)
{
	struct walk *w = arg;
	struct rec_info *r;

	if ((uintptr_t)h & 7)
		w->unaligned++;
	w->count[h->type < 256 ? h->type : 255]++;
	if (w->nr == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->recs = realloc(w->recs, w->cap * sizeof(*w->recs));
	}
	while (w->blen + h->size > w->bcap) {
		w->bcap = w->bcap ? 2 * w->bcap : 65536;
		w->bytes = realloc(w->bytes, w->bcap);
	}
	r = &w->recs[w->nr++];
	*r = (struct rec_info){ off, h->type, h->size, w->blen };
	memcpy(w->bytes + w->blen, h, h->size);
	w->blen += h->size;

	if (h->type < PERF_RECORD_USER_TYPE_START) {
		int a = pulse_data__attr_of(d, h, h->size);
		struct pulse_sample s;

		if (a < 0) {
			w->attr_fail++;
		} else {
			w->per_attr[a < 8 ? a : 7]++;
			if (pulse_sample__parse(h, h->size, pulse_data__attr(d, a), &s))
				w->bad_samples++;
		}
	}
	return 0;
}

static void walk_free(struct walk *w)
{
	free(w->recs);
	free(w->bytes);
	memset(w, 0, sizeof(*w));
}

/* "type:count type:count ..." must be exactly the per-type counts. */
static int counts_match(const struct walk *w, const char *spec, char *why, size_t whylen)
{
	unsigned long want[256] = { 0 };
	const char *p = spec;
	int t, n, used;

	while (sscanf(p, "%d:%d%n", &t, &n, &used) == 2) {
		want[t] = n;
		p += used;
	}
	for (int i = 0; i < 256; i++) {
		if (want[i] != w->count[i]) {
			snprintf(why, whylen, "type %d: %lu records, expected %lu", i, w->count[i],
				 want[i]);
			return 0;
		}
	}
	return 1;
}

struct golden {
	const char *name;
	bool pipe;
	size_t nr_attrs;
	const char *counts;	/* from perf report -D: "event: N" lines per type */
};

static const struct golden goldens[] = {
	{ "perf-cpuclock.data", false, 1, "1:1 3:2 4:1 9:25 10:4 68:1 69:1 73:1 74:1 82:1" },
	{ "perf-g.data", false, 1, "1:1 3:2 4:1 9:25 10:4 68:1 69:1 73:1 74:1 82:1" },
	{ "perf-tp.data", false, 1, "1:1 3:2 4:1 9:20 10:4 68:1 69:1 73:1 74:1 82:1" },
	{ "perf-2ev.data", false, 2, "1:1 3:2 4:1 9:50 10:4 68:1 69:1 73:1 74:1 78:4 82:1" },
	{ "perf-z.data", false, 1, "1:1 3:2 4:1 9:1189 10:4 68:13 69:1 73:1 74:1 82:1" },
	{ "perf-pipe.data", true, 1,
	  "1:1 3:2 4:1 9:25 10:4 64:1 68:1 69:1 73:1 74:1 78:1 80:19 82:1" },
	{ "perf-pipe-tp.data", true, 1,
	  "1:1 3:2 4:1 9:7 10:4 64:1 66:1 68:1 69:1 73:1 74:1 78:1 80:19 82:1" },
};

/* Walk an in-memory image; returns open's error or the walk's. */
static int walk_mem(const void *buf, size_t len, struct walk *w, struct pulse_data **keep)
{
	struct pulse_data *d;
	int err = pulse_data__open_mem(&d, buf, len);

	if (err)
		return err;
	err = pulse_data__for_each_record(d, collect, w);
	if (keep)
		*keep = d;
	else
		pulse_data__close(d);
	return err;
}

/* ---- golden files ---------------------------------------------------------- */

static void test_data__golden_counts(void)
{
	for (size_t g = 0; g < ARRAY_SIZE_T(goldens); g++) {
		const struct golden *gf = &goldens[g];
		char *path = data_path(gf->name), why[128];
		struct pulse_data *d;
		struct walk w = { 0 }, wm = { 0 };
		unsigned char *buf;
		__u64 bytes, off;
		size_t len;

		ASSERT_EQ(pulse_data__open(&d, path), 0);
		free(path);
		ASSERT_EQ(pulse_data__is_pipe(d), gf->pipe);
		ASSERT_EQ(pulse_data__nr_attrs(d), gf->nr_attrs);
		ASSERT_EQ(pulse_data__for_each_record(d, collect, &w), 0);
		if (!counts_match(&w, gf->counts, why, sizeof(why)))
			TEST_FAIL("%s: %s", gf->name, why);
		ASSERT_EQ(w.unaligned, 0);
		ASSERT_EQ(w.bad_samples, 0);
		ASSERT_EQ(w.attr_fail, 0);
		ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
		ASSERT_TRUE(!pulse_data__recovering(d));

		/* a second walk gives the same, and open_mem the same again */
		walk_free(&w);
		ASSERT_EQ(pulse_data__for_each_record(d, collect, &w), 0);
		ASSERT_EQ(pulse_data__nr_attrs(d), gf->nr_attrs);
		pulse_data__close(d);
		buf = load(gf->name, &len);
		ASSERT_TRUE(buf);
		ASSERT_EQ(walk_mem(buf, len, &wm, NULL), 0);
		ASSERT_EQ(wm.nr, w.nr);
		ASSERT_EQ(wm.blen, w.blen);
		ASSERT_PREFIX(wm.bytes, w.bytes, w.blen);
		walk_free(&w);
		walk_free(&wm);
		free(buf);
	}
}

/* Uncompressed file mode: records tile the data section exactly, in order. */
static void test_data__golden_layout(void)
{
	static const char *const names[] = {
		"perf-cpuclock.data", "perf-g.data", "perf-tp.data", "perf-2ev.data",
	};

	for (size_t i = 0; i < ARRAY_SIZE_T(names); i++) {
		struct walk w = { 0 };
		struct pulse_data *d;
		unsigned char *buf;
		size_t len;
		__u64 pos;

		buf = load(names[i], &len);
		ASSERT_TRUE(buf);
		ASSERT_EQ(walk_mem(buf, len, &w, &d), 0);
		ASSERT_EQ(pulse_data__file_size(d), len);
		ASSERT_EQ(pulse_data__data_offset(d), rd64(buf + 40));
		ASSERT_EQ(pulse_data__data_size(d), rd64(buf + 48));
		pos = pulse_data__data_offset(d);
		for (size_t r = 0; r < w.nr; r++) {
			ASSERT_EQ(w.recs[r].off, pos);
			ASSERT_MEMEQ(w.bytes + w.recs[r].at, buf + pos, w.recs[r].size);
			pos += w.recs[r].size;
		}
		ASSERT_EQ(pos, pulse_data__data_offset(d) + pulse_data__data_size(d));
		pulse_data__close(d);
		walk_free(&w);
		free(buf);
	}
}

/* Field values of particular samples, as perf report -D decodes them. */
static void test_data__golden_samples(void)
{
	const struct perf_event_attr *attr;
	struct pulse_sample s;
	struct walk w = { 0 };
	struct pulse_data *d;
	unsigned char *buf;
	size_t len, r;

	/* perf-cpuclock.data: 0x420 [0x28] 6923/6923: 0x55f1314cf1b6 period: 2004008 */
	buf = load("perf-cpuclock.data", &len);
	ASSERT_EQ(walk_mem(buf, len, &w, &d), 0);
	for (r = 0; r < w.nr && w.recs[r].off != 0x420; r++)
		;
	ASSERT_TRUE(r < w.nr);
	attr = pulse_data__attr(d, 0);
	ASSERT_EQ(attr->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_PERIOD);
	ASSERT_EQ(pulse_sample__parse(w.bytes + w.recs[r].at, w.recs[r].size, attr, &s), 0);
	ASSERT_EQ(s.type, PERF_RECORD_SAMPLE);
	ASSERT_EQ(s.time, 478888561111ULL);
	ASSERT_EQ(s.pid, 6923);
	ASSERT_EQ(s.tid, 6923);
	ASSERT_EQ(s.ip, 0x55f1314cf1b6ULL);
	ASSERT_EQ(s.period, 2004008);
	ASSERT_STREQ(pulse_data__attr_name(d, 0), "cpu-clock:ppp");
	pulse_data__close(d);
	walk_free(&w);
	free(buf);

	/* perf-g.data: 0x420 [0x50], FP chain nr:4 */
	buf = load("perf-g.data", &len);
	ASSERT_EQ(walk_mem(buf, len, &w, &d), 0);
	for (r = 0; r < w.nr && w.recs[r].off != 0x420; r++)
		;
	ASSERT_TRUE(r < w.nr);
	ASSERT_EQ(pulse_sample__parse(w.bytes + w.recs[r].at, w.recs[r].size,
				      pulse_data__attr(d, 0), &s), 0);
	ASSERT_EQ(s.pid, 6927);
	ASSERT_EQ(s.callchain_nr, 4);
	ASSERT_EQ(rd64(s.callchain), 0xfffffffffffffe00ULL);	/* PERF_CONTEXT_USER */
	ASSERT_EQ(rd64((const char *)s.callchain + 8), 0x5615c34381b6ULL);
	ASSERT_EQ(rd64((const char *)s.callchain + 24), 0x7f22803fc24aULL);
	pulse_data__close(d);
	walk_free(&w);
	free(buf);

	/* perf-tp.data: 0x460 [0x48], raw sys_enter_getppid: common_type 305, nr 110 */
	buf = load("perf-tp.data", &len);
	ASSERT_EQ(walk_mem(buf, len, &w, &d), 0);
	for (r = 0; r < w.nr && w.recs[r].off != 0x460; r++)
		;
	ASSERT_TRUE(r < w.nr);
	ASSERT_EQ(pulse_sample__parse(w.bytes + w.recs[r].at, w.recs[r].size,
				      pulse_data__attr(d, 0), &s), 0);
	ASSERT_EQ(s.time, 481125358797ULL);
	ASSERT_EQ(s.pid, 6988);
	ASSERT_EQ(s.period, 1);
	ASSERT_EQ(s.raw_size, 20);
	ASSERT_EQ(((const unsigned char *)s.raw)[0] | ((const unsigned char *)s.raw)[1] << 8, 305);
	ASSERT_EQ(rd64((const char *)s.raw + 8), 110);		/* __NR_getppid */
	ASSERT_EQ(pulse_data__attr(d, 0)->config, 305);
	ASSERT_STREQ(pulse_data__attr_name(d, 0), "syscalls:sys_enter_getppid");
	pulse_data__close(d);
	walk_free(&w);
	free(buf);
}

/* Two events: names, ids and the routing of every record by its id. */
static void test_data__golden_two_events(void)
{
	const __u64 *ids0, *ids1;
	struct walk w = { 0 };
	struct pulse_data *d;
	unsigned char *buf;
	size_t len, n0, n1;

	buf = load("perf-2ev.data", &len);
	ASSERT_EQ(walk_mem(buf, len, &w, &d), 0);
	ASSERT_STREQ(pulse_data__attr_name(d, 0), "cpu-clock");
	ASSERT_STREQ(pulse_data__attr_name(d, 1), "task-clock");
	ASSERT_EQ(pulse_data__attr(d, 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	ids0 = pulse_data__attr_ids(d, 0, &n0);
	ids1 = pulse_data__attr_ids(d, 1, &n1);
	ASSERT_EQ(n0, 2);
	ASSERT_EQ(n1, 2);
	ASSERT_EQ(pulse_data__attr_of_id(d, ids0[1]), 0);
	ASSERT_EQ(pulse_data__attr_of_id(d, ids1[0]), 1);
	ASSERT_EQ(pulse_data__attr_of_id(d, 0xdeadbeef), -ENOENT);
	ASSERT_TRUE(pulse_data__attr_ids(d, 2, &n0) == NULL && n0 == 0);
	ASSERT_TRUE(pulse_data__attr(d, 2) == NULL);

	/* perf script -F event says 25 samples each; each id belongs to its attr */
	{
		unsigned long per[2] = { 0, 0 };

		for (size_t r = 0; r < w.nr; r++) {
			const unsigned char *rec = w.bytes + w.recs[r].at;
			struct pulse_sample s;
			size_t nr;
			const __u64 *ids;
			int a;

			if (w.recs[r].type != PERF_RECORD_SAMPLE)
				continue;
			a = pulse_data__attr_of(d, rec, w.recs[r].size);
			ASSERT_TRUE(a == 0 || a == 1);
			per[a]++;
			ASSERT_EQ(pulse_sample__parse(rec, w.recs[r].size, pulse_data__attr(d, a), &s), 0);
			ids = pulse_data__attr_ids(d, a, &nr);
			ASSERT_TRUE(s.id == ids[0] || s.id == ids[1]);
		}
		ASSERT_EQ(per[0], 25);
		ASSERT_EQ(per[1], 25);
	}

	/* a SAMPLE with an unknown id, with id 0, and one too short for its id */
	{
		unsigned char rec[48];
		int off = pulse_sample__id_offset(pulse_data__attr(d, 0)->sample_type, true);
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };

		memset(rec, 0, sizeof(rec));
		memcpy(rec, &h, sizeof(h));
		ASSERT_EQ(off, 32);
		wr64(rec + off, 0x12345678);
		ASSERT_EQ(pulse_data__attr_of(d, rec, sizeof(rec)), -ENOENT);
		wr64(rec + off, 0);
		ASSERT_EQ(pulse_data__attr_of(d, rec, sizeof(rec)), 0);
		wr64(rec + off, ids1[1]);
		ASSERT_EQ(pulse_data__attr_of(d, rec, sizeof(rec)), 1);
		ASSERT_EQ(pulse_data__attr_of(d, rec, 24), -EBADMSG);
		h.size = 32;
		memcpy(rec, &h, sizeof(h));
		ASSERT_EQ(pulse_data__attr_of(d, rec, sizeof(rec)), -EBADMSG);
		/* user records carry no id */
		h.type = PERF_RECORD_FINISHED_ROUND;
		h.size = 8;
		memcpy(rec, &h, sizeof(h));
		ASSERT_EQ(pulse_data__attr_of(d, rec, 8), 0);
	}
	pulse_data__close(d);
	walk_free(&w);
	free(buf);
}

static void test_data__golden_features(void)
{
	struct pulse_data *d, *p;
	const char *s;
	char *path;
	size_t len, plen;
	const void *t, *pt;

	path = data_path("perf-tp.data");
	ASSERT_EQ(pulse_data__open(&d, path), 0);
	free(path);
	ASSERT_TRUE(pulse_data__has_feat(d, PULSE_FEAT_TRACING_DATA));
	ASSERT_TRUE(pulse_data__has_feat(d, PULSE_FEAT_HOSTNAME));
	ASSERT_TRUE(!pulse_data__has_feat(d, PULSE_FEAT_COMPRESSED));
	ASSERT_TRUE(!pulse_data__has_feat(d, 0));
	ASSERT_TRUE(!pulse_data__has_feat(d, 300));
	ASSERT_TRUE(pulse_data__feat(d, PULSE_FEAT_COMPRESSED, &len) == NULL && len == 0);
	t = pulse_data__tracing_data(d, &len);
	ASSERT_TRUE(t);
	ASSERT_EQ(len, 5189);
	ASSERT_MEMEQ(t, "\027\010\104tracing", 10);	/* perf's tracing data magic */
	s = pulse_data__feat(d, PULSE_FEAT_OSRELEASE, &len);
	ASSERT_EQ(len, 68);
	ASSERT_EQ(rd64(s) & 0xffffffff, 64);		/* perf_header_string: u32 len */
	ASSERT_TRUE(!strncmp(s + 4, "6.", 2));

	/* the same kernel recorded the pipe file: same OSRELEASE payload */
	path = data_path("perf-pipe-tp.data");
	ASSERT_EQ(pulse_data__open(&p, path), 0);
	free(path);
	ASSERT_TRUE(pulse_data__has_feat(p, PULSE_FEAT_OSRELEASE));
	ASSERT_TRUE(!pulse_data__has_feat(p, PULSE_FEAT_TRACING_DATA));
	pt = pulse_data__feat(p, PULSE_FEAT_OSRELEASE, &plen);
	ASSERT_EQ(plen, len);
	ASSERT_MEMEQ(pt, s, len);
	/* the in-band payload is available before walking */
	pt = pulse_data__tracing_data(p, &plen);
	ASSERT_TRUE(pt);
	ASSERT_EQ(plen, 5192);
	ASSERT_MEMEQ(pt, "\027\010\104tracing", 10);
	ASSERT_STREQ(pulse_data__attr_name(p, 0), "syscalls:sys_enter_getppid");
	ASSERT_EQ(pulse_data__data_offset(p), 16);
	pulse_data__close(p);
	pulse_data__close(d);

	path = data_path("perf-z.data");
	ASSERT_EQ(pulse_data__open(&d, path), 0);
	free(path);
	s = pulse_data__feat(d, PULSE_FEAT_COMPRESSED, &len);
	ASSERT_EQ(len, 20);
	ASSERT_EQ(rd64(s + 4) & 0xffffffff, 1);		/* type 1: zstd */
	pulse_data__close(d);
}

/* ---- streams ------------------------------------------------------------------ */

struct feeder {
	int fd;
	const unsigned char *buf;
	size_t len;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	size_t done = 0, step = 1;

	/* odd chunk sizes so that records straddle reads */
	while (done < f->len) {
		size_t n = f->len - done < step ? f->len - done : step;
		ssize_t r = write(f->fd, f->buf + done, n);

		if (r <= 0)
			break;
		done += r;
		step = step * 7 % 9973 + 1;
	}
	close(f->fd);
	return NULL;
}

/* Read @len bytes of @buf through a real pipe. */
static int walk_stream(const unsigned char *buf, size_t len, struct walk *w, struct pulse_data **keep)
{
	struct feeder f = { .buf = buf, .len = len };
	struct pulse_data *d;
	pthread_t th;
	char path[64];
	int fds[2], err;

	if (pipe(fds))
		return -errno;
	f.fd = fds[1];
	pthread_create(&th, NULL, feed, &f);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	err = pulse_data__open(&d, path);
	if (!err) {
		err = pulse_data__for_each_record(d, collect, w);
		if (keep)
			*keep = d;
		else
			pulse_data__close(d);
	}
	/* the reader stops early on damage: drain so the feeder can finish */
	{
		char sink[4096];

		while (read(fds[0], sink, sizeof(sink)) > 0)
			;
	}
	pthread_join(th, NULL);
	close(fds[0]);
	return err;
}

static void test_data__pipe_stream(void)
{
	static const char *const names[] = { "perf-pipe.data", "perf-pipe-tp.data" };

	for (size_t i = 0; i < ARRAY_SIZE_T(names); i++) {
		struct walk ws = { 0 }, wm = { 0 };
		struct pulse_data *d, *m;
		unsigned char *buf;
		size_t len, tl, ml;
		const void *t, *mt;
		__u64 bytes, off;

		buf = load(names[i], &len);
		ASSERT_TRUE(buf);
		ASSERT_EQ(walk_mem(buf, len, &wm, &m), 0);
		ASSERT_EQ(walk_stream(buf, len, &ws, &d), 0);
		ASSERT_TRUE(pulse_data__is_pipe(d));
		ASSERT_EQ(ws.nr, wm.nr);
		ASSERT_EQ(ws.blen, wm.blen);
		ASSERT_PREFIX(ws.bytes, wm.bytes, wm.blen);
		for (size_t r = 0; r < ws.nr; r++)
			ASSERT_EQ(ws.recs[r].off, wm.recs[r].off);
		ASSERT_EQ(ws.unaligned, 0);
		ASSERT_EQ(pulse_data__file_size(d), len);
		ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
		t = pulse_data__tracing_data(d, &tl);
		mt = pulse_data__tracing_data(m, &ml);
		ASSERT_EQ(tl, ml);
		if (tl)
			ASSERT_MEMEQ(t, mt, tl);
		/* a stream is walked once: a second walk delivers nothing more */
		walk_free(&ws);
		ASSERT_EQ(pulse_data__for_each_record(d, collect, &ws), 0);
		ASSERT_EQ(ws.nr, 0);
		pulse_data__close(d);

		/* cut in the middle of the 10th record from the end */
		walk_free(&ws);
		{
			size_t r = wm.nr - 10;
			size_t cut = wm.recs[r].off + wm.recs[r].size / 2;

			ASSERT_EQ(walk_stream(buf, cut, &ws, &d), 0);
			ASSERT_EQ(ws.nr, r);
			ASSERT_PREFIX(ws.bytes, wm.bytes, ws.blen);
			ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
			ASSERT_EQ(off, wm.recs[r].off);
			ASSERT_EQ(bytes, cut - off);
			pulse_data__close(d);
		}
		pulse_data__close(m);
		walk_free(&ws);
		walk_free(&wm);
		free(buf);
	}

	/* an empty stream, and a file-mode file on a stream */
	{
		struct walk w = { 0 };
		unsigned char *buf;
		size_t len;

		ASSERT_EQ(walk_stream((const unsigned char *)"", 0, &w, NULL), -ENODATA);
		buf = load("perf-cpuclock.data", &len);
		ASSERT_EQ(walk_stream(buf, len, &w, NULL), -EINVAL);
		free(buf);
	}
}

/* ---- truncation ------------------------------------------------------------------ */

/* Cut a file-mode file at every record boundary and inside every record. */
static void check_file_cuts(const char *name)
{
	struct walk full = { 0 };
	unsigned char *buf;
	size_t len;
	__u64 data_end;

	buf = load(name, &len);
	ASSERT_TRUE(buf);
	ASSERT_EQ(walk_mem(buf, len, &full, NULL), 0);
	data_end = rd64(buf + 40) + rd64(buf + 48);

	for (size_t r = 0; r < full.nr; r++) {
		size_t size = full.recs[r].size;
		size_t deltas[] = { 0, 1, 4, 7, 8, size / 2, size - 1 };

		for (size_t k = 0; k < ARRAY_SIZE_T(deltas); k++) {
			size_t cut = full.recs[r].off + deltas[k];
			struct walk w = { 0 };
			struct pulse_data *d;
			__u64 bytes, off;

			if (deltas[k] >= size)
				continue;
			ASSERT_EQ(walk_mem(buf, cut, &w, &d), 0);
			ASSERT_EQ(w.nr, r);
			ASSERT_EQ(w.blen, full.recs[r].at);
			ASSERT_PREFIX(w.bytes, full.bytes, w.blen);
			ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
			ASSERT_EQ(off, full.recs[r].off);
			ASSERT_EQ(bytes, data_end - off);
			pulse_data__close(d);
			walk_free(&w);
		}
	}
	/* cut after the data: the feature table is missing */
	ASSERT_EQ(walk_mem(buf, data_end, &full, NULL), -EBADMSG);
	ASSERT_EQ(walk_mem(buf, data_end + 8, &full, NULL), -EBADMSG);
	ASSERT_EQ(walk_mem(buf, len - 1, &full, NULL), -EBADMSG);
	walk_free(&full);
	free(buf);
}

static void test_data__truncated_file_mode(void)
{
	check_file_cuts("perf-cpuclock.data");
	if (test__failed)
		return;
	check_file_cuts("perf-g.data");
	if (test__failed)
		return;
	check_file_cuts("perf-tp.data");
	if (test__failed)
		return;
	check_file_cuts("perf-2ev.data");
}

/* Compressed data: any cut delivers a prefix of the records, never more. */
static void test_data__truncated_compressed(void)
{
	struct walk full = { 0 };
	unsigned char *buf;
	size_t len;
	__u64 start, end;

	buf = load("perf-z.data", &len);
	ASSERT_EQ(walk_mem(buf, len, &full, NULL), 0);
	start = rd64(buf + 40);
	end = start + rd64(buf + 48);
	for (__u64 cut = start; cut < end; cut++) {
		struct walk w = { 0 };
		struct pulse_data *d;
		__u64 bytes, off;

		ASSERT_EQ(walk_mem(buf, cut, &w, &d), 0);
		ASSERT_TRUE(w.nr <= full.nr);
		ASSERT_PREFIX(w.bytes, full.bytes, w.blen);
		ASSERT_EQ(w.unaligned, 0);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_TRUE(off >= start && off <= cut);
		pulse_data__close(d);
		walk_free(&w);
	}
	walk_free(&full);
	free(buf);
}

/* Pipe mode has no declared end: a cut at a boundary is a shorter stream. */
static void check_pipe_cuts(const char *name)
{
	struct walk full = { 0 };
	unsigned char *buf;
	size_t len;

	buf = load(name, &len);
	ASSERT_TRUE(buf);
	ASSERT_EQ(walk_mem(buf, len, &full, NULL), 0);
	ASSERT_EQ(walk_mem(buf, 0, &full, NULL), -ENODATA);
	ASSERT_EQ(walk_mem(buf, 15, &full, NULL), -EBADMSG);
	for (size_t cut = 16; cut < len; cut++) {
		struct walk w = { 0 };
		struct pulse_data *d;
		size_t whole = 0;
		bool boundary = cut == 16;
		__u64 bytes, off;

		/* records (with their out-of-band payload) that end before the cut */
		for (size_t r = 0; r < full.nr; r++) {
			__u64 next = r + 1 < full.nr ? full.recs[r + 1].off : len;

			if (next <= cut)
				whole = r + 1;
			if (next == cut)
				boundary = true;
		}
		ASSERT_EQ(walk_mem(buf, cut, &w, &d), 0);
		ASSERT_EQ(w.nr, whole);
		ASSERT_PREFIX(w.bytes, full.bytes, w.blen);
		ASSERT_EQ(pulse_data__unreadable(d, &bytes, &off), !boundary);
		if (!boundary) {
			ASSERT_EQ(off, full.recs[whole].off);
			ASSERT_EQ(bytes, cut - off);
		}
		pulse_data__close(d);
		walk_free(&w);
	}
	walk_free(&full);
	free(buf);
}

static void test_data__truncated_pipe_mode(void)
{
	check_pipe_cuts("perf-pipe.data");
	if (!test__failed)
		check_pipe_cuts("perf-pipe-tp.data");
}

static __u64 rng_state = 0x9e3779b97f4a7c15ULL;

static __u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random cuts and flipped bytes anywhere: whatever happens, no crash or hang. */
static void test_data__random_damage(void)
{
	for (size_t g = 0; g < ARRAY_SIZE_T(goldens); g++) {
		unsigned char *orig, *buf;
		size_t len;

		orig = load(goldens[g].name, &len);
		ASSERT_TRUE(orig);
		buf = malloc(len + 8);
		for (int iter = 0; iter < 400; iter++) {
			size_t cut = rng() % (len + 1);
			int flips = iter % 4 ? rng() % 8 : 0;
			struct walk w = { 0 };
			int err;

			memcpy(buf, orig, len);
			for (int f = 0; f < flips; f++)
				buf[rng() % len] ^= 1 << (rng() % 8);
			if (iter % 3 == 0)
				cut = len;
			err = walk_mem(buf, cut, &w, NULL);
			ASSERT_TRUE(err == 0 || err == -EBADMSG || err == -ENODATA ||
				    err == -EOPNOTSUPP || err == -ENOENT);
			walk_free(&w);
		}
		free(buf);
		free(orig);
	}
}

/* ---- header damage ------------------------------------------------------------------ */

static int open_edited(const unsigned char *orig, size_t len, size_t at, const void *val,
		       size_t n)
{
	unsigned char *buf = malloc(len);
	struct pulse_data *d;
	int err;

	memcpy(buf, orig, len);
	memcpy(buf + at, val, n);
	err = pulse_data__open_mem(&d, buf, len);
	if (!err)
		pulse_data__close(d);
	free(buf);
	return err;
}

static void test_data__header_damage(void)
{
	unsigned char *buf;
	size_t len;
	__u64 v, table, ids_off;
	struct pulse_data *d;

	buf = load("perf-cpuclock.data", &len);
	ASSERT_TRUE(buf);
	ASSERT_EQ(open_edited(buf, len, 0, "\0", 0), 0);

	ASSERT_EQ(open_edited(buf, len, 0, "X", 1), -EBADMSG);		/* magic */
	/* a native file claiming the other byte order: its header is nonsense */
	v = PULSE_FILE_MAGIC_SWAPPED;
	ASSERT_EQ(open_edited(buf, len, 0, &v, 8), -EBADMSG);
	v = 99;
	ASSERT_EQ(open_edited(buf, len, 8, &v, 8), -EBADMSG);		/* header size */
	v = 8;
	ASSERT_EQ(open_edited(buf, len, 16, &v, 8), -EBADMSG);		/* attr_size */
	v = 0;
	ASSERT_EQ(open_edited(buf, len, 16, &v, 8), -EBADMSG);
	v = len;
	ASSERT_EQ(open_edited(buf, len, 24, &v, 8), -EBADMSG);		/* attrs.offset */
	v = len * 2;
	ASSERT_EQ(open_edited(buf, len, 32, &v, 8), -EBADMSG);		/* attrs.size */
	v = 144 + 8;
	ASSERT_EQ(open_edited(buf, len, 32, &v, 8), -EBADMSG);		/* not whole attrs */
	v = len + 8;
	ASSERT_EQ(open_edited(buf, len, 40, &v, 8), -EBADMSG);		/* data.offset */
	v = 16;
	ASSERT_EQ(open_edited(buf, len, 40, &v, 8), -EBADMSG);		/* inside the header */
	v = UINT64_MAX - 8;
	ASSERT_EQ(open_edited(buf, len, 48, &v, 8), -EBADMSG);		/* data.size overflow */

	/* the attr's ids section, right after its 128 bytes */
	ids_off = rd64(buf + 24) + 128;
	v = len;
	ASSERT_EQ(open_edited(buf, len, ids_off, &v, 8), -EBADMSG);
	v = 3;
	ASSERT_EQ(open_edited(buf, len, ids_off + 8, &v, 8), -EBADMSG);	/* not u64s */
	/* attr.size below VER0, and beyond the entry */
	v = 32;
	ASSERT_EQ(open_edited(buf, len, rd64(buf + 24) + 4, &v, 4), -EBADMSG);
	v = 200;
	ASSERT_EQ(open_edited(buf, len, rd64(buf + 24) + 4, &v, 4), -EBADMSG);

	/* a feature section pointing past the end */
	table = rd64(buf + 40) + rd64(buf + 48);
	v = len - 4;
	ASSERT_EQ(open_edited(buf, len, table, &v, 8), -EBADMSG);
	v = UINT64_MAX;
	ASSERT_EQ(open_edited(buf, len, table + 8, &v, 8), -EBADMSG);
	/* a feature table that does not fit: every bit set */
	{
		unsigned char ff[32];

		memset(ff, 0xff, sizeof(ff));
		ASSERT_EQ(open_edited(buf, len, 72, ff, sizeof(ff)), -EBADMSG);
	}

	/* sizes */
	ASSERT_EQ(pulse_data__open_mem(&d, buf, 0), -ENODATA);
	ASSERT_EQ(pulse_data__open_mem(&d, buf, 50), -EBADMSG);
	ASSERT_EQ(pulse_data__open_mem(&d, buf, 100), -EBADMSG);
	ASSERT_TRUE(d == NULL);
	free(buf);

	/* an empty file on disk */
	{
		char path[] = "/tmp/pulse-test-data-XXXXXX";
		int fd = mkstemp(path);

		ASSERT_TRUE(fd >= 0);
		close(fd);
		ASSERT_EQ(pulse_data__open(&d, path), -ENODATA);
		unlink(path);
		ASSERT_EQ(pulse_data__open(&d, "/nonexistent/perf.data"), -ENOENT);
	}
}

/* ---- recovery ------------------------------------------------------------------ */

static void test_data__recovery(void)
{
	struct walk full = { 0 };
	unsigned char *orig, *buf;
	size_t len;
	__u64 data_off, data_end, bytes, off;
	char why[128];

	orig = load("perf-cpuclock.data", &len);
	ASSERT_TRUE(orig);
	ASSERT_EQ(walk_mem(orig, len, &full, NULL), 0);
	data_off = rd64(orig + 40);
	data_end = data_off + rd64(orig + 48);
	buf = malloc(len);

	/* features zeroed, data.size short (mid-record): reads on to the last record */
	for (int variant = 0; variant < 4; variant++) {
		struct walk w = { 0 };
		struct pulse_data *d;
		size_t flen = variant & 1 ? data_end : len;

		memcpy(buf, orig, len);
		memset(buf + 72, 0, 32);
		wr64(buf + 48, variant & 2 ? 0 : full.recs[5].off - data_off + 3);
		ASSERT_EQ(walk_mem(buf, flen, &w, &d), 0);
		ASSERT_TRUE(pulse_data__recovering(d));
		if (!counts_match(&w, goldens[0].counts, why, sizeof(why)))
			TEST_FAIL("variant %d: %s", variant, why);
		ASSERT_EQ(w.blen, full.blen);
		ASSERT_PREFIX(w.bytes, full.bytes, full.blen);
		/* the feature table that follows is not records */
		ASSERT_EQ(pulse_data__unreadable(d, &bytes, &off), flen > data_end);
		if (flen > data_end) {
			ASSERT_EQ(off, data_end);
			ASSERT_EQ(bytes, len - data_end);
		}
		pulse_data__close(d);
		walk_free(&w);
	}

	/* perf killed early: data.size 0 with feature bits set, no table yet */
	{
		struct walk w = { 0 };
		struct pulse_data *d;

		memcpy(buf, orig, len);
		wr64(buf + 48, 0);
		ASSERT_EQ(walk_mem(buf, data_end, &w, &d), 0);
		ASSERT_TRUE(pulse_data__recovering(d));
		ASSERT_EQ(w.nr, full.nr);
		ASSERT_TRUE(!pulse_data__has_feat(d, PULSE_FEAT_HOSTNAME));
		pulse_data__close(d);
		walk_free(&w);
	}

	/* perf killed before writing any record: the header alone */
	{
		struct walk w = { 0 };
		struct pulse_data *d;

		memcpy(buf, orig, len);
		wr64(buf + 48, 0);
		ASSERT_EQ(walk_mem(buf, data_off, &w, &d), 0);
		ASSERT_TRUE(pulse_data__recovering(d));
		ASSERT_EQ(w.nr, 0);
		ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
		pulse_data__close(d);
	}

	/* a torn last record */
	{
		struct walk w = { 0 };
		struct pulse_data *d;

		memcpy(buf, orig, len);
		memset(buf + 72, 0, 32);
		wr64(buf + 48, 0);
		ASSERT_EQ(walk_mem(buf, data_end - 5, &w, &d), 0);
		ASSERT_EQ(w.nr, full.nr - 1);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_EQ(off, full.recs[full.nr - 1].off);
		ASSERT_EQ(bytes, data_end - 5 - off);
		pulse_data__close(d);
		walk_free(&w);
	}

	/* a tail that is not records: plausible sizes, impossible types */
	for (int k = 0; k < 2; k++) {
		struct walk w = { 0 };
		struct pulse_data *d;
		unsigned char *big = calloc(1, data_end + 64);
		struct perf_event_header bad = { k ? 0 : 0x4000, 0, 32 };

		memcpy(big, orig, data_end);
		memset(big + 72, 0, 32);
		wr64(big + 48, 64);
		memcpy(big + data_end, &bad, sizeof(bad));
		ASSERT_EQ(walk_mem(big, data_end + 64, &w, &d), 0);
		ASSERT_EQ(w.nr, full.nr);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_EQ(off, data_end);
		ASSERT_EQ(bytes, 64);
		pulse_data__close(d);
		walk_free(&w);
		free(big);
	}

	/* a zero-filled tail (preallocated space) stops the walk, not an error */
	{
		struct walk w = { 0 };
		struct pulse_data *d;
		unsigned char *big = calloc(1, data_end + 4096);

		memcpy(big, orig, data_end);
		memset(big + 72, 0, 32);
		wr64(big + 48, 64);
		ASSERT_EQ(walk_mem(big, data_end + 4096, &w, &d), 0);
		ASSERT_EQ(w.nr, full.nr);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_EQ(off, data_end);
		ASSERT_EQ(bytes, 4096);
		pulse_data__close(d);
		walk_free(&w);
		free(big);
	}
	walk_free(&full);
	free(buf);
	free(orig);
}

/* ---- synthetic files ------------------------------------------------------------ */

struct img {
	unsigned char *p;
	size_t len, cap;
};

static size_t img_add(struct img *m, const void *b, size_t n)
{
	size_t at = m->len;

	while (m->len + n > m->cap) {
		m->cap = m->cap ? 2 * m->cap : 4096;
		m->p = realloc(m->p, m->cap);
	}
	if (b)
		memcpy(m->p + m->len, b, n);
	else
		memset(m->p + m->len, 0, n);
	m->len += n;
	return at;
}

static void img_rec(struct img *m, __u32 type, const void *body, size_t blen)
{
	struct perf_event_header h = { type, 0, sizeof(h) + blen };

	img_add(m, &h, sizeof(h));
	img_add(m, body, blen);
}

/*
 * header | ids | one attr entry of @asz attr bytes | data; no features.
 * The data section is @data exactly, so nothing triggers recovery.
 */
static void build_file(struct img *m, const void *attr, size_t asz, const __u64 *ids,
		       size_t nr_ids, const void *data, size_t dlen)
{
	struct pulse_file_header h = { .magic = PULSE_FILE_MAGIC, .size = 104 };
	struct pulse_file_section s;

	m->len = 0;
	img_add(m, &h, sizeof(h));
	s.offset = img_add(m, ids, nr_ids * 8);
	s.size = nr_ids * 8;
	h.attr_size = asz + 16;
	h.attrs.offset = img_add(m, attr, asz);
	h.attrs.size = asz + 16;
	img_add(m, &s, sizeof(s));
	h.data.offset = img_add(m, data, dlen);
	h.data.size = dlen;
	memcpy(m->p, &h, sizeof(h));
}

static void sample_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 4000;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	a->sample_id_all = 1;
}

/* Attrs smaller and larger than ours: zero-extended, or refused when not zero. */
static void test_data__attr_sizes(void)
{
	unsigned char attrbuf[256], data[64];
	struct perf_event_attr a;
	const struct perf_event_attr *got;
	__u64 ids[2] = { 7, 8 }, body[3] = { 0x401000, 5 | 6ULL << 32, 8 };
	struct img m = { 0 }, recs = { 0 };
	struct walk w = { 0 };
	struct pulse_data *d;

	img_rec(&recs, PERF_RECORD_SAMPLE, body, sizeof(body));
	memcpy(data, recs.p, recs.len);

	sample_attr(&a);
	a.branch_sample_type = 0x99;		/* beyond VER0: must not survive */
	memset(attrbuf, 0, sizeof(attrbuf));
	memcpy(attrbuf, &a, sizeof(a));

	/* VER0: 64 bytes */
	wr64(attrbuf, a.type | (__u64)64 << 32);
	build_file(&m, attrbuf, 64, ids, 2, data, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	got = pulse_data__attr(d, 0);
	ASSERT_EQ(got->size, sizeof(struct perf_event_attr));
	ASSERT_EQ(got->sample_type, a.sample_type);
	ASSERT_EQ(got->sample_period, 4000);
	ASSERT_EQ(got->sample_id_all, 1);
	ASSERT_EQ(got->branch_sample_type, 0);
	ASSERT_EQ(w.count[PERF_RECORD_SAMPLE], 1);
	ASSERT_EQ(w.bad_samples, 0);
	pulse_data__close(d);
	walk_free(&w);

	/* attr.size 0 means VER0 too */
	wr64(attrbuf, a.type);
	build_file(&m, attrbuf, 64, ids, 2, data, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_EQ(pulse_data__attr(d, 0)->sample_period, 4000);
	pulse_data__close(d);
	walk_free(&w);

	/* 136 bytes, zero tail: fine */
	wr64(attrbuf, a.type | (__u64)136 << 32);
	build_file(&m, attrbuf, 136, ids, 2, data, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	got = pulse_data__attr(d, 0);
	ASSERT_EQ(got->branch_sample_type, 0x99);
	ASSERT_EQ(got->size, sizeof(struct perf_event_attr));
	ASSERT_EQ(w.count[PERF_RECORD_SAMPLE], 1);
	{
		size_t n;
		const __u64 *gi = pulse_data__attr_ids(d, 0, &n);

		ASSERT_EQ(n, 2);
		ASSERT_EQ(gi[1], 8);
	}
	pulse_data__close(d);
	walk_free(&w);

	/* 136 bytes with a field we do not know */
	attrbuf[133] = 1;
	build_file(&m, attrbuf, 136, ids, 2, data, recs.len);
	ASSERT_EQ(pulse_data__open_mem(&d, m.p, m.len), -EOPNOTSUPP);
	free(m.p);
	free(recs.p);
}

/* Several attrs of 128 bytes, @per ids each. */
static void build_file_n(struct img *m, const struct perf_event_attr *attrs, size_t n,
			 const __u64 *ids, size_t per, const void *data, size_t dlen)
{
	struct pulse_file_header h = { .magic = PULSE_FILE_MAGIC, .size = 104 };
	size_t ids_at;

	m->len = 0;
	img_add(m, &h, sizeof(h));
	ids_at = img_add(m, ids, n * per * 8);
	h.attr_size = sizeof(struct pulse_file_attr);
	h.attrs.offset = m->len;
	h.attrs.size = n * sizeof(struct pulse_file_attr);
	for (size_t i = 0; i < n; i++) {
		struct pulse_file_section s = { ids_at + i * per * 8, per * 8 };

		img_add(m, &attrs[i], sizeof(attrs[i]));
		img_add(m, &s, sizeof(s));
	}
	h.data.offset = img_add(m, data, dlen);
	h.data.size = dlen;
	memcpy(m->p, &h, sizeof(h));
}

/* Attrs whose ids sit at different places: each record finds its own attr. */
static void test_data__mixed_id_layouts(void)
{
	struct perf_event_attr a[3];
	__u64 ids[3] = { 10, 20, 30 };
	struct img m = { 0 }, recs = { 0 };
	struct walk w = { 0 };
	struct pulse_data *d;

	for (int i = 0; i < 3; i++)
		sample_attr(&a[i]);
	/* A: IP TID ID; B: IP TID TIME ID; C: IDENTIFIER IP TID TIME ID */
	a[1].sample_type |= PERF_SAMPLE_TIME;
	a[2].sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER;
	{
		__u64 sa[3] = { 0x1, 1 | 1ULL << 32, 10 };
		__u64 sb[4] = { 0x2, 1 | 1ULL << 32, 777, 20 };
		__u64 sc[5] = { 30, 0x3, 1 | 1ULL << 32, 778, 30 };
		/* non-samples: trailers TID ID / TID TIME ID / TID TIME ID IDENTIFIER */
		__u64 ta[3] = { 0xaa, 1 | 1ULL << 32, 10 };
		__u64 tb[4] = { 0xbb, 1 | 1ULL << 32, 779, 20 };
		__u64 tc[5] = { 0xcc, 1 | 1ULL << 32, 780, 30, 30 };

		img_rec(&recs, PERF_RECORD_SAMPLE, sb, sizeof(sb));
		img_rec(&recs, PERF_RECORD_SAMPLE, sa, sizeof(sa));
		img_rec(&recs, PERF_RECORD_SAMPLE, sc, sizeof(sc));
		img_rec(&recs, PERF_RECORD_LOST, tb, sizeof(tb));
		img_rec(&recs, PERF_RECORD_LOST, tc, sizeof(tc));
		img_rec(&recs, PERF_RECORD_LOST, ta, sizeof(ta));
	}
	build_file_n(&m, a, 3, ids, 1, recs.p, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_EQ(w.nr, 6);
	ASSERT_EQ(w.attr_fail, 0);
	ASSERT_EQ(w.bad_samples, 0);
	{
		static const int want[6] = { 1, 0, 2, 1, 2, 0 };

		for (size_t r = 0; r < 6; r++)
			ASSERT_EQ(pulse_data__attr_of(d, w.bytes + w.recs[r].at, w.recs[r].size),
				  want[r]);
	}
	pulse_data__close(d);
	walk_free(&w);
	free(m.p);
	free(recs.p);
}

struct late_attr {
	const struct perf_event_attr *first;	/* taken before the walk */
	int routed[4];
	size_t n;
};

static int route_cb(struct pulse_data *d, const struct perf_event_header *h, __u64 off, void *arg)
{
	struct late_attr *l = arg;

	if (h->type == PERF_RECORD_SAMPLE && l->n < 4)
		l->routed[l->n++] = pulse_data__attr_of(d, h, h->size);
	/* still the same attr, however many came since */
	return l->first->sample_period == 4000 ? 0 : -EFAULT;
}

/* Pipe mode: an attr arriving after the first samples. */
static void test_data__pipe_late_attr(void)
{
	struct pulse_pipe_header ph = { PULSE_FILE_MAGIC, 16 };
	struct perf_event_attr a[2];
	struct img m = { 0 };
	struct late_attr l = { 0 };
	struct pulse_data *d;
	__u64 s0[3] = { 0x1, 1, 10 }, s1[3] = { 0x2, 2, 20 };
	unsigned char ab[sizeof(struct perf_event_attr) + 8];

	sample_attr(&a[0]);
	sample_attr(&a[1]);
	a[1].sample_period = 5000;
	img_add(&m, &ph, sizeof(ph));
	for (int i = 0; i < 2; i++) {
		__u64 id = 10 * (i + 1);

		memcpy(ab, &a[i], sizeof(a[i]));
		memcpy(ab + sizeof(a[i]), &id, 8);
		if (i)
			img_rec(&m, PERF_RECORD_SAMPLE, s0, sizeof(s0));
		img_rec(&m, PERF_RECORD_HEADER_ATTR, ab, sizeof(ab));
	}
	img_rec(&m, PERF_RECORD_SAMPLE, s1, sizeof(s1));
	img_rec(&m, PERF_RECORD_SAMPLE, s0, sizeof(s0));

	ASSERT_EQ(pulse_data__open_mem(&d, m.p, m.len), 0);
	ASSERT_EQ(pulse_data__nr_attrs(d), 1);
	l.first = pulse_data__attr(d, 0);
	ASSERT_EQ(pulse_data__for_each_record(d, route_cb, &l), 0);
	ASSERT_EQ(pulse_data__nr_attrs(d), 2);
	ASSERT_EQ(pulse_data__attr(d, 1)->sample_period, 5000);
	ASSERT_EQ(l.n, 3);
	/* one attr at the time of the first sample: attr 0 whatever the id */
	ASSERT_EQ(l.routed[0], 0);
	ASSERT_EQ(l.routed[1], 1);
	ASSERT_EQ(l.routed[2], 0);
	/* walking again does not add the attr twice */
	l.n = 0;
	ASSERT_EQ(pulse_data__for_each_record(d, route_cb, &l), 0);
	ASSERT_EQ(pulse_data__nr_attrs(d), 2);
	pulse_data__close(d);
	free(m.p);
}

/* A stream whose tracing data is larger than any read buffer. */
static void test_data__pipe_big_tracing_data(void)
{
	struct pulse_pipe_header ph = { PULSE_FILE_MAGIC, 16 };
	size_t tlen = 600 * 1024 + 5, plen = ALIGN8(tlen);
	struct perf_event_attr a;
	struct img m = { 0 };
	struct walk ws = { 0 }, wm = { 0 };
	struct pulse_data *d;
	unsigned char ab[sizeof(struct perf_event_attr) + 8], *payload;
	__u64 id = 10, s0[3] = { 0x1, 1, 10 }, td = plen, bytes, off;
	const void *t;
	size_t len;

	sample_attr(&a);
	memcpy(ab, &a, sizeof(a));
	memcpy(ab + sizeof(a), &id, 8);
	payload = calloc(1, plen);
	for (size_t i = 0; i < tlen; i++)
		payload[i] = i * 31 >> 3;
	img_add(&m, &ph, sizeof(ph));
	img_rec(&m, PERF_RECORD_HEADER_ATTR, ab, sizeof(ab));
	img_rec(&m, PERF_RECORD_HEADER_TRACING_DATA, &td, 8);
	img_add(&m, payload, plen);
	for (int i = 0; i < 100; i++)
		img_rec(&m, PERF_RECORD_SAMPLE, s0, sizeof(s0));

	ASSERT_EQ(walk_mem(m.p, m.len, &wm, NULL), 0);
	ASSERT_EQ(walk_stream(m.p, m.len, &ws, &d), 0);
	ASSERT_EQ(ws.nr, 102);
	ASSERT_EQ(ws.nr, wm.nr);
	ASSERT_MEMEQ(ws.bytes, wm.bytes, wm.blen);
	t = pulse_data__tracing_data(d, &len);
	ASSERT_EQ(len, plen);
	ASSERT_MEMEQ(t, payload, plen);
	pulse_data__close(d);
	walk_free(&ws);

	/* cut inside the payload: the attr only, the rest unreadable */
	ASSERT_EQ(walk_stream(m.p, 16 + 144 + 16 + 300000, &ws, &d), 0);
	ASSERT_EQ(ws.nr, 1);
	ASSERT_EQ(ws.recs[0].type, PERF_RECORD_HEADER_ATTR);
	ASSERT_EQ(pulse_data__nr_attrs(d), 1);
	ASSERT_TRUE(pulse_data__tracing_data(d, &len) == NULL);
	ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
	ASSERT_EQ(off, 16 + 144);
	ASSERT_EQ(bytes, 16 + 300000);
	pulse_data__close(d);
	walk_free(&ws);
	walk_free(&wm);
	free(payload);
	free(m.p);
}

/* Records of odd sizes and out-of-band payloads in file mode. */
static void test_data__unaligned_and_oob(void)
{
	struct perf_event_attr a;
	struct img m = { 0 }, recs = { 0 };
	struct walk w = { 0 };
	struct pulse_data *d;
	__u64 ids[1] = { 1 }, bytes, off;
	unsigned char body[64];
	size_t tl;

	for (size_t i = 0; i < sizeof(body); i++)
		body[i] = i * 3 + 1;
	sample_attr(&a);
	img_rec(&recs, 100, body, 4);			/* 12 bytes */
	img_rec(&recs, PERF_RECORD_FINISHED_ROUND, NULL, 0);	/* at offset 12 */
	{
		/* AUXTRACE: size 40 of payload after the 48-byte record */
		unsigned char aux[40] = { 0 };

		wr64(aux, 40);
		img_rec(&recs, PERF_RECORD_AUXTRACE, aux, 40);
		img_add(&recs, body, 40);
	}
	img_rec(&recs, 101, body, 13);			/* 21 bytes */
	{
		/* in-band tracing data: u32 size 12 (padded to 16) */
		__u64 td = 12;

		img_rec(&recs, PERF_RECORD_HEADER_TRACING_DATA, &td, 8);
		img_add(&recs, "TRACINGDATA!\0\0\0\0", 16);
	}
	img_rec(&recs, 102, body, 1);
	build_file(&m, &a, sizeof(a), ids, 1, recs.p, recs.len);

	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_EQ(w.nr, 6);
	ASSERT_EQ(w.unaligned, 0);
	ASSERT_EQ(w.recs[0].type, 100);
	ASSERT_EQ(w.recs[0].size, 12);
	ASSERT_MEMEQ(w.bytes + w.recs[0].at + 8, body, 4);
	ASSERT_EQ(w.recs[1].type, PERF_RECORD_FINISHED_ROUND);
	ASSERT_EQ(w.recs[1].off - w.recs[0].off, 12);
	ASSERT_EQ(w.recs[2].type, PERF_RECORD_AUXTRACE);
	ASSERT_EQ(w.recs[2].size, 48);
	ASSERT_EQ(w.recs[3].type, 101);
	ASSERT_EQ(w.recs[3].off, w.recs[2].off + 48 + 40);
	ASSERT_MEMEQ(w.bytes + w.recs[3].at + 8, body, 13);
	ASSERT_EQ(w.recs[4].type, PERF_RECORD_HEADER_TRACING_DATA);
	ASSERT_EQ(w.recs[5].type, 102);
	ASSERT_EQ(w.recs[5].off, w.recs[4].off + 16 + 16);
	ASSERT_TRUE(pulse_data__tracing_data(d, &tl) != NULL);
	ASSERT_EQ(tl, 12);
	ASSERT_MEMEQ(pulse_data__tracing_data(d, &tl), "TRACINGDATA!", 12);
	ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
	pulse_data__close(d);
	walk_free(&w);

	/*
	 * an AUXTRACE payload running past the data: the record is delivered
	 * (perf prints it), without data; the walk stops at it
	 */
	{
		size_t aux_at = 12 + 8;
		unsigned char *p = m.p + rd64(m.p + 40) + aux_at;

		wr64(p + 8, 1 << 20);
		ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
		ASSERT_EQ(w.nr, 3);
		ASSERT_EQ(w.recs[2].type, PERF_RECORD_AUXTRACE);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_EQ(off, rd64(m.p + 40) + aux_at);
		pulse_data__close(d);
		walk_free(&w);
	}
	/*
	 * a record of size 4 in the middle of the data: nothing after it can
	 * be framed; the records before it are delivered, the rest unreadable
	 */
	build_file(&m, &a, sizeof(a), ids, 1, recs.p, recs.len);
	m.p[rd64(m.p + 40) + 12 + 6] = 4;
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_EQ(w.nr, 1);
	ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
	ASSERT_EQ(off, rd64(m.p + 40) + 12);
	ASSERT_EQ(bytes, rd64(m.p + 48) - 12);
	pulse_data__close(d);
	walk_free(&w);
	free(m.p);
	free(recs.p);
}

/*
 * zstd: perf's records compressed as two frames (the first ending in the
 * middle of a record), the compressed bytes split into COMPRESSED records of
 * odd sizes; the content comes back byte for byte.
 */
static void test_data__compressed_split(void)
{
	unsigned char *orig, *z;
	size_t len, dlen, zlen, zcap, split;
	__u64 data_off, ids[2];
	struct img m = { 0 }, recs = { 0 };
	struct walk w = { 0 };
	struct pulse_data *d;
	__u64 bytes, off;

	orig = load("perf-cpuclock.data", &len);
	ASSERT_TRUE(orig);
	data_off = rd64(orig + 40);
	dlen = rd64(orig + 48);
	zcap = ZSTD_compressBound(dlen) * 2;
	z = malloc(zcap);
	split = dlen / 2 + 3;			/* mid-record */
	zlen = ZSTD_compress(z, zcap, orig + data_off, split, 3);
	ASSERT_TRUE(!ZSTD_isError(zlen));
	{
		size_t z2 = ZSTD_compress(z + zlen, zcap - zlen, orig + data_off + split,
					  dlen - split, 3);

		ASSERT_TRUE(!ZSTD_isError(z2));
		zlen += z2;
	}
	for (size_t at = 0, step = 5; at < zlen; at += step, step = step * 5 % 301 + 1)
		img_rec(&recs, PERF_RECORD_COMPRESSED, z + at, at + step <= zlen ? step : zlen - at);
	img_rec(&recs, PERF_RECORD_FINISHED_ROUND, NULL, 0);

	memcpy(ids, orig + 104, 16);
	build_file(&m, orig + rd64(orig + 24), 128, ids, 2, recs.p, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_EQ(w.unaligned, 0);
	ASSERT_EQ(w.blen, dlen + 8);
	ASSERT_PREFIX(w.bytes, orig + data_off, dlen);
	ASSERT_EQ(w.recs[w.nr - 1].type, PERF_RECORD_FINISHED_ROUND);
	ASSERT_EQ(w.count[PERF_RECORD_SAMPLE], 25);
	ASSERT_EQ(w.bad_samples, 0);
	ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
	/* walking again restarts the zstd stream */
	walk_free(&w);
	ASSERT_EQ(pulse_data__for_each_record(d, collect, &w), 0);
	ASSERT_EQ(w.blen, dlen + 8);
	pulse_data__close(d);
	walk_free(&w);

	/* garbage in a COMPRESSED record: stops there, no crash */
	{
		size_t first = rd64(m.p + 40);

		memset(m.p + first + 8, 0xa5, 5);
		ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
		ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
		ASSERT_EQ(off, first);
		pulse_data__close(d);
		walk_free(&w);
	}
	/* the last frame cut short: whole records delivered, the rest unreadable */
	recs.len -= 8 + 7;
	build_file(&m, orig + rd64(orig + 24), 128, ids, 2, recs.p, recs.len);
	ASSERT_EQ(walk_mem(m.p, m.len, &w, &d), 0);
	ASSERT_TRUE(w.blen < dlen);
	ASSERT_PREFIX(w.bytes, orig + data_off, w.blen);
	ASSERT_TRUE(pulse_data__unreadable(d, &bytes, &off));
	pulse_data__close(d);
	walk_free(&w);

	free(m.p);
	free(recs.p);
	free(z);
	free(orig);
}

/* ---- writer round trips ---------------------------------------------------------- */

struct rt {
	struct img recs;		/* every record written, in order */
	size_t nr;
	int attr_of[64];		/* expected attr per record */
};

/* A record of @type with a body and the trailer of @attr (TID TIME ID CPU). */
static void rt_rec(struct rt *t, __u32 type, size_t body, __u64 id, int attr)
{
	unsigned char b[256];

	for (size_t i = 0; i < body; i++)
		b[i] = type * 13 + i;
	if (type < PERF_RECORD_USER_TYPE_START && type != PERF_RECORD_SAMPLE) {
		wr64(b + body, 42 | 43ULL << 32);
		wr64(b + body + 8, 1000 + t->nr);
		wr64(b + body + 16, id);
		wr64(b + body + 24, 1);
		body += 32;
	}
	img_rec(&t->recs, type, b, body);
	t->attr_of[t->nr++] = attr;
}

static void rt_build(struct rt *t, __u64 id_a, __u64 id_b)
{
	__u64 s[8];

	memset(t, 0, sizeof(*t));
	/* SAMPLE of A: IP TID TIME ID CPU PERIOD */
	s[0] = 0x401000; s[1] = 42 | 43ULL << 32; s[2] = 999; s[3] = id_a; s[4] = 1; s[5] = 7;
	img_rec(&t->recs, PERF_RECORD_SAMPLE, s, 48);
	t->attr_of[t->nr++] = 0;
	/* SAMPLE of B: ... PERIOD, CALLCHAIN nr 2 */
	s[3] = id_b; s[6] = 2; s[7] = 0x1234;
	{
		__u64 cc[9];

		memcpy(cc, s, sizeof(s));
		cc[8] = 0x5678;
		img_rec(&t->recs, PERF_RECORD_SAMPLE, cc, 72);
	}
	t->attr_of[t->nr++] = 1;
	for (__u32 type = 1; type < PERF_RECORD_MAX; type++)
		if (type != PERF_RECORD_SAMPLE)
			rt_rec(t, type, 8 + type % 3 * 8, type & 1 ? id_a : id_b, type & 1 ? 0 : 1);
	rt_rec(t, PERF_RECORD_FINISHED_ROUND, 0, 0, 0);
	rt_rec(t, PERF_RECORD_ID_INDEX, 40, 0, 0);
	rt_rec(t, PERF_RECORD_THREAD_MAP, 24, 0, 0);
	rt_rec(t, PERF_RECORD_CPU_MAP, 8, 0, 0);
	rt_rec(t, PERF_RECORD_TIME_CONV, 48, 0, 0);
	rt_rec(t, PERF_RECORD_FINISHED_INIT, 0, 0, 0);
}

static void rt_attrs(struct pulse_data_attr *pa, struct perf_event_attr *a, const __u64 *ids)
{
	for (int i = 0; i < 2; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].type = PERF_TYPE_SOFTWARE;
		a[i].size = sizeof(a[i]);
		a[i].config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		a[i].sample_period = 1000 + i;
		a[i].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				   (i ? PERF_SAMPLE_CALLCHAIN : 0);
		a[i].read_format = PERF_FORMAT_ID;
		a[i].sample_id_all = 1;
		a[i].mmap = !i;
		pa[i] = (struct pulse_data_attr){ a[i], i ? "ev-b" : "ev-a", ids + 2 * i, 2 };
	}
}

/* EVENT_DESC as perf writes it, so that the names come back. */
static void rt_event_desc(struct img *m, const struct perf_event_attr *a, const __u64 *ids)
{
	__u32 u;

	m->len = 0;
	u = 2;
	img_add(m, &u, 4);
	u = sizeof(*a);
	img_add(m, &u, 4);
	for (int i = 0; i < 2; i++) {
		char name[16] = { 0 };

		img_add(m, &a[i], sizeof(*a));
		u = 2;
		img_add(m, &u, 4);
		u = sizeof(name);
		img_add(m, &u, 4);
		strcpy(name, i ? "ev-b" : "ev-a");
		img_add(m, name, sizeof(name));
		img_add(m, ids + 2 * i, 16);
	}
}

static int tmp_fd(char *path)
{
	strcpy(path, "/tmp/pulse-test-data-XXXXXX");
	return mkstemp(path);
}

static void check_round_trip(const char *path, const struct rt *t, bool pipe,
			     const struct perf_event_attr *a, const __u64 *ids,
			     const struct img *desc, const unsigned char *trace, size_t tlen,
			     bool finished)
{
	struct walk w = { 0 };
	struct pulse_data *d;
	size_t n, r = 0, len;
	const void *p;

	ASSERT_EQ(pulse_data__open(&d, path), 0);
	ASSERT_EQ(pulse_data__is_pipe(d), pipe);
	ASSERT_EQ(pulse_data__recovering(d), !finished);
	ASSERT_EQ(pulse_data__nr_attrs(d), 2);
	for (int i = 0; i < 2; i++) {
		const __u64 *gi = pulse_data__attr_ids(d, i, &n);

		ASSERT_MEMEQ(pulse_data__attr(d, i), &a[i], sizeof(a[i]));
		ASSERT_EQ(n, 2);
		ASSERT_MEMEQ(gi, ids + 2 * i, 16);
		if (finished)
			ASSERT_STREQ(pulse_data__attr_name(d, i), i ? "ev-b" : "ev-a");
	}
	if (finished) {
		p = pulse_data__feat(d, PULSE_FEAT_EVENT_DESC, &len);
		ASSERT_TRUE(p);
		ASSERT_EQ(len, ALIGN8(desc->len));
		ASSERT_MEMEQ(p, desc->p, desc->len);
		p = pulse_data__feat(d, PULSE_FEAT_HOSTNAME, &len);
		ASSERT_TRUE(p);
		ASSERT_MEMEQ((const char *)p + 4, "pulse-host", 11);
		p = pulse_data__tracing_data(d, &len);
		ASSERT_TRUE(p);
		ASSERT_EQ(len, pipe ? ALIGN8(tlen) : tlen);
		ASSERT_MEMEQ(p, trace, tlen);
	}
	ASSERT_EQ(pulse_data__for_each_record(d, collect, &w), 0);
	ASSERT_EQ(w.unaligned, 0);
	ASSERT_EQ(w.bad_samples, 0);
	/* pipe mode: the in-band header records come first */
	if (pipe) {
		ASSERT_EQ(w.count[PERF_RECORD_HEADER_ATTR], 2);
		ASSERT_EQ(w.count[PERF_RECORD_HEADER_TRACING_DATA], 1);
		ASSERT_EQ(w.count[PERF_RECORD_HEADER_FEATURE], 2);
		while (r < w.nr && (w.recs[r].type == PERF_RECORD_HEADER_ATTR ||
				    w.recs[r].type == PERF_RECORD_HEADER_FEATURE ||
				    w.recs[r].type == PERF_RECORD_HEADER_TRACING_DATA))
			r++;
		ASSERT_EQ(r, 5);
	}
	ASSERT_EQ(w.nr - r, t->nr);
	ASSERT_EQ(w.blen - w.recs[r].at, t->recs.len);
	ASSERT_MEMEQ(w.bytes + w.recs[r].at, t->recs.p, t->recs.len);
	for (size_t i = 0; i < t->nr; i++) {
		const struct rec_info *ri = &w.recs[r + i];

		ASSERT_EQ(pulse_data__attr_of(d, w.bytes + ri->at, ri->size), t->attr_of[i]);
	}
	pulse_data__close(d);
	walk_free(&w);
}

static void test_data__writer_round_trip(void)
{
	static const __u64 ids[4] = { 101, 102, 201, 202 };
	struct pulse_data_attr pa[2];
	struct perf_event_attr a[2];
	struct img desc = { 0 };
	unsigned char trace[1001];
	char host[68] = { 0 }, path[64];
	struct rt t;

	for (size_t i = 0; i < sizeof(trace); i++)
		trace[i] = i * 7;
	host[0] = 64;
	strcpy(host + 4, "pulse-host");
	rt_attrs(pa, a, ids);
	rt_event_desc(&desc, a, ids);
	rt_build(&t, 102, 201);

	for (int mode = 0; mode < 3; mode++) {
		struct pulse_data_writer_opts opts = { .sz = sizeof(opts), .pipe = mode == 1 };
		struct pulse_data_writer *w;
		bool finished = mode != 2;
		size_t half = 0;
		int fd = tmp_fd(path);

		ASSERT_TRUE(fd >= 0);
		ASSERT_EQ(pulse_data_writer__new(&w, fd, pa, 2, &opts), 0);
		ASSERT_TRUE(w);
		ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_TRACING_DATA, trace,
							 sizeof(trace)), 0);
		ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_HOSTNAME, host,
							 sizeof(host)), 0);
		ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_EVENT_DESC, desc.p,
							 desc.len), 0);
		/* records in two writes, a header sync in between */
		while (half < t.recs.len / 2)
			half += get_u16_le(t.recs.p + half + 6);
		ASSERT_EQ(pulse_data_writer__write(w, t.recs.p, half), 0);
		ASSERT_EQ(pulse_data_writer__sync_header(w), 0);
		{
			struct iovec iov[2] = {
				{ t.recs.p + half, 8 },
				{ t.recs.p + half + 8, t.recs.len - half - 8 },
			};

			ASSERT_EQ(pulse_data_writer__writev(w, iov, 2), 0);
		}
		ASSERT_EQ(pulse_data_writer__data_size(w), t.recs.len);
		if (finished)
			ASSERT_EQ(pulse_data_writer__finish(w), 0);
		pulse_data_writer__delete(w);
		close(fd);
		check_round_trip(path, &t, mode == 1, a, ids, &desc, trace, sizeof(trace),
				 finished);
		unlink(path);
		if (test__failed)
			break;
	}
	free(desc.p);
	free(t.recs.p);
}

/* A finished file without records: data.size 0, but the features are real. */
static void test_data__writer_no_records(void)
{
	static const __u64 ids[4] = { 101, 102, 201, 202 };
	struct pulse_data_attr pa[2];
	struct perf_event_attr a[2];
	struct pulse_data_writer *w;
	struct walk wk = { 0 };
	struct pulse_data *d;
	char path[64], host[68] = { 0 };
	__u64 bytes, off;
	size_t len;
	int fd = tmp_fd(path);

	ASSERT_TRUE(fd >= 0);
	host[0] = 64;
	strcpy(host + 4, "pulse-host");
	rt_attrs(pa, a, ids);
	ASSERT_EQ(pulse_data_writer__new(&w, fd, pa, 2, NULL), 0);
	ASSERT_TRUE(w);
	ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_HOSTNAME, host, sizeof(host)), 0);
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);
	close(fd);
	ASSERT_EQ(pulse_data__open(&d, path), 0);
	unlink(path);
	ASSERT_TRUE(!pulse_data__recovering(d));
	ASSERT_EQ(pulse_data__data_size(d), 0);
	ASSERT_EQ(pulse_data__nr_attrs(d), 2);
	ASSERT_TRUE(pulse_data__feat(d, PULSE_FEAT_HOSTNAME, &len) != NULL);
	ASSERT_EQ(len, sizeof(host));
	ASSERT_EQ(pulse_data__for_each_record(d, collect, &wk), 0);
	ASSERT_EQ(wk.nr, 0);
	ASSERT_TRUE(!pulse_data__unreadable(d, &bytes, &off));
	pulse_data__close(d);
}

static void test_data__quiet(void)
{
	/* run the noisy tests without the warnings on stderr */
	pulse_set_print(quiet);
}

TEST_MAIN(TEST(test_data__quiet),
	  TEST(test_data__golden_counts),
	  TEST(test_data__golden_layout),
	  TEST(test_data__golden_samples),
	  TEST(test_data__golden_two_events),
	  TEST(test_data__golden_features),
	  TEST(test_data__pipe_stream),
	  TEST(test_data__truncated_file_mode),
	  TEST(test_data__truncated_compressed),
	  TEST(test_data__truncated_pipe_mode),
	  TEST(test_data__random_damage),
	  TEST(test_data__header_damage),
	  TEST(test_data__recovery),
	  TEST(test_data__attr_sizes),
	  TEST(test_data__mixed_id_layouts),
	  TEST(test_data__pipe_late_attr),
	  TEST(test_data__pipe_big_tracing_data),
	  TEST(test_data__unaligned_and_oob),
	  TEST(test_data__compressed_split),
	  TEST(test_data__writer_round_trip),
	  TEST(test_data__writer_no_records))
