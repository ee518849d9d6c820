// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D's counts: every record by type as it is read, samples and
 * lost samples per event, and the "Aggregated stats:" table perf prints
 * after the records.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/output-branch.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include "core/internal.h"
#include "dump-int.h"

void pulse_dump__count(struct pulse_dump *dump, __u32 type)
{
	/* perf refuses types past its table before counting them */
	if (type >= PULSE_DUMP_NR_TYPES)
		return;
	dump->nr_events[0]++;
	dump->nr_events[type]++;
}

/* Room for the counts of attr @idx; false when out of memory. */
bool pulse_dump__grow_counts(struct pulse_dump *dump, size_t idx)
{
	size_t old = dump->nr_attrs;
	__u32 *n, *l;

	if (idx < old)
		return true;
	n = realloc(dump->nr_samples, (idx + 1) * sizeof(*n));
	if (!n)
		return false;
	dump->nr_samples = n;
	l = realloc(dump->nr_lost_samples, (idx + 1) * sizeof(*l));
	if (!l)
		return false;
	dump->nr_lost_samples = l;
	memset(n + old, 0, (idx + 1 - old) * sizeof(*n));
	memset(l + old, 0, (idx + 1 - old) * sizeof(*l));
	dump->nr_attrs = idx + 1;
	return true;
}

int pulse_dump__fprintf_stats(FILE *out, struct pulse_data *d, const struct pulse_dump *dump)
{
	__u32 total = dump->nr_events[0];

	fprintf(out, "\nAggregated stats:%s\n", pulse_data__has_feat(d, PULSE_FEAT_AUXTRACE) ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	for (__u32 i = 0; i < PULSE_DUMP_NR_TYPES; i++) {
		const char *n = pulse_dump__type_name(i);

		/* perf report skips empty rows (report.skip-empty, on by default) */
		if (!strcmp(n, "UNKNOWN") || !dump->nr_events[i])
			continue;
		if (i && total)
			fprintf(out, "%16s events: %10u  (%4.1f%%)\n", n, dump->nr_events[i],
				100.0 * dump->nr_events[i] / total);
		else
			fprintf(out, "%16s events: %10u\n", n, dump->nr_events[i]);
	}
	for (size_t i = 0; i < dump->nr_attrs; i++) {
		if (!dump->nr_samples[i] && !dump->nr_lost_samples[i])
			continue;
		fprintf(out, "%s stats:\n", pulse_dump__event_name(dump, d, i));
		if (dump->nr_samples[i])
			fprintf(out, "%16s events: %10u\n", "SAMPLE", dump->nr_samples[i]);
		if (dump->nr_lost_samples[i])
			fprintf(out, "%16s events: %10u\n", "LOST_SAMPLES",
				dump->nr_lost_samples[i]);
	}
	return ferror(out) ? -EIO : 0;
}
