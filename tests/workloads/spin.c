/* spin [MS]: burns CPU in spin_loop() for MS milliseconds of wall-clock
 * time (default 1000), then exits 0.  Used by the attach (-a, -p, -t) and
 * signal tests. */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void spin_loop(double ms)
{
	double end = now_ms() + ms;
	do {
		for (unsigned long i = 0; i < 20000; i++)
			sink += i;
	} while (now_ms() < end);
}

int main(int argc, char **argv)
{
	spin_loop(argc > 1 ? atof(argv[1]) : 1000);
	return 0;
}
