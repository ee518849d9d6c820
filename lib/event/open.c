// SPDX-License-Identifier: GPL-2.0
/*
 * Opening events: one perf_event_open() per (cpu, thread) cell of an
 * evsel, the kernel id of each fd, and the ioctls that act on all of them.
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
#include <sys/ioctl.h>
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

int pulse_evsel__alloc_fds(struct pulse_evsel *evsel, int nr_cpus, int nr_threads)
{
	size_t n = (size_t)nr_cpus * nr_threads;

	evsel->fd = malloc(n * sizeof(int));
	evsel->id = calloc(n, sizeof(__u64));
	if (!evsel->fd || !evsel->id) {
		free(evsel->fd);
		free(evsel->id);
		evsel->fd = NULL;
		evsel->id = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		evsel->fd[i] = -1;
	evsel->nr_cpus = nr_cpus;
	evsel->nr_threads = nr_threads;
	return 0;
}

int pulse_evsel__open(struct pulse_evsel *evsel, const int *cpus, int nr_cpus,
		      const pid_t *threads, int nr_threads, int *failed_cpu, pid_t *failed_tid)
{
	int err;

	if (!evsel->fd && (err = pulse_evsel__alloc_fds(evsel, nr_cpus, nr_threads)))
		return err;
	for (int c = 0; c < nr_cpus; c++) {
		for (int t = 0; t < nr_threads; t++) {
			int fd = pulse_perf_event_open(&evsel->attr, threads[t], cpus[c], -1, 0);

			if (fd == -ESRCH && nr_threads > 1)
				continue; /* a thread that exited since we listed it */
			if (fd < 0) {
				if (failed_cpu)
					*failed_cpu = cpus[c];
				if (failed_tid)
					*failed_tid = threads[t];
				return fd;
			}
			evsel->fd[c * nr_threads + t] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &evsel->id[c * nr_threads + t]) < 0)
				return -errno;
		}
	}
	return 0;
}

void pulse_evsel__close(struct pulse_evsel *evsel)
{
	size_t n = (size_t)evsel->nr_cpus * evsel->nr_threads;

	for (size_t i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	free(evsel->fd);
	free(evsel->id);
	evsel->fd = NULL;
	evsel->id = NULL;
	evsel->nr_cpus = evsel->nr_threads = 0;
}

int pulse_evsel__ioctl(struct pulse_evsel *evsel, unsigned long req, unsigned long arg)
{
	size_t n = (size_t)evsel->nr_cpus * evsel->nr_threads;

	for (size_t i = 0; i < n; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], req, arg) < 0)
			return -errno;
	return 0;
}

static int perf_event_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

bool pulse_evsel__fallback_user_only(struct pulse_evsel *evsel, int err, int *paranoid)
{
	const char *sep = ":";
	char *name;

	/* perf 6.1 evsel__fallback(): without the right to profile the kernel, exclude it. */
	if ((err != -EACCES && err != -EPERM) || evsel->attr.exclude_kernel ||
	    evsel->attr.exclude_user)
		return false;
	*paranoid = perf_event_paranoid();
	if (*paranoid <= 1)
		return false;
	if (strchr(evsel->name, '/') || strchr(evsel->name, ':'))
		sep = "";
	if (asprintf(&name, "%s%su", evsel->name, sep) < 0)
		return false;
	free(evsel->name);
	evsel->name = name;
	/* perf 6.1 leaves exclude_hv alone here (its name then reads ":uh") */
	evsel->attr.exclude_kernel = 1;
	return true;
}
