// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesized records: exact bytes against a fake /proc
 * (tests/data/proc-fake, see its README), perf 6.1's own bytes for the same
 * input, and sanity runs against the real /proc.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/synthesize.h>
#include "test.h"

struct rec {
	unsigned char *p;
	size_t len;
};

struct coll {
	struct rec *r;
	size_t nr, alloc;
	int fail_at;		/* return fail_ret on this call (1-based), 0: never */
	int fail_ret;
	bool bad_size;		/* a record whose header.size != len or not 8-aligned */
};

static int collect(const void *rec, size_t len, void *arg)
{
	struct coll *c = arg;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.size != len || len % 8)
		c->bad_size = true;
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->r = realloc(c->r, c->alloc * sizeof(*c->r));
	}
	c->r[c->nr].p = malloc(len);
	memcpy(c->r[c->nr].p, rec, len);
	c->r[c->nr].len = len;
	c->nr++;
	if (c->fail_at && (int)c->nr == c->fail_at)
		return c->fail_ret;
	return 0;
}

static void coll_free(struct coll *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->r[i].p);
	free(c->r);
	free(c);
}

static struct coll *coll_new(void)
{
	return calloc(1, sizeof(struct coll));
}

static const char *fake_proc(void)
{
	static char path[PATH_MAX / 2];
	const char *top = getenv("PULSE_TOP");

	snprintf(path, sizeof(path), "%s/tests/data/proc-fake", top ? top : ".");
	return path;
}

/* Expected records, laid out with C structs as perf's event.h declares them. */
struct x_comm {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[16];
};
struct x_fork {
	struct perf_event_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};
struct x_mmap2 {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[256];
};

static unsigned char xbuf[8192];

/* Build an expected record into xbuf; returns its size. */
static size_t x_comm(uint32_t pid, uint32_t tid, const char *comm, size_t id)
{
	struct x_comm r = { 0 };
	size_t n = (strlen(comm) + 1 + 7) & ~7ul;

	r.h.type = PERF_RECORD_COMM;
	r.h.size = offsetof(struct x_comm, comm) + n + id;
	r.pid = pid;
	r.tid = tid;
	strcpy(r.comm, comm);
	memset(xbuf, 0, sizeof(xbuf));
	memcpy(xbuf, &r, offsetof(struct x_comm, comm) + n);
	return r.h.size;
}

static size_t x_fork(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, size_t id)
{
	struct x_fork r = { 0 };

	r.h.type = PERF_RECORD_FORK;
	r.h.misc = PERF_RECORD_MISC_FORK_EXEC;
	r.h.size = sizeof(r) + id;
	r.pid = pid;
	r.ppid = ppid;
	r.tid = tid;
	r.ptid = ptid;
	memset(xbuf, 0, sizeof(xbuf));
	memcpy(xbuf, &r, sizeof(r));
	return r.h.size;
}

static size_t x_mmap2(uint16_t misc, uint32_t pid, uint64_t start, uint64_t end,
		      uint64_t pgoff, uint32_t maj, uint32_t min, uint64_t ino, uint32_t prot,
		      uint32_t flags, const char *fn, size_t id)
{
	struct x_mmap2 r = { 0 };
	size_t n = (strlen(fn) + 1 + 7) & ~7ul;

	r.h.type = PERF_RECORD_MMAP2;
	r.h.misc = misc;
	r.h.size = offsetof(struct x_mmap2, filename) + n + id;
	r.pid = r.tid = pid;
	r.start = start;
	r.len = end - start;
	r.pgoff = pgoff;
	r.maj = maj;
	r.min = min;
	r.ino = ino;
	r.prot = prot;
	r.flags = flags;
	strcpy(r.filename, fn);
	memset(xbuf, 0, sizeof(xbuf));
	memcpy(xbuf, &r, offsetof(struct x_mmap2, filename) + n);
	return r.h.size;
}

/* Record @i of @c must equal the expected record just built in xbuf. */
#define ASSERT_REC(c, i, size)                                                \
	do {                                                                  \
		size_t __i = (i), __s = (size);                               \
		ASSERT_TRUE(__i < (c)->nr);                                   \
		ASSERT_EQ((c)->r[__i].len, __s);                              \
		ASSERT_MEMEQ((c)->r[__i].p, xbuf, __s);                       \
	} while (0)

