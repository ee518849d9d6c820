// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf-rec-tree [SECONDS] [THREADS]: the C program of the dwarf bench
 * files (bench/mkdata-dwarf.sh). Built without frame pointers, it keeps
 * THREADS threads (2) busy until each has run SECONDS (10) of CPU time (so
 * that a busy machine changes the run's length, not the number of
 * samples) in a varied call tree: main ->
 * worker -> step -> one of four paths, each into libdwarf-rec-tree.so
 * (bench/dwarf-rec-treelib.c) and on into libc: recursion of a varying
 * depth, qsort with a comparator in the library (libc calling back up),
 * snprintf/strtod, and memcpy/memset/strlen over buffers.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "dwarf-rec-tree.h"

static double secs = 10;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* four shapes of stack, picked by a cheap random number */
__attribute__((noinline)) static unsigned long step(unsigned int *seed)
{
	unsigned int r = rand_r(seed);

	switch (r % 4) {
	case 0:
		return tree_recurse(1 + r % 12, r);
	case 1:
		return tree_sort(16 + r % 64, r);
	case 2:
		return tree_format(8 + r % 24, r);
	default:
		return tree_buffers(2048 + r % 8192, r);
	}
}

__attribute__((noinline)) static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(unsigned long)arg;
	double end = now() + secs;
	unsigned long sum = 0;

	while (now() < end)
		for (int i = 0; i < 64; i++)
			sum += step(&seed);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int nr = argc > 2 ? atoi(argv[2]) : 2;
	pthread_t t[64];

	if (argc > 1)
		secs = atof(argv[1]);
	if (nr < 1 || nr > 64)
		nr = 2;
	for (int i = 1; i < nr; i++)
		pthread_create(&t[i], NULL, worker, (void *)(unsigned long)(i + 1));
	worker((void *)1UL);
	for (int i = 1; i < nr; i++)
		pthread_join(t[i], NULL);
	return 0;
}
