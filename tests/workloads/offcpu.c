/*
 * offcpu [MS]: blocks 3 * MS ms in wait_long() (three sleeps from one call
 * site) and MS ms in wait_short() (one sleep), MS = 100 by default, and
 * uses next to no CPU: its off-CPU time is 75% wait_long, 25% wait_short,
 * with two distinct blocking stacks (one offcpu-time sample each).
 *
 * offcpu pingpong N [MS]: after MS ms (default 0: time for a recorder to
 * attach with -p), a parent and a child pass one byte back and forth over
 * two pipes N times: 2 * N context switches of each, blocked in read(),
 * for the recorder's cost (bench/offcpu.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static void __attribute__((noinline)) nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void __attribute__((noinline)) wait_long(long ms)
{
	/* volatile: one call site, not three unrolled ones (one stack) */
	for (volatile int i = 0; i < 3; i++)
		nap(ms);
}

static void __attribute__((noinline)) wait_short(long ms)
{
	nap(ms);
}

static int pingpong(long n)
{
	int a[2], b[2];
	char c = 0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (long i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (long i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
	return waitpid(pid, NULL, 0) == pid ? 0 : 1;
}

int main(int argc, char **argv)
{
	long ms = 100;

	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "pingpong")) {
		if (argc == 4)
			nap(atol(argv[3]));
		return pingpong(atol(argv[2]));
	}
	if (argc == 2)
		ms = atol(argv[1]);
	if (argc > 2 || ms <= 0) {
		fprintf(stderr, "usage: offcpu [MS] | offcpu pingpong N [MS]\n");
		return 2;
	}
	wait_long(ms);
	wait_short(ms);
	return 0;
}
