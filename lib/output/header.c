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

static int print_feat(FILE *fp, int feat, struct cur *c, bool full)
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
		free(s);
		return 0;
	}
	case PULSE_FEAT_NRCPUS: {
		uint32_t avail = get_u32(c), online = get_u32(c);

		if (c->bad)
			return -EINVAL;
		fprintf(fp, "# nrcpus online : %" PRIu32 "\n# nrcpus avail : %" PRIu32 "\n", online,
			avail);
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
		fprintf(fp, "# %s info available, use -I to display\n", feat_names[feat]);
		return 0;
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

int pulse_header__fprintf_feat(FILE *fp, int feat, const void *p, size_t len, bool full)
{
	struct cur c = { .p = p, .len = p ? len : 0 };
	char *out = NULL;
	size_t size = 0;
	FILE *m;
	int err;

	if (feat <= 0 || feat > PULSE_FEAT_LAST_KNOWN_BY_PERF61)
		return 0;
	m = open_memstream(&out, &size);
	if (!m)
		return -ENOMEM;
	err = print_feat(m, feat, &c, full);
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

int pulse_header__fprintf(FILE *fp, struct pulse_data *d, time_t mtime)
{
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
			pulse_header__fprintf_feat(fp, f, p, len, false);
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
