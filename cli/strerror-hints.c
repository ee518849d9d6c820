// SPDX-License-Identifier: GPL-2.0
/*
 * errno -> one line of advice, as perf's evsel__open_strerror() does. This
 * lives in the CLI, never in the library: the library returns -errno and
 * the command decides what the user is told.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"

static int read_int(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

const char *hint_for_open_error(int err, const char *event)
{
	static char buf[512];
	int paranoid = 2;

	switch (err) {
	case EACCES:
	case EPERM:
		read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
		snprintf(buf, sizeof(buf),
			 "kernel.perf_event_paranoid is %d: run as root, grant CAP_PERFMON, "
			 "or lower it (-1 allows all, 1 allows user+kernel profiling of your own tasks)",
			 paranoid);
		return buf;
	case EMFILE:
		return "too many open files: raise 'ulimit -n' or record fewer CPUs (-C)";
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "this machine has no hardware PMU: use a software event such as cpu-clock or task-clock";
	case EINVAL:
		return "the kernel rejected the event's attributes: check the modifiers and terms";
	case EBUSY:
		return "another tool holds the PMU exclusively";
	case ESRCH:
		return "no such process or thread";
	}
	return NULL;
}

const char *hint_for_mmap_error(int err)
{
	static char buf[256];
	int kb = 516;

	if (err != EPERM && err != ENOMEM)
		return NULL;
	read_int("/proc/sys/kernel/perf_event_mlock_kb", &kb);
	snprintf(buf, sizeof(buf),
		 "kernel.perf_event_mlock_kb is %d: use a smaller -m (pages per CPU) "
		 "or raise the limit (or run with CAP_IPC_LOCK)", kb);
	return buf;
}