#define U (PERF_RECORD_MISC_USER)
#define D (PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA)
#define RX (PROT_READ | PROT_EXEC)

/* The executable maps of fake pid 100, in file order (id: trailer size). */
static void check_pid100_exec_maps(struct coll *c, size_t first, size_t id)
{
	size_t i = first;

	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x55d0c0a02000, 0x55d0c0a05000, 0x2000, 0xfe, 0, 1234,
				   RX, MAP_PRIVATE, "/usr/bin/fake", id));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x7f0000000000, 0x7f0000001000, 0, 0, 0, 0, RX,
				   MAP_PRIVATE, "//anon", id));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x7f0000100000, 0x7f0000200000, 0x10000, 0x103, 2,
				   987654321, RX, MAP_SHARED,
				   "/opt/lib with space/libx.so (deleted)", id));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x7f0000400000, 0x7f0000500000, 0, 0, 0xf, 4242, RX,
				   MAP_PRIVATE | MAP_HUGETLB, "//anon", id));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x7ffd000fe000, 0x7ffd00100000, 0, 0, 0, 0, RX,
				   MAP_PRIVATE, "[vdso]", id));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0xffffffffff600000, 0xffffffffff601000, 0, 0, 0, 0,
				   PROT_EXEC, MAP_PRIVATE, "[vsyscall]", id));
}

static void test_synthesize__task_fake(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc() };
	struct coll *c = coll_new();

	ASSERT_EQ(pulse_synthesize__task(100, &opts, collect, c), 0);
	/* -p mode: COMM per thread, no FORK, the leader's maps after its COMM. */
	ASSERT_EQ(c->nr, 8);
	ASSERT_REC(c, 0, x_comm(100, 100, "fakeproc", 0));
	check_pid100_exec_maps(c, 1, 0);
	if (test__failed)
		goto out;
	/* Truncated to TASK_COMM_LEN - 1 as the kernel does. */
	ASSERT_REC(c, 7, x_comm(100, 101, "fake worker thr", 0));
	ASSERT_TRUE(!c->bad_size);
out:
	coll_free(c);
}

static void test_synthesize__task_mmap_data(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc(),
					 .mmap_data = true };
	struct coll *c = coll_new();
	size_t i = 1;

	ASSERT_EQ(pulse_synthesize__task(100, &opts, collect, c), 0);
	/* + r--p, rw-p, [heap], [stack]; not the ---p guard page. */
	ASSERT_EQ(c->nr, 12);
	ASSERT_REC(c, i++, x_mmap2(D, 100, 0x55d0c0a00000, 0x55d0c0a02000, 0, 0xfe, 0, 1234,
				   PROT_READ, MAP_PRIVATE, "/usr/bin/fake", 0));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x55d0c0a02000, 0x55d0c0a05000, 0x2000, 0xfe, 0, 1234,
				   RX, MAP_PRIVATE, "/usr/bin/fake", 0));
	ASSERT_REC(c, i++, x_mmap2(D, 100, 0x55d0c0a05000, 0x55d0c0a06000, 0x5000, 0xfe, 0, 1234,
				   PROT_READ | PROT_WRITE, MAP_PRIVATE, "/usr/bin/fake", 0));
	ASSERT_REC(c, i++, x_mmap2(D, 100, 0x55d0c1000000, 0x55d0c1021000, 0, 0, 0, 0,
				   PROT_READ | PROT_WRITE, MAP_PRIVATE, "[heap]", 0));
	i += 3;		/* anon, libx, hugetlbfs: as without -d */
	ASSERT_REC(c, i++, x_mmap2(D, 100, 0x7ffd00000000, 0x7ffd00021000, 0, 0, 0, 0,
				   PROT_READ | PROT_WRITE, MAP_PRIVATE, "[stack]", 0));
	ASSERT_REC(c, i++, x_mmap2(U, 100, 0x7ffd000fe000, 0x7ffd00100000, 0, 0, 0, 0, RX,
				   MAP_PRIVATE, "[vdso]", 0));
	coll_free(c);
}

