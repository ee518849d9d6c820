// SPDX-License-Identifier: GPL-2.0
/*
 * The machine model: threads/maps (overlaps, fork, shared maps,
 * resolution, the resolve cache, JIT maps), and the time ordering queue
 * under many rounds of interleaved per-CPU runs. Moved out of
 * test-symbols.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pulse/symbols.h>
#include <pulse/machine.h>
#include <pulse/ordering.h>
#include <pulse/build-id.h>
#include "test.h"

/* a queue, or NULL */
static struct pulse_ordered *ordered_new(pulse_ordered_fn fn, void *arg)
{
	struct pulse_ordered *q;

	return pulse_ordered__new(&q, fn, arg) ? NULL : q;
}

static void test_machine__maps_overlap(void)
{
	struct pulse_maps maps = { .refcnt = 1 };
	struct pulse_map m = { .start = 0x1000, .end = 0x5000, .pgoff = 0 };
	const struct pulse_map *f;

	ASSERT_EQ(pulse_maps__insert(&maps, &m), 0);
	m = (struct pulse_map){ .start = 0x2000, .end = 0x3000, .pgoff = 0x10000 };
	ASSERT_EQ(pulse_maps__insert(&maps, &m), 0);
	ASSERT_EQ(maps.nr, 3);
	f = pulse_maps__find(&maps, 0x1fff);
	ASSERT_EQ(f->start, 0x1000);
	ASSERT_EQ(f->end, 0x2000);
	f = pulse_maps__find(&maps, 0x2800);
	ASSERT_EQ(f->pgoff, 0x10000);
	ASSERT_EQ(pulse_map__map_ip(f, 0x2800), 0x10800);
	f = pulse_maps__find(&maps, 0x3000);
	ASSERT_EQ(f->start, 0x3000);
	ASSERT_EQ(f->pgoff, 0x2000);	/* the tail keeps its file offsets */
	ASSERT_TRUE(pulse_maps__find(&maps, 0x5000) == NULL);
	/* one map covering everything replaces all three */
	m = (struct pulse_map){ .start = 0, .end = 0x10000 };
	ASSERT_EQ(pulse_maps__insert(&maps, &m), 0);
	ASSERT_EQ(maps.nr, 1);
	free(maps.maps);
}

/* Build records the way the kernel lays them out. */
static size_t rec_comm(char *buf, uint32_t pid, uint32_t tid, const char *comm, uint16_t misc)
{
	struct perf_event_header h = { PERF_RECORD_COMM, misc, 0 };
	size_t len = 16 + ((strlen(comm) + 8) & ~7UL);

	memset(buf, 0, len);
	h.size = len;
	memcpy(buf, &h, 8);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	strcpy(buf + 16, comm);
	return len;
}

static size_t rec_fork(char *buf, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
		       uint32_t ptid)
{
	struct perf_event_header h = { type, 0, 40 };

	memset(buf, 0, 40);
	memcpy(buf, &h, 8);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &ppid, 4);
	memcpy(buf + 16, &tid, 4);
	memcpy(buf + 20, &ptid, 4);
	return 40;
}

static size_t rec_mmap2(char *buf, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
			const char *file, uint16_t cpumode)
{
	struct perf_event_header h = { PERF_RECORD_MMAP2, cpumode, 0 };
	uint32_t prot = PROT_READ | PROT_EXEC;
	size_t size = 72 + ((strlen(file) + 8) & ~7UL);

	memset(buf, 0, size);
	h.size = size;
	memcpy(buf, &h, 8);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &pid, 4);
	memcpy(buf + 16, &start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &pgoff, 8);
	memcpy(buf + 64, &prot, 4);
	strcpy(buf + 72, file);
	return size;
}

