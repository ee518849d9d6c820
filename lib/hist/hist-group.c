// SPDX-License-Identifier: GPL-2.0
/*
 * perf's group view (report --group, the default on a file with groups):
 * each member's entries matched to the leader's (util/hist.c hists__match()
 * and hists__link()), so that one table has a column per member.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "hist/hist-internal.h"

int pulse_hists__link(struct pulse_hists *leader, const struct pulse_hists *member, size_t slot,
		      size_t nr_pairs)
{
	if (slot >= nr_pairs)
		return -EINVAL;
	if (!leader->pair_totals) {
		leader->pair_totals = calloc(nr_pairs * 2, sizeof(uint64_t));
		if (!leader->pair_totals)
			return -ENOMEM;
		leader->nr_pairs = nr_pairs;
		/* the index is rebuilt from the entries (shards may have left none) */
		free(leader->index);
		leader->index = NULL;
		leader->index_size = 0;
	}
	leader->pair_totals[slot * 2] = member->total_period;
	leader->pair_totals[slot * 2 + 1] = member->nr_samples;
	for (size_t i = 0; i < member->nr_entries; i++) {
		const struct pulse_hist_entry *m = &member->entries[i];
		struct pulse_hist_entry *e;
		long at = pulse_hists__findnew_dummy(leader, m);

		if (at < 0)
			return (int)at;
		e = &leader->entries[at];
		if (!e->pairs) {
			e->pairs = calloc(nr_pairs * 3, sizeof(uint64_t));
			if (!e->pairs)
				return -ENOMEM;
		}
		e->pairs[slot * 3] += m->period;
		e->pairs[slot * 3 + 1] += m->nr_samples;
		e->pairs[slot * 3 + 2] += m->acc_period;
	}
	return 0;
}
