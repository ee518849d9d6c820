// SPDX-License-Identifier: GPL-2.0
/*
 * lib/unwind on this very process: a snapshot of the registers and the top
 * of the stack, taken as the kernel takes them for a --call-graph dwarf
 * sample, unwound through this binary and libc with maps from
 * /proc/self/maps. Then the same snapshot damaged: cut short, an ip
 * outside any map, no sp, garbage registers and stack bytes, several
 * threads at once. The unwinder must walk as far as it can and never crash
 * or run past @max.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/symbols.h>
#include <pulse/unwind.h>

#include "test.h"

/* PERF_REG_X86_*: ax bx cx dx si di bp sp ip flags cs ss ds es fs gs r8..r15 */
#define MASK_ALL	0xff0fffull	/* perf's default: no ds es fs gs */
#define REG_BP 6
#define REG_SP 7
#define REG_IP 8

struct map {
	uint64_t start, end, pgoff;
	struct pulse_dso *dso;
};

static struct pulse_dsos dsos;
static struct map maps[512];
static size_t nr_maps;
static uint64_t stack_top;

static void load_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	nr_maps = 0;
	while (f && fgets(line, sizeof(line), f) && nr_maps < 512) {
		unsigned long long s, e, off;
		char path[512] = "";

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %511s", &s, &e, &off, path) < 3)
			continue;
		if (!strcmp(path, "[stack]"))
			stack_top = e;
		maps[nr_maps++] = (struct map){ s, e, off,
			pulse_dsos__findnew(&dsos, path[0] ? path : "//anon",
					    path[0] == '/' ? PULSE_DSO_USER : PULSE_DSO_NOSYMS) };
	}
	if (f)
		fclose(f);
}

static int find_map(void *arg, uint64_t addr, struct pulse_unwind_map *m)
{
	for (size_t i = 0; i < nr_maps; i++)
		if (addr >= maps[i].start && addr < maps[i].end) {
			*m = (struct pulse_unwind_map){ maps[i].start, maps[i].end, maps[i].pgoff,
							maps[i].dso };
			return 0;
		}
	return -ENOENT;
}

/* the registers as the sample carries them (MASK_ALL order) and the stack copy */
struct snap {
	uint64_t regs[24];	/* indexed by PERF_REG_X86_* */
	uint8_t stack[8192];
	uint64_t size;
	uint64_t ret;		/* capture()'s return address */
};

static uint64_t packed[24];

/* the sample's u64s, in mask order */
static void pack_into(const struct snap *s, uint64_t mask, uint64_t *out)
{
	size_t n = 0;

	for (int i = 0; i < 24; i++)
		if (mask & (1ull << i))
			out[n++] = s->regs[i];
}

static void pack(const struct snap *s, uint64_t mask)
{
	pack_into(s, mask, packed);
}

/*
 * Copies the raw stack as the kernel does, redzones included: not
 * instrumented, and not through memcpy, which ASan intercepts.
 */
__attribute__((noinline, no_sanitize_address)) static void copy_stack(uint8_t *to,
								     const volatile uint8_t *from,
								     size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = from[i];
}

__attribute__((noinline)) static void capture(struct snap *s)
{
	uint64_t *r = s->regs;
	uint64_t avail;

	/* rip, rsp and the callee-saved registers at one pc, as an interrupt sees them */
	__asm__ volatile("lea 0(%%rip), %%rax\n\t"
			 "mov %%rax, 64(%0)\n\t"
			 "mov %%rsp, 56(%0)\n\t"
			 "mov %%rbp, 48(%0)\n\t"
			 "mov %%rbx, 8(%0)\n\t"
			 "mov %%r12, 160(%0)\n\t"
			 "mov %%r13, 168(%0)\n\t"
			 "mov %%r14, 176(%0)\n\t"
			 "mov %%r15, 184(%0)\n\t"
			 : : "r"(r) : "rax", "memory");
	avail = stack_top - r[REG_SP];
	s->size = avail < sizeof(s->stack) ? avail : sizeof(s->stack);
	copy_stack(s->stack, (const volatile uint8_t *)r[REG_SP], s->size);
	s->ret = (uint64_t)__builtin_return_address(0);
}

static struct snap snap;
static struct pulse_unwinder *unw;

