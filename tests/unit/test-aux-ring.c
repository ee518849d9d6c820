// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the AUX area consumer (lib/ring/aux.c) against the model of a
 * PMU writing it (lib/ring/model-aux.c): full mode with wraps and
 * truncation, snapshot (overwrite) mode with and without a pause, the
 * PARTIAL and COLLISION flags, randomized rounds and a two-thread run.
 * Each byte the model writes at free-running position p is pat(p), so a
 * byte read at the wrong place or overwritten while read shows. The
 * consumer must lose nothing it should keep, keep nothing torn, and its
 * counts (and the AUX records in the normal ring) must match what the
 * model dropped. PULSE_AUX_ROUNDS sets the number of randomized rounds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pulse/mmap.h>
#include <pulse/ring-aux.h>
#include <pulse/ring-model.h>
#include "core/internal.h"
#include "test.h"

#define PAGE PULSE_RING_MODEL_PAGE

static unsigned char pat(__u64 p)
{
	p += 0x9e3779b97f4a7c15ULL;
	p = (p ^ (p >> 30)) * 0xbf58476d1ce4e5b9ULL;
	p = (p ^ (p >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned char)(p ^ (p >> 31));
}

static __u64 rnd_state = 88172645463325252ULL;

static __u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

struct fixture {
	struct pulse_ring_model *rm;
	struct pulse_aux_model *am;
	struct pulse_aux aux;
	struct pulse_mmap ring;
	__u64 offered;		/* bytes offered to the model */
	/* from the AUX records of the normal ring */
	__u64 rec_bytes, recs, truncated, partial, collision, overwrite;
	__u64 last_offset;
};

static int fixture_init(struct fixture *f, size_t aux_size, bool snapshot)
{
	memset(f, 0, sizeof(*f));
	if (pulse_ring_model__new(&f->rm, 1 << 20, false))
		return -1;
	if (pulse_aux_model__new(&f->am, f->rm, aux_size, snapshot))
		return -1;
	if (pulse_aux__init_mem(&f->aux, pulse_ring_model__base(f->rm),
				pulse_aux_model__data(f->am), aux_size, snapshot))
		return -1;
	return pulse_mmap__init_mem(&f->ring, pulse_ring_model__base(f->rm), PAGE, 1 << 20, false);
}

static void fixture_exit(struct fixture *f)
{
	pulse_mmap__munmap(&f->ring);
	pulse_aux__munmap(&f->aux);
	pulse_aux_model__delete(f->am);
	pulse_ring_model__delete(f->rm);
}

/* The PMU writes @len bytes of the stream at its head, with @flags. */
static size_t produce(struct fixture *f, size_t len, __u64 flags)
{
	unsigned char buf[len ? len : 1];
	__u64 head = pulse_aux_model__head(f->am);

	for (size_t i = 0; i < len; i++)
		buf[i] = pat(head + i);
	f->offered += len;
	return pulse_aux_model__write(f->am, buf, len, flags);
}

/* Count the AUX records the normal ring holds. */
static void read_records(struct fixture *f)
{
	const struct perf_event_header *ev;
	__u64 v[3];

	if (pulse_mmap__read_init(&f->ring))
		return;
	while ((ev = pulse_mmap__read_event(&f->ring)) != NULL) {
		if (ev->type == PERF_RECORD_AUX) {
			memcpy(v, ev + 1, sizeof(v));
			f->recs++;
			f->rec_bytes += v[1];
			f->last_offset = v[0];
			f->truncated += !!(v[2] & PERF_AUX_FLAG_TRUNCATED);
			f->partial += !!(v[2] & PERF_AUX_FLAG_PARTIAL);
			f->collision += !!(v[2] & PERF_AUX_FLAG_COLLISION);
			f->overwrite += !!(v[2] & PERF_AUX_FLAG_OVERWRITE);
		}
		pulse_mmap__consume(&f->ring);
	}
	pulse_mmap__read_done(&f->ring);
}

/* Whether the chunk's bytes, from @skip on, are the stream's at their place. */
static bool chunk_ok(const struct pulse_aux_chunk *c, __u64 skip)
{
	__u64 pos = c->offset;

	for (int i = 0; i < c->cnt; i++) {
		const unsigned char *b = c->iov[i].iov_base;

		for (size_t j = 0; j < c->iov[i].iov_len; j++, pos++)
			if (pos - c->offset >= skip && b[j] != pat(pos))
				return false;
	}
	return true;
}

/* Full mode: read what is there; 1 if something was read, -1 on a bad chunk. */
static int consume(struct fixture *f, __u64 *expect)
{
	struct pulse_aux_chunk c;

	if (pulse_aux__read(&f->aux, &c))
		return 0;
	if (c.offset != *expect || !chunk_ok(&c, 0))
		return -1;
	*expect += c.size;
	pulse_aux__consume(&f->aux, &c);
	return 1;
}

static void test_aux__full_wraps(void)
{
	struct fixture f;
	struct pulse_aux_model_stats st;
	__u64 expect = 0;

	ASSERT_EQ(fixture_init(&f, 4096, false), 0);
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(produce(&f, 1000 + i, 0), 1000 + i);
		ASSERT_EQ(consume(&f, &expect), 1);
	}
	pulse_aux_model__stats(f.am, &st);
	read_records(&f);
	ASSERT_EQ(expect, st.written);
	ASSERT_EQ(f.aux.taken, st.written);
	ASSERT_EQ(f.rec_bytes, st.written);
	ASSERT_EQ(f.recs, 100);
	ASSERT_EQ(st.dropped, 0);
	ASSERT_EQ(f.truncated, 0);
	ASSERT_EQ(pulse_aux__read_head(&f.aux), f.aux.pc->aux_tail);
	fixture_exit(&f);
}

