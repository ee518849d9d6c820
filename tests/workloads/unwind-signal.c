// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-signal: samples inside a signal handler, for the DWARF unwinder's
 * tests: a SIGPROF handler (work_in_handler) called through libc's
 * __restore_rt, a signal frame whose caller is the interrupted busy() at
 * an exact pc (perf 6.1 reports it without the usual "less one").
 *
 *   unwind-signal [ITERATIONS]     (default 300 M of busy(), about half the time
 *                                  in the handler)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work_in_handler(void)
{
	for (int i = 0; i < 1000000; i++)
		sink += i;
}

static void handler(int sig)
{
	work_in_handler();
}

__attribute__((noinline)) static void busy(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };

	signal(SIGPROF, handler);
	setitimer(ITIMER_PROF, &it, NULL);
	busy(argc > 1 ? atol(argv[1]) : 300000000);
	printf("%lu\n", sink & 1);
	return 0;
}
