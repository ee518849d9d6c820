// SPDX-License-Identifier: GPL-2.0
/*
 * The one place pulse calls perf_event_open(2), and the probe `pulse list`
 * uses to tell which events this machine can count. Opening whole evsels
 * and groups, cell by cell, is lib/event/evlist.c's job.
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

/**
 * pulse_event__probe - can this machine count @name?
 * @name: an event as pulse list prints it; only its first spelling is
 *        parsed ("context-switches OR cs")
 * @opts: where sysfs and tracefs are (may be NULL)
 *
 * perf's is_event_supported(): open the event on ourselves, disabled,
 * retrying without the kernel when perf_event_paranoid forbids kernel
 * counting. The probe bypasses PULSE_TEST_ATTR: it is no event of the
 * command being tested.
 *
 * Return: true if it opened.
 */
bool pulse_event__probe(const char *name, const struct pulse_parse_opts *opts)
{
	struct pulse_evlist evlist;
	struct perf_event_attr attr;
	bool ok = false;
	char first[128];
	int fd;

	pulse_evlist__init(&evlist);
	snprintf(first, sizeof(first), "%s", name);
	first[strcspn(first, " ")] = '\0';
	if (pulse_evlist__parse(&evlist, first, opts, NULL) || evlist.nr != 1)
		goto out;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = evlist.entries[0]->attr.type;
	attr.config = evlist.entries[0]->attr.config;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd >= 0) {
		close(fd);
		ok = true;
	}
out:
	pulse_evlist__exit(&evlist);
	return ok;
}
