// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of perf 6.1's JSON writer (tools/perf/util/data-convert-json.c)
 * that every value goes through: delimiters, keys, strings and numbers.
 */
#include "json-int.h"

void json_delim(FILE *fp, bool comma, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t";

	if (comma)
		putc_unlocked(',', fp);
	putc_unlocked('\n', fp);
	/* perf's depths stay below 8 */
	json_raw(fp, tabs, depth < 8 ? depth : 8);
}

/* the bytes perf's output_json_string() writes as they are */
static inline bool plain(unsigned char c)
{
	/* perf tests a signed char against 0x1f: bytes from 0x80 are escaped too */
	return c > 0x1f && c < 0x80 && c != '"' && c != '\\';
}

static void escape(FILE *fp, unsigned char c)
{
	char buf[16];
	int n;

	switch (c) {
	case '"':
		json_lit(fp, "\\\"");
		return;
	case '\\':
		json_lit(fp, "\\\\");
		return;
	case '\b':
		json_lit(fp, "\\b");
		return;
	case '\f':
		json_lit(fp, "\\f");
		return;
	case '\n':
		json_lit(fp, "\\n");
		return;
	case '\r':
		json_lit(fp, "\\r");
		return;
	case '\t':
		json_lit(fp, "\\t");
		return;
	}
	/*
	 * perf prints "\\u%04x" of the (signed) char: a byte of 0x80 or above
	 * is a negative int there, printed as 8 hex digits ("\uffffffc3")
	 */
	n = snprintf(buf, sizeof(buf), "\\u%04x", (unsigned int)(int)(signed char)c);
	json_raw(fp, buf, n);
}

void json_strn(FILE *fp, const char *s, size_t len)
{
	size_t i = 0, run;

	putc_unlocked('"', fp);
	while (s && i < len && s[i]) {
		/* a run of plain bytes in one write: symbol names are mostly that */
		for (run = i; run < len && s[run] && plain(s[run]); run++)
			;
		if (run > i)
			json_raw(fp, s + i, run - i);
		if (run >= len || !s[run])
			break;
		escape(fp, s[run]);
		i = run + 1;
	}
	putc_unlocked('"', fp);
}

void json_key(FILE *fp, bool comma, int depth, const char *key)
{
	json_delim(fp, comma, depth);
	json_str(fp, key);
	json_lit(fp, ": ");
}

void json_u64(FILE *fp, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	json_raw(fp, p, buf + sizeof(buf) - p);
}

void json_i64(FILE *fp, int64_t v)
{
	if (v < 0) {
		putc_unlocked('-', fp);
		json_u64(fp, -(uint64_t)v);
		return;
	}
	json_u64(fp, v);
}

void json_hex(FILE *fp, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[20], *p = buf + sizeof(buf);

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	json_raw(fp, p, buf + sizeof(buf) - p);
}
