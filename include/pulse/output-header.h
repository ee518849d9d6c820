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
#include <stdio.h>
#include <time.h>

struct pulse_data;

/**
 * pulse_header__fprintf_feat - print one feature section payload
 * @fp: output
 * @feat: enum pulse_feature bit
 * @p: payload, native byte order (untrusted: every length is checked)
 * @len: payload bytes
 * @full: perf's -I: print the full_only features too (not implemented:
 *        they print perf's "info available" line either way)
 *
 * Features perf 6.1 prints nothing for (TRACING_DATA, BUILD_ID, BPF_* with
 * no programs, unknown bits) print nothing. A damaged payload prints
 * nothing and returns -EINVAL, except EVENT_DESC which prints perf's
 * "not available" line.
 *
 * Return: 0, -EINVAL on a damaged payload, -ENOMEM.
 */
int pulse_header__fprintf_feat(FILE *fp, int feat, const void *p, size_t len, bool full);

/**
 * pulse_header__fprintf - the whole "# ========" block of a file
 * @fp: output
 * @d: the file
 * @mtime: the file's st_mtime (perf's "captured on")
 *
 * Pipe mode prints the header lines only (the features come in-band:
 * print them with pulse_header__fprintf_feat() as they are read).
 *
 * Return: 0, or -EIO when writing failed.
 */
int pulse_header__fprintf(FILE *fp, struct pulse_data *d, time_t mtime);

#endif
