// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-threads: two threads spinning, for the DWARF unwinder's tests:
 * their stacks end in libc's start_thread and clone3 (whose CFI marks the
 * return address undefined), the main thread's in pthread_join.
 *
 *   unwind-threads [ITERATIONS]     (default 100 M per thread)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static long iterations = 100000000;

__attribute__((noinline)) static void spin(void)
{
	for (long i = 0; i < iterations; i++)
		sink += i;
}

__attribute__((noinline)) static void *run(void *arg)
{
	spin();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		iterations = atol(argv[1]);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%lu\n", sink & 1);
	return 0;
}
