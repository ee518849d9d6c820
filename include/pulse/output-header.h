/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf.data header as perf 6.1's `perf report --header[-only]` prints
 * it (perf_session__fprintf_info): the file header, one block of lines per
 * feature section, the missing features.
 */
#ifndef PULSE_OUTPUT_HEADER_H
#define PULSE_OUTPUT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct pulse_data;

/**
 * struct pulse_header_env - what printing a feature needs from the others
 * @full: perf's -I (--show-info): print CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE,
 *        MEM_TOPOLOGY and HYBRID_TOPOLOGY in full, not perf's "info
 *        available, use -I to display" line
 * @nr_cpus_avail: NRCPUS's "avail": the CPUs CPU_TOPOLOGY has ids for
 * @no_socket_check: ARCH is s390 or aarch64, where perf does not check
 *                   socket ids against @nr_cpus_avail
 *
 * pulse_header__fprintf_feat() fills @nr_cpus_avail and @no_socket_check
 * from the NRCPUS and ARCH payloads it prints, as perf's env is filled in
 * the order the features come (by bit in a file, in-band in a pipe).
 */
struct pulse_header_env {
	bool full;
	uint32_t nr_cpus_avail;
	bool no_socket_check;
};

/**
 * pulse_header__fprintf_feat - print one feature section payload
 * @fp: output
 * @feat: enum pulse_feature bit
 * @p: payload, native byte order (untrusted: every length is checked)
 * @len: payload bytes
 * @env: -I and what earlier features said (updated); NULL: neither
 *
 * Features perf 6.1 prints nothing for (TRACING_DATA, BUILD_ID, BPF_* with
 * no programs, unknown bits) print nothing. A damaged payload prints
 * nothing and returns -EINVAL, except EVENT_DESC which prints perf's
 * "not available" line.
 *
 * Return: 0, -EINVAL on a damaged payload, -ENOMEM.
 */
int pulse_header__fprintf_feat(FILE *fp, int feat, const void *p, size_t len,
			       struct pulse_header_env *env);

/**
 * pulse_header__fprintf - the whole "# ========" block of a file
 * @fp: output
 * @d: the file
 * @mtime: the file's st_mtime (perf's "captured on")
 * @full: perf's -I: the full_only features in full
 *
 * Pipe mode prints the header lines only (the features come in-band:
 * print them with pulse_header__fprintf_feat() as they are read).
 *
 * Return: 0, or -EIO when writing failed.
 */
int pulse_header__fprintf(FILE *fp, struct pulse_data *d, time_t mtime, bool full);

#endif
