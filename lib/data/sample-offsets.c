// SPDX-License-Identifier: GPL-2.0
/*
 * The fixed offsets of a SAMPLE record's leading fields (IDENTIFIER, IP,
 * TID, TIME precede every variable-size field), for pulse record's hot
 * path; see include/pulse/sample-offsets.h for the layout.
 */
#include <pulse/sample-offsets.h>
#include <linux/perf_event.h>

void pulse_sample__offsets(__u64 sample_type, struct pulse_sample_offsets *o)
{
	int off = sizeof(struct perf_event_header);

	o->ip = o->pid = o->time = -1;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (sample_type & PERF_SAMPLE_IP) {
		o->ip = off;
		off += 8;
	}
	if (sample_type & PERF_SAMPLE_TID) {
		o->pid = off;
		off += 8;
	}
	if (sample_type & PERF_SAMPLE_TIME) {
		o->time = off;
		off += 8;
	}
	o->min_size = off;
}
