// SPDX-License-Identifier: GPL-2.0
/*
 * The feature table's printers (lib/data/feat-*.c, through
 * output/header.c): perf 6.1's text for well-formed payloads, nothing
 * (or perf's "not available" line) for damaged ones, and every
 * truncation of every payload read without going out of bounds
 * (the sanitizer build checks the last part).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <pulse/buf.h>
#include <pulse/data.h>
#include <pulse/output-header.h>
#include <pulse/reader.h>
#include "test.h"

static char out[8192];
static struct pulse_header_env env;

/* Print @feat's payload into out[] (with env: -I, NRCPUS); the decoder's return. */
static int decode(int feat, const void *p, size_t len)
{
	FILE *f;
	int err;

	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");

	if (!f)
		return -ENOMEM;
	err = pulse_header__fprintf_feat(f, feat, p, len, &env);
	fclose(f);
	return err;
}

static void add_u32(struct pulse_buf *b, uint32_t v)
{
	pulse_buf__add(b, &v, sizeof(v));
}

static void add_u64(struct pulse_buf *b, uint64_t v)
{
	pulse_buf__add(b, &v, sizeof(v));
}

static void test_header__strings_and_numbers(void)
{
	struct pulse_buf b = { 0 };

	pulse_buf__add_string(&b, "vm");
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, b.p, b.len), 0);
	ASSERT_STREQ(out, "# hostname : vm\n");
	/* the length says more than the section has */
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, b.p, b.len - 1), -EINVAL);
	ASSERT_STREQ(out, "");
	b.len = 0;
	add_u32(&b, 4);
	add_u32(&b, 2);
	ASSERT_EQ(decode(PULSE_FEAT_NRCPUS, b.p, b.len), 0);
	ASSERT_STREQ(out, "# nrcpus online : 2\n# nrcpus avail : 4\n");
	ASSERT_EQ(decode(PULSE_FEAT_NRCPUS, b.p, 7), -EINVAL);
	b.len = 0;
	add_u64(&b, 485649150123ULL);
	add_u64(&b, 485697333999ULL);
	ASSERT_EQ(decode(PULSE_FEAT_SAMPLE_TIME, b.p, b.len), 0);
	ASSERT_STREQ(out, "# time of first sample : 485.649150\n"
			  "# time of last sample : 485.697333\n"
			  "# sample duration :     48.184 ms\n");
	free(b.p);
}

static void test_header__cmdline_and_mappings(void)
{
	struct pulse_buf b = { 0 };

	add_u32(&b, 2);
	pulse_buf__add_string(&b, "perf");
	pulse_buf__add_string(&b, "it's");
	ASSERT_EQ(decode(PULSE_FEAT_CMDLINE, b.p, b.len), 0);
	ASSERT_STREQ(out, "# cmdline : perf it\\'s \n");
	b.len = 0;
	add_u32(&b, 0x7fffffff);	/* more strings than bytes */
	ASSERT_EQ(decode(PULSE_FEAT_CMDLINE, b.p, b.len), -EINVAL);
	b.len = 0;
	add_u32(&b, 2);
	add_u32(&b, 1);
	pulse_buf__add_string(&b, "software");
	add_u32(&b, 2);
	pulse_buf__add_string(&b, "tracepoint");
	ASSERT_EQ(decode(PULSE_FEAT_PMU_MAPPINGS, b.p, b.len), 0);
	ASSERT_STREQ(out, "# pmu mappings: software = 1, tracepoint = 2\n");
	free(b.p);
}

