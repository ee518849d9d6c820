/* getppid N [--delay-ms M]: sleeps M ms (default 0), then makes exactly N
 * getppid system calls through syscall(2), and exits.  The delay lets a
 * recorder that was started separately (-a, -p) attach first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static void usage(void)
{
	fprintf(stderr, "usage: getppid N [--delay-ms M]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n = -1, delay_ms = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc)
			delay_ms = atol(argv[++i]);
		else if (n < 0 && argv[i][0] >= '0' && argv[i][0] <= '9')
			n = atol(argv[i]);
		else
			usage();
	}
	if (n < 0)
		usage();
	if (delay_ms > 0) {
		struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
		while (nanosleep(&ts, &ts) != 0)
			;
	}
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
