// SPDX-License-Identifier: GPL-2.0
/*
 * --control: perf's control protocol (evlist__ctlfd_process()): commands
 * of one line each ("enable", "disable", "snapshot", "stop", "ping") read
 * from a fd or fifo; each is answered with "ack\n" on the ack fd when
 * there is one. pulse takes "snapshot" for its flight snapshots as well
 * as perf takes it for AUX snapshots.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "record/internal.h"

static int run_command(struct rec *r, const char *cmd, bool *stop)
{
	if (!strcmp(cmd, "enable"))
		return pulse_evlist__enable(&r->evlist);
	if (!strcmp(cmd, "disable"))
		return pulse_evlist__disable(&r->evlist);
	if (!strcmp(cmd, "snapshot"))
		return rec_snapshot(r);
	if (!strcmp(cmd, "stop")) {
		*stop = true;
		return 0;
	}
	/* "ping" and what pulse does not know are only acknowledged, as perf */
	return 0;
}

/*
 * Read what the control fd holds, a command a line (perf also ends one
 * with a NUL). Return: 0, 1 when asked to stop, or -errno.
 */
int rec_control(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	char buf[256];
	ssize_t n;
	bool stop = false;

	while ((n = read(o->ctl_fd, buf, sizeof(buf) - 1)) > 0) {
		char *p = buf, *end;

		buf[n] = 0;
		for (; p < buf + n; p = end + 1) {
			int ret;

			end = p + strcspn(p, "\n");
			*end = 0;
			if (!*p)
				continue;
			ret = run_command(r, p, &stop);
			if (ret)
				return ret;
			if (o->ack_fd >= 0 && write(o->ack_fd, "ack\n", 4) < 0)
				return -errno;
		}
	}
	return stop ? 1 : 0;
}
