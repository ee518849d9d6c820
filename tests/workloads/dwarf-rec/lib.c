// SPDX-License-Identifier: GPL-2.0
/*
 * The shared half of the dwarf-rec workload (see main.c): mid -> leaf_a /
 * leaf_b, built without frame pointers so that only a DWARF unwind of the
 * sampled stack copy finds main above them.
 */
#include "dwarf-rec.h"

volatile unsigned long dwarf_rec_sink;

/* Spin: where the samples land. */
__attribute__((noinline)) void dwarf_rec_leaf_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dwarf_rec_sink += i * 3;
}

__attribute__((noinline)) void dwarf_rec_leaf_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dwarf_rec_sink ^= i * 7;
}

/* Twice as much work under leaf_a as under leaf_b, for the percentages. */
__attribute__((noinline)) void dwarf_rec_mid(unsigned long n)
{
	dwarf_rec_leaf_a(2 * n);
	dwarf_rec_leaf_b(n);
	dwarf_rec_sink++;
}