static void test_aux__full_truncated_stops(void)
{
	struct fixture f;
	struct pulse_aux_model_stats st;
	__u64 expect = 0;

	ASSERT_EQ(fixture_init(&f, 4096, false), 0);
	ASSERT_EQ(produce(&f, 3000, 0), 3000);
	/* CIRC_SPACE keeps one byte free */
	ASSERT_EQ(produce(&f, 3000, 0), 1095);
	ASSERT_TRUE(pulse_aux_model__stopped(f.am));
	ASSERT_EQ(produce(&f, 100, 0), 0);	/* stopped: dropped */
	read_records(&f);
	ASSERT_EQ(f.recs, 2);
	ASSERT_EQ(f.truncated, 1);
	ASSERT_EQ(consume(&f, &expect), 1);
	ASSERT_EQ(expect, 4095);
	pulse_aux_model__stats(f.am, &st);
	ASSERT_EQ(st.dropped, 3000 - 1095 + 100);
	ASSERT_EQ(st.written + st.dropped, f.offered);
	/* re-enabled: the stream goes on where it stopped */
	pulse_aux_model__enable(f.am);
	ASSERT_EQ(produce(&f, 2000, 0), 2000);
	ASSERT_EQ(consume(&f, &expect), 1);
	ASSERT_EQ(expect, 6095);
	/* full with no space at all: no record, the event stops */
	ASSERT_EQ(produce(&f, 4095, 0), 4095);
	ASSERT_EQ(produce(&f, 1, 0), 0);
	read_records(&f);
	ASSERT_EQ(f.recs, 4);
	ASSERT_TRUE(pulse_aux_model__stopped(f.am));
	fixture_exit(&f);
}

static void test_aux__flags_partial_collision(void)
{
	struct fixture f;

	ASSERT_EQ(fixture_init(&f, 4096, false), 0);
	produce(&f, 100, PERF_AUX_FLAG_PARTIAL);
	produce(&f, 100, PERF_AUX_FLAG_COLLISION);
	produce(&f, 0, PERF_AUX_FLAG_COLLISION);	/* a record with no data */
	read_records(&f);
	ASSERT_EQ(f.recs, 3);
	ASSERT_EQ(f.partial, 1);
	ASSERT_EQ(f.collision, 2);
	ASSERT_EQ(f.rec_bytes, 200);
	fixture_exit(&f);
}

