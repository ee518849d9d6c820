// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_DATA_SRC as text, as perf 6.1 (Debian's 6.1.y build, the
 * oracle of the tests) prints it: util/mem-events.c perf_mem__*_scnprintf()
 * and perf_script__meminfo_scnprintf().
 *
 * perf writes these into fixed buffers (100 bytes in perf script, 64 in
 * report's columns) with the tools' scnprintf(), whose return value is
 * what was written, or size - 1 (-1 for size 0) when cut; the level text
 * is even given the whole buffer's size at an offset into it. A long text
 * (several level bits, remote hops) is cut where perf cuts it only if the
 * same arithmetic is done, so it is done here in a scratch buffer large
 * enough for anything the fields can spell, then copied out.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <pulse/data-src.h>
#include "core/internal.h"

#define SCRATCH 512	/* longer than every field's text together */

/* perf's scnprintf(base + at, size, "%s", s) */
static int scn(char *base, size_t at, size_t size, const char *s)
{
	size_t n = strlen(s), k;
	ssize_t ssize = (ssize_t)size;

	if (size && at < SCRATCH - 1) {
		k = n < size - 1 ? n : size - 1;
		if (at + k >= SCRATCH)
			k = SCRATCH - 1 - at;
		memcpy(base + at, s, k);
		base[at + k] = '\0';
	}
	return (ssize_t)n >= ssize ? (int)(ssize - 1) : (int)n;
}

/* perf's strcat(base + at, s): unbounded in perf, bounded by the scratch here */
static void cat(char *base, size_t at, const char *s)
{
	size_t len, n = strlen(s);

	if (at >= SCRATCH - 1)
		return;
	len = at + strlen(base + at);
	if (len + n >= SCRATCH)
		return;
	memcpy(base + len, s, n + 1);
}

/* an empty string at base + at, as perf's out[0] = '\0' */
static void clear(char *base, size_t at)
{
	if (at < SCRATCH)
		base[at] = '\0';
}

static const char *const tlb_access[] = {
	"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault",
};

static const char *const mem_lvl[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};

/* PERF_MEM_LVLNUM_*; the unnamed ones print as "L<n>" */
static const char *const mem_lvlnum[16] = {
	[0x09] = "CXL", [0x0a] = "I/O", [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
	[0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};

/*
 * PERF_MEM_HOPS_*. perf's table has five entries and indexes it with the
 * 3-bit field: the reserved values 5-7 read past it, which in the oracle
 * build meets a NULL that glibc prints as "(null)".
 */
static const char *const mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	"(null)", "(null)", "(null)",
};

static const char *const snoop_access[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_access[] = { "Fwd", "Peer" };

/* perf's "no mem_info" values of the fields */
#define OP_NA		0x01	/* PERF_MEM_LOCK_NA, which perf uses for op too */
#define LVL_NA		0x01
#define SNOOP_NA	0x01
#define LOCK_NA		0x01
#define TLB_NA		0x01
#define BLK_NA		0x01

static int op_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t op = ds ? PULSE_DS_OP(*ds) : OP_NA;

	if (op & 0x01)
		return scn(base, at, sz, "N/A");
	if (op & 0x02)
		return scn(base, at, sz, "LOAD");
	if (op & 0x04)
		return scn(base, at, sz, "STORE");
	if (op & 0x08)
		return scn(base, at, sz, "PFETCH");
	if (op & 0x10)
		return scn(base, at, sz, "EXEC");
	return scn(base, at, sz, "No");
}

/*
 * perf's bit-list texts: each set bit's name, " or " between them
 * (perf_mem__tlb_scnprintf()'s and perf_mem__snp_scnprintf()'s loops)
 */
static size_t bit_names(char *base, size_t at, size_t sz, size_t l, uint64_t m,
			const char *const *names, size_t nr_names, int *printed)
{
	for (size_t i = 0; m && i < nr_names; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed ? (*printed)++ : l) {
			cat(base, at, " or ");
			l += 4;
		}
		l += scn(base, at + l, sz - l, names[i]);
	}
	return l;
}

static int tlb_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t m = ds ? PULSE_DS_DTLB(*ds) : TLB_NA;
	uint64_t hit = m & 0x02, miss = m & 0x04;
	size_t l;

	sz -= 1;
	clear(base, at);
	m &= ~(uint64_t)(0x02 | 0x04);
	l = bit_names(base, at, sz, 0, m, tlb_access, ARRAY_SIZE(tlb_access), NULL);
	if (at < SCRATCH && base[at] == '\0')
		l += scn(base, at, sz - l, "N/A");
	if (hit)
		l += scn(base, at + l, sz - l, " hit");
	if (miss)
		l += scn(base, at + l, sz - l, " miss");
	return (int)l;
}

