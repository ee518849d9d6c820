/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature section payloads (the HEADER_* sections after the data): built
 * byte for byte as perf 6.1 writes them so that `perf report --header-only`
 * reads a pulse file as one of its own, swapped for a file of the other
 * byte order, printed as perf 6.1 prints them, and read by accessors so
 * that no code above lib/data parses a payload itself. All of it comes from
 * one table with a row per feature (lib/data/feat.h). The struct pulse_buf
 * helpers are declared in data.h.
 */
#ifndef PULSE_FEATURES_H
#define PULSE_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <pulse/data.h>

struct pulse_data;

/* One BUILD_ID feature entry, to write (pulse_feat__build()) or as read. */
struct pulse_build_id_entry {
	int pid;		/* perf writes -1 (the host machine) for every entry */
	__u16 misc;		/* PERF_RECORD_MISC_KERNEL or PERF_RECORD_MISC_USER */
	unsigned char id[PULSE_BUILD_ID_SIZE];
	size_t size;		/* valid bytes in id */
	const char *filename;	/* "[kernel.kallsyms]" for the kernel, else the path;
				 * as read: not NUL-terminated when damaged */
	size_t filename_len;	/* as read: bytes before the NUL; the writer uses strlen */
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
	/* COMPRESSED (zstd): the level (1..22), perf's rounded ratio, the ring's mmap length */
	__u32 comp_level, comp_ratio, comp_mmap_len;
	/* Where cpuinfo/meminfo and cpu/present are read; default "/proc", "/sys". */
	const char *proc;
	const char *sysfs;
};

/**
 * pulse_feat__build - append the payload of one feature section to @b
 * @feat: PULSE_FEAT_HOSTNAME, OSRELEASE, VERSION (PULSE_VERSION), ARCH,
 *        NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE, EVENT_DESC,
 *        GROUP_DESC (-ENOENT without groups), SAMPLE_TIME, BUILD_ID or
 *        COMPRESSED (TRACING_DATA:
 *        pulse_tracing_data__build())
 * @b: the buffer to append to (zero-initialised or holding earlier data)
 * @ctx: inputs; may be NULL for the features read from the system
 *
 * Return: 0; -ENOENT when the system does not say (no "model name" in
 * cpuinfo, ...); -EOPNOTSUPP for a feature pulse does not build, or CPUID
 * on an architecture without a known format; -EINVAL for a missing ctx
 * input; -ENOMEM.
 */
int pulse_feat__build(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx);

/**
 * pulse_feat__name - perf's name of a feature
 * @feat: enum pulse_feature bit
 *
 * Return: "HOSTNAME" for PULSE_FEAT_HOSTNAME (perf's HEADER_HOSTNAME),
 * "RESERVED" for bit 0, NULL above the last feature perf 6.1 knows.
 */
const char *pulse_feat__name(int feat);

/**
 * pulse_feat__swap - byte-swap a feature section's payload in place
 * @feat: the feature bit (enum pulse_feature)
 * @p, @len: the payload
 * @to_native: @p is foreign and becomes native (else the reverse)
 *
 * Return: 0; -EBADMSG when the payload does not fit its own counts;
 * -EOPNOTSUPP for a feature whose layout is not known here (BPF_*,
 * PMU_CAPS and unknown ids): callers drop it.
 */
int pulse_feat__swap(int feat, void *p, size_t len, bool to_native);

/* ---- printing, as perf 6.1's `perf report --header` ------------------------ */

/**
 * struct pulse_header_env - what printing a feature needs from the others
 * @full: perf's -I (--show-info): print CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE,
 *        MEM_TOPOLOGY and HYBRID_TOPOLOGY in full, not perf's "info
 *        available, use -I to display" line
 * @nr_cpus_avail: NRCPUS's "avail": the CPUs CPU_TOPOLOGY has ids for
 * @no_socket_check: ARCH is s390 or aarch64, where perf does not check
 *                   socket ids against @nr_cpus_avail
 *
 * Printing fills @nr_cpus_avail and @no_socket_check from the NRCPUS and
 * ARCH payloads it prints, as perf's env is filled in the order the
 * features come (by bit in a file, in-band in a pipe).
 */
struct pulse_header_env {
	bool full;
	uint32_t nr_cpus_avail;
	bool no_socket_check;
};

