// SPDX-License-Identifier: GPL-2.0
/*
 * --control while counting: perf stat's process_evlist(). "enable" and
 * "disable" turn every counter on and off (the callbacks print perf's
 * "Events enabled"/"Events disabled" lines); "ping", "stop", "snapshot"
 * and "evlist" are acknowledged and do nothing, as in perf stat 6.1;
 * anything else is ignored and not acknowledged.
 */
#include <errno.h>
#include <string.h>
#include <pulse/control.h>
#include "stat/internal.h"

static int run_command(const char *cmd, void *arg)
{
	struct stat_control *ctl = arg;
	const struct pulse_stat_opts *o = ctl->o;
	int ret;

	if (!strcmp(cmd, "enable") || !strcmp(cmd, "disable")) {
		bool on = cmd[0] == 'e';

		if (o->null_run)
			ret = 0;
		else
			ret = on ? pulse_evlist__enable(ctl->st->evlist) :
				   pulse_evlist__disable(ctl->st->evlist);
		if (ret)
			return ret;
		if (on && o->enabled)
			o->enabled(o->arg);
		else if (!on && o->disabled)
			o->disabled(o->arg);
		return 0;
	}
	if (!strcmp(cmd, "ping") || !strcmp(cmd, "stop") || !strcmp(cmd, "snapshot") ||
	    !strcmp(cmd, "evlist"))
		return 0;
	return -ENOENT;
}

int stat_control_process(struct stat_control *ctl)
{
	int ret = pulse_control__process(ctl->o->ctl_fd, ctl->o->ack_fd, run_command, ctl);

	return ret < 0 ? ret : 0;
}
