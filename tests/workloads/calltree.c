/* calltree [MS]: main -> mid -> leaf_a / leaf_b, burning CPU for MS
 * milliseconds (default 300).  leaf_a does twice the work of leaf_b, so it
 * gets ~2/3 of the samples.  Built with frame pointers, no inlining and no
 * sibling calls, so every frame shows up in a -g callchain. */
#include <stdlib.h>
#include <time.h>

/* Each leaf call lasts milliseconds, far longer than a sampling period, so
 * the 2:1 split does not alias with a periodic sampler. */
#define UNIT 2000000UL

static volatile unsigned long sink;

/* Calling it keeps the leaves from being leaf functions, which gcc builds
 * without a frame pointer (-momit-leaf-frame-pointer): their caller, mid,
 * would then be missing from frame-pointer callchains. */
__attribute__((noinline)) void touch(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void leaf_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	touch();
}

__attribute__((noinline)) void leaf_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	touch();
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void mid(double ms)
{
	double end = now_ms() + ms;
	do {
		leaf_a(2 * UNIT);
		leaf_b(UNIT);
	} while (now_ms() < end);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	mid(ms);
	return 0;
}
