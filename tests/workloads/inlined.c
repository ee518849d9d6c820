/* inlined [MS]: main -> hot, burning CPU for MS milliseconds (default 300)
 * in add_up, which is inlined into scale, which is inlined into hot: both
 * are static inline always_inline, so gcc inlines them at any -O level
 * (even with the -fno-inline the workloads are built with), and the code
 * that gets the samples belongs to three functions at once. */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void add_up(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

static inline __attribute__((always_inline)) void scale(unsigned long n)
{
	add_up(n * 2);
	sink ^= n;
}

/* not a leaf (see calltree.c): frame-pointer callchains keep main */
__attribute__((noinline)) void touch(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void hot(unsigned long n)
{
	scale(n);
	touch();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300, end = now_ms() + ms;

	while (now_ms() < end)
		hot(1000000);
	return 0;
}
