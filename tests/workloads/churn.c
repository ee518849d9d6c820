/* churn SECS OUT: for SECS seconds, start short-lived processes one after
 * another: each execs this program again ("churn --kid N"), names itself
 * kidN (prctl, a COMM record), makes one getppid system call and exits.
 * Writes the last kid's name to OUT. A flight recorder armed through this
 * must stay within bounded memory and still name the last kids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char name[16], self[4096];
	double end;
	long n = 0;
	ssize_t len;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "--kid")) {
		snprintf(name, sizeof(name), "kid%s", argv[2]);
		prctl(PR_SET_NAME, name);
		syscall(SYS_getppid);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: churn SECS OUT\n");
		return 2;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return 1;
	self[len] = 0;
	end = now() + atof(argv[1]);
	while (now() < end) {
		char num[24];
		pid_t pid;

		snprintf(num, sizeof(num), "%ld", n);
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			execl(self, "churn", "--kid", num, (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
		n++;
	}
	f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fprintf(f, "kid%ld\n%ld\n", n - 1, n);
	fclose(f);
	return 0;
}