static int lvl_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t m = ds ? PULSE_DS_LVL(*ds) : LVL_NA;
	uint64_t hit = m & 0x02, miss = m & 0x04;
	int printed = 0;
	size_t l = 0;

	sz -= 1;
	clear(base, at);
	m &= ~(uint64_t)(0x02 | 0x04);
	if (ds && PULSE_DS_REMOTE(*ds)) {
		cat(base, at, "Remote ");
		l += 7;
	}
	/* with hops, perf skips the mem_lvl bits */
	if (ds && PULSE_DS_HOPS(*ds)) {
		char hops[24];

		/* perf's "%s " in one scnprintf() */
		snprintf(hops, sizeof(hops), "%s ", mem_hops[PULSE_DS_HOPS(*ds)]);
		l += scn(base, at + l, sz - l, hops);
	} else {
		l = bit_names(base, at, sz, l, m, mem_lvl, ARRAY_SIZE(mem_lvl), &printed);
	}
	if (ds && PULSE_DS_LVL_NUM(*ds)) {
		unsigned int lvl = PULSE_DS_LVL_NUM(*ds);
		char num[8];

		if (printed) {
			cat(base, at, " or ");
			l += 4;
		}
		printed++;
		if (mem_lvlnum[lvl]) {
			l += scn(base, at + l, sz - l, mem_lvlnum[lvl]);
		} else {
			num[0] = 'L';
			num[1] = '0' + lvl;
			num[2] = '\0';
			l += scn(base, at + l, sz - l, num);
		}
	}
	if (l == 0)
		l += scn(base, at + l, sz - l, "N/A");
	if (hit)
		l += scn(base, at + l, sz - l, " hit");
	if (miss)
		l += scn(base, at + l, sz - l, " miss");
	return (int)l;
}

static int snp_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t m = ds ? PULSE_DS_SNOOP(*ds) : SNOOP_NA;
	size_t l;

	sz -= 1;
	clear(base, at);
	l = bit_names(base, at, sz, 0, m, snoop_access, ARRAY_SIZE(snoop_access), NULL);
	l = bit_names(base, at, sz, l, ds ? PULSE_DS_SNOOPX(*ds) : 0, snoopx_access,
		      ARRAY_SIZE(snoopx_access), NULL);
	if (at < SCRATCH && base[at] == '\0')
		l += scn(base, at, sz - l, "N/A");
	return (int)l;
}

static int lck_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t mask = ds ? PULSE_DS_LOCK(*ds) : LOCK_NA;

	if (mask & 0x01)
		return scn(base, at, sz, "N/A");
	if (mask & 0x02)
		return scn(base, at, sz, "Yes");
	return scn(base, at, sz, "No");
}

static int blk_scn(char *base, size_t at, size_t sz, const uint64_t *ds)
{
	uint64_t mask = ds ? PULSE_DS_BLK(*ds) : BLK_NA;
	size_t l = 0;

	sz -= 1;
	clear(base, at);
	if (!mask || (mask & 0x01))
		return scn(base, at, sz, " N/A");
	if (mask & 0x02)
		l += scn(base, at + l, sz - l, " Data");
	if (mask & 0x04)
		l += scn(base, at + l, sz - l, " Addr");
	return (int)l;
}

/* the scratch's text into @out (@sz > 0), cut to fit */
static void copy_out(char *out, size_t sz, const char *base)
{
	size_t n = strnlen(base, sz - 1);

	memcpy(out, base, n);
	out[n] = '\0';
}

typedef int (*scn_fn)(char *base, size_t at, size_t sz, const uint64_t *ds);

/* one field's function on a scratch buffer, copied to @out */
static int one(scn_fn fn, char *out, size_t sz, const uint64_t *ds)
{
	char base[SCRATCH];
	int ret;

	if (!sz)
		return 0;
	base[0] = '\0';
	ret = fn(base, 0, sz, ds);
	copy_out(out, sz, base);
	return ret;
}

int pulse_data_src__op_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(op_scn, out, sz, ds);
}

int pulse_data_src__lvl_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(lvl_scn, out, sz, ds);
}

int pulse_data_src__snp_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(snp_scn, out, sz, ds);
}

int pulse_data_src__tlb_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(tlb_scn, out, sz, ds);
}

int pulse_data_src__lck_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(lck_scn, out, sz, ds);
}

int pulse_data_src__blk_scnprintf(char *out, size_t sz, const uint64_t *ds)
{
	return one(blk_scn, out, sz, ds);
}

/* perf_script__meminfo_scnprintf() into the scratch; its count */
static int meminfo(char *base, size_t sz, uint64_t ds)
{
	size_t i = 0;

	base[0] = '\0';
	i += scn(base, i, sz - i, "|OP ");
	i += op_scn(base, i, sz - i, &ds);
	i += scn(base, i, sz - i, "|LVL ");
	/* perf passes the whole size here, not what is left */
	i += lvl_scn(base, i, sz, &ds);
	i += scn(base, i, sz - i, "|SNP ");
	i += snp_scn(base, i, sz - i, &ds);
	i += scn(base, i, sz - i, "|TLB ");
	i += tlb_scn(base, i, sz - i, &ds);
	i += scn(base, i, sz - i, "|LCK ");
	i += lck_scn(base, i, sz - i, &ds);
	i += scn(base, i, sz - i, "|BLK ");
	i += blk_scn(base, i, sz - i, &ds);
	return (int)i;
}

int pulse_data_src__scnprintf(char *out, size_t sz, uint64_t ds)
{
	char base[SCRATCH];
	int ret;

	if (!sz)
		return 0;
	ret = meminfo(base, sz, ds);
	copy_out(out, sz, base);
	return ret;
}

int pulse_data_src__script_column(char out[100], uint64_t ds)
{
	char base[SCRATCH], hex[17];
	size_t n = 0;

	meminfo(base, 100, ds);
	/* "%16" PRIx64 " %s" into 100 bytes */
	for (int sh = 60; sh >= 0; sh -= 4)
		if (ds >> sh || !sh)
			hex[n++] = "0123456789abcdef"[(ds >> sh) & 15];
	hex[n] = '\0';
	memset(out, ' ', 16 - n);
	memcpy(out + 16 - n, hex, n);
	out[16] = ' ';
	n = strnlen(base, 99 - 17);
	memcpy(out + 17, base, n);
	out[17 + n] = '\0';
	return 17 + (int)n;
}
