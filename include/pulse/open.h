/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open(2) (lib/event/open.c), the user-only fallback of an open
 * (evsel.c) and the probe for pulse list (probe.c).
 * Opening evlists cell by cell, groups and reads are in <pulse/evlist.h>.
 */
#ifndef PULSE_OPEN_H
#define PULSE_OPEN_H

#include <stdbool.h>
#include <sys/types.h>
#include <pulse/event.h>
#include <pulse/evlist.h>

/*
 * perf_event_open(2) with FD_CLOEXEC; with PULSE_TEST_ATTR=<dir> the attr
 * is also written to <dir>/attr-<seq>-<pid>-<cpu>. Return: fd or -errno.
 */
int pulse_perf_event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags);

/**
 * pulse_evsel__fallback_user_only - after EACCES/EPERM under
 * perf_event_paranoid > 1, exclude kernel samples and append "u" to the
 * name, as perf 6.1 does.
 * @paranoid: set to the value read
 * Return: true if the evsel changed and the open is worth retrying.
 */
bool pulse_evsel__fallback_user_only(struct pulse_evsel *evsel, int err, int *paranoid);

/**
 * pulse_event__probe - whether this machine can count @name (perf's
 * is_event_supported(): open it disabled on ourselves, user only if the
 * kernel is not allowed). Only the first spelling of "a OR b" is used.
 * @opts: where sysfs and tracefs are (may be NULL)
 */
bool pulse_event__probe(const char *name, const struct pulse_parse_opts *opts);

#endif
