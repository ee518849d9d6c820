// SPDX-License-Identifier: GPL-2.0
/*
 * What the events are: EVENT_DESC (each attr with its ids and name; pulse
 * writes it, perf prints it with perf_event_attr__fprintf()), GROUP_DESC,
 * PMU_MAPPINGS, CPU_PMU_CAPS and PMU_CAPS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/reader.h>
#include "data/feat.h"

/* ---- EVENT_DESC ---------------------------------------------------------------- */

/*
 * u32 nr, u32 attr_size; per event: the attr (attr_size bytes), u32 nr_ids,
 * string name, u64 ids[nr_ids]. The attr is written as perf 6.1 knows it:
 * 128 bytes with attr.size saying so.
 */
static int write_event_desc(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	int err;

	if (!ctx || (ctx->nr_attrs && !ctx->attrs) || ctx->nr_attrs > UINT32_MAX)
		return -EINVAL;
	err = buf_add_u32(b, (__u32)ctx->nr_attrs);
	if (!err)
		err = buf_add_u32(b, PULSE_FILE_ATTR_SIZE);
	for (size_t i = 0; i < ctx->nr_attrs && !err; i++) {
		const struct pulse_data_attr *a = &ctx->attrs[i];
		unsigned char attr[PULSE_FILE_ATTR_SIZE] = { 0 };
		size_t n = sizeof(a->attr) < sizeof(attr) ? sizeof(a->attr) : sizeof(attr);
		__u32 size = PULSE_FILE_ATTR_SIZE;

		if ((a->nr_ids && !a->ids) || a->nr_ids > UINT32_MAX)
			return -EINVAL;
		memcpy(attr, &a->attr, n);
		memcpy(attr + offsetof(struct perf_event_attr, size), &size, sizeof(size));
		err = pulse_buf__add(b, attr, sizeof(attr));
		if (!err)
			err = buf_add_u32(b, (__u32)a->nr_ids);
		if (!err)
			err = pulse_buf__add_string(b, a->name ? a->name : "");
		if (!err)
			err = pulse_buf__add(b, a->ids, a->nr_ids * sizeof(__u64));
	}
	return err;
}

/* u32 nr, attr_size; { attr; u32 nr_ids; name; ids } */
static int swap_event_desc(struct swc *c)
{
	__u32 nr, asz;

	if (sw_u32(c, &nr) || sw_u32(c, &asz))
		return -EBADMSG;
	while (nr--) {
		__u32 nr_ids;

		if (asz > c->left || pulse_attr__swap(c->p, asz, c->to_native))
			return -EBADMSG;
		sw_skip(c, asz);
		if (sw_u32(c, &nr_ids) || sw_str(c) || nr_ids > c->left / 8)
			return -EBADMSG;
		sw_u64s(c, nr_ids);
	}
	return 0;
}

/* perf_event_attr__fprintf() */

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
		fprint_bits(fp, at64(a, 24), sample_bits, ARRAY_SIZE(sample_bits));
	}
	if (at64(a, 32)) {
		fputs(", read_format = ", fp);
		fprint_bits(fp, at64(a, 32), read_bits, ARRAY_SIZE(read_bits));
	}
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++) {
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
		fprint_bits(fp, at64(a, 72), branch_bits, ARRAY_SIZE(branch_bits));
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

static int print_event_desc(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			    const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c), size = fc_u32(c);

	/* perf's read_event_desc() wants at least a VER0 attr */
	if (c->bad || size < 64 || size > 4096 || nr > c->len / size)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		const unsigned char *p = fc_take(c, size);
		unsigned char a[128] = { 0 };
		uint32_t nr_ids = fc_u32(c);
		char *name = fc_str(c);

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
				fprintf(fp, "%s %" PRIu64, j ? "," : "", fc_u64(c));
			fputs(" }", fp);
		}
		fprint_attr(fp, a);
		fputc('\n', fp);
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_event_desc = {
	.name = "EVENT_DESC", .write = write_event_desc, .swap = swap_event_desc,
	.print = print_event_desc, .damaged = "# event desc: not available or unable to read\n",
};

/* ---- GROUP_DESC ------------------------------------------------------------------ */

/*
 * perf's write_group_desc(): the groups of more than one event; none:
 * -ENOENT (perf 6.1 clears the feature then)
 */
