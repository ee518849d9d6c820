/* forkrename [N]: forks N children (default 4); child i renames itself
 * "child-<i>" with prctl(PR_SET_NAME), burns ~50 ms of CPU, makes exactly
 * 100 getppid system calls and exits.  The parent waits for all of them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void child_burn(double ms)
{
	double end = cpu_ms() + ms;
	do {
		for (unsigned long i = 0; i < 20000; i++)
			sink += i;
	} while (cpu_ms() < end);
}

__attribute__((noinline)) void child_main(int i)
{
	char name[16];
	snprintf(name, sizeof(name), "child-%d", i);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	child_burn(50);
	for (int k = 0; k < 100; k++)
		syscall(SYS_getppid);
	_exit(0);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, status, rc = 0;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			child_main(i);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			rc = 1;
	return rc;
}
