// SPDX-License-Identifier: GPL-2.0
/*
 * The command pulse record runs: forked at once but held on a pipe until
 * the events are open (enable_on_exec then starts them at its exec), a
 * CLOEXEC pipe telling whether exec failed, and a pidfd for the main loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "record/internal.h"

int rec_start_workload(struct rec *r)
{
	int err;

	if (pipe2(r->go_pipe, O_CLOEXEC) || pipe2(r->exec_pipe, O_CLOEXEC))
		return -errno;
	r->child = fork();
	if (r->child < 0)
		return -errno;
	if (r->child == 0) {
		char c;

		close(r->go_pipe[1]);
		close(r->exec_pipe[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* Wait until the events are open: enable_on_exec then starts them. */
		if (read(r->go_pipe[0], &c, 1) != 1)
			_exit(127);
		/*
		 * What it prints must not land in a pipe-mode stream on
		 * stdout (hotspot's perfparser then refuses the file): to
		 * stderr, as perf's evlist__prepare_workload() does.
		 */
		if (r->out && pulse_record_output__stream_fd(r->out) == STDOUT_FILENO)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(r->opts->argv[0], r->opts->argv);
		err = errno;
		if (write(r->exec_pipe[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(r->go_pipe[0]);
	close(r->exec_pipe[1]);
	r->go_pipe[0] = r->exec_pipe[1] = -1;
	r->pidfd = syscall(SYS_pidfd_open, r->child, 0);
	return 0;
}

/* Let the workload exec; report exec failure as perf does ("workload failed"). */
int rec_go_workload(struct rec *r)
{
	int child_err = 0;
	ssize_t n;

	if (write(r->go_pipe[1], "g", 1) != 1)
		return -errno;
	close(r->go_pipe[1]);
	r->go_pipe[1] = -1;
	/* EOF on the CLOEXEC pipe means exec succeeded. */
	n = read(r->exec_pipe[0], &child_err, sizeof(child_err));
	close(r->exec_pipe[0]);
	r->exec_pipe[0] = -1;
	if (n == sizeof(child_err)) {
		waitpid(r->child, NULL, 0);
		r->child = 0;
		r->child_done = true;
		return -child_err;
	}
	r->stats->workload_ran = true;
	return 0;
}

void rec_reap_child(struct rec *r, bool block)
{
	int status;

	if (r->child <= 0 || r->child_done)
		return;
	if (waitpid(r->child, &status, block ? 0 : WNOHANG) == r->child) {
		r->child_done = true;
		r->stats->workload_status = status;
	}
}
