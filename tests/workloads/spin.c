/* spin [MS] [--getppid N]: burns CPU in spin_loop() for MS milliseconds of
 * wall-clock time (default 1000), then exits 0.  With --getppid, first
 * makes exactly N getppid system calls.  Used by the attach (-a, -p, -t)
 * and signal tests. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

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
	double ms = 1000;
	long calls = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--getppid") && i + 1 < argc)
			calls = atol(argv[++i]);
		else
			ms = atof(argv[i]);
	}
	for (long i = 0; i < calls; i++)
		syscall(SYS_getppid);
	spin_loop(ms);
	return 0;
}