__attribute__((noinline)) static void take(void)
{
	capture(&snap);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

static size_t unwind(const struct snap *s, uint64_t mask, uint64_t size, uint64_t *ips,
		     size_t max)
{
	struct pulse_unwind_sample us = {
		.abi = 2, .regs_mask = mask, .regs = packed, .stack = s->stack,
		.stack_size = size, .find_map = find_map,
	};
	size_t nr = 99;

	pack(s, mask);
	if (pulse_unwinder__unwind(unw, &us, ips, max, &nr))
		return 1000;
	return nr;
}

static void setup(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	pulse_dsos__init(&dsos, NULL);
	load_maps();
	pulse_unwinder__new(&unw, NULL);
	take();
}

static void test_unwind__own_stack(void)
{
	uint64_t ips[127];
	size_t nr;

	setup();
	nr = unwind(&snap, MASK_ALL, snap.size, ips, 127);
	/* capture, take, this test, test__run_all, main, libc's start, _start */
	if (getenv("UNWIND_DEBUG"))
		for (size_t i = 0; i < nr; i++)
			printf("# %zu %llx\n", i, (unsigned long long)ips[i]);
	ASSERT_TRUE(nr >= 5);
	ASSERT_EQ(ips[0], snap.regs[REG_IP]);
	ASSERT_EQ(ips[1], snap.ret - 1);
	ASSERT_TRUE(nr < 127);
	/* through libc's __libc_start_call_main to this binary's _start, the end */
	{
		struct pulse_unwind_map first, m, last;
		bool libc = false;

		ASSERT_EQ(find_map(NULL, ips[0], &first), 0);
		ASSERT_EQ(find_map(NULL, ips[nr - 1], &last), 0);
		ASSERT_TRUE(first.dso == last.dso);
		for (size_t i = 1; i < nr; i++)
			if (!find_map(NULL, ips[i], &m) && strstr(m.dso->long_name, "libc"))
				libc = true;
		ASSERT_TRUE(libc);
	}
}

static void test_unwind__cut_short(void)
{
	uint64_t ips[127], full[127];
	size_t nr, all;

	setup();
	all = unwind(&snap, MASK_ALL, snap.size, full, 127);
	for (uint64_t size = 8; size < snap.size; size += 8) {
		nr = unwind(&snap, MASK_ALL, size, ips, 127);
		ASSERT_TRUE(nr >= 1 && nr <= 127);
		/* the frames it finds are the true ones, up to where the copy ends */
		for (size_t i = 0; i + 1 < nr && i < all; i++)
			if (ips[i] != full[i] && ips[i] != (uint64_t)-1)
				TEST_FAIL("size %llu frame %zu: %llx != %llx", (unsigned long long)size,
					  i, (unsigned long long)ips[i], (unsigned long long)full[i]);
	}
	ASSERT_EQ(unwind(&snap, MASK_ALL, 0, ips, 127), 0);
}

static void test_unwind__bad_registers(void)
{
	struct snap s = snap;
	uint64_t ips[127];

	setup();
	/* an ip in no map: that ip alone */
	s.regs[REG_IP] = 0x10;
	ASSERT_EQ(unwind(&s, MASK_ALL, s.size, ips, 127), 1);
	ASSERT_EQ(ips[0], 0x10);
	/* no sp: the ip alone; no ip: nothing */
	ASSERT_EQ(unwind(&snap, MASK_ALL & ~(1ull << REG_SP), snap.size, ips, 127), 1);
	ASSERT_EQ(unwind(&snap, MASK_ALL & ~(1ull << REG_IP), snap.size, ips, 127), 0);
	/* max frames at most */
	ASSERT_EQ(unwind(&snap, MASK_ALL, snap.size, ips, 2), 2);
	ASSERT_EQ(unwind(&snap, MASK_ALL, snap.size, ips, 0), 0);
}

static void test_unwind__garbage(void)
{
	struct snap s;
	uint64_t ips[127], seed = 42;

	setup();
	for (int round = 0; round < 2000; round++) {
		size_t nr;

		s = snap;
		for (int i = 0; i < 64; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			if (round & 1)
				s.stack[(seed >> 33) % s.size] = seed >> 17;
			else
				memcpy(&s.stack[(seed >> 33) % (s.size - 8) & ~7ull],
				       &snap.regs[REG_IP + (seed >> 60) % 2], 8);
		}
		if (round % 3 == 0)
			s.regs[(seed >> 40) % 24] = seed;
		nr = unwind(&s, MASK_ALL, s.size, ips, 127);
		ASSERT_TRUE(nr >= 1 && nr <= 127);
	}
}

struct worker {
	pthread_t th;
	int bad;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t want[127], ips[127];
	struct pulse_unwind_sample us = {
		.abi = 2, .regs_mask = MASK_ALL, .regs = packed, .stack = snap.stack,
		.stack_size = snap.size, .find_map = find_map,
	};
	size_t nr, n0;

	struct pulse_unwind_map text = { 0, 1, 0, NULL };
	uint64_t seed = (uintptr_t)w, regs[24];
	static __thread struct snap noisy;

	pulse_unwinder__unwind(unw, &us, want, 127, &n0);
	if (find_map(NULL, snap.regs[REG_IP], &text))
		w->bad++;
	/* ips all over this binary's text: rows inserted, tables grown, while others read */
	noisy = snap;
	for (int i = 0; i < 3000; i++) {
		struct pulse_unwind_sample ns = us;
		size_t n = 0;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		noisy.regs[REG_IP] = text.start + (seed >> 20) % (text.end - text.start);
		pack_into(&noisy, MASK_ALL, regs);
		ns.regs = regs;
		ns.stack = noisy.stack;
		pulse_unwinder__unwind(unw, &ns, ips, 127, &n);
		if (n < 1 || n > 127)
			w->bad++;
	}
	for (int i = 0; i < 20000; i++) {
		us.stack_size = snap.size - 8 * (i % 64);
		pulse_unwinder__unwind(unw, &us, ips, 127, &nr);
		us.stack_size = snap.size;
		pulse_unwinder__unwind(unw, &us, ips, 127, &nr);
		if (nr != n0 || memcmp(ips, want, nr * 8))
			w->bad++;
	}
	return NULL;
}

static void test_unwind__threads(void)
{
	struct worker w[4] = { 0 };

	setup();
	pulse_unwinder__delete(unw);	/* a cold cache: the threads fill it */
	pulse_unwinder__new(&unw, NULL);
	pack(&snap, MASK_ALL);
	for (int i = 0; i < 4; i++)
		pthread_create(&w[i].th, NULL, work, &w[i]);
	for (int i = 0; i < 4; i++) {
		pthread_join(w[i].th, NULL);
		ASSERT_EQ(w[i].bad, 0);
	}
}

static void test_unwind__cleanup(void)
{
	pulse_unwinder__delete(unw);
	unw = NULL;
	pulse_dsos__exit(&dsos);
	pulse_unwinder__delete(NULL);
}

TEST_MAIN(TEST(test_unwind__own_stack), TEST(test_unwind__cut_short),
	  TEST(test_unwind__bad_registers), TEST(test_unwind__garbage),
	  TEST(test_unwind__threads), TEST(test_unwind__cleanup))