static void test_synthesize__all_fake(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc(), .id_size = 32 };
	struct coll *c = coll_new();
	size_t i = 0;

	ASSERT_EQ(pulse_synthesize__all(&opts, collect, c), 0);
	/* 2, 30: FORK+COMM; 7: gone; 100: 2x(FORK+COMM) + 6 maps; 1164: FORK+COMM+1 map */
	ASSERT_EQ(c->nr, 2 + 2 + 10 + 3);
	ASSERT_REC(c, i++, x_fork(2, 0, 2, 0, 32));
	ASSERT_REC(c, i++, x_comm(2, 2, "kthreadd", 32));
	/* The kernel thread's maps file is there but must be ignored. */
	ASSERT_REC(c, i++, x_fork(30, 2, 30, 2, 32));
	ASSERT_REC(c, i++, x_comm(30, 30, "ksoftirqd/0", 32));
	ASSERT_REC(c, i++, x_fork(100, 1, 100, 1, 32));
	ASSERT_REC(c, i++, x_comm(100, 100, "fakeproc", 32));
	check_pid100_exec_maps(c, i, 32);
	i += 6;
	/* Other threads are forked by the leader. */
	ASSERT_REC(c, i++, x_fork(100, 100, 101, 100, 32));
	ASSERT_REC(c, i++, x_comm(100, 101, "fake worker thr", 32));
	ASSERT_REC(c, i++, x_fork(1164, 1163, 1164, 1163, 32));
	ASSERT_TRUE(!c->bad_size);
	coll_free(c);
}

/* Raw bytes perf 6.1 wrote (perf report -D) for bash 1164 and the kernel. */
static const unsigned char perf_fork_1164[64] = {
	0x07, 0x00, 0x00, 0x00, 0x00, 0x20, 0x40, 0x00, 0x8c, 0x04, 0x00, 0x00, 0x8b, 0x04, 0x00, 0x00,
	0x8c, 0x04, 0x00, 0x00, 0x8b, 0x04, 0x00, 0x00,
};
static const unsigned char perf_comm_1164[56] = {
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x38, 0x00, 0x8c, 0x04, 0x00, 0x00, 0x8c, 0x04, 0x00, 0x00,
	0x62, 0x61, 0x73, 0x68,
};
static const unsigned char perf_mmap2_1164[120] = {
	0x0a, 0x00, 0x00, 0x00, 0x02, 0x00, 0x78, 0x00, 0x8c, 0x04, 0x00, 0x00, 0x8c, 0x04, 0x00, 0x00,
	0x00, 0x40, 0x36, 0x22, 0x4d, 0x56, 0x00, 0x00, 0x00, 0x10, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0xf0, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x3d, 0xc5, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x05, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x2f, 0x75, 0x73, 0x72, 0x2f, 0x62, 0x69, 0x6e,
	0x2f, 0x62, 0x61, 0x73, 0x68,
};
static const unsigned char perf_kernel_mmap[96] = {
	0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x60, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, 0x08, 0xbb, 0x20, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, 0x5b, 0x6b, 0x65, 0x72, 0x6e, 0x65, 0x6c, 0x2e,
	0x6b, 0x61, 0x6c, 0x6c, 0x73, 0x79, 0x6d, 0x73, 0x5d, 0x5f, 0x74, 0x65, 0x78, 0x74,
};

static void test_synthesize__matches_perf(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc(), .id_size = 32 };
	struct coll *c = coll_new();
	size_t n;

	ASSERT_EQ(pulse_synthesize__all(&opts, collect, c), 0);
	n = c->nr;
	ASSERT_TRUE(n >= 3);
	ASSERT_EQ(c->r[n - 3].len, sizeof(perf_fork_1164));
	ASSERT_MEMEQ(c->r[n - 3].p, perf_fork_1164, sizeof(perf_fork_1164));
	ASSERT_EQ(c->r[n - 2].len, sizeof(perf_comm_1164));
	ASSERT_MEMEQ(c->r[n - 2].p, perf_comm_1164, sizeof(perf_comm_1164));
	ASSERT_EQ(c->r[n - 1].len, sizeof(perf_mmap2_1164));
	ASSERT_MEMEQ(c->r[n - 1].p, perf_mmap2_1164, sizeof(perf_mmap2_1164));
	coll_free(c);

	c = coll_new();
	ASSERT_EQ(pulse_synthesize__kernel_mmap(&opts, collect, c), 0);
	ASSERT_EQ(c->nr, 1);
	ASSERT_EQ(c->r[0].len, sizeof(perf_kernel_mmap));
	ASSERT_MEMEQ(c->r[0].p, perf_kernel_mmap, sizeof(perf_kernel_mmap));
	coll_free(c);
}