static void test_machine__threads_and_resolve(void)
{
	struct pulse_machine m;
	struct pulse_addr_loc al;
	struct pulse_thread *t;
	char buf[512];

	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	rec_comm(buf, 100, 100, "parent", 0);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	rec_mmap2(buf, 100, 0x400000, 0x1000, 0x2000, "/no/such/libfoo.so", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	/* a new process: copies the maps and the comm */
	rec_fork(buf, PERF_RECORD_FORK, 200, 100, 200, 100);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	/* a new thread of 200: shares its maps */
	rec_fork(buf, PERF_RECORD_FORK, 200, 200, 201, 200);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	t = pulse_machine__find_thread(&m, 201);
	ASSERT_TRUE(t != NULL);
	ASSERT_STREQ(t->comm, "parent");
	ASSERT_TRUE(t->maps == pulse_machine__find_thread(&m, 200)->maps);
	ASSERT_TRUE(t->maps != pulse_machine__find_thread(&m, 100)->maps);
	rec_mmap2(buf, 200, 0x500000, 0x1000, 0, "/no/such/other.so", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);

	ASSERT_EQ(pulse_machine__resolve(&m, 200, 201, PERF_RECORD_MISC_USER, 0x400010, &al), 0);
	ASSERT_TRUE(al.dso != NULL);
	ASSERT_STREQ(al.dso->short_name, "libfoo.so");
	ASSERT_EQ(al.addr, 0x2010);
	ASSERT_EQ(al.level, '.');
	ASSERT_TRUE(al.sym == NULL);
	ASSERT_EQ(pulse_machine__resolve(&m, 200, 201, PERF_RECORD_MISC_USER, 0x500010, &al), 0);
	ASSERT_STREQ(al.dso->short_name, "other.so");
	/* the parent never saw the child's mmap */
	ASSERT_EQ(pulse_machine__resolve(&m, 100, 100, PERF_RECORD_MISC_USER, 0x500010, &al), 0);
	ASSERT_TRUE(al.dso == NULL);
	ASSERT_EQ(al.addr, 0x500010);
	/* an unknown thread reads ":tid" */
	ASSERT_EQ(pulse_machine__resolve(&m, 300, 301, PERF_RECORD_MISC_USER, 0x1, &al), 0);
	ASSERT_STREQ(al.thread->comm, ":301");
	/* kernel: identity addresses on the kernel map */
	rec_mmap2(buf, -1, 0xffffffff81000000ULL, 0x1000000, 0xffffffff81000000ULL,
		  "[kernel.kallsyms]_text", PERF_RECORD_MISC_KERNEL);
	((struct perf_event_header *)buf)->type = PERF_RECORD_MMAP2;
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_EQ(pulse_machine__resolve(&m, 100, 100, PERF_RECORD_MISC_KERNEL,
					 0xffffffff81000123ULL, &al), 0);
	ASSERT_STREQ(al.dso->short_name, "[kernel.kallsyms]");
	ASSERT_EQ(al.addr, 0xffffffff81000123ULL);
	ASSERT_EQ(al.level, 'k');
	/* an exec changes the comm of that thread only */
	rec_comm(buf, 200, 201, "worker", PERF_RECORD_MISC_COMM_EXEC);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_STREQ(pulse_machine__find_thread(&m, 201)->comm, "worker");
	ASSERT_STREQ(pulse_machine__find_thread(&m, 200)->comm, "parent");
	pulse_machine__exit(&m);
}

/*
 * The resolve cache never answers from maps that changed: a map laid over
 * a cached address, a process replaced by a fork of the same tid.
 */
static void test_machine__resolve_cache(void)
{
	struct pulse_cc_cursor cur = { 0 };
	struct pulse_machine m;
	struct pulse_addr_loc al;
	char buf[512];

	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	rec_mmap2(buf, 100, 0x400000, 0x1000, 0, "/no/such/a.so", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(pulse_machine__resolve(&m, 100, 100, PERF_RECORD_MISC_USER, 0x400010,
						 &al), 0);
		ASSERT_STREQ(al.dso->short_name, "a.so");
	}
	rec_mmap2(buf, 100, 0x400000, 0x1000, 0x1000, "/no/such/b.so", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_EQ(pulse_machine__resolve(&m, 100, 100, PERF_RECORD_MISC_USER, 0x400010, &al), 0);
	ASSERT_STREQ(al.dso->short_name, "b.so");
	ASSERT_EQ(al.addr, 0x1010);
	/* a frame carries its hash, from a miss and from a hit of the cache */
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(pulse_machine__resolve_callchain(&m, 100, 100, (uint64_t[]){ 0x400010 },
							   1, PULSE_CC_CALLEE, &cur), 0);
		ASSERT_EQ(cur.nr, 1);
		ASSERT_STREQ(cur.locs[0].dso->short_name, "b.so");
		ASSERT_EQ(cur.locs[0].hash, pulse_cc_loc__hash(cur.locs[0].dso, cur.locs[0].sym,
							       0x400010));
	}
	/* a new process with that pid: no maps, whatever the cache held */
	rec_fork(buf, PERF_RECORD_FORK, 100, 1, 100, 1);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_EQ(pulse_machine__resolve(&m, 100, 100, PERF_RECORD_MISC_USER, 0x400010, &al), 0);
	ASSERT_TRUE(al.dso == NULL);
	ASSERT_EQ(pulse_machine__resolve_callchain(&m, 100, 100, (uint64_t[]){ 0x400010 }, 1,
						   PULSE_CC_CALLEE, &cur), 0);
	ASSERT_EQ(cur.nr, 1);
	ASSERT_TRUE(cur.locs[0].dso == NULL);
	pulse_cc_cursor__exit(&cur);
	pulse_machine__exit(&m);
}

/* the context-marker walk: each address in the mode of the marker before it */
static void test_cc_iter(void)
{
	uint64_t ips[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL, PERF_CONTEXT_USER,
			   0x400010, PERF_CONTEXT_HV, 0x10, PERF_CONTEXT_GUEST, 0x20 };
	struct pulse_cc_iter it;
	uint64_t ip;

	pulse_cc_iter__init(&it, ips, 2);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 1);
	ASSERT_EQ(ip, 0xffffffff81000000ULL);
	ASSERT_EQ(it.cpumode, PERF_RECORD_MISC_KERNEL);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 0);

	pulse_cc_iter__init(&it, ips, sizeof(ips) / sizeof(ips[0]));
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 1);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 1);
	ASSERT_EQ(ip, 0x400010);
	ASSERT_EQ(it.cpumode, PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 1);
	ASSERT_EQ(it.cpumode, PERF_RECORD_MISC_HYPERVISOR);
	/* a marker perf does not know: -EINVAL, then the walk goes on in the last mode */
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), -EINVAL);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 1);
	ASSERT_EQ(ip, 0x20);
	ASSERT_EQ(it.cpumode, PERF_RECORD_MISC_HYPERVISOR);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 0);

	/* no chain: user mode, nothing */
	pulse_cc_iter__init(&it, NULL, 5);
	ASSERT_EQ(it.cpumode, PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_cc_iter__next(&it, &ip), 0);
}

