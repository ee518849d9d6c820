// SPDX-License-Identifier: GPL-2.0
/*
 * The small features: flags without a payload (BRANCH_STACK, AUXTRACE's
 * index aside, STAT), TRACING_DATA (its own byte order, printed nothing),
 * SAMPLE_TIME, CLOCKID, DIR_FORMAT, COMPRESSED, CLOCK_DATA and the BPF
 * ones, which pulse neither writes nor decodes. Also what SAMPLE_TIME and
 * CLOCK_DATA say, for the readers above lib/data.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <pulse/reader.h>
#include "data/feat.h"

/* TRACING_DATA says its own byte order; BRANCH_STACK and STAT have no payload */
static int swap_nothing(struct swc *c)
{
	return 0;
}

static int swap_u64(struct swc *c)
{
	return sw_u64(c, NULL);
}

const struct pulse_feat_ops pulse_feat_tracing_data = {
	.name = "TRACING_DATA", .swap = swap_nothing,
};

static int print_branch_stack(FILE *fp, int feat, struct feat_cur *c,
			      struct pulse_header_env *env, const struct pulse_data *d)
{
	fputs("# contains samples with branch stack\n", fp);
	return 0;
}

const struct pulse_feat_ops pulse_feat_branch_stack = {
	.name = "BRANCH_STACK", .swap = swap_nothing, .print = print_branch_stack,
};

/* u64 nr; { u64 offset, size } */
static int swap_auxtrace(struct swc *c)
{
	return sw_u64s(c, ~0ULL);
}

static int print_auxtrace(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			  const struct pulse_data *d)
{
	fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
	return 0;
}

const struct pulse_feat_ops pulse_feat_auxtrace = {
	.name = "AUXTRACE", .swap = swap_auxtrace, .print = print_auxtrace,
};

static int print_stat(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
		      const struct pulse_data *d)
{
	fputs("# contains stat data\n", fp);
	return 0;
}

const struct pulse_feat_ops pulse_feat_stat = {
	.name = "STAT", .swap = swap_nothing, .print = print_stat,
};

/* ---- SAMPLE_TIME: u64 first, last ------------------------------------------- */

static int write_sample_time(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	int err;

	if (!ctx)
		return -EINVAL;
	err = buf_add_u64(b, ctx->first_time);
	return err ? err : buf_add_u64(b, ctx->last_time);
}

static int swap_sample_time(struct swc *c)
{
	return sw_u64s(c, 2);
}

static int print_sample_time(FILE *fp, int feat, struct feat_cur *c,
			     struct pulse_header_env *env, const struct pulse_data *d)
{
	uint64_t first = fc_u64(c), last = fc_u64(c);

	if (c->bad)
		return -EINVAL;
	fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		first / UINT64_C(1000000000), first % UINT64_C(1000000000) / 1000);
	fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		last / UINT64_C(1000000000), last % UINT64_C(1000000000) / 1000);
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000);
	return 0;
}

const struct pulse_feat_ops pulse_feat_sample_time = {
	.name = "SAMPLE_TIME", .write = write_sample_time, .swap = swap_sample_time,
	.print = print_sample_time,
};

int pulse_data__sample_time(const struct pulse_data *d, __u64 *first, __u64 *last)
{
	size_t len;
	const unsigned char *p = pulse_data__feat(d, PULSE_FEAT_SAMPLE_TIME, &len);

	*first = *last = 0;
	if (!p || len < 16)
		return -ENODATA;
	*first = get_u64(p);
	*last = get_u64(p + 8);
	return 0;
}

/* ---- CLOCKID: u64 resolution; DIR_FORMAT: u64 version ------------------------ */

static int print_clockid(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			 const struct pulse_data *d)
{
	uint64_t res = fc_u64(c);

	if (c->bad)
		return -EINVAL;
	fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
	return 0;
}

const struct pulse_feat_ops pulse_feat_clockid = {
	.name = "CLOCKID", .swap = swap_u64, .print = print_clockid,
};

