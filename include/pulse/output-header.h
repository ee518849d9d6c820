/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf.data header as perf 6.1's `perf report --header[-only]` prints
 * it (perf_session__fprintf_info): the file header, one block of lines per
 * feature section, the missing features. Each feature's lines come from its
 * row in lib/data's feature table (pulse_feat__fprintf(), features.h, where
 * struct pulse_header_env lives too).
 */
#ifndef PULSE_OUTPUT_HEADER_H
#define PULSE_OUTPUT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <pulse/features.h>

struct pulse_data;

/**
 * pulse_header__fprintf_feat - print one feature section payload
 *
 * pulse_feat__fprintf() (features.h), for a payload read in-band: the same
 * arguments, lines and return values.
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