static void test_aux__snapshot_overwrite(void)
{
	struct fixture f;
	struct pulse_aux_chunk c;

	ASSERT_EQ(fixture_init(&f, 4096, true), 0);
	ASSERT_EQ(pulse_aux__snapshot(&f.aux, 0, &c), -EAGAIN);
	for (int i = 0; i < 10; i++)
		produce(&f, 1000, 0);
	pulse_aux_model__pause(f.am, true);
	ASSERT_EQ(produce(&f, 10, 0), 0);	/* paused: dropped */
	ASSERT_EQ(pulse_aux__snapshot(&f.aux, 0, &c), 0);
	ASSERT_EQ(c.size, 4096);
	ASSERT_EQ(c.offset + c.size, 10000);
	ASSERT_EQ(c.overwritten, 10000 - 4096);
	ASSERT_TRUE(chunk_ok(&c, 0));
	ASSERT_EQ(pulse_aux__snapshot_check(&f.aux, &c), 0);
	pulse_aux__snapshot_done(&f.aux, &c);
	pulse_aux_model__pause(f.am, false);
	ASSERT_EQ(pulse_aux__snapshot(&f.aux, 0, &c), -EAGAIN);
	/* the next one has only what came since, and -S size limits it */
	produce(&f, 1500, 0);
	ASSERT_EQ(pulse_aux__snapshot(&f.aux, 1024, &c), 0);
	ASSERT_EQ(c.size, 1024);
	ASSERT_EQ(c.offset, 11500 - 1024);
	ASSERT_EQ(c.overwritten, 0);
	ASSERT_TRUE(chunk_ok(&c, 0));
	pulse_aux__snapshot_done(&f.aux, &c);
	read_records(&f);
	ASSERT_EQ(f.recs, 11);
	ASSERT_EQ(f.overwrite, 11);
	ASSERT_EQ(f.last_offset, 11500);	/* an overwrite record's offset is the new head */
	fixture_exit(&f);
}

static void test_aux__snapshot_torn_without_pause(void)
{
	struct fixture f;
	struct pulse_aux_chunk c;
	__u64 torn;

	ASSERT_EQ(fixture_init(&f, 4096, true), 0);
	produce(&f, 5000, 0);
	ASSERT_EQ(pulse_aux__snapshot(&f.aux, 0, &c), 0);
	/* the PMU writes on while the snapshot is read */
	produce(&f, 700, 0);
	torn = pulse_aux__snapshot_check(&f.aux, &c);
	ASSERT_EQ(torn, 700);
	ASSERT_TRUE(!chunk_ok(&c, 0));
	ASSERT_TRUE(chunk_ok(&c, torn));
	fixture_exit(&f);
}

/* The chunk holds the stream's bytes [end - size, end) (free-running @end). */
static bool chunk_is(const struct pulse_aux_chunk *c, __u64 end)
{
	__u64 pos = end - c->size;

	for (int i = 0; i < c->cnt; i++) {
		const unsigned char *b = c->iov[i].iov_base;

		for (size_t j = 0; j < c->iov[i].iov_len; j++, pos++)
			if (b[j] != pat(pos))
				return false;
	}
	return true;
}