static void test_header__event_desc(void)
{
	struct pulse_buf b = { 0 };
	unsigned char attr[128] = { 0 };
	uint32_t v;
	uint64_t flags = 1 | 1ULL << 18;

	add_u32(&b, 1);
	add_u32(&b, sizeof(attr));
	v = 1;
	memcpy(attr, &v, 4);			/* type */
	v = 128;
	memcpy(attr + 4, &v, 4);		/* size */
	memcpy(attr + 40, &flags, 8);
	attr[24] = 0x7;				/* IP|TID|TIME */
	pulse_buf__add(&b, attr, sizeof(attr));
	add_u32(&b, 2);
	pulse_buf__add_string(&b, "cpu-clock");
	add_u64(&b, 11);
	add_u64(&b, 12);
	ASSERT_EQ(decode(PULSE_FEAT_EVENT_DESC, b.p, b.len), 0);
	ASSERT_STREQ(out, "# event : name = cpu-clock, , id = { 11, 12 }, type = 1, size = 128, "
			  "sample_type = IP|TID|TIME, disabled = 1, sample_id_all = 1\n");
	/* an id count past the end: perf's "not available" line */
	ASSERT_EQ(decode(PULSE_FEAT_EVENT_DESC, b.p, b.len - 1), -EINVAL);
	ASSERT_STREQ(out, "# event desc: not available or unable to read\n");
	free(b.p);
}

static void add_str(struct pulse_buf *b, const char *s)
{
	pulse_buf__add_string(b, s);
}

/* perf-2ev.data's CPU_TOPOLOGY: 2 CPUs, one socket, one die */
static void cpu_topology(struct pulse_buf *b)
{
	b->len = 0;
	add_u32(b, 1);
	add_str(b, "0-1");
	add_u32(b, 2);
	add_str(b, "0");
	add_str(b, "1");
	add_u32(b, 0);		/* CPU 0: core 0, socket 0 */
	add_u32(b, 0);
	add_u32(b, 1);		/* CPU 1: core 1, socket 0 */
	add_u32(b, 0);
	add_u32(b, 1);
	add_str(b, "0-1");
	add_u32(b, 0);		/* die ids */
	add_u32(b, 0);
}

static void test_header__cpu_topology(void)
{
	struct pulse_buf b = { 0 };
	const char *sib = "# sibling sockets : 0-1\n";
	const char *thr = "# sibling threads : 0\n# sibling threads : 1\n";
	char expect[1024];

	env = (struct pulse_header_env){ .full = true, .nr_cpus_avail = 2 };
	cpu_topology(&b);
	ASSERT_EQ(b.len, 308);
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, b.len), 0);
	snprintf(expect, sizeof(expect), "%s# sibling dies    : 0-1\n%s"
		 "# CPU 0: Core ID 0, Die ID 0, Socket ID 0\n"
		 "# CPU 1: Core ID 1, Die ID 0, Socket ID 0\n", sib, thr);
	ASSERT_STREQ(out, expect);
	/* the die ids cut: perf's "not available" with dies */
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 304), 0);
	snprintf(expect, sizeof(expect), "%s# sibling dies    : 0-1\n%s"
		 "# Core ID, Die ID and Socket ID information is not available\n", sib, thr);
	ASSERT_STREQ(out, expect);
	/* perf before dies */
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 228), 0);
	snprintf(expect, sizeof(expect), "%s%s# CPU 0: Core ID 0, Socket ID 0\n"
		 "# CPU 1: Core ID 1, Socket ID 0\n", sib, thr);
	ASSERT_STREQ(out, expect);
	/* the ids cut, and perf before ids */
	snprintf(expect, sizeof(expect), "%s%s# Core ID and Socket ID information is not available\n",
		 sib, thr);
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 220), 0);
	ASSERT_STREQ(out, expect);
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 212), 0);
	ASSERT_STREQ(out, expect);
	/* the sibling lists cut: damaged */
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 211), -EINVAL);
	ASSERT_STREQ(out, "");
	/* a socket id past NRCPUS: perf gives up on the ids (not on aarch64) */
	env.nr_cpus_avail = 3;
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, b.len), 0);
	ASSERT_STREQ(out, expect);
	env.no_socket_check = true;
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, 236), 0);
	ASSERT_TRUE(strstr(out, "# CPU 2: Core ID 1, Socket ID 64\n") != NULL);
	/* without -I: the line perf prints instead */
	env = (struct pulse_header_env){ .nr_cpus_avail = 2 };
	ASSERT_EQ(decode(PULSE_FEAT_CPU_TOPOLOGY, b.p, b.len), 0);
	ASSERT_STREQ(out, "# CPU_TOPOLOGY info available, use -I to display\n");
	/* NRCPUS and ARCH fill the env as they are printed */
	env = (struct pulse_header_env){ .full = true };
	b.len = 0;
	add_u32(&b, 7);
	add_u32(&b, 5);
	decode(PULSE_FEAT_NRCPUS, b.p, b.len);
	ASSERT_EQ(env.nr_cpus_avail, 7);
	b.len = 0;
	add_str(&b, "aarch64");
	decode(PULSE_FEAT_ARCH, b.p, b.len);
	ASSERT_TRUE(env.no_socket_check);
	free(b.p);
}

