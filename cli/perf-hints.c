// SPDX-License-Identifier: GPL-2.0
/*
 * perf's commands that pulse does not have: `pulse annotate` says it is
 * not a pulse command and adds one hint line, naming the perf command to
 * use instead, and saying when that command reads pulse's perf.data files.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"

struct perf_cmd {
	const char *name;
	bool reads_data;	/* a perf.data reader: it takes pulse's files */
};

static const struct perf_cmd perf_cmds[] = {
	{ "annotate", true },	  { "archive", true },	  { "buildid-list", true },
	{ "evlist", true },
	{ "inject", true },	  { "bench", false },	  { "buildid-cache", false },
	{ "c2c", false },	  { "config", false },	  { "daemon", false },
	{ "ftrace", false },	  { "iostat", false },	  { "kallsyms", false },
	{ "kmem", false },	  { "kvm", false },	  { "kwork", false },
	{ "lock", false },	  { "mem", false },	  { "probe", false },
	{ "sched", false },	  { "test", false },
	{ "timechart", false },	  { "top", false },	  { "trace", false },
};

bool perf_command_hint(const char *cmd, char *buf, size_t sz)
{
	for (size_t i = 0; i < sizeof(perf_cmds) / sizeof(perf_cmds[0]); i++) {
		if (strcmp(perf_cmds[i].name, cmd))
			continue;
		if (perf_cmds[i].reads_data)
			snprintf(buf, sz, "not in pulse yet; 'perf %s' reads pulse's perf.data files",
				 cmd);
		else
			snprintf(buf, sz, "not in pulse yet; use 'perf %s'", cmd);
		return true;
	}
	return false;
}
