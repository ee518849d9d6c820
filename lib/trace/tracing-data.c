// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing data blob of perf.data (TRACING_DATA feature and pipe-mode
 * HEADER_TRACING_DATA): trace-cmd's tracing.dat v0.6 as perf 6.1's
 * trace-event-info.c writes it. It carries the tracefs format files of the
 * recorded tracepoints, without which perf script and perf report cannot
 * decode a sample's raw payload.
 *
 * tracefs files report a size of 0 or of a page whatever they hold, so
 * every file is read until EOF and its size patched in afterwards, as
 * perf's record_file() does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/trace.h>
#include "core/internal.h"


/*
 * Append @hdr_sz bytes of size (4 or 8, native-endian) and then the whole
 * file. @missing_ok: a file that does not exist is written as size 0.
 */
static int add_file(struct pulse_buf *b, const char *path, size_t hdr_sz, bool missing_ok)
{
	size_t hdr_pos = b->len;
	long size;
	int err;

	err = pulse_buf__add(b, NULL, hdr_sz);
	if (err)
		return err;
	size = pulse_buf__read_file(b, path, hdr_sz == 4 ? UINT32_MAX : 0);
	if (size < 0) {
		if (size == -ENOENT && missing_ok)
			return 0; /* a zero size */
		pr_debug("tracing data: %s: %s\n", path, strerror((int)-size));
		b->len = hdr_pos;
		return (int)size;
	}
	if (hdr_sz == 4) {
		__u32 v = (__u32)size;

		memcpy(b->p + hdr_pos, &v, 4);
	} else {
		__u64 v = (__u64)size;

		memcpy(b->p + hdr_pos, &v, 8);
	}
	return 0;
}

static int add_u32(struct pulse_buf *b, __u32 v)
{
	return pulse_buf__add(b, &v, sizeof(v));
}

/* A component of a tracefs path: no way out of the events directory. */
static bool valid_name(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static bool seen_before(const char *const *systems, const char *const *events, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(systems[j], systems[i]) && (!events || !strcmp(events[j], events[i])))
			return true;
	return false;
}

/* u32 count, then u64 size + format of each distinct event of @sys. */
static int add_system_events(struct pulse_buf *b, const char *dir, const char *sys,
			     const char *const *systems, const char *const *events, size_t nr)
{
	char path[PATH_MAX];
	__u32 count = 0;
	int err;

	for (size_t i = 0; i < nr; i++)
		count += !strcmp(systems[i], sys) && !seen_before(systems, events, i);
	err = add_u32(b, count);
	for (size_t i = 0; i < nr && !err; i++) {
		if (strcmp(systems[i], sys) || seen_before(systems, events, i))
			continue;
		if (snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, events[i]) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		err = add_file(b, path, 8, false);
	}
	return err;
}

static int build(struct pulse_buf *b, const char *dir, const char *const *systems,
		 const char *const *events, size_t nr)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const union { __u16 v; __u8 c[2]; } endian = { .v = 1 };
	char path[PATH_MAX];
	__u8 flags[2] = { endian.c[0] ? 0 : 1, sizeof(long) };
	__u32 page_size = (__u32)sysconf(_SC_PAGESIZE), nr_systems = 0;
	int err;

	err = pulse_buf__add(b, magic, sizeof(magic));
	if (!err)
		err = pulse_buf__add(b, "0.6", 4);
	if (!err)
		err = pulse_buf__add(b, flags, 2);
	if (!err)
		err = add_u32(b, page_size);
	if (err)
		return err;

	if (snprintf(path, sizeof(path), "%s/events/header_page", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	err = pulse_buf__add(b, "header_page", 12);
	if (!err)
		err = add_file(b, path, 8, false);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	if (!err)
		err = pulse_buf__add(b, "header_event", 13);
	if (!err)
		err = add_file(b, path, 8, false);

	/* ftrace's own events go to their section, as in perf and trace-cmd. */
	if (!err)
		err = add_system_events(b, dir, "ftrace", systems, events, nr);

	for (size_t i = 0; i < nr; i++)
		nr_systems += strcmp(systems[i], "ftrace") && !seen_before(systems, NULL, i);
	if (!err)
		err = add_u32(b, nr_systems);
	for (size_t i = 0; i < nr && !err; i++) {
		if (!strcmp(systems[i], "ftrace") || seen_before(systems, NULL, i))
			continue;
		err = pulse_buf__add(b, systems[i], strlen(systems[i]) + 1);
		if (!err)
			err = add_system_events(b, dir, systems[i], systems, events, nr);
	}

	/* kallsyms: none, as perf 6.1 (readers resolve from the perf.data side) */
	if (!err)
		err = add_u32(b, 0);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (!err)
		err = add_file(b, path, 4, true);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	if (!err)
		err = add_file(b, path, 8, true);
	return err;
}

int pulse_tracing_data__build(struct pulse_buf *b, const char *tracefs_dir,
			      const char *const *systems, const char *const *events, size_t nr)
{
	size_t start = b->len;
	int err;

	if (!tracefs_dir || (nr && (!systems || !events)))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++)
		if (!valid_name(systems[i]) || !valid_name(events[i]))
			return -EINVAL;
	err = build(b, tracefs_dir, systems, events, nr);
	/* Leave no half-built blob for the caller to write. */
	if (err)
		b->len = start;
	return err;
}
