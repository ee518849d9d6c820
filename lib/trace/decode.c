// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint decoding for perf script: the TRACING_DATA blob read the way
 * perf 6.1's trace-event-read.c reads it (header_page, header_event, ftrace
 * formats, per-system event formats, kallsyms, printk formats, saved
 * cmdlines) into a libtraceevent handle, and a sample's raw payload printed
 * through tep_print_event() as perf's event_format__fprintf() does.
 *
 * The blob is untrusted input: every length is checked against what is
 * left, and libtraceevent only ever sees NUL-terminated copies.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <tracefs/tracefs.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"

/*
 * A raw payload is copied into a zeroed scratch area before libtraceevent
 * reads it: a short or lying payload (a __data_loc of u16 offset + u16
 * length) can then never make it read past our memory.
 */
#define SCRATCH_SIZE (2 * 65536 + 16)

struct pulse_trace {
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct trace_seq seq;		/* reused by every print */
	unsigned char *scratch;		/* SCRATCH_SIZE bytes, zero past 'dirty' */
	size_t dirty;			/* bytes of scratch that may be non-zero */
	struct tep_event *last;		/* the last event looked up: samples run in streaks */
};

struct blob {
	const unsigned char *p;
	size_t len, off;
	bool swap;
	bool bad;
	size_t bad_off;			/* where it went wrong */
};

static const unsigned char *blob__take(struct blob *b, uint64_t n)
{
	const unsigned char *p = b->p + b->off;

	if (b->bad)
		return NULL;
	if (n > b->len - b->off) {
		b->bad = true;
		b->bad_off = b->off;
		return NULL;
	}
	b->off += n;
	return p;
}

static uint32_t blob__u32(struct blob *b)
{
	const unsigned char *p = blob__take(b, 4);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, 4);
	return b->swap ? __builtin_bswap32(v) : v;
}

static uint64_t blob__u64(struct blob *b)
{
	const unsigned char *p = blob__take(b, 8);
	uint64_t v;

	if (!p)
		return 0;
	memcpy(&v, p, 8);
	return b->swap ? __builtin_bswap64(v) : v;
}

static const char *blob__str(struct blob *b)
{
	const unsigned char *p = b->p + b->off, *nul;

	if (b->bad)
		return NULL;
	nul = b->off < b->len ? memchr(p, '\0', b->len - b->off) : NULL;
	if (!nul) {
		b->bad = true;
		b->bad_off = b->off;
		return NULL;
	}
	b->off += nul - p + 1;
	return (const char *)p;
}

/* @n bytes as a NUL-terminated malloc()ed copy (libtraceevent wants strings). */
static char *blob__dup(struct blob *b, uint64_t n)
{
	const unsigned char *p = blob__take(b, n);
	char *s;

	if (!p)
		return NULL;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* "ADDR : \"fmt\"" lines (perf's parse_ftrace_printk()). */
static void parse_printk(struct tep_handle *tep, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		unsigned long long addr;

		if (!colon)
			break;
		*colon = '\0';
		addr = strtoull(line, NULL, 16);
		/* the format follows ": " */
		tep_register_print_string(tep, colon[1] ? colon + 2 : colon + 1, addr);
	}
}

/* "pid comm" lines (perf's parse_saved_cmdline()). */
static void parse_cmdlines(struct tep_handle *tep, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[17];
		int pid;

		if (sscanf(line, "%d %16s", &pid, comm) == 2)
			tep_register_comm(tep, comm, pid);
	}
}

static int trace__alloc(struct pulse_trace **tp)
{
	struct pulse_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->scratch = calloc(1, SCRATCH_SIZE);
	if (!t->scratch) {
		free(t);
		return -ENOMEM;
	}
	trace_seq_init(&t->seq);
	*tp = t;
	return 0;
}

/* Plugins from perf's search path only (see pulse/trace-decode.h). */
static void trace__load_plugins(struct pulse_trace *t)
{
	tep_set_flag(t->tep, TEP_DISABLE_SYS_PLUGINS);
	t->plugins = tep_load_plugins(t->tep);
}

