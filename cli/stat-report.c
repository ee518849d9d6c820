// SPDX-License-Identifier: GPL-2.0
/* pulse stat report: see below (work in progress) */
#include "builtin.h"
#include "stat-record.h"

int cmd_stat_report(int argc, const char **argv)
{
	error("stat report: not yet");
	return 1;
}