static void test_header__numa_cache_memory(void)
{
	struct pulse_buf b = { 0 };
	static const char *const lists[][2] = {
		{ "0-1", "0-1" }, { "3,0x1,2,7-8,9", "1-3,7-9" }, { "", "-1" }, { "5", "5" },
	};

	env = (struct pulse_header_env){ .full = true };
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		char expect[256];

		b.len = 0;
		add_u32(&b, 1);
		add_u32(&b, 2);
		add_u64(&b, 4286668);
		add_u64(&b, 3863244);
		add_str(&b, lists[i][0]);
		ASSERT_EQ(decode(PULSE_FEAT_NUMA_TOPOLOGY, b.p, b.len), 0);
		snprintf(expect, sizeof(expect), "# node2 meminfo  : total = 4286668 kB, "
			 "free = 3863244 kB\n# node2 cpu list : %s\n", lists[i][1]);
		ASSERT_STREQ(out, expect);
	}
	/* lists perf_cpu_map__new() refuses: damaged */
	static const char *const bad[] = { "1,1", "3-1", "x", "0-1x", "2147483647", "0-1,1" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.len = 0;
		add_u32(&b, 1);
		add_u32(&b, 0);
		add_u64(&b, 1);
		add_u64(&b, 1);
		add_str(&b, bad[i]);
		ASSERT_EQ(decode(PULSE_FEAT_NUMA_TOPOLOGY, b.p, b.len), -EINVAL);
	}

	b.len = 0;
	add_u32(&b, 1);		/* version */
	add_u32(&b, 1);
	add_u32(&b, 3);		/* level, line size, sets, ways */
	add_u32(&b, 64);
	add_u32(&b, 32768);
	add_u32(&b, 16);
	add_str(&b, "Unified");
	add_str(&b, "32768K");
	add_str(&b, "0-1");
	ASSERT_EQ(decode(PULSE_FEAT_CACHE, b.p, b.len), 0);
	ASSERT_STREQ(out, "# CPU cache info:\n#  L3 Unified           32768K [0-1]\n");
	ASSERT_EQ(decode(PULSE_FEAT_CACHE, b.p, b.len - 1), -EINVAL);
	memcpy(b.p, "\2\0\0\0", 4);	/* perf reads version 1 only */
	ASSERT_EQ(decode(PULSE_FEAT_CACHE, b.p, b.len), -EINVAL);

	/* perf-2ev.data's MEM_TOPOLOGY: blocks 0-23 and 32-199 of 128M */
	uint64_t words[4] = { 0xffffffff00ffffffULL, ~0ULL, ~0ULL, 0xff };

	b.len = 0;
	add_u64(&b, 1);
	add_u64(&b, 0x8000000);
	add_u64(&b, 2);
	add_u64(&b, 0);
	add_u64(&b, 200);
	add_u64(&b, 200);
	pulse_buf__add(&b, words, sizeof(words));
	add_u64(&b, 1);		/* node 1: block 5 only */
	add_u64(&b, 8);
	add_u64(&b, 8);
	add_u64(&b, 1 << 5);
	ASSERT_EQ(decode(PULSE_FEAT_MEM_TOPOLOGY, b.p, b.len), 0);
	ASSERT_STREQ(out, "# memory nodes (nr 2, block size 0x8000000):\n"
			  "#    0 [24G]: 0-23,32-199\n"
			  "#    1 [128M]: 5\n");
	ASSERT_EQ(decode(PULSE_FEAT_MEM_TOPOLOGY, b.p, b.len - 1), -EINVAL);
	ASSERT_STREQ(out, "");

	/* every other block of 400: perf's 100-byte buffer keeps 99 characters */
	uint64_t alt[7];

	for (int i = 0; i < 7; i++)
		alt[i] = 0x5555555555555555ULL;
	b.len = 0;
	add_u64(&b, 1);
	add_u64(&b, 1024);
	add_u64(&b, 1);
	add_u64(&b, 0);
	add_u64(&b, 400);
	add_u64(&b, 400);
	pulse_buf__add(&b, alt, sizeof(alt));
	ASSERT_EQ(decode(PULSE_FEAT_MEM_TOPOLOGY, b.p, b.len), 0);
	/* 200 blocks of 1024 bytes: 200K; 1024 alone stays "1024B" in perf */
	ASSERT_TRUE(strstr(out, "#    0 [200K]: 0,2,4,6,8,10,") != NULL);
	ASSERT_EQ(strlen(strstr(out, "]: ") + 3), 99 + 1);
	free(b.p);
}

