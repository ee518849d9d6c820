// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the DWARF unwinder (lib/unwind): the input is a
 * sample's user part, registers and stack copy, unwound over fixed maps of
 * real DSOs (this binary's own text and libc's, from /proc/self/maps at
 * the first call, each under its own path so that their real CFI is used)
 * plus an anonymous map. Whatever the registers, the mask, the abi and the
 * stack bytes say, the unwind must stay within the copy, the files and
 * @max, and end. Built by `make build-fuzz/fuzz-unwind`.
 *
 * Input layout (little-endian, short inputs are zero-padded):
 *   0   u8   flags: 1 ip is text + (its u32 % text size), 2 sp points at
 *            the fixed stack base, 4 stack words whose top byte is 0xAA
 *            become text + their low 24 bits (return addresses), 8 use
 *            libc's text for those instead, 16 the mask below, else
 *            perf's default
 *   1   u8   abi
 *   2   u16  dyn_size cut (stack bytes used: min(this, bytes given));
 *            its high byte also sets the frames wanted, 1 + it % 127
 *   4   u32  regs_mask (with flag 16)
 *   8   24 x u64 registers, PERF_REG_X86_* order
 *   200 ...  the stack bytes
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/symbols.h>
#include <pulse/unwind.h>

#define STACK_BASE	0x7ffd00000000ull
#define HDR		200

struct map {
	uint64_t start, end, pgoff;
	struct pulse_dso *dso;
};

static struct pulse_dsos dsos;
static struct pulse_unwinder *unw;
static struct map maps[3];	/* own text, libc text, an anonymous map */
static size_t nr_maps;

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

static void init(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024], self[512] = "";
	bool libc = false;

	pulse_dsos__init(&dsos, NULL);
	pulse_unwinder__new(&unw, NULL);
	while (f && fgets(line, sizeof(line), f) && nr_maps < 2) {
		unsigned long long s, e, off;
		char perm[8], path[512] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &s, &e, perm, &off, path) < 4 ||
		    perm[2] != 'x' || path[0] != '/')
			continue;
		if (!self[0]) {
			snprintf(self, sizeof(self), "%s", path);
		} else if (libc || !strstr(path, "libc.so")) {
			continue;
		} else {
			libc = true;
		}
		maps[nr_maps++] = (struct map){ s, e, off,
			pulse_dsos__findnew(&dsos, path, PULSE_DSO_USER) };
	}
	if (f)
		fclose(f);
	maps[nr_maps++] = (struct map){ 0x10000, 0x20000, 0,
		pulse_dsos__findnew(&dsos, "//anon", PULSE_DSO_NOSYMS) };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t in[HDR + 16384];
	static uint64_t regs[24];
	uint64_t ips[127], mask = 0xff0fffull;
	struct pulse_unwind_sample s = { .regs = regs, .find_map = find_map };
	const struct map *text;
	size_t nr, n = 0, stack_len;
	uint8_t flags;
	uint16_t cut;
	uint32_t m32;

	if (!unw)
		init();
	if (size > sizeof(in))
		size = sizeof(in);
	memset(in, 0, sizeof(in));
	memcpy(in, data, size);
	flags = in[0];
	text = &maps[(flags & 8) && nr_maps > 2 ? 1 : 0];
	memcpy(&cut, in + 2, 2);
	memcpy(&m32, in + 4, 4);
	if (flags & 16)
		mask = m32;
	for (int i = 0; i < 24; i++) {
		uint64_t v;

		memcpy(&v, in + 8 + 8 * i, 8);
		if (i == 8 && (flags & 1))
			v = text->start + (uint32_t)v % (text->end - text->start);
		if (i == 7 && (flags & 2))
			v = STACK_BASE;
		if (mask & (1ull << i))
			regs[n++] = v;
	}
	stack_len = size > HDR ? size - HDR : 0;
	if (flags & 4)
		for (size_t off = 0; off + 8 <= stack_len; off += 8) {
			uint64_t w;

			memcpy(&w, in + HDR + off, 8);
			if (w >> 56 == 0xAA) {
				w = text->start + (w & 0xffffff) % (text->end - text->start);
				memcpy(in + HDR + off, &w, 8);
			}
		}
	s.abi = in[1];
	s.regs_mask = mask;
	s.stack = in + HDR;
	s.stack_size = cut && cut < stack_len ? cut : stack_len;
	pulse_unwinder__unwind(unw, &s, ips, 1 + in[3] % 127, &nr);
	if (nr > 127)
		abort();
	return 0;
}
