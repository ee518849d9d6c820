/* flamesplit [MS] [PCT]: main -> flame_a -> flame_b and flame_a -> flame_c,
 * burning CPU for MS milliseconds (default 300); flame_b does PCT percent of
 * the work (default 50), flame_c the rest, so a test controls the balance
 * of two known stacks (pulse flamegraph and its --diff). Built with frame
 * pointers, no inlining and no sibling calls, as calltree. */
#include <stdlib.h>
#include <time.h>

/* a slice of work lasts about a millisecond, far longer than a sampling period */
#define UNIT 20000UL

static volatile unsigned long sink;

/* keeps the leaves from being leaf functions without a frame pointer (calltree.c) */
__attribute__((noinline)) void flame_touch(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void flame_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	flame_touch();
}

__attribute__((noinline)) void flame_c(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	flame_touch();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void flame_a(double ms, unsigned long pct)
{
	double end = now_ms() + ms;

	do {
		flame_b(pct * UNIT);
		flame_c((100 - pct) * UNIT);
	} while (now_ms() < end);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	long pct = argc > 2 ? atol(argv[2]) : 50;

	if (pct < 0 || pct > 100)
		pct = 50;
	flame_a(ms, pct);
	return 0;
}
