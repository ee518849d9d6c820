// SPDX-License-Identifier: GPL-2.0
/*
 * The one place pulse opens events for a command, perf_event_open(2).
 * Opening whole evsels and groups, cell by cell, is cells.c's and
 * evlist.c's job; probe.c asks the kernel directly.
 *
 * With PULSE_TEST_ATTR=<dir> set, every attr passed to the kernel is also
 * written to <dir>/attr-<n> (raw bytes), so tests can assert the exact
 * sample_type, read_format and flags a command line produces (perf's attr
 * tests do the same).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pulse/event.h>
#include <pulse/open.h>
#include "core/internal.h"

static void dump_test_attr(const struct perf_event_attr *attr, pid_t pid, int cpu)
{
	static int seq;
	const char *dir = getenv("PULSE_TEST_ATTR");
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/attr-%d-%d-%d", dir, seq++, (int)pid, cpu);
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(attr, 1, sizeof(*attr), f);
	fclose(f);
}

int pulse_perf_event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	int fd;

	dump_test_attr(attr, pid, cpu);
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
