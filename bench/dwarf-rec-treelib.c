// SPDX-License-Identifier: GPL-2.0
/*
 * The shared half of bench/dwarf-rec-tree.c: four paths into libc, so
 * that an unwinder crosses the executable, this library and libc (whose
 * CFI comes from its own .eh_frame or libc6-dbg).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf-rec-tree.h"

static __attribute__((noinline)) unsigned long leaf_mix(unsigned long x)
{
	for (int i = 0; i < 200; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* a chain of DEPTH frames, two different functions taking turns */
static unsigned long rec_b(unsigned int depth, unsigned long x);

static __attribute__((noinline)) unsigned long rec_a(unsigned int depth, unsigned long x)
{
	if (!depth)
		return leaf_mix(x);
	return rec_b(depth - 1, x + 1) + 1;
}

static __attribute__((noinline)) unsigned long rec_b(unsigned int depth, unsigned long x)
{
	if (!depth)
		return leaf_mix(x ^ 0x55);
	return rec_a(depth - 1, x * 3) + 2;
}

unsigned long tree_recurse(unsigned int depth, unsigned int r)
{
	return rec_a(depth, r);
}

/* libc's qsort calls back into this library */
static __attribute__((noinline)) int cmp_u32(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

unsigned long tree_sort(unsigned int n, unsigned int r)
{
	unsigned int v[256];

	for (unsigned int i = 0; i < n; i++)
		v[i] = r = r * 1103515245 + 12345;
	qsort(v, n, sizeof(v[0]), cmp_u32);
	return v[n / 2];
}

unsigned long tree_format(unsigned int n, unsigned int r)
{
	char buf[64];
	double sum = 0;

	for (unsigned int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%u.%u", r + i, i);
		sum += strtod(buf, NULL);
	}
	return (unsigned long)sum;
}

unsigned long tree_buffers(unsigned int n, unsigned int r)
{
	static __thread char a[16384], b[16384];

	memset(a, 'a' + r % 26, n);
	a[n - 1] = 0;
	for (int i = 0; i < 8; i++)
		memcpy(b, a, n);
	return strlen(b);
}
