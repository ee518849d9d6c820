// SPDX-License-Identifier: GPL-2.0
/*
 * What the feature rows' writers share (feat-*.c): perf_header_string
 * encoding and reading the system facts from /proc and /sys. Apart from
 * the table (feat.c), which calls the rows: a row calling back into the
 * table's file would be a call cycle.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "data/feat.h"

int pulse_buf__add_string(struct pulse_buf *b, const char *s)
{
	size_t olen = strlen(s) + 1, len = PULSE_ALIGN(olen, NAME_ALIGN);
	int err;

	if (len > UINT32_MAX)
		return -EINVAL;
	err = buf_add_u32(b, (__u32)len);
	return err ? err : buf_add_padded(b, s, olen, len);
}

/* Read a small text file whole into a malloc'ed, NUL-terminated buffer. */
int pulse_feat__read_text(const char *path, char **out)
{
	struct pulse_buf b = { 0 };
	long n = pulse_buf__read_file(&b, path, 0);

	if (n < 0) {
		pulse_buf__release(&b);
		return (int)n;
	}
	if (!b.p && pulse_buf__add(&b, "", 1))
		return -ENOMEM;
	*out = b.p;
	return 0;
}

const char *pulse_feat__proc(const struct pulse_feat_ctx *ctx)
{
	return ctx && ctx->proc ? ctx->proc : "/proc";
}

const char *pulse_feat__sysfs(const struct pulse_feat_ctx *ctx)
{
	return ctx && ctx->sysfs ? ctx->sysfs : "/sys";
}

/* The value of the first "key<space/tab>*: value" line of a text, or NULL. */
char *pulse_feat__find_key(char *text, const char *key)
{
	size_t klen = strlen(key);

	for (char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen))
			return p;
	}
	return NULL;
}
