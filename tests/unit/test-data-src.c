// SPDX-License-Identifier: GPL-2.0
/*
 * lib/data/data-src.c: the data_src texts, checked against what perf 6.1
 * (Debian's x86 build) printed for the same values.
 */
#include <pulse/data-src.h>
#include "test.h"

/* the fields of union perf_mem_data_src into a value */
static uint64_t ds(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t dtlb,
		   uint64_t lvlnum, uint64_t remote, uint64_t snoopx, uint64_t blk, uint64_t hops)
{
	return op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 | lvlnum << 33 |
	       remote << 37 | snoopx << 38 | blk << 40 | hops << 43;
}

static void test_data_src__meminfo(void)
{
	char out[100];

	pulse_data_src__scnprintf(out, sizeof(out), ds(2, 0x0a, 2, 2, 0x0a, 0, 0, 0, 1, 0));
	ASSERT_STREQ(out, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A");
	/* mem_lvl bits, then lvl_num after " or " (perf 6.1 prints both) */
	pulse_data_src__scnprintf(out, sizeof(out), 0x1026a100142ULL);
	ASSERT_STREQ(out, "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2 hit|LCK Yes|BLK  N/A");
	pulse_data_src__scnprintf(out, sizeof(out), 0);
	ASSERT_STREQ(out, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	pulse_data_src__scnprintf(out, sizeof(out), ds(4, 0x01, 0x10, 0, 0x41, 0, 0, 3, 6, 0));
	ASSERT_STREQ(out, "|OP STORE|LVL N/A|SNP HitM or Fwd or Peer|TLB N/A or Fault|LCK No|"
			  "BLK  Data Addr");
}

static void test_data_src__levels(void)
{
	char out[64];
	uint64_t v;

	/* hops replace the mem_lvl bits; remote comes first */
	v = ds(2, 0x02, 0, 0, 0, 0xb, 1, 0, 0, 2);
	pulse_data_src__lvl_scnprintf(out, sizeof(out), &v);
	ASSERT_STREQ(out, "Remote node, same socket Any cache hit");
	v = ds(2, 0, 0, 0, 0, 0xd, 1, 0, 0, 0);
	pulse_data_src__lvl_scnprintf(out, sizeof(out), &v);
	ASSERT_STREQ(out, "Remote RAM");
	v = ds(2, 0x02, 0, 0, 0, 8, 0, 0, 0, 0);
	pulse_data_src__lvl_scnprintf(out, sizeof(out), &v);
	ASSERT_STREQ(out, "L8 hit");
	v = ds(0, 0x3802, 0, 0, 0, 0, 0, 0, 0, 0);
	pulse_data_src__lvl_scnprintf(out, sizeof(out), &v);
	ASSERT_STREQ(out, "Remote Cache (2 hops) or I/O or Uncached hit");
	/* no mem_info: report's entries without a data_src */
	pulse_data_src__lvl_scnprintf(out, sizeof(out), NULL);
	ASSERT_STREQ(out, "N/A");
	pulse_data_src__lck_scnprintf(out, sizeof(out), NULL);
	ASSERT_STREQ(out, "N/A");
	pulse_data_src__blk_scnprintf(out, sizeof(out), NULL);
	ASSERT_STREQ(out, " N/A");
}

/* perf's 100-byte buffers cut the script column at 99 characters */
static void test_data_src__script_cut(void)
{
	char out[100];
	int n;

	n = pulse_data_src__script_column(out, 0x143605080042ULL);
	ASSERT_EQ(n, 99);
	ASSERT_STREQ(out, "    143605080042 |OP LOAD|LVL Remote node, same socket Any cache hit|"
			  "SNP N/A|TLB N/A|LCK N/A|BLK  A");
	n = pulse_data_src__script_column(out, 1);
	ASSERT_STREQ(out, "               1 |OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	ASSERT_EQ(n, (int)strlen(out));
}

TEST_MAIN(TEST(test_data_src__meminfo),
	  TEST(test_data_src__levels),
	  TEST(test_data_src__script_cut))
