/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel ABI comes from <linux/perf_event.h>. This header adds the
 * user-space record types perf defines in tools/lib/perf/include/perf/event.h
 * (they never come from the kernel) and the few kernel constants newer than
 * the system header. Names are perf's own.
 */
#ifndef PULSE_PERF_ABI_H
#define PULSE_PERF_ABI_H

#include <linux/perf_event.h>

enum pulse_user_record_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,	   /* attr; u64 id[] (pipe mode) */
	PERF_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA = 66, /* u32 size; + out-of-band blob */
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,	   /* + out-of-band payload */
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,	   /* not padded to 8 */
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83,
	PERF_RECORD_HEADER_MAX
};

#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15) /* HEADER_BUILD_ID: size is valid */
#endif

/* perf's largest record: header.size is a u16 and records are 8-aligned. */
#define PULSE_MAX_RECORD_SIZE 65536

#define PERF_CONTEXT_HV_ ((__u64)-32)

#endif
