// SPDX-License-Identifier: GPL-2.0
/*
 * The counts of pulse stat record and pulse stat report: a hook that sees
 * each read's raw cells (to write them as STAT records), and rows made
 * from a recorded round's cells instead of a run, folded as a run's are.
 */
#include <errno.h>
#include <stdlib.h>

#include "stat/internal.h"

void pulse_stat__set_read_hook(struct pulse_stat *st, pulse_stat_read_fn fn, void *arg)
{
	st->read_hook = fn;
	st->read_hook_arg = arg;
}

int pulse_stat__add_round(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads,
			  const struct pulse_counts *raw, const int *rc, bool no_scale, bool delta,
			  uint64_t wall_ns)
{
	int ret;

	if (nr_cpus <= 0 || nr_threads <= 0)
		return -EINVAL;
	ret = stat_alloc_rows(st, cpus, nr_cpus, nr_threads);
	if (!ret)
		ret = stat_fold(st, raw, rc, nr_cpus, nr_threads, no_scale, delta);
	if (ret)
		return ret;
	st->wall = (struct pulse_stat_stats){};
	st->nr_runs = 1;
	if (!delta) {
		pulse_stat_stats__update(&st->wall, wall_ns);
		return 0;
	}
	/*
	 * perf 6.1's stat report in interval mode keeps no wall time (no CPUs
	 * utilized) and rates per second of the clock's mean over the rounds
	 */
	if (!st->clock_rounds)
		st->clock_rounds = calloc(st->nr_keys, sizeof(*st->clock_rounds));
	if (!st->clock_rounds)
		return -ENOMEM;
	for (int k = 0; k < st->nr_keys; k++) {
		double ns = stat_clock_ns(st, k);

		if (ns)
			pulse_stat_stats__update(&st->clock_rounds[k], ns);
	}
	return 0;
}
