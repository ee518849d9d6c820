// SPDX-License-Identifier: GPL-2.0
/*
 * gl-calls: a known call tree, all in user space.
 *   main -> outer_a -> leaf_spin          (1 unit)
 *   main -> outer_b -> mid -> leaf_spin   (2 units)
 *   main -> self_spin                     (1 unit)
 * 20 rounds, about 80 ms of CPU.
 */
#include "gl.h"

static volatile unsigned long sink;

NOINLINE static unsigned long leaf_spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

NOINLINE unsigned long mid(unsigned long n)
{
	return leaf_spin(n) + 1;
}

NOINLINE unsigned long outer_a(unsigned long n)
{
	return leaf_spin(n);
}

NOINLINE unsigned long outer_b(unsigned long n)
{
	return mid(2 * n);
}

NOINLINE unsigned long self_spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * 7;
	return s;
}

int main(void)
{
	for (int r = 0; r < 20; r++) {
		sink += outer_a(800000);
		sink += outer_b(800000);
		sink += self_spin(800000);
	}
	return 0;
}
