// SPDX-License-Identifier: GPL-2.0
/*
 * cputime CMD...: run CMD, forward SIGINT/SIGTERM to it, and print its own
 * CPU time (user and system, from wait4's rusage: the recorder process and
 * its threads, not the workload it records) as "cpu_user cpu_sys" seconds
 * on fd 3 if open, else stderr.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	FILE *out;

	if (argc < 2)
		return 2;
	child = fork();
	if (child == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	while (wait4(child, &status, 0, &ru) < 0)
		;
	out = fdopen(3, "w");
	if (!out)
		out = stderr;
	fprintf(out, "%.3f %.3f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	fclose(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
