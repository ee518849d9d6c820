// SPDX-License-Identifier: GPL-2.0
/*
 * The threads a counter is opened on, as libperf's thread maps hold them:
 * a process's threads from /proc/PID/task (perf's -p counts them all), a
 * single thread, or -1 for every task of a CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pulse/evlist.h>

int pulse_threads__add(pid_t **tids, int *nr, pid_t tid)
{
	pid_t *t = realloc(*tids, (*nr + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	t[(*nr)++] = tid;
	*tids = t;
	return 0;
}

int pulse_threads__exists(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	return tid > 0 && !access(path, F_OK) ? 0 : -ESRCH;
}

int pulse_threads__add_process(pid_t **tids, int *nr, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			ret = pulse_threads__add(tids, nr, atoi(de->d_name));
	closedir(d);
	return ret;
}
