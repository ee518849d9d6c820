/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature section payloads (the HEADER_* sections after the data), built
 * byte for byte as perf 6.1 writes them so that `perf report --header-only`
 * reads a pulse file as one of its own. The struct pulse_buf helpers are
 * declared in data.h.
 */
#ifndef PULSE_FEATURES_H
#define PULSE_FEATURES_H

#include <stddef.h>
#include <linux/types.h>
#include <pulse/build-id.h>
#include <pulse/data.h>

/* One BUILD_ID feature entry. */
struct pulse_build_id_entry {
	int pid;		/* perf writes -1 (the host machine) for every entry */
	__u16 misc;		/* PERF_RECORD_MISC_KERNEL or PERF_RECORD_MISC_USER */
	unsigned char id[PULSE_BUILD_ID_SIZE];
	size_t size;		/* valid bytes in id */
	const char *filename;	/* "[kernel.kallsyms]" for the kernel, else the path */
};

/* What the builders need beyond the running system. NULL/0 fields are unused. */
struct pulse_feat_ctx {
	/* CMDLINE: the arguments after the program name, subcommand first
	 * ("record", "-a", ...), as perf's cmdline; the path of the running
	 * executable is written before them. */
	int argc;
	const char *const *argv;
	/* EVENT_DESC */
	const struct pulse_data_attr *attrs;
	size_t nr_attrs;
	/* SAMPLE_TIME */
	__u64 first_time, last_time;
	/* BUILD_ID */
	const struct pulse_build_id_entry *build_ids;
	size_t nr_build_ids;
	/* Where cpuinfo/meminfo and cpu/present are read; default "/proc", "/sys". */
	const char *proc;
	const char *sysfs;
};

/**
 * pulse_feat__build - append the payload of one feature section to @b
 * @feat: PULSE_FEAT_HOSTNAME, OSRELEASE, VERSION (PULSE_VERSION), ARCH,
 *        NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE, EVENT_DESC,
 *        SAMPLE_TIME or BUILD_ID (TRACING_DATA: pulse_tracing_data__build())
 * @b: the buffer to append to (zero-initialised or holding earlier data)
 * @ctx: inputs; may be NULL for the features read from the system
 *
 * Return: 0; -ENOENT when the system does not say (no "model name" in
 * cpuinfo, ...); -EOPNOTSUPP for a feature pulse does not build, or CPUID
 * on an architecture without a known format; -EINVAL for a missing ctx
 * input; -ENOMEM.
 */
int pulse_feat__build(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx);

#endif
