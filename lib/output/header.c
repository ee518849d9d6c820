// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's header printing (util/header.c print_* and
 * perf_header__fprintf_info, util/perf_event_attr_fprintf.c): each feature
 * payload is decoded with every length checked against the section, into
 * a memory stream first, so that a damaged section prints nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pulse/data.h>
#include <pulse/output-header.h>
#include <pulse/reader.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const feat_names[] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
	"NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
	"BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

/* A payload being read; @bad sticks once a read went past the end. */
struct cur {
	const unsigned char *p;
	size_t len, off;
	bool bad;
};

static const unsigned char *take(struct cur *c, size_t n)
{
	const unsigned char *p = c->p + c->off;

	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	c->off += n;
	return p;
}

static uint32_t get_u32(struct cur *c)
{
	const unsigned char *p = take(c, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

static uint64_t get_u64(struct cur *c)
{
	const unsigned char *p = take(c, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

/*
 * A perf_header_string (u32 len; len bytes, NUL-padded) copied into a
 * malloc'ed C string: perf prints up to the first NUL. NULL when damaged.
 */
static char *get_str(struct cur *c)
{
	uint32_t n = get_u32(c);
	const unsigned char *p = take(c, n);
	char *s;

	if (!p)
		return NULL;
	s = strndup((const char *)p, n);
	if (!s)
		c->bad = true;
	return s;
}

/* ---- perf_event_attr__fprintf --------------------------------------------- */

struct bit_name {
	uint64_t bit;
	const char *name;
};

static void fprint_bits(FILE *fp, uint64_t v, const struct bit_name *bits, size_t n)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (v & bits[i].bit) {
			fprintf(fp, "%s%s", first ? "" : "|", bits[i].name);
			first = false;
		}
	}
}

#define B(n, name) { 1ULL << (n), name }
static const struct bit_name sample_bits[] = {
	B(0, "IP"), B(1, "TID"), B(2, "TIME"), B(3, "ADDR"), B(4, "READ"), B(5, "CALLCHAIN"),
	B(6, "ID"), B(7, "CPU"), B(8, "PERIOD"), B(9, "STREAM_ID"), B(10, "RAW"),
	B(11, "BRANCH_STACK"), B(12, "REGS_USER"), B(13, "STACK_USER"), B(16, "IDENTIFIER"),
	B(18, "REGS_INTR"), B(15, "DATA_SRC"), B(14, "WEIGHT"), B(19, "PHYS_ADDR"), B(20, "AUX"),
	B(21, "CGROUP"), B(22, "DATA_PAGE_SIZE"), B(23, "CODE_PAGE_SIZE"), B(24, "WEIGHT_STRUCT"),
};

static const struct bit_name read_bits[] = {
	B(0, "TOTAL_TIME_ENABLED"), B(1, "TOTAL_TIME_RUNNING"), B(2, "ID"), B(3, "GROUP"),
	B(4, "LOST"),
};

static const struct bit_name branch_bits[] = {
	B(0, "USER"), B(1, "KERNEL"), B(2, "HV"), B(3, "ANY"), B(4, "ANY_CALL"),
	B(5, "ANY_RETURN"), B(6, "IND_CALL"), B(7, "ABORT_TX"), B(8, "IN_TX"), B(9, "NO_TX"),
	B(10, "COND"), B(11, "CALL_STACK"), B(12, "IND_JUMP"), B(13, "CALL"), B(14, "NO_FLAGS"),
	B(15, "NO_CYCLES"), B(16, "TYPE_SAVE"), B(17, "HW_INDEX"),
};
#undef B

/* The one-bit flags at byte 40 of the attr, in perf's print order. */
static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
	"task", "watermark", NULL /* precise_ip, 2 bits */, NULL, "mmap_data", "sample_id_all",
	"exclude_host", "exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user",
	"mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces",
	"ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap",
};

static uint64_t at64(const unsigned char *a, size_t off)
{
	uint64_t v;

	memcpy(&v, a + off, 8);
	return v;
}

static uint32_t at32(const unsigned char *a, size_t off)
{
	uint32_t v;

	memcpy(&v, a + off, 4);
	return v;
}

/* @a: the attr zero-extended to 128 bytes (VER7, what perf 6.1 knows). */
static void fprint_attr(FILE *fp, const unsigned char *a)
{
	uint64_t flags = at64(a, 40), v;
	uint16_t u16;

	/* perf's PRINT_ATTRf() leaves out every zero field: PERF_TYPE_HARDWARE too */
	if (at32(a, 0))
		fprintf(fp, ", type = %" PRIu32, at32(a, 0));
	if (at32(a, 4))
		fprintf(fp, ", size = %" PRIu32, at32(a, 4));
	if (at64(a, 8))
		fprintf(fp, ", config = %#" PRIx64, at64(a, 8));
	if (at64(a, 16))
		fprintf(fp, ", { sample_period, sample_freq } = %" PRIu64, at64(a, 16));
	if (at64(a, 24)) {
		fputs(", sample_type = ", fp);
		fprint_bits(fp, at64(a, 24), sample_bits, N_ELEMS(sample_bits));
	}
	if (at64(a, 32)) {
		fputs(", read_format = ", fp);
		fprint_bits(fp, at64(a, 32), read_bits, N_ELEMS(read_bits));
	}
	for (size_t i = 0; i < N_ELEMS(flag_names); i++) {
		if (i == 15) {
			if ((flags >> 15) & 3)
				fprintf(fp, ", precise_ip = %" PRIu64, (flags >> 15) & 3);
			continue;
		}
		if (flag_names[i] && ((flags >> i) & 1))
			fprintf(fp, ", %s = 1", flag_names[i]);
	}
	if (at32(a, 48))
		fprintf(fp, ", { wakeup_events, wakeup_watermark } = %" PRIu32, at32(a, 48));
	if (at32(a, 52))
		fprintf(fp, ", bp_type = %" PRIu32, at32(a, 52));
	if (at64(a, 56))
		fprintf(fp, ", { bp_addr, config1 } = %#" PRIx64, at64(a, 56));
	if (at64(a, 64))
		fprintf(fp, ", { bp_len, config2 } = %#" PRIx64, at64(a, 64));
	if (at64(a, 72)) {
		fputs(", branch_sample_type = ", fp);
		fprint_bits(fp, at64(a, 72), branch_bits, N_ELEMS(branch_bits));
	}
	if (at64(a, 80))
		fprintf(fp, ", sample_regs_user = %#" PRIx64, at64(a, 80));
	if (at32(a, 88))
		fprintf(fp, ", sample_stack_user = %" PRIu32, at32(a, 88));
	if ((int32_t)at32(a, 92))
		fprintf(fp, ", clockid = %" PRId32, (int32_t)at32(a, 92));
	if (at64(a, 96))
		fprintf(fp, ", sample_regs_intr = %#" PRIx64, at64(a, 96));
	if (at32(a, 104))
		fprintf(fp, ", aux_watermark = %" PRIu32, at32(a, 104));
	memcpy(&u16, a + 108, 2);
	if (u16)
		fprintf(fp, ", sample_max_stack = %" PRIu16, u16);
	if (at32(a, 112))
		fprintf(fp, ", aux_sample_size = %" PRIu32, at32(a, 112));
	v = at64(a, 120);
	if (v)
		fprintf(fp, ", sig_data = %" PRIu64, v);
}

/* ---- the -I features (perf's full_only ones) ------------------------------ */

/* perf's string_size(): what its CPU_TOPOLOGY reader counts for a string */
static uint64_t string_size(const char *s)
{
	return ((strlen(s) + 1 + 63) & ~(size_t)63) + 4;
}

/* A u32 count and its strings: where they start, checked, counted as perf does. */
struct strs {
	struct cur at;
	uint32_t nr;
};

static int skip_strs(struct cur *c, struct strs *l, uint64_t *size)
{
	l->nr = get_u32(c);
	l->at = *c;
	*size += 4;
	for (uint32_t i = 0; i < l->nr; i++) {
		char *s = get_str(c);

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
		char *s = get_str(&l.at);

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
static int print_cpu_topology(FILE *fp, struct cur *c, const struct pulse_header_env *env)
{
	uint32_t cpu_nr = env->nr_cpus_avail;
	struct strs sockets, threads, dies = { .nr = 0 };
	const unsigned char *ids = NULL, *die_ids = NULL;
	uint64_t size = 0;

	if (skip_strs(c, &sockets, &size) || skip_strs(c, &threads, &size))
		return -EINVAL;
	if (c->len <= size)
		goto print;		/* perf before core ids */
	ids = cpu_nr <= (c->len - c->off) / 8 ? take(c, 8 * (size_t)cpu_nr) : NULL;
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
	die_ids = cpu_nr <= (c->len - c->off) / 4 ? take(c, 4 * (size_t)cpu_nr) : NULL;
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
static int print_numa_topology(FILE *fp, struct cur *c)
{
	uint32_t nr = get_u32(c);

	if (c->bad || nr > c->len / 24)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t node = get_u32(c);
		uint64_t total = get_u64(c), free_kb = get_u64(c);
		char *cpus = get_str(c);
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

/* perf's process_cache() + print_cache(): version 1 only */
static int print_cache(FILE *fp, struct cur *c)
{
	uint32_t ver = get_u32(c), nr = get_u32(c);

	if (c->bad || ver != 1 || nr > c->len / 28)
		return -EINVAL;
	fputs("# CPU cache info:\n", fp);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t level = get_u32(c);
		char *type, *size, *map;
		int err = -EINVAL;

		take(c, 12);	/* line size, sets, ways: not printed */
		type = get_str(c);
		size = get_str(c);
		map = get_str(c);
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
static int print_mem_topology(FILE *fp, struct cur *c)
{
	uint64_t ver = get_u64(c), bsize = get_u64(c), nr = get_u64(c);

	if (c->bad || ver != 1 || nr > c->len / 24)
		return -EINVAL;
	fprintf(fp, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)nr, bsize);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t node = get_u64(c), bits, words, weight = 0;
		const unsigned char *set;
		char map[100] = "";
		size_t len = 0;
		unsigned int nbits, cur, hi;

		get_u64(c);	/* the size again: perf's bitmap writer puts it first */
		bits = get_u64(c);
		words = bits / 64 + (bits % 64 != 0);
		if (c->bad || words > (c->len - c->off) / 8)
			return -EINVAL;
		set = take(c, words * 8);
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

/* perf's process_hybrid_topology() + print_hybrid_topology() */
static int print_hybrid_topology(FILE *fp, struct cur *c)
{
	uint32_t nr = get_u32(c);

	if (c->bad || nr > c->len / 8)
		return -EINVAL;
	fputs("# hybrid cpu system:\n", fp);
	for (uint32_t i = 0; i < nr; i++) {
		char *pmu = get_str(c), *cpus = get_str(c);
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

/* ---- one feature ------------------------------------------------------------ */

static int print_event_desc(FILE *fp, struct cur *c)
{
	uint32_t nr = get_u32(c), size = get_u32(c);

	/* perf's read_event_desc() wants at least a VER0 attr */
	if (c->bad || size < 64 || size > 4096 || nr > c->len / size)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		const unsigned char *p = take(c, size);
		unsigned char a[128] = { 0 };
		uint32_t nr_ids = get_u32(c);
		char *name = get_str(c);

		if (!p || !name || nr_ids > (c->len - c->off) / 8) {
			free(name);
			return -EINVAL;
		}
		memcpy(a, p, size < sizeof(a) ? size : sizeof(a));
		fprintf(fp, "# event : name = %s, ", name);
		free(name);
		if (nr_ids) {
			fputs(", id = {", fp);
			for (uint32_t j = 0; j < nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", get_u64(c));
			fputs(" }", fp);
		}
		fprint_attr(fp, a);
		fputc('\n', fp);
	}
	return 0;
}

static int print_cmdline(FILE *fp, struct cur *c)
{
	uint32_t nr = get_u32(c);

	if (c->bad || nr > c->len / 4)
		return -EINVAL;
	fputs("# cmdline : ", fp);
	for (uint32_t i = 0; i < nr; i++) {
		char *s = get_str(c), *q, *arg = s;

		if (!s)
			return -EINVAL;
		/* perf writes a ' as \'' */
		while ((q = strchr(arg, '\''))) {
			*q = '\0';
			fprintf(fp, "%s\\'", arg);
			arg = q + 1;
		}
		fprintf(fp, "%s ", arg);
		free(s);
	}
	fputc('\n', fp);
	return 0;
}

static int print_pmu_mappings(FILE *fp, struct cur *c)
{
	uint32_t nr = get_u32(c);

	if (c->bad)
		return -EINVAL;
	if (!nr) {
		fputs("# pmu mappings: not available\n", fp);
		return 0;
	}
	fputs("# pmu mappings: ", fp);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t type = get_u32(c);
		char *name = get_str(c);

		if (!name)
			return -EINVAL;
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "", name, type);
		free(name);
	}
	fputc('\n', fp);
	return 0;
}

/* perf's print_per_cpu_pmu_caps(): caps are "name=value" */
static int print_caps(FILE *fp, struct cur *c, const char *pmu, char **pmu_out)
{
	uint32_t nr = get_u32(c);
	char *line = NULL;
	size_t size = 0;
	FILE *m;
	int err = 0;

	if (c->bad || nr > c->len / 8)
		return -EINVAL;
	m = open_memstream(&line, &size);
	if (!m)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		char *name = get_str(c), *val = get_str(c);

		if (name && val)
			fprintf(m, "%s%s=%s", i ? ", " : "", name, val);
		free(name);
		free(val);
	}
	fclose(m);
	if (pmu_out) {
		*pmu_out = get_str(c);
		pmu = *pmu_out;
	}
	if (c->bad || !pmu) {
		err = -EINVAL;
	} else if (!nr) {
		/* perf 6.1 keeps no PMU without caps */
		if (!pmu_out)
			fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
	} else {
		fprintf(fp, "# %s pmu capabilities: %s\n", pmu, line);
	}
	free(line);
	return err;
}

static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 0: return "realtime";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static int print_clock_data(FILE *fp, struct cur *c)
{
	uint32_t ver = get_u32(c), clockid = get_u32(c);
	uint64_t tod = get_u64(c), clk = get_u64(c);
	char tstr[128], date[64];
	time_t sec = tod / 1000000000ULL;
	int usec = (tod % 1000000000ULL) / 1000;
	struct tm tm;

	if (c->bad || ver != 1)
		return -EINVAL;
	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(clockid), clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec,
		usec, (long)(clk / 1000000000ULL), (long)(clk % 1000000000ULL),
		clockid_name(clockid));
	return 0;
}

static int print_feat(FILE *fp, int feat, struct cur *c, struct pulse_header_env *env)
{
	char *s;

	switch (feat) {
	case PULSE_FEAT_HOSTNAME:
	case PULSE_FEAT_OSRELEASE:
	case PULSE_FEAT_VERSION:
	case PULSE_FEAT_ARCH:
	case PULSE_FEAT_CPUDESC:
	case PULSE_FEAT_CPUID: {
		static const char *const title[] = {
			[PULSE_FEAT_HOSTNAME] = "hostname", [PULSE_FEAT_OSRELEASE] = "os release",
			[PULSE_FEAT_VERSION] = "perf version", [PULSE_FEAT_ARCH] = "arch",
			[PULSE_FEAT_CPUDESC] = "cpudesc", [PULSE_FEAT_CPUID] = "cpuid",
		};

		s = get_str(c);
		if (!s)
			return -EINVAL;
		fprintf(fp, "# %s : %s\n", title[feat], s);
		if (feat == PULSE_FEAT_ARCH)
			env->no_socket_check = !strncmp(s, "s390", 4) || !strncmp(s, "aarch64", 7);
		free(s);
		return 0;
	}
	case PULSE_FEAT_NRCPUS: {
		uint32_t avail = get_u32(c), online = get_u32(c);

		if (c->bad)
			return -EINVAL;
		fprintf(fp, "# nrcpus online : %" PRIu32 "\n# nrcpus avail : %" PRIu32 "\n", online,
			avail);
		env->nr_cpus_avail = avail;
		return 0;
	}
	case PULSE_FEAT_TOTAL_MEM: {
		uint64_t v = get_u64(c);

		if (c->bad)
			return -EINVAL;
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", v);
		return 0;
	}
	case PULSE_FEAT_CMDLINE:
		return print_cmdline(fp, c);
	case PULSE_FEAT_EVENT_DESC:
		return print_event_desc(fp, c);
	case PULSE_FEAT_CPU_TOPOLOGY:
	case PULSE_FEAT_NUMA_TOPOLOGY:
	case PULSE_FEAT_CACHE:
	case PULSE_FEAT_MEM_TOPOLOGY:
	case PULSE_FEAT_HYBRID_TOPOLOGY:
		if (!env->full) {
			fprintf(fp, "# %s info available, use -I to display\n", feat_names[feat]);
			return 0;
		}
		switch (feat) {
		case PULSE_FEAT_CPU_TOPOLOGY:
			return print_cpu_topology(fp, c, env);
		case PULSE_FEAT_NUMA_TOPOLOGY:
			return print_numa_topology(fp, c);
		case PULSE_FEAT_CACHE:
			return print_cache(fp, c);
		case PULSE_FEAT_MEM_TOPOLOGY:
			return print_mem_topology(fp, c);
		default:
			return print_hybrid_topology(fp, c);
		}
	case PULSE_FEAT_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", fp);
		return 0;
	case PULSE_FEAT_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		return 0;
	case PULSE_FEAT_STAT:
		fputs("# contains stat data\n", fp);
		return 0;
	case PULSE_FEAT_PMU_MAPPINGS:
		return print_pmu_mappings(fp, c);
	case PULSE_FEAT_SAMPLE_TIME: {
		uint64_t first = get_u64(c), last = get_u64(c);

		if (c->bad)
			return -EINVAL;
		fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			first / UINT64_C(1000000000), first % UINT64_C(1000000000) / 1000);
		fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			last / UINT64_C(1000000000), last % UINT64_C(1000000000) / 1000);
		fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000);
		return 0;
	}
	case PULSE_FEAT_CLOCKID: {
		uint64_t res = get_u64(c);

		if (c->bad)
			return -EINVAL;
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
		return 0;
	}
	case PULSE_FEAT_DIR_FORMAT:
		/* perf prints its data->dir.version: 0 for a file */
		fputs("# directory data version : 0\n", fp);
		return 0;
	case PULSE_FEAT_COMPRESSED: {
		uint32_t ver = get_u32(c), type = get_u32(c), level = get_u32(c);
		uint32_t ratio = get_u32(c);

		if (c->bad || ver != 0)
			return -EINVAL;
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			type == 1 ? "Zstd" : "Unknown", (int)level, (int)ratio);
		return 0;
	}
	case PULSE_FEAT_CPU_PMU_CAPS:
		return print_caps(fp, c, "cpu", NULL);
	case PULSE_FEAT_PMU_CAPS: {
		uint32_t nr = get_u32(c);

		if (c->bad || nr > c->len / 8)
			return -EINVAL;
		for (uint32_t i = 0; i < nr; i++) {
			char *pmu = NULL;
			int err = print_caps(fp, c, NULL, &pmu);

			free(pmu);
			if (err)
				return err;
		}
		return 0;
	}
	case PULSE_FEAT_CLOCK_DATA:
		return print_clock_data(fp, c);
	case PULSE_FEAT_BPF_PROG_INFO:
	case PULSE_FEAT_BPF_BTF: {
		/* nothing to print without programs; with some: not decoded yet */
		uint32_t nr = get_u32(c);

		return c->bad ? -EINVAL : nr ? -ENOTSUP : 0;
	}
	default:
		/* TRACING_DATA, BUILD_ID: perf prints nothing; GROUP_DESC: see caller */
		return 0;
	}
}