static int write_group_desc(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	__u32 nr = 0;
	int err;

	if (!ctx || (ctx->nr_attrs && !ctx->attrs))
		return -EINVAL;
	for (size_t i = 0; i < ctx->nr_attrs; i++)
		nr += ctx->attrs[i].nr_members > 1;
	if (!nr)
		return -ENOENT;
	err = buf_add_u32(b, nr);
	for (size_t i = 0; i < ctx->nr_attrs && !err; i++) {
		const struct pulse_data_attr *a = &ctx->attrs[i];

		if (a->nr_members < 2)
			continue;
		if (a->nr_members > ctx->nr_attrs - i)
			return -EINVAL;
		err = pulse_buf__add_string(b, a->group_name ? a->group_name : "{anon_group}");
		if (!err)
			err = buf_add_u32(b, (__u32)i);
		if (!err)
			err = buf_add_u32(b, a->nr_members);
	}
	return err;
}

/* u32 nr; { name; u32 leader, nr_members } */
static int swap_group_desc(struct swc *c)
{
	__u32 nr;

	if (sw_u32(c, &nr))
		return -EBADMSG;
	while (nr--)
		if (sw_str(c) || sw_u32(c, NULL) || sw_u32(c, NULL))
			return -EBADMSG;
	return 0;
}

/* perf prints the groups of more than one event (file mode only). */
static int print_group_desc(FILE *fp, int feat, struct feat_cur *cur,
			    struct pulse_header_env *env, const struct pulse_data *d)
{
	struct feat_cur c = *cur;
	uint32_t nr;

	if (!d)
		return 0;	/* a pipe's: perf prints nothing */
	nr = fc_u32(&c);
	if (c.bad || nr > c.len / 12)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		char *name = fc_str(&c);
		uint32_t leader = fc_u32(&c), members = fc_u32(&c);
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

const struct pulse_feat_ops pulse_feat_group_desc = {
	.name = "GROUP_DESC", .write = write_group_desc, .swap = swap_group_desc,
	.print = print_group_desc,
};

/* ---- PMU_MAPPINGS ---------------------------------------------------------------- */

/* u32 nr; { u32 type; name } */
static int swap_pmu_mappings(struct swc *c)
{
	__u32 nr;

	if (sw_u32(c, &nr))
		return -EBADMSG;
	while (nr--)
		if (sw_u32(c, NULL) || sw_str(c))
			return -EBADMSG;
	return 0;
}

static int print_pmu_mappings(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			      const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c);

	if (c->bad)
		return -EINVAL;
	if (!nr) {
		fputs("# pmu mappings: not available\n", fp);
		return 0;
	}
	fputs("# pmu mappings: ", fp);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t type = fc_u32(c);
		char *name = fc_str(c);

		if (!name)
			return -EINVAL;
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "", name, type);
		free(name);
	}
	fputc('\n', fp);
	return 0;
}

const struct pulse_feat_ops pulse_feat_pmu_mappings = {
	.name = "PMU_MAPPINGS", .swap = swap_pmu_mappings, .print = print_pmu_mappings,
};

/* ---- CPU_PMU_CAPS, PMU_CAPS ------------------------------------------------------ */

/* u32 nr; { name, value } strings */
static int swap_cpu_pmu_caps(struct swc *c)
{
	__u32 nr;

	return sw_u32(c, &nr) ?: sw_strs(c, (__u64)nr * 2);
}

/* perf's print_per_cpu_pmu_caps(): caps are "name=value" */
static int print_caps(FILE *fp, struct feat_cur *c, const char *pmu, char **pmu_out)
{
	uint32_t nr = fc_u32(c);
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
		char *name = fc_str(c), *val = fc_str(c);

		if (name && val)
			fprintf(m, "%s%s=%s", i ? ", " : "", name, val);
		free(name);
		free(val);
	}
	fclose(m);
	if (pmu_out) {
		*pmu_out = fc_str(c);
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

static int print_cpu_pmu_caps(FILE *fp, int feat, struct feat_cur *c,
			      struct pulse_header_env *env, const struct pulse_data *d)
{
	return print_caps(fp, c, "cpu", NULL);
}

const struct pulse_feat_ops pulse_feat_cpu_pmu_caps = {
	.name = "CPU_PMU_CAPS", .swap = swap_cpu_pmu_caps, .print = print_cpu_pmu_caps,
};

/* u32 nr; { caps as CPU_PMU_CAPS; pmu name }: no swap, a swapped file drops it */
static int print_pmu_caps(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			  const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c);

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

const struct pulse_feat_ops pulse_feat_pmu_caps = {
	.name = "PMU_CAPS", .print = print_pmu_caps,
};
