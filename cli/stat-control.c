// SPDX-License-Identifier: GPL-2.0
/* pulse stat --control (perf stat's): the fds, and the lines a disable prints. */
#include <stdio.h>
#include <pulse/stat.h>
#include "builtin.h"
#include "record.h"
#include "stat.h"

const char *stat_control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */

/* a control "disable": perf's info line (@arg: the print options, for -q) */
static void events_disabled(void *arg)
{
	const struct pulse_stat_print_opts *po = arg;

	if (!po->quiet)
		fprintf(stderr, "Events disabled\n");
	fflush(stderr);
}

int stat_control_setup(struct pulse_stat_opts *o)
{
	int ret;

	if (!stat_control)
		return 0;
	ret = control_setup(stat_control, &o->ctl_fd, &o->ack_fd);
	o->control = !ret;
	o->disabled = events_disabled;
	return ret;
}
