/* burst N K [--gap-ms M] [--signal SIG] [--exit CODE]: K bursts of exactly N
 * getppid system calls, M ms apart (default 200); after each burst, with
 * --signal, sends signal SIG to its parent (a recorder taking snapshots) and
 * waits the gap. Exits with CODE (default 0). The parent's pid comes from
 * /proc/self/stat, so the only getppid calls are the N * K of the bursts. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static void usage(void)
{
	fprintf(stderr, "usage: burst N K [--gap-ms M] [--signal SIG] [--exit CODE]\n");
	exit(2);
}

static pid_t parent_pid(void)
{
	FILE *f = fopen("/proc/self/stat", "r");
	int ppid = 0;

	if (!f || fscanf(f, "%*d (%*[^)]) %*c %d", &ppid) != 1)
		ppid = 0;
	if (f)
		fclose(f);
	return ppid;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	long n = -1, k = -1, gap = 200;
	int sig = 0, code = 0;
	pid_t parent;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gap-ms") && i + 1 < argc)
			gap = atol(argv[++i]);
		else if (!strcmp(argv[i], "--signal") && i + 1 < argc)
			sig = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--exit") && i + 1 < argc)
			code = atoi(argv[++i]);
		else if (n < 0 && argv[i][0] >= '0' && argv[i][0] <= '9')
			n = atol(argv[i]);
		else if (k < 0 && argv[i][0] >= '0' && argv[i][0] <= '9')
			k = atol(argv[i]);
		else
			usage();
	}
	if (n < 0 || k < 0)
		usage();
	parent = parent_pid();
	for (long b = 0; b < k; b++) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		if (sig && parent > 1)
			kill(parent, sig);
		sleep_ms(gap);
	}
	return code;
}
