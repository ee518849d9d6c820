/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The feature table, after perf's feat_ops[] (tools/perf/util/header.c):
 * one row per HEADER_* feature holding how pulse writes its payload, how a
 * byte-swapped payload is swapped and how perf 6.1 prints it, so that the
 * three cannot drift apart and adding a feature is adding a row. The rows
 * live with their functions, grouped by kind:
 *
 *   feat-strings.c   HOSTNAME OSRELEASE VERSION ARCH CPUDESC CPUID CMDLINE
 *   feat-topology.c  NRCPUS TOTAL_MEM CPU_TOPOLOGY NUMA_TOPOLOGY CACHE
 *                    MEM_TOPOLOGY HYBRID_TOPOLOGY
 *   feat-event.c     EVENT_DESC GROUP_DESC PMU_MAPPINGS CPU_PMU_CAPS PMU_CAPS
 *   feat-build-id.c  BUILD_ID
 *   feat-misc.c      TRACING_DATA BRANCH_STACK AUXTRACE STAT SAMPLE_TIME
 *                    CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED
 *                    CLOCK_DATA
 *
 * feat.c indexes them by feature id and dispatches. Not part of the public
 * API: include/pulse/features.h is.
 */
#ifndef PULSE_DATA_FEAT_H
#define PULSE_DATA_FEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/features.h>
#include "core/internal.h"
#include "data/swap.h"

#define NAME_ALIGN 64		/* perf's alignment of perf_header_string */

/*
 * A payload being printed; @bad sticks once a read went past the end, so
 * that a printer can read a whole entry and check once.
 */
struct feat_cur {
	const unsigned char *p;		/* the payload */
	size_t len, off;		/* its bytes, and how many were read */
	bool bad;			/* a read went past @len */
};

static inline const unsigned char *fc_take(struct feat_cur *c, size_t n)
{
	const unsigned char *p = c->p + c->off;

	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	c->off += n;
	return p;
}

static inline uint32_t fc_u32(struct feat_cur *c)
{
	const unsigned char *p = fc_take(c, 4);

	return p ? get_u32(p) : 0;
}

static inline uint64_t fc_u64(struct feat_cur *c)
{
	const unsigned char *p = fc_take(c, 8);

	return p ? get_u64(p) : 0;
}

/*
 * A perf_header_string (u32 len; len bytes, NUL-padded) copied into a
 * malloc'ed C string: perf prints up to the first NUL. NULL when damaged.
 */
static inline char *fc_str(struct feat_cur *c)
{
	uint32_t n = fc_u32(c);
	const unsigned char *p = fc_take(c, n);
	char *s;

	if (!p)
		return NULL;
	s = strndup((const char *)p, n);
	if (!s)
		c->bad = true;
	return s;
}

/* Fields of a fixed-layout blob (an attr, a bitmap word), unaligned. */
static inline uint64_t at64(const unsigned char *a, size_t off)
{
	return get_u64(a + off);
}

static inline uint32_t at32(const unsigned char *a, size_t off)
{
	return get_u32(a + off);
}

static inline int buf_add_u32(struct pulse_buf *b, __u32 v)
{
	return pulse_buf__add(b, &v, sizeof(v));
}

static inline int buf_add_u64(struct pulse_buf *b, __u64 v)
{
	return pulse_buf__add(b, &v, sizeof(v));
}

/* @s followed by zeroes up to @padded bytes. */
static inline int buf_add_padded(struct pulse_buf *b, const char *s, size_t len, size_t padded)
{
	int err = pulse_buf__add(b, s, len);

	return err ? err : pulse_buf__add(b, NULL, padded - len);
}

/**
 * struct pulse_feat_ops - one feature: its name, writer, swapper, printer
 * @name: perf's name without HEADER_ ("HOSTNAME"), as "missing features"
 *        and the -I hint print it
 * @write: append the payload pulse writes to @b (@feat: the row's id, for
 *         rows shared by several features); NULL: pulse does not write it.
 *         0 or -errno (see pulse_feat__build())
 * @swap: swap a foreign payload in place (the cursor's direction); NULL:
 *        layout unknown here, the feature is dropped from a swapped file.
 *        0 or -EBADMSG
 * @print: print perf 6.1's lines for the payload to @fp; NULL: perf prints
 *         nothing. @d is the file in file mode (GROUP_DESC needs its
 *         attrs), NULL for a payload alone. 0, -EINVAL on damage (nothing
 *         of it is shown), -ENOMEM, or -ENOTSUP for "print nothing"
 * @full_only: perf prints it in full only with -I, else a one-line hint
 * @damaged: what perf prints instead when @print finds damage; NULL: nothing
 */
struct pulse_feat_ops {
	const char *name;
	int (*write)(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx);
	int (*swap)(struct swc *c);
	int (*print)(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
		     const struct pulse_data *d);
	bool full_only;
	const char *damaged;
};

/* feat.c: the system facts the writers read */
int pulse_feat__read_text(const char *path, char **out);
char *pulse_feat__find_key(char *text, const char *key);
const char *pulse_feat__proc(const struct pulse_feat_ctx *ctx);
const char *pulse_feat__sysfs(const struct pulse_feat_ctx *ctx);

/* the rows, by file */
extern const struct pulse_feat_ops pulse_feat_hostname, pulse_feat_osrelease,
	pulse_feat_version, pulse_feat_arch, pulse_feat_cpudesc, pulse_feat_cpuid,
	pulse_feat_cmdline;
extern const struct pulse_feat_ops pulse_feat_nrcpus, pulse_feat_total_mem,
	pulse_feat_cpu_topology, pulse_feat_numa_topology, pulse_feat_cache,
	pulse_feat_mem_topology, pulse_feat_hybrid_topology;
extern const struct pulse_feat_ops pulse_feat_event_desc, pulse_feat_group_desc,
	pulse_feat_pmu_mappings, pulse_feat_cpu_pmu_caps, pulse_feat_pmu_caps;
extern const struct pulse_feat_ops pulse_feat_build_id;
extern const struct pulse_feat_ops pulse_feat_tracing_data, pulse_feat_branch_stack,
	pulse_feat_auxtrace, pulse_feat_stat, pulse_feat_sample_time, pulse_feat_clockid,
	pulse_feat_dir_format, pulse_feat_bpf_prog_info, pulse_feat_bpf_btf,
	pulse_feat_compressed, pulse_feat_clock_data;

#endif
