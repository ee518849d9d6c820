/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One record at a time in a static buffer, for the test tools that write
 * perf.data records by hand (pulse-mkgroup, pulse-mkpt): begin() a header,
 * put*() the fields, then the tool sets the size and writes rec[0..rlen).
 * Included once by each tool; the records fit the buffer by construction.
 */
#include <string.h>
#include <linux/perf_event.h>

static unsigned char rec[4096];
static size_t rlen;

static void put(const void *p, size_t n)
{
	memcpy(rec + rlen, p, n);
	rlen += n;
}

static void put64(__u64 v)
{
	put(&v, 8);
}

static void put32x2(__u32 a, __u32 b)
{
	put(&a, 4);
	put(&b, 4);
}

static void begin(__u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	rlen = 0;
	put(&h, sizeof(h));
}
