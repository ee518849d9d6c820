// SPDX-License-Identifier: GPL-2.0
/*
 * --control for record and stat: perf's evlist__parse_control().
 * "fifo:CTL[,ACK]" opens the fifos (CTL non-blocking, so that pulse never
 * waits for a writer), "fd:CTL[,ACK]" takes fds the caller left open.
 * The commands read from CTL are lib/event/control.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "record.h"

/* "N" as an open fd: true, or false (not a number, or not open) */
static bool parse_fd(const char *s, int *fd)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < 0 || n > 65535 || fcntl((int)n, F_GETFL) < 0)
		return false;
	*fd = (int)n;
	return true;
}

int control_setup(const char *control, int *ctl_fd, int *ack_fd)
{
	char *spec = strdup(control), *comma;
	int ret = 0;

	if (!spec) {
		error("cannot parse --control: %s", strerror(ENOMEM));
		return 1;
	}
	comma = strchr(spec, ',');
	if (comma)
		*comma++ = 0;
	*ctl_fd = *ack_fd = -1;
	if (!strncmp(spec, "fifo:", 5) && spec[5]) {
		/* perf exits 129 when a fifo does not open, as for a bad spec */
		*ctl_fd = open(spec + 5, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (*ctl_fd < 0) {
			error("cannot open control fifo '%s': %s", spec + 5, strerror(errno));
			ret = PULSE_EXIT_USAGE;
		} else if (comma && (*ack_fd = open(comma, O_RDWR | O_CLOEXEC)) < 0) {
			error("cannot open ack fifo '%s': %s", comma, strerror(errno));
			ret = PULSE_EXIT_USAGE;
		}
	} else if (!strncmp(spec, "fd:", 3)) {
		if (!parse_fd(spec + 3, ctl_fd) || (comma && !parse_fd(comma, ack_fd))) {
			error("invalid --control '%s': the fds must be open", control);
			ret = PULSE_EXIT_USAGE;
		} else {
			fcntl(*ctl_fd, F_SETFL, fcntl(*ctl_fd, F_GETFL) | O_NONBLOCK);
		}
	} else {
		error("invalid --control '%s': give fifo:ctl-fifo[,ack-fifo] or fd:ctl-fd[,ack-fd]",
		      control);
		ret = PULSE_EXIT_USAGE;
	}
	free(spec);
	return ret;
}
