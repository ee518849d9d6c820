/* vdso [MS]: calls clock_gettime() (served by the vDSO) and getppid() (a
 * system call, served by the kernel) in turn for MS milliseconds of
 * wall-clock time (default 300), so that samples land in [vdso] and
 * [kernel.kallsyms] as well as in the program. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double end = now_ms() + (argc > 1 ? atof(argv[1]) : 300);

	while (now_ms() < end)
		syscall(SYS_getppid);
	return 0;
}