int pulse_header__fprintf_feat(FILE *fp, int feat, const void *p, size_t len,
			       struct pulse_header_env *env)
{
	struct cur c = { .p = p, .len = p ? len : 0 };
	struct pulse_header_env none = { 0 };
	char *out = NULL;
	size_t size = 0;
	FILE *m;
	int err;

	if (feat <= 0 || feat > PULSE_FEAT_LAST_KNOWN_BY_PERF61)
		return 0;
	m = open_memstream(&out, &size);
	if (!m)
		return -ENOMEM;
	err = print_feat(m, feat, &c, env ? env : &none);
	if (fclose(m))
		err = -ENOMEM;
	if (!err)
		fwrite(out, 1, size, fp);
	else if (feat == PULSE_FEAT_EVENT_DESC && err == -EINVAL)
		fputs("# event desc: not available or unable to read\n", fp);
	free(out);
	return err == -ENOTSUP ? 0 : err;
}

/* GROUP_DESC: perf prints the groups of more than one event. */
static int print_group_desc(FILE *fp, struct pulse_data *d)
{
	struct cur c = { 0 };
	uint32_t nr;

	c.p = pulse_data__feat(d, PULSE_FEAT_GROUP_DESC, &c.len);
	nr = get_u32(&c);
	if (c.bad || nr > c.len / 12)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		char *name = get_str(&c);
		uint32_t leader = get_u32(&c), members = get_u32(&c);
		const char *ev;

		if (!name || c.bad || leader >= pulse_data__nr_attrs(d) ||
		    members > pulse_data__nr_attrs(d) - leader) {
			free(name);
			return -EINVAL;
		}
		if (members > 1) {
			ev = pulse_data__attr_name(d, leader);
			fprintf(fp, "# group: %s{%s", strcmp(name, "{anon_group}") ? name : "",
				ev ? ev : "");
			for (uint32_t j = 1; j < members; j++) {
				ev = pulse_data__attr_name(d, leader + j);
				fprintf(fp, ",%s", ev ? ev : "");
			}
			fputs("}\n", fp);
		}
		free(name);
	}
	return 0;
}