/**
 * pulse_feat__fprintf - print one feature section payload as perf 6.1 does
 * @fp: output (the library writes nowhere else)
 * @feat: enum pulse_feature bit
 * @p: payload, native byte order (untrusted: every length is checked)
 * @len: payload bytes
 * @env: -I and what earlier features said (updated); NULL: neither
 *
 * Features perf 6.1 prints nothing for (TRACING_DATA, BUILD_ID, BPF_* with
 * no programs, unknown bits) print nothing, and so does GROUP_DESC, which
 * needs the file's attrs (pulse_data__fprintf_feat()). A damaged payload
 * prints nothing and returns -EINVAL, except EVENT_DESC which prints perf's
 * "not available" line.
 *
 * Return: 0, -EINVAL on a damaged payload, -ENOMEM.
 */
int pulse_feat__fprintf(FILE *fp, int feat, const void *p, size_t len,
			struct pulse_header_env *env);

/**
 * pulse_data__fprintf_feat - print a file's feature section as perf 6.1 does
 * @fp: output
 * @d: the file
 * @feat: enum pulse_feature bit; nothing is printed when @d lacks it
 * @env: as for pulse_feat__fprintf()
 *
 * As pulse_feat__fprintf() on the file's payload, and GROUP_DESC too (the
 * groups of more than one event, named from the file's attrs).
 * Return: as pulse_feat__fprintf().
 */
int pulse_data__fprintf_feat(FILE *fp, const struct pulse_data *d, int feat,
			     struct pulse_header_env *env);

/* ---- what the features say --------------------------------------------------- */

/*
 * The payloads come from the reader in native byte order (a byte-swapped
 * file's are swapped when it is opened), so none of these swaps anything.
 */

/**
 * pulse_data__osrelease - the OSRELEASE string (uname -r of the recording)
 * @d: the file
 * @s: set to the string, borrowed from the reader (valid until close); not
 *     NUL-terminated when the payload is damaged: use @len
 * @len: set to its length: the bytes before the first NUL, within both the
 *       string's own u32 length and the payload
 *
 * Return: 0; -ENOENT when the file has no OSRELEASE; -EBADMSG when the
 * payload is shorter than its u32 length field (@s NULL, @len 0 on errors).
 */
int pulse_data__osrelease(const struct pulse_data *d, const char **s, size_t *len);

/**
 * pulse_data__sample_time - the SAMPLE_TIME feature: first and last sample
 * @d: the file
 * @first, @last: set to the times (ns, the sampling clock); 0 on error
 *
 * Return: 0; -ENODATA when the file has no SAMPLE_TIME or its payload is
 * shorter than two u64.
 */
int pulse_data__sample_time(const struct pulse_data *d, __u64 *first, __u64 *last);

/* CLOCK_DATA (perf record -k): the wall clock at a time of the sampling clock. */
struct pulse_clock_data {
	__u32 version;		/* 1: the only layout perf writes */
	__u32 clockid;		/* the sampling clock (attr.clockid) */
	__u64 tod_ns;		/* time of day, ns since the epoch ... */
	__u64 clockid_ns;	/* ... when the sampling clock said this */
};

/**
 * pulse_data__clock_data - the CLOCK_DATA feature
 * @d: the file
 * @out: filled from the payload's first 24 bytes; zeroed when absent or short
 *
 * Return: 0; -ENOENT when the file has no CLOCK_DATA; -EBADMSG when the
 * payload is shorter than 24 bytes; -EOPNOTSUPP for a version other than 1
 * (@out is filled anyway, as read: do not use its times).
 */
int pulse_data__clock_data(const struct pulse_data *d, struct pulse_clock_data *out);

/**
 * pulse_data__build_id_next - the next entry of the BUILD_ID feature
 * @d: the file
 * @pos: the iteration state: 0 to start; advanced past the entry read
 * @e: filled with the entry: pid, misc (header.misc: cpumode and
 *     PERF_RECORD_MISC_BUILD_ID_SIZE), id (20 bytes as stored), size (the
 *     entry's size byte, at most 20, with PERF_RECORD_MISC_BUILD_ID_SIZE;
 *     else 20), filename and filename_len (borrowed from the reader: valid
 *     until close)
 *
 * An entry is read only when more than its 36 fixed bytes remain (perf pads
 * every name to 64).
 * Return: 0 with @e filled; -ENOENT when there are no more entries (or no
 * BUILD_ID); -EBADMSG when the entry at @pos says a size below 36 or past
 * the payload (the iteration cannot go on).
 */
int pulse_data__build_id_next(const struct pulse_data *d, size_t *pos,
			      struct pulse_build_id_entry *e);

/* Every well-formed BUILD_ID entry, in file order, up to the first damaged one. */
#define pulse_data__for_each_build_id(d, pos, e) \
	for ((pos) = 0; !pulse_data__build_id_next((d), &(pos), (e));)

#endif
