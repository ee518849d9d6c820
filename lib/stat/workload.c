// SPDX-License-Identifier: GPL-2.0
/*
 * The command pulse stat counts: forked at once and held on a pipe until
 * the counters are open (enable_on_exec then starts them at its exec), a
 * CLOEXEC pipe carrying exec's errno back, and its reaping with its
 * rusage (the wait itself is loop.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "stat/internal.h"

int stat_workload_start(char *const *argv, pid_t *pid, int *go_fd, int *err_fd)
{
	int go[2], ep[2], err;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ep, O_CLOEXEC)) {
		err = -errno;
		goto out_close_go;
	}
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		goto out_close_ep;
	}
	if (*pid == 0) {
		close(go[1]);
		close(ep[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		err = errno;
		if (write(ep[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	*go_fd = go[1];
	*err_fd = ep[0];
	return 0;

out_close_ep:
	close(ep[0]);
	close(ep[1]);
out_close_go:
	close(go[0]);
	close(go[1]);
	return err;
}

int stat_workload_go(pid_t pid, int go_fd, int err_fd)
{
	int child_err = 0;
	ssize_t n;

	n = write(go_fd, "g", 1);
	close(go_fd);
	if (n != 1) {
		close(err_fd);
		return -EPIPE;
	}
	/* EOF at exec (CLOEXEC), or exec's errno */
	n = read(err_fd, &child_err, sizeof(child_err));
	close(err_fd);
	if (n == sizeof(child_err)) {
		waitpid(pid, NULL, 0);
		return -child_err;
	}
	return 0;
}

int stat_workload_reap(pid_t pid, int flags, struct pulse_stat_run *res)
{
	struct rusage ru;
	pid_t r;

	while ((r = wait4(pid, &res->status, flags, &ru)) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	if (!r)
		return 0;
	res->utime = ru.ru_utime;
	res->stime = ru.ru_stime;
	return 1;
}