/*
 * pulse_machine__sample_callchain() without a stack to unwind is the
 * sample's callchain: each frame with its address in the DSO; max_stack
 * keeps the innermost (callee) or outermost (caller) frames; an event
 * without PERF_SAMPLE_CALLCHAIN has none; a DWARF sample with max_stack 0
 * fails as perf's unwinders refuse it.
 */
static void test_machine__sample_callchain(void)
{
	uint64_t ips[] = { PERF_CONTEXT_USER, 0x400010, 0x400020, 0x400030 };
	uint64_t regs[1] = { 0x400010 }, stack[4] = { 0 };
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_CALLCHAIN };
	struct pulse_sample smp = { .pid = 100, .tid = 100, .callchain = ips, .callchain_nr = 4 };
	struct pulse_cc_cursor cur = { 0 };
	struct pulse_machine m;
	char buf[512];

	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	rec_mmap2(buf, 100, 0x400000, 0x1000, 0x3000, "/no/such/c.so", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLEE, &cur), 0);
	ASSERT_EQ(cur.nr, 3);
	ASSERT_EQ(cur.locs[0].ip, 0x400010);
	ASSERT_EQ(cur.locs[0].addr, 0x3010);
	ASSERT_EQ(cur.locs[0].cpumode, PERF_RECORD_MISC_USER);
	ASSERT_EQ(cur.locs[0].level, '.');
	ASSERT_EQ(cur.locs[2].addr, 0x3030);
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLER, &cur), 0);
	ASSERT_EQ(cur.nr, 3);
	ASSERT_EQ(cur.locs[0].ip, 0x400030);

	m.max_stack = 2;
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLEE, &cur), 0);
	ASSERT_EQ(cur.nr, 2);
	ASSERT_EQ(cur.locs[1].ip, 0x400020);
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLER, &cur), 0);
	ASSERT_EQ(cur.nr, 2);
	ASSERT_EQ(cur.locs[0].ip, 0x400030);
	ASSERT_EQ(cur.locs[1].ip, 0x400020);

	/* registers and an empty stack copy (dyn_size 0): nothing to unwind */
	attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = 1ULL << 8;	/* IP */
	smp.user_abi = PERF_SAMPLE_REGS_ABI_64;
	smp.user_regs = regs;
	smp.user_stack = stack;
	smp.user_stack_size = 0;
	m.max_stack = 0;
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLEE, &cur), 0);
	ASSERT_EQ(cur.nr, 0);
	smp.user_stack_size = sizeof(stack);
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLEE, &cur),
		  -EINVAL);

	/* no PERF_SAMPLE_CALLCHAIN: the sample's chain pointer is not read */
	attr.sample_type = 0;
	m.max_stack = PULSE_MAX_STACK;
	ASSERT_EQ(pulse_machine__sample_callchain(&m, &attr, &smp, PULSE_CC_CALLEE, &cur), 0);
	ASSERT_EQ(cur.nr, 0);
	pulse_cc_cursor__exit(&cur);
	pulse_machine__exit(&m);
}