static int parse_blob(struct pulse_trace *t, struct blob *b)
{
	static const char magic[] = "\x17\x08\x44tracing";
	struct tep_handle *tep = t->tep;
	const unsigned char *p;
	const char *version, *s;
	char *buf;
	uint64_t sz;
	uint32_t n, nr_sys;
	int long_size;

	p = blob__take(b, sizeof(magic) - 1);
	if (!p || memcmp(p, magic, sizeof(magic) - 1)) {
		b->bad = true;
		b->bad_off = 0;
		return -EBADMSG;
	}
	version = blob__str(b);
	p = blob__take(b, 2);
	if (!version || !p)
		return -EBADMSG;
	b->swap = !!p[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	long_size = p[1];
	tep_set_file_bigendian(tep, p[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
									   TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)blob__u32(b));

	s = blob__str(b);
	if (!s || strcmp(s, "header_page")) {
		b->bad = true;
		return -EBADMSG;
	}
	sz = blob__u64(b);
	buf = blob__dup(b, sz);
	if (!buf)
		return b->bad ? -EBADMSG : -ENOMEM;
	tep_parse_header_page(tep, buf, sz, long_size);
	free(buf);

	s = blob__str(b);
	if (!s || strcmp(s, "header_event")) {
		b->bad = true;
		return -EBADMSG;
	}
	sz = blob__u64(b);
	if (!blob__take(b, sz))
		return -EBADMSG;

	for (n = blob__u32(b); n && !b->bad; n--) {
		sz = blob__u64(b);
		buf = blob__dup(b, sz);
		if (!buf)
			return b->bad ? -EBADMSG : -ENOMEM;
		/* a format libtraceevent cannot parse leaves that event undecoded, as in perf */
		tep_parse_event(tep, buf, sz, "ftrace");
		free(buf);
	}
	nr_sys = blob__u32(b);
	for (uint32_t i = 0; i < nr_sys && !b->bad; i++) {
		const char *sys = blob__str(b);

		for (n = blob__u32(b); n && !b->bad; n--) {
			sz = blob__u64(b);
			buf = blob__dup(b, sz);
			if (!buf)
				return b->bad ? -EBADMSG : -ENOMEM;
			tep_parse_event(tep, buf, sz, sys);
			free(buf);
		}
	}
	if (b->bad)
		return -EBADMSG;

	/* kallsyms: perf 6.1 skips it (it resolves through its own symbols) */
	sz = blob__u32(b);
	if (!blob__take(b, sz))
		return -EBADMSG;
	sz = blob__u32(b);
	if (b->bad)
		return -EBADMSG;
	if (sz) {
		buf = blob__dup(b, sz);
		if (!buf)
			return b->bad ? -EBADMSG : -ENOMEM;
		parse_printk(tep, buf);
		free(buf);
	}
	/* saved cmdlines since 0.6; a blob that ends before them is fine */
	if (strcmp(version, "0.6") >= 0 && b->off < b->len) {
		sz = blob__u64(b);
		buf = blob__dup(b, sz);
		if (!buf)
			return b->bad ? -EBADMSG : -ENOMEM;
		parse_cmdlines(tep, buf);
		free(buf);
	}
	return 0;
}

int pulse_trace__parse(struct pulse_trace **tp, const void *data, size_t len)
{
	struct blob b = { .p = data, .len = len };
	struct pulse_trace *t;
	int err;

	if (!data)
		return -EBADMSG;
	err = trace__alloc(&t);
	if (err)
		return err;
	t->tep = tep_alloc();
	if (!t->tep) {
		pulse_trace__delete(t);
		return -ENOMEM;
	}
	trace__load_plugins(t);
	err = parse_blob(t, &b);
	if (err) {
		if (b.bad)
			pr_warn("perf.data: tracing data damaged at offset %#zx of %#zx\n",
				b.bad_off ? b.bad_off : b.off, len);
		pulse_trace__delete(t);
		return err;
	}
	*tp = t;
	return 0;
}

int pulse_trace__local(struct pulse_trace **tp, const char *tracing_dir)
{
	struct pulse_trace *t;
	int err;

	err = trace__alloc(&t);
	if (err)
		return err;
	t->tep = tracefs_local_events(tracing_dir);
	if (!t->tep) {
		pulse_trace__delete(t);
		return -ENOENT;
	}
	trace__load_plugins(t);
	*tp = t;
	return 0;
}

void pulse_trace__delete(struct pulse_trace *t)
{
	if (!t)
		return;
	if (t->tep) {
		if (t->plugins)
			tep_unload_plugins(t->plugins, t->tep);
		tep_free(t->tep);
	}
	trace_seq_destroy(&t->seq);
	free(t->scratch);
	free(t);
}

struct tep_handle *pulse_trace__tep(const struct pulse_trace *t)
{
	return t ? t->tep : NULL;
}

struct tep_event *pulse_trace__event(const struct pulse_trace *t, __u64 id)
{
	if (!t || id > INT32_MAX)
		return NULL;
	if (t->last && (__u64)t->last->id == id)
		return t->last;
	((struct pulse_trace *)t)->last = tep_find_event(t->tep, (int)id);
	return t->last;
}

const char *pulse_trace__event_name(const struct pulse_trace *t, __u64 id, char *buf, size_t size)
{
	struct tep_event *ev = pulse_trace__event(t, id);

	if (!ev)
		return NULL;
	snprintf(buf, size, "%s:%s", ev->system, ev->name);
	return buf;
}

int pulse_trace__fprintf(struct pulse_trace *t, struct tep_event *ev, int cpu, const void *raw,
			 size_t size, FILE *fp)
{
	struct tep_record record;
	size_t n = size < SCRATCH_SIZE - 16 ? size : SCRATCH_SIZE - 16;

	memcpy(t->scratch, raw, n);
	if (t->dirty > n)
		memset(t->scratch + n, 0, t->dirty - n);
	t->dirty = n;

	memset(&record, 0, sizeof(record));
	record.cpu = cpu;
	record.size = (int)n;
	record.data = t->scratch;
	trace_seq_reset(&t->seq);
	tep_print_event(ev->tep, &t->seq, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	if (fwrite(t->seq.buffer, 1, t->seq.len, fp) != (size_t)t->seq.len)
		return -EIO;
	return t->seq.len;
}
