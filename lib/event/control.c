// SPDX-License-Identifier: GPL-2.0
/* The --control reader shared by record and stat: see <pulse/control.h>. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <pulse/control.h>

/* One command: run it, ack it. Return: 0, 1 stop, -errno. */
static int one(const char *cmd, int ack_fd, pulse_control_fn fn, void *arg)
{
	int ret = fn(cmd, arg);

	if (ret == -ENOENT)
		return 0;	/* perf leaves what it does not know unacknowledged */
	if (ret < 0)
		return ret;
	if (ack_fd >= 0 && write(ack_fd, "ack\n", 4) < 0)
		return -errno;
	return ret;
}

int pulse_control__process(int ctl_fd, int ack_fd, pulse_control_fn fn, void *arg)
{
	char buf[256];
	ssize_t n;
	int stop = 0;

	while ((n = read(ctl_fd, buf, sizeof(buf) - 1)) > 0) {
		char *p, *end;

		buf[n] = 0;
		for (p = buf; p < buf + n; p = end + 1) {
			int ret;

			end = p + strcspn(p, "\n");
			*end = 0;
			if (!*p)
				continue;
			ret = one(p, ack_fd, fn, arg);
			if (ret < 0)
				return ret;
			stop |= ret;
		}
	}
	return stop;
}