/* aux_head inside the area (intel_pt, intel_bts snapshot mode), randomized */
static void test_aux__snapshot_masked_head(void)
{
	const char *env = getenv("PULSE_AUX_ROUNDS");
	int rounds = env ? atoi(env) : 200;

	for (int r = 0; r < rounds; r++) {
		struct fixture f;
		struct pulse_aux_chunk c;
		size_t size = (size_t)4096 << (rnd() % 4);
		__u64 taken_to = 0;

		ASSERT_EQ(fixture_init(&f, size, true), 0);
		pulse_aux_model__set_masked_head(f.am);
		pulse_aux__set_masked_head(&f.aux);
		ASSERT_EQ(pulse_aux__snapshot(&f.aux, 0, &c), -EAGAIN);
		for (int i = 0; i < 100; i++) {
			__u64 head;
			size_t max = rnd() % 4 ? 0 : rnd() % size + 1;

			produce(&f, rnd() % (size / 2) + 1, 0);
			if (rnd() % 3)
				continue;
			head = pulse_aux_model__head(f.am);
			ASSERT_TRUE(pulse_aux__read_head(&f.aux) < size);
			pulse_aux_model__pause(f.am, true);
			ASSERT_EQ(pulse_aux__snapshot(&f.aux, max, &c), 0);
			/* before the first wrap: since the last one; after: the whole area */
			if (head < size) {
				__u64 want = head - taken_to;

				ASSERT_EQ(c.size, max && max < want ? max : want);
			} else {
				ASSERT_EQ(c.size, max ? max : size);
			}
			ASSERT_TRUE(chunk_is(&c, head));
			/* perf's offset: the adjusted head less the size */
			ASSERT_EQ(c.offset % size, (head - c.size) % size);
			ASSERT_TRUE(c.offset + c.size <= 2 * size);
			pulse_aux__snapshot_done(&f.aux, &c);
			pulse_aux_model__pause(f.am, false);
			taken_to = head;
		}
		read_records(&f);
		ASSERT_TRUE(f.last_offset < size);
		fixture_exit(&f);
	}
}

/*
 * aux_head inside the area, with the PMU's AUX records counted
 * (pulse_aux__set_written(), as a flight recording does): each snapshot
 * takes what came since the last one, ending at aux_head, at most the area
 * or @max; nothing when nothing came, whatever laps came before (no byte
 * twice); what the area lost is counted as overwritten.
 */
static void test_aux__snapshot_masked_counted(void)
{
	const char *env = getenv("PULSE_AUX_ROUNDS");
	int rounds = env ? atoi(env) : 200;

	for (int r = 0; r < rounds; r++) {
		struct fixture f;
		struct pulse_aux_chunk c;
		size_t size = (size_t)4096 << (rnd() % 4);
		__u64 taken_to = 0, lost = 0;

		ASSERT_EQ(fixture_init(&f, size, true), 0);
		pulse_aux_model__set_masked_head(f.am);
		pulse_aux__set_masked_head(&f.aux);
		for (int i = 0; i < 100; i++) {
			__u64 head, since, want;
			size_t max = rnd() % 4 ? 0 : rnd() % size + 1;

			if (rnd() % 2)
				produce(&f, rnd() % (2 * size) + 1, 0);
			if (rnd() % 3)
				continue;
			head = pulse_aux_model__head(f.am);
			pulse_aux_model__pause(f.am, true);
			read_records(&f);
			pulse_aux__set_written(&f.aux, f.rec_bytes);
			since = f.rec_bytes - taken_to;
			if (!since) {
				ASSERT_EQ(pulse_aux__snapshot(&f.aux, max, &c), -EAGAIN);
				pulse_aux_model__pause(f.am, false);
				continue;
			}
			ASSERT_EQ(pulse_aux__snapshot(&f.aux, max, &c), 0);
			want = since < size ? since : size;
			ASSERT_EQ(c.overwritten, since - want);
			ASSERT_EQ(c.size, max && max < want ? max : want);
			ASSERT_TRUE(chunk_is(&c, head));
			ASSERT_TRUE(c.offset < size);
			pulse_aux__snapshot_done(&f.aux, &c);
			pulse_aux_model__pause(f.am, false);
			lost += since - c.size;
			taken_to = f.rec_bytes;
		}
		/* every byte the PMU wrote was taken once or counted out */
		ASSERT_EQ(f.aux.taken + lost, taken_to);
		fixture_exit(&f);
	}
}