static void test_synthesize__kernel_mmap_errors(void)
{
	char path[PATH_MAX + 32];
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = path };
	struct coll *c = coll_new();

	snprintf(path, sizeof(path), "%s/restricted", fake_proc());
	ASSERT_EQ(pulse_synthesize__kernel_mmap(&opts, collect, c), -EACCES);
	snprintf(path, sizeof(path), "%s/100", fake_proc());
	ASSERT_EQ(pulse_synthesize__kernel_mmap(&opts, collect, c), -ENOENT);
	ASSERT_EQ(c->nr, 0);
	coll_free(c);
}

static void test_synthesize__comm(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc(), .id_size = 8 };
	struct coll *c = coll_new();

	ASSERT_EQ(pulse_synthesize__comm(1164, &opts, collect, c), 0);
	ASSERT_EQ(c->nr, 1);
	ASSERT_REC(c, 0, x_comm(1164, 1164, "bash", 8));
	ASSERT_EQ(pulse_synthesize__comm(7, &opts, collect, c), -ENOENT);
	ASSERT_EQ(pulse_synthesize__task(12345, &opts, collect, c), -ENOENT);
	ASSERT_EQ(c->nr, 1);
	coll_free(c);
}

static void test_synthesize__callback_stops(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc() };
	struct coll *c = coll_new();

	c->fail_at = 5;
	c->fail_ret = -ENOSPC;
	ASSERT_EQ(pulse_synthesize__all(&opts, collect, c), -ENOSPC);
	ASSERT_EQ(c->nr, 5);
	coll_free(c);
}

static void test_synthesize__bad_opts(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .proc = fake_proc(), .id_size = 12 };
	struct coll *c = coll_new();

	ASSERT_EQ(pulse_synthesize__all(&opts, collect, c), -EINVAL);
	ASSERT_EQ(pulse_synthesize__task(100, &opts, NULL, c), -EINVAL);
	ASSERT_EQ(c->nr, 0);
	coll_free(c);
}

static void test_synthesize__self(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .id_size = 16 };
	struct coll *c = coll_new();
	char exe[PATH_MAX], comm[32] = "";
	uintptr_t here = (uintptr_t)test_synthesize__self;
	bool found_comm = false, found_exe = false;
	ssize_t n;
	FILE *f;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	f = fopen("/proc/self/comm", "r");
	ASSERT_TRUE(f && fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';

	ASSERT_EQ(pulse_synthesize__task(getpid(), &opts, collect, c), 0);
	ASSERT_TRUE(!c->bad_size);
	for (size_t i = 0; i < c->nr; i++) {
		const unsigned char *p = c->r[i].p;
		struct perf_event_header h;
		uint32_t pid, tid;

		memcpy(&h, p, sizeof(h));
		memcpy(&pid, p + 8, 4);
		memcpy(&tid, p + 12, 4);
		ASSERT_EQ(pid, getpid());
		if (h.type == PERF_RECORD_COMM && tid == (uint32_t)getpid())
			found_comm = !strcmp((const char *)p + 16, comm);
		if (h.type == PERF_RECORD_MMAP2 && !strcmp((const char *)p + 72, exe)) {
			uint64_t start, len;
			uint32_t prot;

			memcpy(&start, p + 16, 8);
			memcpy(&len, p + 24, 8);
			memcpy(&prot, p + 64, 4);
			ASSERT_TRUE(prot & PROT_EXEC);
			if (here >= start && here < start + len)
				found_exe = true;
		}
		/* the trailer stands for sample_id and is zero */
		for (size_t k = c->r[i].len - 16; k < c->r[i].len; k++)
			ASSERT_EQ(p[k], 0);
	}
	ASSERT_TRUE(found_comm);
	ASSERT_TRUE(found_exe);
	coll_free(c);
}

static pthread_mutex_t thr_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t thr_cond = PTHREAD_COND_INITIALIZER;
static int thr_tid;
static bool thr_stop;

static void *thr_main(void *arg)
{
	pthread_setname_np(pthread_self(), "synth-helper");
	pthread_mutex_lock(&thr_lock);
	thr_tid = (int)syscall(SYS_gettid);
	pthread_cond_broadcast(&thr_cond);
	while (!thr_stop)
		pthread_cond_wait(&thr_cond, &thr_lock);
	pthread_mutex_unlock(&thr_lock);
	return NULL;
}

