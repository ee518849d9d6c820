/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the fixed-size leading fields of a SAMPLE record sit, for readers
 * on a hot path that need a few of them and cannot afford
 * pulse_sample__parse() (lib/data/sample-offsets.c). The layout is the
 * uapi's (include/uapi/linux/perf_event.h, PERF_RECORD_SAMPLE):
 *
 *	offset	size	field			present with
 *	0	8	perf_event_header
 *	8	8	u64 id			PERF_SAMPLE_IDENTIFIER
 *	+0	8	u64 ip			PERF_SAMPLE_IP
 *	+8	4+4	u32 pid, tid		PERF_SAMPLE_TID
 *	+8	8	u64 time		PERF_SAMPLE_TIME
 *
 * Everything after TIME (ADDR, ID, ...) is left to pulse_sample__parse().
 */
#ifndef PULSE_SAMPLE_OFFSETS_H
#define PULSE_SAMPLE_OFFSETS_H

#include <linux/types.h>

/* Byte offsets from the record start; -1 when the field is absent. */
struct pulse_sample_offsets {
	int ip;			/* u64 ip */
	int pid;		/* u32 pid (the tid follows it) */
	int time;		/* u64 time */
	int min_size;		/* a record shorter than this lacks some of them */
};

/**
 * pulse_sample__offsets - the leading fixed fields of SAMPLE records of
 * @sample_type
 * @out: filled in
 */
void pulse_sample__offsets(__u64 sample_type, struct pulse_sample_offsets *out);

#endif
