// SPDX-License-Identifier: GPL-2.0
/*
 * Whether this machine can count an event, for pulse list: perf's
 * is_event_supported(). It parses the name and asks the kernel directly,
 * so it stays out of PULSE_TEST_ATTR's dumps.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pulse/open.h>

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
