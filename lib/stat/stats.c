// SPDX-License-Identifier: GPL-2.0
/*
 * Running means over -r runs: Welford's update, as perf's util/stat.c
 * update_stats(); the noise printed as "( +- x.xx% )" is the standard
 * deviation of the mean relative to the mean.
 */
#include <math.h>
#include <pulse/stat.h>

void pulse_stat_stats__update(struct pulse_stat_stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (val - s->mean);
}

double pulse_stat_stats__stddev(const struct pulse_stat_stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->M2 / (s->n - 1);
	return sqrt(variance / s->n);
}

double pulse_stat_rel_stddev(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}
