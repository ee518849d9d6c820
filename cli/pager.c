// SPDX-License-Identifier: GPL-2.0
/*
 * The pager, as perf's (tools/perf/util/pager.c, after git's): when
 * standard output is a terminal, a command that prints much (report,
 * script, list, help) runs with its output piped into $PULSE_PAGER, else
 * $PAGER, else `less` with LESS=FRX (quit if one screen, colours, no
 * screen clearing). An empty pager, `cat`, `pulse --no-pager` or a pager
 * that cannot be found mean no pager. pulse waits for the pager before it
 * exits, and exits with the command's own status.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"

static pid_t pager_pid = -1;
static int saved_stderr = -1;
static bool pager_off;

void pager_disable(void)
{
	pager_off = true;
}

bool program_in_path(const char *cmdline)
{
	char word[PATH_MAX], path[PATH_MAX];
	const char *dirs, *end;
	size_t n;

	cmdline += strspn(cmdline, " \t");
	n = strcspn(cmdline, " \t");
	if (!n || n >= sizeof(word))
		return false;
	memcpy(word, cmdline, n);
	word[n] = '\0';
	if (strchr(word, '/'))
		return !access(word, X_OK);
	dirs = getenv("PATH");
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (;;) {
		end = strchrnul(dirs, ':');
		n = end - dirs;
		/* an empty entry is the current directory */
		if (snprintf(path, sizeof(path), "%.*s/%s", (int)(n ? n : 1), n ? dirs : ".",
			     word) < (int)sizeof(path) && !access(path, X_OK))
			return true;
		if (!*end)
			break;
		dirs = end + 1;
	}
	return false;
}

static const char *pager_program(void)
{
	const char *pager = getenv("PULSE_PAGER");

	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return NULL;
	return pager;
}

/* async-signal-safe: no stdio; the pager sees its end of input and exits */
static void wait_for_pager(void)
{
	int status;

	/* the pager sees the end of its input only when every copy is closed */
	close(STDOUT_FILENO);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

void pager_finish(void)
{
	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fflush(stderr);
	wait_for_pager();
}

/*
 * Ctrl-C while the pager shows the output: pulse leaves only after the
 * pager did, so the shell does not print its prompt over less (perf's and
 * git's wait_for_pager_signal).
 */
static void pager_signal(int sig)
{
	if (pager_pid > 0)
		wait_for_pager();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void pager_run(int in, const char *pager)
{
	fd_set rfds, efds;

	dup2(in, STDIN_FILENO);
	close(in);
	/*
	 * Start the pager only once there is something to page, so that a
	 * command that fails at once leaves no pager screen (perf's
	 * pager_preexec).
	 */
	FD_ZERO(&rfds);
	FD_SET(STDIN_FILENO, &rfds);
	efds = rfds;
	select(1, &rfds, NULL, &efds, NULL);
	execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
	_exit(127);
}

void setup_pager(void)
{
	const char *pager;
	int fd[2];
	pid_t pid;

	if (pager_off || pager_pid > 0 || !isatty(STDOUT_FILENO))
		return;
	pager = pager_program();
	if (!pager || !program_in_path(pager))
		return;
	setenv("LESS", "FRX", 0);
	setenv("LV", "-c", 0);
	fflush(stdout);
	if (pipe(fd))
		return;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (!pid) {
		close(fd[1]);
		pager_run(fd[0], pager);
	}
	close(fd[0]);
	dup2(fd[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO)) {
		saved_stderr = dup(STDERR_FILENO);
		dup2(fd[1], STDERR_FILENO);
	}
	close(fd[1]);
	pager_pid = pid;
	/* a command that calls exit() or is killed still waits for its pager */
	atexit(pager_finish);
	signal(SIGINT, pager_signal);
	signal(SIGHUP, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGQUIT, pager_signal);
	signal(SIGPIPE, pager_signal);
}
