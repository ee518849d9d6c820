/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/report: the report's tool callbacks, for itrace.c to chain. */
#ifndef PULSE_REPORT_INT_H
#define PULSE_REPORT_INT_H

#include <pulse/session.h>

struct pulse_report;

int report__tool_sample(struct pulse_session *s, const struct perf_event_header *rec,
			uint64_t file_offset, void *arg);
int report__tool_event(struct pulse_session *s, const struct perf_event_header *rec,
		       uint64_t file_offset, void *arg);
/* put an AUX trace decoder in front of @tool when the input has AUX data */
int report__itrace_setup(struct pulse_report *rep, struct pulse_tool *tool);

#endif