static int print_dir_format(FILE *fp, int feat, struct feat_cur *c,
			    struct pulse_header_env *env, const struct pulse_data *d)
{
	/* perf prints its data->dir.version: 0 for a file, 1 for a directory */
	fprintf(fp, "# directory data version : %" PRIu64 "\n", pulse_data__dir_version(d));
	return 0;
}

const struct pulse_feat_ops pulse_feat_dir_format = {
	.name = "DIR_FORMAT", .swap = swap_u64, .print = print_dir_format,
};

/* ---- BPF_PROG_INFO, BPF_BTF: layout not known here (no swap) -------------------- */

static int print_bpf(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
		     const struct pulse_data *d)
{
	/* nothing to print without programs; with some: not decoded yet */
	uint32_t nr = fc_u32(c);

	return c->bad ? -EINVAL : nr ? -ENOTSUP : 0;
}

const struct pulse_feat_ops pulse_feat_bpf_prog_info = {
	.name = "BPF_PROG_INFO", .print = print_bpf,
};

const struct pulse_feat_ops pulse_feat_bpf_btf = {
	.name = "BPF_BTF", .print = print_bpf,
};

/* ---- COMPRESSED: u32 version, type, level, ratio, mmap_len ---------------------- */

/* perf 6.1's write_compressed(): its version field is never set, so 0 */
static int write_compressed(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	__u32 v[5];

	if (!ctx || !ctx->comp_level)
		return -EINVAL;
	v[0] = 0;
	v[1] = 1;	/* PERF_COMP_ZSTD */
	v[2] = ctx->comp_level;
	v[3] = ctx->comp_ratio;
	v[4] = ctx->comp_mmap_len;
	return pulse_buf__add(b, v, sizeof(v));
}

static int swap_compressed(struct swc *c)
{
	for (int i = 0; i < 5; i++)
		if (sw_u32(c, NULL))
			return -EBADMSG;
	return 0;
}

static int print_compressed(FILE *fp, int feat, struct feat_cur *c,
			    struct pulse_header_env *env, const struct pulse_data *d)
{
	uint32_t ver = fc_u32(c), type = fc_u32(c), level = fc_u32(c);
	uint32_t ratio = fc_u32(c);

	if (c->bad || ver != 0)
		return -EINVAL;
	fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
		type == 1 ? "Zstd" : "Unknown", (int)level, (int)ratio);
	return 0;
}

const struct pulse_feat_ops pulse_feat_compressed = {
	.name = "COMPRESSED", .write = write_compressed, .swap = swap_compressed, .print = print_compressed,
};

/* ---- CLOCK_DATA: u32 version, clockid; u64 tod_ns, clockid_ns ------------------ */

static int swap_clock_data(struct swc *c)
{
	return sw_u32(c, NULL) ?: sw_u32(c, NULL) ?: sw_u64s(c, 2);
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

static int print_clock_data(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			    const struct pulse_data *d)
{
	uint32_t ver = fc_u32(c), clockid = fc_u32(c);
	uint64_t tod = fc_u64(c), clk = fc_u64(c);
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

const struct pulse_feat_ops pulse_feat_clock_data = {
	.name = "CLOCK_DATA", .swap = swap_clock_data, .print = print_clock_data,
};

int pulse_data__clock_data(const struct pulse_data *d, struct pulse_clock_data *out)
{
	size_t len;
	const unsigned char *p = pulse_data__feat(d, PULSE_FEAT_CLOCK_DATA, &len);

	memset(out, 0, sizeof(*out));
	if (!p)
		return -ENOENT;
	if (len < 24)
		return -EBADMSG;
	out->version = get_u32(p);
	out->clockid = get_u32(p + 4);
	out->tod_ns = get_u64(p + 8);
	out->clockid_ns = get_u64(p + 16);
	return out->version == 1 ? 0 : -EOPNOTSUPP;
}
