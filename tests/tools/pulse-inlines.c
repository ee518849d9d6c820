// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-inlines: a user callchain through the machine and its inline
 * expansion, for the inline tests (t77xx):
 *
 *   pulse-inlines [--caller] [--no-inline] FILE OFFSET...
 *
 * FILE is mapped at 0x10000000 (offset 0) for one thread; the chain is the
 * OFFSETs (hex, file offsets; the first the sampled frame) resolved by
 * pulse_machine__resolve_callchain() in callee order (caller with
 * --caller), then expanded by pulse_machine__expand_inlines(). Each frame
 * is printed as perf script prints it: "OFFSET NAME" with " (inlined)".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/machine.h>

#define BASE UINT64_C(0x10000000)

static int map_file(struct pulse_machine *m, const char *file)
{
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 };
	uint64_t start = BASE, len = 1ULL << 30, pgoff = 0;
	uint32_t pid = 1, prot = PROT_READ | PROT_EXEC;
	size_t size = 72 + ((strlen(file) + 8) & ~7UL);
	char *buf = calloc(1, size);
	int err;

	if (!buf)
		return -ENOMEM;
	h.size = size;
	memcpy(buf, &h, 8);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &pid, 4);
	memcpy(buf + 16, &start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &pgoff, 8);
	memcpy(buf + 64, &prot, 4);
	strcpy(buf + 72, file);
	err = pulse_machine__process(m, (void *)buf);
	free(buf);
	return err;
}

int main(int argc, char **argv)
{
	enum pulse_cc_order order = PULSE_CC_CALLEE;
	struct pulse_cc_cursor cur = { 0 };
	struct pulse_symbol_opts opts = { .sz = sizeof(opts), .debug_dir = "/usr/lib/debug" };
	struct pulse_machine m;
	bool no_inline = false;
	uint64_t *ips;
	char *path;
	int i = 1, nr;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--caller"))
			order = PULSE_CC_CALLER;
		else if (!strcmp(argv[i], "--no-inline"))
			no_inline = true;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: pulse-inlines [--caller] [--no-inline] FILE OFFSET...\n");
		return 129;
	}
	nr = argc - i - 1;
	ips = calloc(nr, sizeof(*ips));
	/* perf's DSOs are absolute paths; srcline reads only those */
	path = realpath(argv[i], NULL);
	if (!ips || !path || pulse_machine__init(&m, &opts) || map_file(&m, path))
		return 1;
	m.no_inline = no_inline;
	m.max_stack = nr;	/* the benchmark asks thousands at once */
	for (int k = 0; k < nr; k++)
		ips[k] = BASE + strtoull(argv[i + 1 + k], NULL, 16);
	if (pulse_machine__resolve_callchain(&m, 1, 1, ips, nr, order, &cur) ||
	    pulse_machine__expand_inlines(&m, pulse_machine__find_thread(&m, 1), &cur, 0, cur.nr,
					  order))
		return 1;
	for (size_t k = 0; k < cur.nr; k++) {
		const struct pulse_symbol *s = cur.locs[k].sym;

		printf("%" PRIx64 " %s%s\n", cur.locs[k].ip - BASE, s ? s->name : "[unknown]",
		       s && s->inlined ? " (inlined)" : "");
	}
	pulse_cc_cursor__exit(&cur);
	pulse_machine__exit(&m);
	free(ips);
	free(path);
	return 0;
}
