/* balance PCT [MS] [c]: burn CPU for MS milliseconds (default 300), PCT
 * percent of the work in work_a and the rest in work_b (PCT 100: work_b
 * never runs, so it has no samples); with "c", work_c runs as long as
 * work_a and work_b together. Two recordings at different PCT give a diff
 * whose deltas are known in sign and roughly in size, and rows that only
 * one of the files has. Built with frame pointers and no inlining. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Each call lasts long against a sampling period: the split does not alias. */
#define UNIT 20000UL

static volatile unsigned long sink;

__attribute__((noinline)) void work_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void work_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void work_c(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	__asm__ volatile("" ::: "memory");
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	long pct = argc > 1 ? atol(argv[1]) : 50;
	double ms = argc > 2 ? atof(argv[2]) : 300, end;
	int with_c = argc > 3 && !strcmp(argv[3], "c");

	if (pct < 0 || pct > 100)
		return 2;
	end = now_ms() + ms;
	do {
		work_a(pct * UNIT);
		if (pct < 100)
			work_b((100 - pct) * UNIT);
		if (with_c)
			work_c(100 * UNIT);
	} while (now_ms() < end);
	return 0;
}
