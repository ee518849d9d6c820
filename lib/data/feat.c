// SPDX-License-Identifier: GPL-2.0
/*
 * The feature table (see feat.h): the rows indexed by feature id, and the
 * three things done with a feature section, each by its row: building the
 * payload pulse writes (pulse_feat__build()), swapping a foreign payload
 * (pulse_feat__swap()) and printing it as perf 6.1's `perf report
 * --header` does (pulse_feat__fprintf(), pulse_data__fprintf_feat()).
 * The helpers the rows' writers share are in feat-util.c, below the rows
 * (the table calls the rows, the rows call the helpers: no cycle).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/reader.h>
#include "data/feat.h"

static const struct pulse_feat_ops pulse_feat_reserved = { .name = "RESERVED" };

static const struct pulse_feat_ops *const feat_ops[PULSE_FEAT_LAST_KNOWN_BY_PERF61 + 1] = {
	[PULSE_FEAT_RESERVED] = &pulse_feat_reserved,
	[PULSE_FEAT_TRACING_DATA] = &pulse_feat_tracing_data,
	[PULSE_FEAT_BUILD_ID] = &pulse_feat_build_id,
	[PULSE_FEAT_HOSTNAME] = &pulse_feat_hostname,
	[PULSE_FEAT_OSRELEASE] = &pulse_feat_osrelease,
	[PULSE_FEAT_VERSION] = &pulse_feat_version,
	[PULSE_FEAT_ARCH] = &pulse_feat_arch,
	[PULSE_FEAT_NRCPUS] = &pulse_feat_nrcpus,
	[PULSE_FEAT_CPUDESC] = &pulse_feat_cpudesc,
	[PULSE_FEAT_CPUID] = &pulse_feat_cpuid,
	[PULSE_FEAT_TOTAL_MEM] = &pulse_feat_total_mem,
	[PULSE_FEAT_CMDLINE] = &pulse_feat_cmdline,
	[PULSE_FEAT_EVENT_DESC] = &pulse_feat_event_desc,
	[PULSE_FEAT_CPU_TOPOLOGY] = &pulse_feat_cpu_topology,
	[PULSE_FEAT_NUMA_TOPOLOGY] = &pulse_feat_numa_topology,
	[PULSE_FEAT_BRANCH_STACK] = &pulse_feat_branch_stack,
	[PULSE_FEAT_PMU_MAPPINGS] = &pulse_feat_pmu_mappings,
	[PULSE_FEAT_GROUP_DESC] = &pulse_feat_group_desc,
	[PULSE_FEAT_AUXTRACE] = &pulse_feat_auxtrace,
	[PULSE_FEAT_STAT] = &pulse_feat_stat,
	[PULSE_FEAT_CACHE] = &pulse_feat_cache,
	[PULSE_FEAT_SAMPLE_TIME] = &pulse_feat_sample_time,
	[PULSE_FEAT_MEM_TOPOLOGY] = &pulse_feat_mem_topology,
	[PULSE_FEAT_CLOCKID] = &pulse_feat_clockid,
	[PULSE_FEAT_DIR_FORMAT] = &pulse_feat_dir_format,
	[PULSE_FEAT_BPF_PROG_INFO] = &pulse_feat_bpf_prog_info,
	[PULSE_FEAT_BPF_BTF] = &pulse_feat_bpf_btf,
	[PULSE_FEAT_COMPRESSED] = &pulse_feat_compressed,
	[PULSE_FEAT_CPU_PMU_CAPS] = &pulse_feat_cpu_pmu_caps,
	[PULSE_FEAT_CLOCK_DATA] = &pulse_feat_clock_data,
	[PULSE_FEAT_HYBRID_TOPOLOGY] = &pulse_feat_hybrid_topology,
	[PULSE_FEAT_PMU_CAPS] = &pulse_feat_pmu_caps,
};

/* The row of @feat; NULL for bit 0 and the ids perf 6.1 does not know. */
static const struct pulse_feat_ops *feat_row(int feat)
{
	if (feat <= 0 || feat > PULSE_FEAT_LAST_KNOWN_BY_PERF61)
		return NULL;
	return feat_ops[feat];
}

const char *pulse_feat__name(int feat)
{
	if (feat < 0 || feat > PULSE_FEAT_LAST_KNOWN_BY_PERF61)
		return NULL;
	return feat_ops[feat]->name;
}

int pulse_feat__build(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	const struct pulse_feat_ops *ops = feat_row(feat);
	size_t start = b->len;
	int err;

	if (!ops || !ops->write)
		return -EOPNOTSUPP;
	err = ops->write(feat, b, ctx);
	/* Leave no half-built payload behind for the caller to write. */
	if (err)
		b->len = start;
	return err;
}

int pulse_feat__swap(int feat, void *p, size_t len, bool to_native)
{
	const struct pulse_feat_ops *ops = feat_row(feat);
	struct swc c = { p, len, to_native };

	if (!ops || !ops->swap)
		return -EOPNOTSUPP;
	return ops->swap(&c);
}

static int print_row(FILE *fp, int feat, const struct pulse_feat_ops *ops, struct feat_cur *c,
		     struct pulse_header_env *env, const struct pulse_data *d)
{
	if (!ops->print)
		return 0;
	if (ops->full_only && !env->full) {
		fprintf(fp, "# %s info available, use -I to display\n", ops->name);
		return 0;
	}
	return ops->print(fp, feat, c, env, d);
}

/*
 * Into a memory stream first, so that a damaged section prints nothing
 * (or the row's "damaged" line) rather than half of its lines.
 */
static int fprintf_feat(FILE *fp, int feat, const void *p, size_t len,
			struct pulse_header_env *env, const struct pulse_data *d)
{
	const struct pulse_feat_ops *ops = feat_row(feat);
	struct feat_cur c = { .p = p, .len = p ? len : 0 };
	struct pulse_header_env none = { 0 };
	char *out = NULL;
	size_t size = 0;
	FILE *m;
	int err;

	if (!ops)
		return 0;
	m = open_memstream(&out, &size);
	if (!m)
		return -ENOMEM;
	err = print_row(m, feat, ops, &c, env ? env : &none, d);
	if (fclose(m))
		err = -ENOMEM;
	if (!err)
		fwrite(out, 1, size, fp);
	else if (ops->damaged && err == -EINVAL)
		fputs(ops->damaged, fp);
	free(out);
	return err == -ENOTSUP ? 0 : err;
}

int pulse_feat__fprintf(FILE *fp, int feat, const void *p, size_t len,
			struct pulse_header_env *env)
{
	return fprintf_feat(fp, feat, p, len, env, NULL);
}

int pulse_data__fprintf_feat(FILE *fp, const struct pulse_data *d, int feat,
			     struct pulse_header_env *env)
{
	size_t len;
	const void *p = pulse_data__feat(d, feat, &len);

	if (!p)
		return 0;
	return fprintf_feat(fp, feat, p, len, env, d);
}
