// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-qsort: a call tree through libc for the DWARF unwinder's tests:
 * main -> sort_round -> qsort (libc, no frame pointers) -> cmp, and
 * main -> leaf. The tests build their own copy with -fomit-frame-pointer,
 * so that only CFI can walk it.
 *
 *   unwind-qsort [ROUNDS]     (default 40, about 0.4 s)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	for (int i = 0; i < 200; i++)
		sink += i * x;
	return (x > y) - (x < y);
}

__attribute__((noinline)) static void sort_round(int *v, int n, unsigned int seed)
{
	for (int i = 0; i < n; i++)
		v[i] = (seed = seed * 1103515245 + 12345) >> 8;
	qsort(v, n, sizeof(*v), cmp);
}

__attribute__((noinline)) static void leaf(void)
{
	for (long i = 0; i < 20000000; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	static int v[4096];
	long rounds = argc > 1 ? atol(argv[1]) : 40;

	for (long r = 0; r < rounds; r++) {
		sort_round(v, 4096, r);
		leaf();
	}
	printf("%lu\n", sink & 1);
	return 0;
}