/* CPU_TOPOLOGY and MEM_TOPOLOGY byte-swapped and back: the same bytes */
static void test_header__swap_topology(void)
{
	struct pulse_buf b = { 0 };
	unsigned char *copy;

	cpu_topology(&b);
	copy = malloc(b.len);
	memcpy(copy, b.p, b.len);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_CPU_TOPOLOGY, copy, b.len, false), 0);
	ASSERT_TRUE(memcmp(copy, b.p, b.len) != 0);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_CPU_TOPOLOGY, copy, b.len, true), 0);
	ASSERT_TRUE(memcmp(copy, b.p, b.len) == 0);
	/* perf before dies: u32 ids to the end */
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_CPU_TOPOLOGY, copy, 228, false), 0);
	ASSERT_EQ(pulse_feat__swap(PULSE_FEAT_CPU_TOPOLOGY, copy, 228, true), 0);
	ASSERT_TRUE(memcmp(copy, b.p, b.len) == 0);
	free(copy);
	free(b.p);
}

/* Every prefix and every one-byte change of each payload: no crash. */
static void test_header__truncated_and_flipped(void)
{
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_NRCPUS, PULSE_FEAT_TOTAL_MEM, PULSE_FEAT_CMDLINE,
		PULSE_FEAT_EVENT_DESC, PULSE_FEAT_PMU_MAPPINGS, PULSE_FEAT_SAMPLE_TIME,
		PULSE_FEAT_CLOCKID, PULSE_FEAT_COMPRESSED, PULSE_FEAT_CPU_PMU_CAPS,
		PULSE_FEAT_CLOCK_DATA, PULSE_FEAT_PMU_CAPS, PULSE_FEAT_BPF_PROG_INFO,
		PULSE_FEAT_CPU_TOPOLOGY, PULSE_FEAT_NUMA_TOPOLOGY, PULSE_FEAT_CACHE,
		PULSE_FEAT_MEM_TOPOLOGY, PULSE_FEAT_HYBRID_TOPOLOGY,
	};
	unsigned char p[256];

	for (size_t i = 0; i < sizeof(p); i++)
		p[i] = (i * 37) & 0xff;
	p[0] = 2, p[1] = p[2] = p[3] = 0;	/* small counts */
	p[4] = 8, p[5] = p[6] = p[7] = 0;
	env = (struct pulse_header_env){ .full = true, .nr_cpus_avail = 4 };
	for (size_t f = 0; f < sizeof(feats) / sizeof(feats[0]); f++) {
		for (size_t len = 0; len <= sizeof(p); len++) {
			unsigned char *copy = malloc(len ? len : 1);

			memcpy(copy, p, len);
			decode(feats[f], copy, len);
			/* and swapped, where the layout is known */
			pulse_feat__swap(feats[f], copy, len, true);
			free(copy);
		}
	}
	ASSERT_EQ(decode(PULSE_FEAT_HOSTNAME, NULL, 100), -EINVAL);
	ASSERT_EQ(decode(PULSE_FEAT_MAX + 3, p, sizeof(p)), 0);
}

TEST_MAIN(TEST(test_header__strings_and_numbers), TEST(test_header__cmdline_and_mappings),
	  TEST(test_header__event_desc), TEST(test_header__cpu_topology),
	  TEST(test_header__numa_cache_memory), TEST(test_header__swap_topology),
	  TEST(test_header__truncated_and_flipped))
