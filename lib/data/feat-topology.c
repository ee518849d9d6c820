// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's shape: NRCPUS and TOTAL_MEM (which pulse writes, read
 * from /sys and /proc as perf reads them), and the topologies perf writes
 * and prints in full only with -I: CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE,
 * MEM_TOPOLOGY, HYBRID_TOPOLOGY. Every printer checks each length against
 * the section (perf's process_*() + print_*()).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "data/feat.h"

/* ---- NRCPUS, TOTAL_MEM ---------------------------------------------------- */

/*
 * Walk a cpu list ("0-3,8\n") and return the number of cpus and the
 * highest one; -EINVAL when it is not a cpu list.
 */
static int parse_cpu_list(const char *s, long *count, long *max)
{
	*count = 0;
	*max = -1;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		*count += b - a + 1;
		if (b > *max)
			*max = b;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return *max >= 0 ? 0 : -EINVAL;
}

static int read_cpu_list(const struct pulse_feat_ctx *ctx, const char *which, long *count,
			 long *max)
{
	char path[PATH_MAX], *buf;
	int err;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/%s", pulse_feat__sysfs(ctx), which);
	err = pulse_feat__read_text(path, &buf);
	if (err)
		return err;
	err = parse_cpu_list(buf, count, max);
	free(buf);
	return err;
}

/*
 * u32 nr_cpus_available, u32 nr_cpus_online. perf's "available" is the
 * highest present cpu + 1 (cpu__max_present_cpu()), its online count is
 * sysconf(_SC_NPROCESSORS_ONLN), which glibc takes from the online list.
 */
static int write_nrcpus(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	long count, max, avail, online;
	int err;

	if (!read_cpu_list(ctx, "present", &count, &max))
		avail = max + 1;
	else
		avail = sysconf(_SC_NPROCESSORS_CONF);
	if (!read_cpu_list(ctx, "online", &count, &max))
		online = count;
	else
		online = sysconf(_SC_NPROCESSORS_ONLN);
	if (avail <= 0 || online <= 0)
		return -ENOENT;
	err = buf_add_u32(b, (__u32)avail);
	return err ? err : buf_add_u32(b, (__u32)online);
}

static int swap_nrcpus(struct swc *c)
{
	return sw_u32(c, NULL) ?: sw_u32(c, NULL);
}

static int print_nrcpus(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			const struct pulse_data *d)
{
	uint32_t avail = fc_u32(c), online = fc_u32(c);

	if (c->bad)
		return -EINVAL;
	fprintf(fp, "# nrcpus online : %" PRIu32 "\n# nrcpus avail : %" PRIu32 "\n", online,
		avail);
	env->nr_cpus_avail = avail;
	return 0;
}

const struct pulse_feat_ops pulse_feat_nrcpus = {
	.name = "NRCPUS", .write = write_nrcpus, .swap = swap_nrcpus, .print = print_nrcpus,
};

/* u64 MemTotal in kB, from meminfo. */
static int write_total_mem(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	char path[PATH_MAX], *text, *line, *end;
	unsigned long long kb;
	int err;

	snprintf(path, sizeof(path), "%s/meminfo", pulse_feat__proc(ctx));
	err = pulse_feat__read_text(path, &text);
	if (err)
		return err;
	line = pulse_feat__find_key(text, "MemTotal:");
	if (!line) {
		free(text);
		return -ENOENT;
	}
	errno = 0;
	kb = strtoull(line + 9, &end, 0);
	if (end == line + 9 || errno) {
		free(text);
		return -ENOENT;
	}
	free(text);
	return buf_add_u64(b, kb);
}

static int swap_u64(struct swc *c)
{
	return sw_u64(c, NULL);
}

static int print_total_mem(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			   const struct pulse_data *d)
{
	uint64_t v = fc_u64(c);

	if (c->bad)
		return -EINVAL;
	fprintf(fp, "# total memory : %" PRIu64 " kB\n", v);
	return 0;
}

const struct pulse_feat_ops pulse_feat_total_mem = {
	.name = "TOTAL_MEM", .write = write_total_mem, .swap = swap_u64, .print = print_total_mem,
};

/* ---- CPU_TOPOLOGY ------------------------------------------------------------ */

/* Do @n CPUs' core and socket ids, the dies and their ids fill what is left? */
static bool sw_dies_fit(const struct swc *c, size_t n, size_t *budget)
{
	const unsigned char *p = c->p + 8 * n;
	size_t left = c->left - 8 * n - 4;
	__u32 dies = sw_peek32(c, p);

	p += 4;
	for (__u32 i = 0; i < dies; i++) {
		__u32 len;

		if (left < 4 * n + 4 || !*budget)
			return false;
		(*budget)--;
		len = sw_peek32(c, p);
		if (len > left - 4 - 4 * n)
			return false;
		p += 4 + len;
		left -= 4 + len;
	}
	return left == 4 * n;
}

/*
 * CPU_TOPOLOGY: sibling sockets and threads (u32 nr; strings each), then a
 * u32 core and socket id for each of NRCPUS's n CPUs, then (newer perf) the
 * sibling dies (u32 nr; strings) and a u32 die id per CPU. n is not in the
 * section: the first n for which the dies fill the rest exactly (the search
 * bounded for damaged input), else u32s to the end (perf before dies).
 */
static int swap_cpu_topology(struct swc *c)
{
	size_t budget = 1 << 20;
	__u32 nr;

	if (sw_u32(c, &nr) || sw_strs(c, nr) || sw_u32(c, &nr) || sw_strs(c, nr))
		return -EBADMSG;
	for (size_t n = 0; 12 * n + 4 <= c->left; n++) {
		if (!sw_dies_fit(c, n, &budget))
			continue;
		for (size_t i = 0; i < 2 * n; i++)
			sw_u32(c, NULL);
		if (sw_u32(c, &nr) || sw_strs(c, nr))
			return -EBADMSG;
		break;
	}
	while (c->left >= 4)
		sw_u32(c, NULL);
	return 0;
}


/* perf's string_size(): what its CPU_TOPOLOGY reader counts for a string */
static uint64_t string_size(const char *s)
{
	return ((strlen(s) + 1 + 63) & ~(size_t)63) + 4;
}

/* A u32 count and its strings: where they start, checked, counted as perf does. */
struct strs {
	struct feat_cur at;
	uint32_t nr;
};

static int skip_strs(struct feat_cur *c, struct strs *l, uint64_t *size)
{
	l->nr = fc_u32(c);
	l->at = *c;
	*size += 4;
	for (uint32_t i = 0; i < l->nr; i++) {
		char *s = fc_str(c);

		if (!s)
			return -EINVAL;
		*size += string_size(s);
		free(s);
	}
	return c->bad ? -EINVAL : 0;
}

static void print_strs(FILE *fp, struct strs l, const char *title)
{
	for (uint32_t i = 0; i < l.nr; i++) {
		char *s = fc_str(&l.at);

		fprintf(fp, "# %s : %s\n", title, s ? s : "");
		free(s);
	}
}

/*
 * perf's process_cpu_topology() + print_cpu_topology(): the sibling
 * sockets and threads; when the section goes on (newer perf), a core and
 * socket id per available CPU (NRCPUS); when it goes on further, the
 * sibling dies and a die id per CPU. Ids that are not all there give
 * perf's "not available" line; sibling lists that are not: damaged.
 */
static int print_cpu_topology(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			      const struct pulse_data *d)
{
	uint32_t cpu_nr = env->nr_cpus_avail;
	struct strs sockets, threads, dies = { .nr = 0 };
	const unsigned char *ids = NULL, *die_ids = NULL;
	uint64_t size = 0;

	if (skip_strs(c, &sockets, &size) || skip_strs(c, &threads, &size))
		return -EINVAL;
	if (c->len <= size)
		goto print;		/* perf before core ids */
	ids = cpu_nr <= (c->len - c->off) / 8 ? fc_take(c, 8 * (size_t)cpu_nr) : NULL;
	for (uint32_t i = 0; ids && i < cpu_nr; i++) {
		uint32_t socket = at32(ids, 8 * i + 4);

		/* perf: "socket_id number is too big" (not checked on s390, aarch64) */
		if (!env->no_socket_check && socket != UINT32_MAX && socket > cpu_nr)
			ids = NULL;
	}
	size += 8 * (uint64_t)cpu_nr;
	if (!ids || c->len <= size || c->len - c->off < 4)
		goto print;		/* perf before dies */
	if (skip_strs(c, &dies, &size))
		return -EINVAL;
	die_ids = cpu_nr <= (c->len - c->off) / 4 ? fc_take(c, 4 * (size_t)cpu_nr) : NULL;
	if (!die_ids)
		ids = NULL;
print:
	print_strs(fp, sockets, "sibling sockets");
	print_strs(fp, dies, "sibling dies   ");
	print_strs(fp, threads, "sibling threads");
	if (dies.nr && !ids)
		fputs("# Core ID, Die ID and Socket ID information is not available\n", fp);
	else if (!ids)
		fputs("# Core ID and Socket ID information is not available\n", fp);
	for (uint32_t i = 0; ids && i < cpu_nr; i++) {
		fprintf(fp, "# CPU %u: Core ID %d, ", i, (int)at32(ids, 8 * i));
		if (dies.nr)
			fprintf(fp, "Die ID %d, ", (int)at32(die_ids, 4 * i));
		fprintf(fp, "Socket ID %d\n", (int)at32(ids, 8 * i + 4));
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_cpu_topology = {
	.name = "CPU_TOPOLOGY", .swap = swap_cpu_topology, .print = print_cpu_topology,
	.full_only = true,
};

/* ---- NUMA_TOPOLOGY --------------------------------------------------------- */

/* u32 nr; { u32 node; u64 total, free; cpus } */
static int swap_numa_topology(struct swc *c)
{
	__u32 nr;

	if (sw_u32(c, &nr))
		return -EBADMSG;
	while (nr--)
		if (sw_u32(c, NULL) || sw_u64s(c, 2) || sw_str(c))
			return -EBADMSG;
	return 0;
}

struct cpu_range {
	unsigned long lo, hi;
};

static int cmp_range(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * perf_cpu_map__new() then cpu_map__snprint(): "0-3,8" read (strtoul base
 * 0, CPUs below INT_MAX, a CPU twice is invalid) and printed back sorted,
 * runs as ranges; an empty list is perf's dummy map, "-1". Kept as ranges,
 * not CPUs, so that a damaged "0-2000000000" costs nothing.
 */
static int fprint_cpu_list(FILE *fp, const char *list)
{
	struct cpu_range *r;
	const char *p = list;
	char *end;
	size_t n = 0;

	if (*p && !(*p >= '0' && *p <= '9'))
		return -EINVAL;
	r = calloc(strlen(list) / 2 + 1, sizeof(*r));	/* an entry takes 2 chars with its ',' */
	if (!r)
		return -ENOMEM;
	while (*p >= '0' && *p <= '9') {
		unsigned long lo = strtoul(p, &end, 0), hi = lo;

		if (lo >= INT32_MAX || (*end && *end != ',' && *end != '-'))
			goto invalid;
		if (*end == '-') {
			hi = strtoul(end + 1, &end, 0);
			if (hi >= INT32_MAX || (*end && *end != ',') || hi < lo)
				goto invalid;
		}
		r[n++] = (struct cpu_range){ lo, hi };
		p = *end ? end + 1 : end;
	}
	qsort(r, n, sizeof(*r), cmp_range);
	for (size_t i = 1; i < n; i++)
		if (r[i].lo <= r[i - 1].hi)
			goto invalid;
	if (!n)
		fputs("-1", fp);
	for (size_t i = 0; i < n;) {
		unsigned long lo = r[i].lo, hi = r[i].hi;

		while (++i < n && r[i].lo == hi + 1)
			hi = r[i].hi;
		fprintf(fp, "%s%lu", lo == r[0].lo ? "" : ",", lo);
		if (hi > lo)
			fprintf(fp, "-%lu", hi);
	}
	fputc('\n', fp);
	free(r);
	return 0;
invalid:
	free(r);
	return -EINVAL;
}

/* perf's process_numa_topology() + print_numa_topology() */
static int print_numa_topology(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			       const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c);

	if (c->bad || nr > c->len / 24)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t node = fc_u32(c);
		uint64_t total = fc_u64(c), free_kb = fc_u64(c);
		char *cpus = fc_str(c);
		int err;

		if (!cpus)
			return -EINVAL;
		fprintf(fp, "# node%" PRIu32 " meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
			" kB\n", node, total, free_kb);
		fprintf(fp, "# node%" PRIu32 " cpu list : ", node);
		err = fprint_cpu_list(fp, cpus);
		free(cpus);
		if (err)
			return err;
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_numa_topology = {
	.name = "NUMA_TOPOLOGY", .swap = swap_numa_topology, .print = print_numa_topology,
	.full_only = true,
};

/* ---- CACHE ------------------------------------------------------------------- */

/* u32 version, nr; { 4 u32; type, size, map } */
static int swap_cache(struct swc *c)
{
	__u32 nr;

	if (sw_u32(c, NULL) || sw_u32(c, &nr))
		return -EBADMSG;
	while (nr--)
		if (sw_u32(c, NULL) || sw_u32(c, NULL) || sw_u32(c, NULL) ||
		    sw_u32(c, NULL) || sw_strs(c, 3))
			return -EBADMSG;
	return 0;
}

/* perf's process_cache() + print_cache(): version 1 only */
static int print_cache(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
		       const struct pulse_data *d)
{
	uint32_t ver = fc_u32(c), nr = fc_u32(c);

	if (c->bad || ver != 1 || nr > c->len / 28)
		return -EINVAL;
	fputs("# CPU cache info:\n", fp);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t level = fc_u32(c);
		char *type, *size, *map;
		int err = -EINVAL;

		fc_take(c, 12);	/* line size, sets, ways: not printed */
		type = fc_str(c);
		size = fc_str(c);
		map = fc_str(c);
		if (type && size && map) {
			fprintf(fp, "#  L%d %-15s %8s [%s]\n", (int)level, type, size, map);
			err = 0;
		}
		free(type);
		free(size);
		free(map);
		if (err)
			return err;
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_cache = {
	.name = "CACHE", .swap = swap_cache, .print = print_cache, .full_only = true,
};

/* ---- MEM_TOPOLOGY ------------------------------------------------------------ */

/* version, block size, nr; { node, size, bits, words }: all u64 */
static int swap_u64s(struct swc *c)
{
	return sw_u64s(c, ~0ULL);
}

/* perf's unit_number__scnprintf(): note the "> 1", 1024 stays 1024B */
static void fprint_unit(FILE *fp, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	fprintf(fp, "%" PRIu64 "%c", n, unit[i]);
}

static bool bit_set(const unsigned char *set, uint64_t nbits, uint64_t n)
{
	return n < nbits && ((at64(set, n / 64 * 8) >> (n % 64)) & 1);
}

/* the kernel's scnprintf() into map[100] at *len: what fits, never more */
static void scn(char *map, size_t size, size_t *len, const char *fmt, unsigned int v)
{
	int n;

	if (*len + 1 >= size)
		return;
	n = snprintf(map + *len, size - *len, fmt, v);
	*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

/*
 * perf's process_mem_topology() + print_mem_topology(): u64 version (1),
 * block size, nr; per node u64 node, size, then a bitmap (u64 bits; u64
 * words) of its memory blocks, printed as ranges into perf's 100 bytes.
 */
static int print_mem_topology(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			      const struct pulse_data *d)
{
	uint64_t ver = fc_u64(c), bsize = fc_u64(c), nr = fc_u64(c);

	if (c->bad || ver != 1 || nr > c->len / 24)
		return -EINVAL;
	fprintf(fp, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)nr, bsize);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t node = fc_u64(c), bits, words, weight = 0;
		const unsigned char *set;
		char map[100] = "";
		size_t len = 0;
		unsigned int nbits, cur, hi;

		fc_u64(c);	/* the size again: perf's bitmap writer puts it first */
		bits = fc_u64(c);
		words = bits / 64 + (bits % 64 != 0);
		if (c->bad || words > (c->len - c->off) / 8)
			return -EINVAL;
		set = fc_take(c, words * 8);
		nbits = (unsigned int)bits;	/* perf's bitmap_*() take an unsigned int */
		for (cur = 0; cur < nbits; cur++)
			weight += bit_set(set, bits, cur);
		for (cur = 0; cur < nbits && !bit_set(set, bits, cur); cur++)
			;
		while (cur < nbits) {
			for (hi = cur; hi + 1 < nbits && bit_set(set, bits, hi + 1); hi++)
				;
			if (len)
				scn(map, sizeof(map), &len, ",", 0);
			scn(map, sizeof(map), &len, "%u", cur);
			if (hi > cur)
				scn(map, sizeof(map), &len, "-%u", hi);
			for (cur = hi + 1; cur < nbits && !bit_set(set, bits, cur); cur++)
				;
		}
		fprintf(fp, "#  %3" PRIu64 " [", node);
		fprint_unit(fp, bsize * weight);
		fprintf(fp, "]: %s\n", map);
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_mem_topology = {
	.name = "MEM_TOPOLOGY", .swap = swap_u64s, .print = print_mem_topology, .full_only = true,
};

/* ---- HYBRID_TOPOLOGY --------------------------------------------------------- */

/* u32 nr; { pmu, cpus } strings */
static int swap_hybrid_topology(struct swc *c)
{
	__u32 nr;

	return sw_u32(c, &nr) ?: sw_strs(c, (__u64)nr * 2);
}

/* perf's process_hybrid_topology() + print_hybrid_topology() */
static int print_hybrid_topology(FILE *fp, int feat, struct feat_cur *c,
				 struct pulse_header_env *env, const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c);

	if (c->bad || nr > c->len / 8)
		return -EINVAL;
	fputs("# hybrid cpu system:\n", fp);
	for (uint32_t i = 0; i < nr; i++) {
		char *pmu = fc_str(c), *cpus = fc_str(c);
		int err = pmu && cpus ? 0 : -EINVAL;

		if (!err)
			fprintf(fp, "# %s cpu list : %s\n", pmu, cpus);
		free(pmu);
		free(cpus);
		if (err)
			return err;
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_hybrid_topology = {
	.name = "HYBRID_TOPOLOGY", .swap = swap_hybrid_topology, .print = print_hybrid_topology,
	.full_only = true,
};