static void test_machine__jit_map(void)
{
	struct pulse_machine m;
	struct pulse_addr_loc al;
	char buf[512], path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", 999999);
	f = fopen(path, "w");
	if (!f) {
		test__skip = "cannot write /tmp";
		return;
	}
	fputs("7f0000001000 100 jitted_fn\n", f);
	fclose(f);
	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	rec_mmap2(buf, 999999, 0x7f0000000000ULL, 0x10000, 0, "//anon", PERF_RECORD_MISC_USER);
	ASSERT_EQ(pulse_machine__process(&m, (void *)buf), 0);
	ASSERT_EQ(pulse_machine__resolve(&m, 999999, 999999, PERF_RECORD_MISC_USER,
					 0x7f0000001010ULL, &al), 0);
	unlink(path);
	ASSERT_TRUE(al.dso != NULL);
	ASSERT_STREQ(al.dso->short_name, "[JIT] tid 999999");
	ASSERT_TRUE(al.sym != NULL);
	ASSERT_STREQ(al.sym->name, "jitted_fn");
	pulse_machine__exit(&m);
}

struct order_check {
	uint64_t last_ts;	/* of the previous delivery */
	uint64_t last_off;	/* its arrival number */
	uint64_t *ts_of;	/* arrival number -> timestamp */
	size_t n;		/* delivered */
	int bad;		/* out-of-order deliveries */
};

static int order_check(const struct perf_event_header *rec, uint64_t off, void *arg)
{
	struct order_check *c = arg;
	uint64_t ts = c->ts_of[off];

	/* the record's payload is its arrival number: the copy must be intact */
	if (rec->size != 16 || *(const uint64_t *)(rec + 1) != off)
		c->bad++;
	if (c->n && (ts < c->last_ts || (ts == c->last_ts && off < c->last_off)))
		c->bad++;
	c->last_ts = ts;
	c->last_off = off;
	c->n++;
	return 0;
}

/*
 * Many rounds as a recording has them: two CPUs each bring an ascending
 * run, the runs overlap each other and the next round, timestamps repeat.
 * Every record must come out once, in (timestamp, arrival) order, and a
 * round must not hold back more than two rounds' worth.
 */
