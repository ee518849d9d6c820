/* twins [MS]: two functions of one name, work, one in this program and one
 * in its library (libtwins.so, tests/workloads/twins-lib/), each burning
 * about half of MS milliseconds (default 200). Both are static, so neither
 * interposes the other. Sorted by symbol alone, perf report gives them two
 * rows (sort__sym_cmp() compares the DSOs) and perf diff one (its collapse
 * compares names only), as pprof does. */
#include <stdlib.h>
#include <time.h>

void twins_lib_run(unsigned long n);

#define UNIT 200000UL

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static __attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 200;
	double end = now_ms() + ms;

	do {
		work(UNIT);
		twins_lib_run(UNIT);
	} while (now_ms() < end);
	return 0;
}
