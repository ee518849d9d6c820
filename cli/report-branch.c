// SPDX-License-Identifier: GPL-2.0
/*
 * Whether pulse report runs in branch mode, as perf 6.1's cmd_report()
 * decides: by default when the file's header has the BRANCH_STACK feature
 * and no event samples user stacks; --branch-stack forces it and
 * --no-branch-stack turns it off. A pipe's features come in-band, after
 * perf has decided, so a pipe is in branch mode only when forced.
 */
#include <pulse/data.h>
#include <pulse/reader.h>
#include "builtin.h"

bool report_branch_mode(struct pulse_data *d, int forced)
{
	__u64 combined = 0;

	if (forced >= 0)
		return forced;
	if (pulse_data__is_pipe(d) || !pulse_data__has_feat(d, PULSE_FEAT_BRANCH_STACK))
		return false;
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++)
		combined |= pulse_data__attr(d, i)->sample_type;
	return !(combined & PERF_SAMPLE_STACK_USER);
}