/* -t of a non-leader thread: its COMM, then its leader's COMM and maps. */
static void test_synthesize__thread(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts) };
	struct coll *c = coll_new();
	uint32_t pid, tid;
	pthread_t t;
	size_t maps = 0;

	ASSERT_EQ(pthread_create(&t, NULL, thr_main, NULL), 0);
	pthread_mutex_lock(&thr_lock);
	while (!thr_tid)
		pthread_cond_wait(&thr_cond, &thr_lock);
	pthread_mutex_unlock(&thr_lock);

	ASSERT_EQ(pulse_synthesize__thread(thr_tid, &opts, collect, c), 0);
	pthread_mutex_lock(&thr_lock);
	thr_stop = true;
	pthread_cond_broadcast(&thr_cond);
	pthread_mutex_unlock(&thr_lock);
	pthread_join(t, NULL);

	ASSERT_TRUE(c->nr > 2);
	ASSERT_REC(c, 0, x_comm(getpid(), thr_tid, "synth-helper", 0));
	memcpy(&pid, c->r[1].p + 8, 4);
	memcpy(&tid, c->r[1].p + 12, 4);
	ASSERT_EQ(c->r[1].p[0], PERF_RECORD_COMM);
	ASSERT_EQ(pid, getpid());
	ASSERT_EQ(tid, getpid());
	for (size_t i = 2; i < c->nr; i++) {
		ASSERT_EQ(c->r[i].p[0], PERF_RECORD_MMAP2);
		memcpy(&tid, c->r[i].p + 12, 4);
		ASSERT_EQ(tid, getpid());
		maps++;
	}
	ASSERT_TRUE(maps > 0);

	/* The leader itself: COMM and maps, no second COMM. */
	coll_free(c);
	c = coll_new();
	ASSERT_EQ(pulse_synthesize__thread(getpid(), &opts, collect, c), 0);
	ASSERT_EQ(c->r[0].p[0], PERF_RECORD_COMM);
	ASSERT_EQ(c->nr, 1 + maps);
	coll_free(c);
}

static void test_synthesize__real_all_and_kernel(void)
{
	struct pulse_synth_opts opts = { .sz = sizeof(opts), .id_size = 24 };
	struct coll *c = coll_new();
	size_t forks = 0, comms = 0, self = 0;
	uint64_t start, len, pgoff;
	int err;

	ASSERT_EQ(pulse_synthesize__all(&opts, collect, c), 0);
	ASSERT_TRUE(!c->bad_size);
	for (size_t i = 0; i < c->nr; i++) {
		struct perf_event_header h;
		uint32_t pid;

		memcpy(&h, c->r[i].p, sizeof(h));
		memcpy(&pid, c->r[i].p + 8, 4);
		forks += h.type == PERF_RECORD_FORK;
		comms += h.type == PERF_RECORD_COMM;
		self += h.type == PERF_RECORD_MMAP2 && pid == (uint32_t)getpid();
	}
	ASSERT_TRUE(comms > 1);
	ASSERT_EQ(forks, comms);
	ASSERT_TRUE(self > 0);
	coll_free(c);

	c = coll_new();
	err = pulse_synthesize__kernel_mmap(&opts, collect, c);
	if (err == -EACCES) {
		test__skip = "kallsyms addresses hidden";
		coll_free(c);
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_EQ(c->nr, 1);
	memcpy(&start, c->r[0].p + 16, 8);
	memcpy(&len, c->r[0].p + 24, 8);
	memcpy(&pgoff, c->r[0].p + 32, 8);
	ASSERT_EQ(start, pgoff);
	ASSERT_TRUE(start >= 0xffff800000000000ull);
	ASSERT_TRUE(len > 0 && len < (1ull << 32));
	ASSERT_STREQ((const char *)c->r[0].p + 40, "[kernel.kallsyms]_text");
	ASSERT_EQ(c->r[0].len, 40 + 24 + 24);
	coll_free(c);
}

TEST_MAIN(TEST(test_synthesize__task_fake), TEST(test_synthesize__task_mmap_data),
	  TEST(test_synthesize__all_fake), TEST(test_synthesize__matches_perf),
	  TEST(test_synthesize__kernel_mmap_errors), TEST(test_synthesize__comm),
	  TEST(test_synthesize__callback_stops), TEST(test_synthesize__bad_opts),
	  TEST(test_synthesize__self), TEST(test_synthesize__thread),
	  TEST(test_synthesize__real_all_and_kernel))