int pulse_header__fprintf(FILE *fp, struct pulse_data *d, time_t mtime, bool full)
{
	struct pulse_header_env env = { .full = full };
	bool pipe = pulse_data__is_pipe(d);
	uint64_t off = pipe ? 0 : pulse_data__data_offset(d);
	uint64_t size = pipe ? 0 : pulse_data__data_size(d);
	char date[64];

	fputs("# ========\n", fp);
	if (!ctime_r(&mtime, date))
		snprintf(date, sizeof(date), "(unknown)\n");
	fprintf(fp, "# captured on    : %s", date);
	fputs("# header version : 1\n", fp);
	fprintf(fp, "# data offset    : %" PRIu64 "\n", off);
	fprintf(fp, "# data size      : %" PRIu64 "\n", size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", off + size);
	if (!pipe) {
		for (int f = 1; f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61; f++) {
			const void *p;
			size_t len;

			if (!pulse_data__has_feat(d, f))
				continue;
			p = pulse_data__feat(d, f, &len);
			if (f == PULSE_FEAT_GROUP_DESC) {
				char *out = NULL;
				size_t n = 0;
				FILE *m = open_memstream(&out, &n);

				if (m && !print_group_desc(m, d) && !fclose(m))
					fwrite(out, 1, n, fp);
				else if (m)
					fclose(m);
				free(out);
				continue;
			}
			pulse_header__fprintf_feat(fp, f, p, len, &env);
		}
		fputs("# missing features: ", fp);
		for (int f = 1; f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61; f++)
			if (!pulse_data__has_feat(d, f))
				fprintf(fp, "%s ", feat_names[f]);
		fputc('\n', fp);
	}
	fputs("# ========\n#\n", fp);
	return ferror(fp) ? -EIO : 0;
}
