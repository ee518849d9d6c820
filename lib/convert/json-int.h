/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/convert's JSON pieces: perf 6.1's delimiters and string escapes
 * (json-out.c) and the "headers" object (json-head.c). The output is a
 * FILE * written with the unlocked stdio calls: one thread writes it, and
 * a million-sample file is tens of millions of small writes.
 */
#ifndef PULSE_CONVERT_JSON_INT_H
#define PULSE_CONVERT_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pulse/convert.h>

struct pulse_data;

static inline void json_raw(FILE *fp, const char *s, size_t len)
{
	fwrite_unlocked(s, 1, len, fp);
}

/* a string literal, its length known at compile time */
#define json_lit(fp, s) json_raw((fp), (s), sizeof(s) - 1)

/* perf's output_json_delimiters(): an optional comma, a newline, @depth tabs */
void json_delim(FILE *fp, bool comma, int depth);

/*
 * perf's output_json_string() of the @len bytes at @s (up to the first NUL
 * within them); NULL prints "". Escapes as perf does, byte for byte.
 */
void json_strn(FILE *fp, const char *s, size_t len);

static inline void json_str(FILE *fp, const char *s)
{
	json_strn(fp, s, s ? strlen(s) : 0);
}

/* the key of a "key": value pair after its delimiters */
void json_key(FILE *fp, bool comma, int depth, const char *key);

/* numbers as perf's printf formats print them */
void json_u64(FILE *fp, uint64_t v);		/* PRIu64, %u */
void json_i64(FILE *fp, int64_t v);		/* PRIi64, %i */
void json_hex(FILE *fp, uint64_t v);		/* PRIx64 */

/* perf's output_headers(): the members of "headers", without the braces */
void json_headers(FILE *fp, struct pulse_data *d, const struct pulse_json_opts *o);

#endif