/* Randomized full-mode rounds: writes, flags and reads in any order. */
static void test_aux__full_random(void)
{
	const char *env = getenv("PULSE_AUX_ROUNDS");
	int rounds = env ? atoi(env) : 200;

	for (int r = 0; r < rounds; r++) {
		struct fixture f;
		struct pulse_aux_model_stats st;
		size_t size = (size_t)256 << (rnd() % 6);
		__u64 expect = 0, flags_p = 0, flags_c = 0;

		ASSERT_EQ(fixture_init(&f, size, false), 0);
		for (int i = 0; i < 300; i++) {
			__u64 flags = 0;

			switch (rnd() % 8) {
			case 0:
				ASSERT_TRUE(consume(&f, &expect) >= 0);
				break;
			case 1:
				pulse_aux_model__enable(f.am);
				break;
			default:
				if (rnd() % 16 == 0)
					flags |= PERF_AUX_FLAG_PARTIAL, flags_p++;
				else if (rnd() % 16 == 0)
					flags |= PERF_AUX_FLAG_COLLISION, flags_c++;
				produce(&f, rnd() % (size / 2 + 1), flags);
			}
			if (rnd() % 4 == 0)
				read_records(&f);
		}
		while (consume(&f, &expect) > 0)
			;
		read_records(&f);
		pulse_aux_model__stats(f.am, &st);
		ASSERT_EQ(expect, st.written);
		ASSERT_EQ(f.aux.taken, st.written);
		ASSERT_EQ(f.rec_bytes, st.written);
		ASSERT_EQ(st.written + st.dropped, f.offered);
		ASSERT_EQ(f.recs, st.records);
		ASSERT_EQ(f.truncated, st.truncated);
		ASSERT_EQ(f.partial, st.partial);
		ASSERT_EQ(f.collision, st.collision);
		ASSERT_TRUE(f.partial <= flags_p && f.collision <= flags_c);
		ASSERT_EQ(f.aux.overwritten, 0);
		fixture_exit(&f);
	}
}

/* Randomized snapshot rounds: what each snapshot takes is the newest, whole. */
static void test_aux__snapshot_random(void)
{
	const char *env = getenv("PULSE_AUX_ROUNDS");
	int rounds = env ? atoi(env) : 200;

	for (int r = 0; r < rounds; r++) {
		struct fixture f;
		struct pulse_aux_model_stats st;
		size_t size = (size_t)256 << (rnd() % 6);
		__u64 taken = 0, lost = 0, skipped = 0, taken_to = 0;

		ASSERT_EQ(fixture_init(&f, size, true), 0);
		for (int i = 0; i < 300; i++) {
			struct pulse_aux_chunk c;
			size_t max = rnd() % 3 ? 0 : rnd() % size + 1;
			bool pause = rnd() % 4 != 0;

			if (rnd() % 3) {
				produce(&f, rnd() % (2 * size), 0);
				continue;
			}
			if (pause)
				pulse_aux_model__pause(f.am, true);
			if (pulse_aux__snapshot(&f.aux, max, &c) == 0) {
				__u64 torn;

				ASSERT_EQ(c.offset + c.size, pulse_aux_model__head(f.am));
				ASSERT_TRUE(c.offset >= taken_to);
				if (!pause)
					produce(&f, rnd() % size, 0);
				torn = pulse_aux__snapshot_check(&f.aux, &c);
				if (pause)
					ASSERT_EQ(torn, 0);
				ASSERT_TRUE(chunk_ok(&c, torn));
				taken += c.size;
				lost += c.overwritten;
				/* what -S's size left behind, still in the buffer */
				{
					__u64 avail = c.head - taken_to;

					ASSERT_EQ(c.overwritten, avail > size ? avail - size : 0);
					skipped += avail - c.overwritten - c.size;
				}
				taken_to = c.head;
				pulse_aux__snapshot_done(&f.aux, &c);
			}
			pulse_aux_model__pause(f.am, false);
		}
		pulse_aux_model__stats(f.am, &st);
		ASSERT_EQ(f.aux.taken, taken);
		ASSERT_EQ(f.aux.overwritten, lost);
		ASSERT_EQ(taken + lost + skipped, taken_to);
		ASSERT_EQ(st.written + st.dropped, f.offered);
		read_records(&f);
		ASSERT_EQ(f.recs, st.records);
		ASSERT_EQ(f.overwrite, st.records);
		fixture_exit(&f);
	}
}

