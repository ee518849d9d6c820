// SPDX-License-Identifier: GPL-2.0
/*
 * --control for record: what each of perf's commands means here (the
 * reader is lib/event/control.c's). pulse takes "snapshot" for its flight
 * snapshots as well as perf takes it for AUX snapshots; "ping" and what
 * pulse does not know are only acknowledged.
 */
#include <errno.h>
#include <string.h>
#include <pulse/control.h>
#include "record/internal.h"

static int run_command(const char *cmd, void *arg)
{
	struct rec *r = arg;

	if (!strcmp(cmd, "enable"))
		return pulse_evlist__enable(&r->evlist);
	if (!strcmp(cmd, "disable"))
		return pulse_evlist__disable(&r->evlist);
	if (!strcmp(cmd, "snapshot"))
		return rec_snapshot(r);
	if (!strcmp(cmd, "stop"))
		return 1;
	return 0;
}

/* Read what the control fd holds. Return: 0, 1 when asked to stop, or -errno. */
int rec_control(struct rec *r)
{
	return pulse_control__process(r->opts->ctl_fd, r->opts->ack_fd, run_command, r);
}
