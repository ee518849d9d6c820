// SPDX-License-Identifier: GPL-2.0
/*
 * An event's name, one rule for every tool (perf 6.1's evsel__name()): the
 * name the file recorded (EVENT_DESC, or an EVENT_UPDATE NAME record), else
 * a tracepoint's "system:name" from the file's own tracing data, else the
 * name perf makes from the attr, with evsel__add_modifiers()'s suffix. A
 * file without EVENT_DESC is a pipe without it or a recorder killed before
 * its features were written.
 */
#include <stdio.h>
#include <pulse/event.h>
#include <pulse/session.h>
#include <pulse/trace-decode.h>

const char *pulse_event_name(struct pulse_data *d, const struct pulse_trace *t, size_t idx,
			     char *buf, size_t size)
{
	const struct perf_event_attr *attr = pulse_data__attr(d, idx);
	const char *name = pulse_data__attr_name(d, idx);

	if (name)
		return name;
	if (!attr) {
		snprintf(buf, size, "unknown");
		return buf;
	}
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return pulse_attr__name(attr, buf, size);
	if (!t || !pulse_trace__event_name(t, attr->config, buf, size))
		snprintf(buf, size, "unknown tracepoint");
	return buf;
}