/* A PMU thread and a consumer thread, full mode, the PMU re-enabled when it stops. */
struct stress {
	struct fixture f;
	__u64 total;
	int done;
	__u64 expect;
	bool bad;
};

static void *pmu_thread(void *arg)
{
	struct stress *s = arg;
	__u64 sent = 0;

	while (sent < s->total) {
		size_t n = rnd() % 3000 + 1;

		if (pulse_aux_model__stopped(s->f.am)) {
			/* the tool's re-enable: only once the consumer made room */
			if (pulse_aux__read_head(&s->f.aux) -
			    __atomic_load_n(&s->f.aux.pc->aux_tail, __ATOMIC_ACQUIRE) < 4096)
				pulse_aux_model__enable(s->f.am);
			continue;
		}
		sent += produce(&s->f, n, 0);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_aux__two_threads(void)
{
	static struct stress s;
	struct pulse_aux_model_stats st;
	pthread_t t;
	int ret;

	ASSERT_EQ(fixture_init(&s.f, 16384, false), 0);
	s.total = 64 << 20;
	ASSERT_EQ(pthread_create(&t, NULL, pmu_thread, &s), 0);
	for (;;) {
		int done = __atomic_load_n(&s.done, __ATOMIC_ACQUIRE);

		ret = consume(&s.f, &s.expect);
		if (ret < 0) {
			s.bad = true;
			break;
		}
		if (!ret && done)
			break;
	}
	pthread_join(t, NULL);
	ASSERT_TRUE(!s.bad);
	pulse_aux_model__stats(s.f.am, &st);
	ASSERT_EQ(s.expect, st.written);
	ASSERT_TRUE(st.written >= s.total);
	fixture_exit(&s.f);
}

/*
 * The kernel's side of the mapping: on an event whose PMU has no AUX area
 * (cpu-clock here; no hardware here has one), an AUX mmap that passes every
 * layout check of perf_mmap() fails in rb_alloc_aux() with EOPNOTSUPP, and
 * one at a bad aux_offset fails the checks with EINVAL.
 */
static void test_aux__kernel_mapping(void)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 100000,
					.disabled = 1 };
	long page = sysconf(_SC_PAGESIZE);
	struct pulse_aux aux;
	void *base;
	int fd;

	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		test__skip = "perf_event_open not permitted";
		return;
	}
	base = mmap(NULL, 9 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(base != MAP_FAILED);
	ASSERT_EQ(pulse_aux__mmap(&aux, base, fd, 9 * page, 16 * page, false), -EOPNOTSUPP);
	ASSERT_EQ(pulse_aux__mmap(&aux, base, fd, 9 * page, 16 * page, true), -EOPNOTSUPP);
	/* inside the data pages */
	ASSERT_EQ(pulse_aux__mmap(&aux, base, fd, 4 * page, 16 * page, false), -EINVAL);
	/* our own checks: not a power of two, not page aligned */
	ASSERT_EQ(pulse_aux__mmap(&aux, base, fd, 9 * page, 3 * page, false), -EINVAL);
	ASSERT_EQ(pulse_aux__mmap(&aux, base, fd, 9 * page + 8, 16 * page, false), -EINVAL);
	munmap(base, 9 * page);
	close(fd);
}

TEST_MAIN(TEST(test_aux__kernel_mapping),
	  TEST(test_aux__full_wraps),
	  TEST(test_aux__full_truncated_stops),
	  TEST(test_aux__flags_partial_collision),
	  TEST(test_aux__snapshot_overwrite),
	  TEST(test_aux__snapshot_torn_without_pause),
	  TEST(test_aux__full_random),
	  TEST(test_aux__snapshot_random),
	  TEST(test_aux__snapshot_masked_head),
	  TEST(test_aux__snapshot_masked_counted),
	  TEST(test_aux__two_threads))
