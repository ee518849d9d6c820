// SPDX-License-Identifier: GPL-2.0
/*
 * errno -> one line of advice, as perf's evsel__open_strerror() does. This
 * lives in the CLI, never in the library: the library returns -errno and
 * the command decides what the user is told.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/event.h>
#include "builtin.h"
#include "record.h"

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
		snprintf(buf, sizeof(buf),
			 "the kernel rejected the attributes of '%s': 'dmesg | grep -i perf' may say why",
			 event ? event : "the event");
		return buf;
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

/* The online cpus as /sys lists them ("0-1"), or "" */
static void online_cpus(char *buf, size_t sz)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, sz, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/*
 * perf's evsel__open_strerror() for EINVAL, by target: a cpu that is not
 * there, a frequency above the limit, an event a task cannot have (perf:
 * "Invalid event (msr/tsc/) in per-thread mode, enable system wide with
 * '-a'."); the errno's own advice otherwise.
 */
const char *hint_for_record_open_error(const struct pulse_record_error *e, int err)
{
	static char buf[512];
	char path[64], cpus[64];
	int max_rate = 0;

	if (err != EINVAL)
		return hint_for_open_error(err, e->evsel);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", e->cpu);
	if (e->cpu >= 0 && access(path, F_OK)) {
		online_cpus(cpus, sizeof(cpus));
		snprintf(buf, sizeof(buf), "there is no cpu %d: this machine's online cpus are %s",
			 e->cpu, cpus[0] ? cpus : "0");
		return buf;
	}
	read_int("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate);
	if (e->sample_freq && max_rate > 0 && e->sample_freq > (__u64)max_rate) {
		snprintf(buf, sizeof(buf),
			 "%llu Hz is above kernel.perf_event_max_sample_rate (%d Hz): use a lower -F",
			 (unsigned long long)e->sample_freq, max_rate);
		return buf;
	}
	/* a PMU of its own (msr, power, uncore): counts a cpu, not a task */
	if (e->tid > 0 && e->type >= PERF_TYPE_MAX) {
		snprintf(buf, sizeof(buf),
			 "the '%s' event cannot be opened per thread: record system wide with -a (or -C)",
			 e->evsel ? e->evsel : "?");
		return buf;
	}
	return hint_for_open_error(err, e->evsel);
}

int event_parse_failed(const char *arg, int err, const struct pulse_parse_error *perr)
{
	if (perr->msg[0])
		error("%s", perr->msg);
	else
		error("invalid event '%s': %s", arg, strerror(-err));
	if (perr->hint[0])
		hint("%s", perr->hint);
	/* a tracefs we may not read is not a usage error */
	return err == -EACCES ? 1 : PULSE_EXIT_USAGE;
}