/*
 * What a walk loads while it waits for kallsyms: the user DSOs with a
 * build-id (the BUILD_ID table's), one a call, symbols and, for a
 * recording that unwinds, the unwinder's and the inline cache's too.
 */
static void test_machine__preload(void)
{
	unsigned char id[PULSE_BUILD_ID_SIZE];
	struct pulse_machine m;
	struct pulse_dso *self, *other;
	char exe[4096];
	size_t len = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	ASSERT_EQ(pulse_build_id__read_file(exe, id, &len), 0);
	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	other = pulse_dsos__findnew(&m.dsos, "/nonexistent/libnobuildid.so", PULSE_DSO_USER);
	ASSERT_EQ(pulse_dsos__set_build_id(&m.dsos, exe, PULSE_DSO_USER, id, len), 0);
	self = pulse_dsos__find(&m.dsos, exe);
	ASSERT_TRUE(self && other && !self->loaded);
	ASSERT_EQ(pulse_machine__preload_next(&m, true), 1);
	ASSERT_TRUE(self->loaded && self->symtab.nr > 0);
	ASSERT_TRUE(m.unwinder != NULL && m.inlines != NULL);
	ASSERT_EQ(pulse_machine__preload_next(&m, true), 0);
	ASSERT_TRUE(!other->loaded);
	pulse_machine__exit(&m);

	/* without unwinding: symbols only */
	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	ASSERT_EQ(pulse_dsos__set_build_id(&m.dsos, exe, PULSE_DSO_USER, id, len), 0);
	ASSERT_EQ(pulse_machine__preload_next(&m, false), 1);
	ASSERT_TRUE(m.unwinder == NULL && m.inlines == NULL);
	ASSERT_EQ(pulse_machine__preload_next(&m, false), 0);
	pulse_machine__exit(&m);
}

static void test_ordering__many_rounds(void)
{
	enum { ROUNDS = 300, PER_CPU = 700 };
	struct order_check c = { 0 };
	struct pulse_ordered *q = ordered_new(order_check, &c);
	struct { struct perf_event_header h; uint64_t off; } rec = { { PERF_RECORD_SAMPLE, 0, 16 } };
	uint64_t off = 0;

	c.ts_of = calloc(ROUNDS * (2 * PER_CPU + 100), sizeof(*c.ts_of));
	ASSERT_TRUE(q && c.ts_of);
	srand(7);
	for (int r = 0; r < ROUNDS; r++) {
		for (int cpu = 0; cpu < 2; cpu++) {
			uint64_t ts = 1000 + (uint64_t)r * 1000 + rand() % 50;

			for (int i = 0; i < PER_CPU; i++) {
				ts += rand() % 3;	/* 0: a repeated timestamp */
				c.ts_of[off] = ts;
				rec.off = off;
				ASSERT_EQ(pulse_ordered__queue(q, &rec.h, ts, off), 0);
				off++;
			}
		}
		/* a run now and then arrives in reverse, as a worst case */
		if (r % 50 == 49) {
			for (int i = 0; i < 100; i++) {
				uint64_t ts = 1000 + (uint64_t)r * 1000 + 1500 - i;

				c.ts_of[off] = ts;
				rec.off = off;
				ASSERT_EQ(pulse_ordered__queue(q, &rec.h, ts, off), 0);
				off++;
			}
		}
		ASSERT_EQ(pulse_ordered__flush_round(q), 0);
		ASSERT_TRUE(pulse_ordered__nr_queued(q) <= 3 * 2 * PER_CPU + 100);
	}
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	ASSERT_EQ(c.n, off);
	ASSERT_EQ(c.bad, 0);
	ASSERT_EQ(pulse_ordered__nr_queued(q), 0);
	pulse_ordered__delete(q);
	free(c.ts_of);
}

TEST_MAIN(TEST(test_machine__maps_overlap), TEST(test_machine__preload), TEST(test_machine__threads_and_resolve),
	  TEST(test_machine__resolve_cache), TEST(test_cc_iter),
	  TEST(test_machine__sample_callchain),
	  TEST(test_machine__jit_map), TEST(test_ordering__many_rounds))
