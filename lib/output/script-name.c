// SPDX-License-Identifier: GPL-2.0
/*
 * How perf script names an event (perf 6.1's evsel__name()): the file's
 * EVENT_DESC name, else a name made from the attr, a tracepoint's from the
 * decoder's formats; and how it names a DSO. In a file of their own: the
 * script's set-up and its field checks both name events, and the branch
 * stack's lines (branch.c) name DSOs as the sample line does.
 */
#include <stdio.h>
#include <pulse/data.h>
#include <pulse/event.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/symbols.h>
#include <pulse/trace-decode.h>

const char *pulse_script__event_name(struct pulse_data *d, struct pulse_trace *t, size_t idx,
				     char *buf, size_t size)
{
	const struct perf_event_attr *attr = pulse_data__attr(d, idx);
	const char *name = pulse_data__attr_name(d, idx);

	if (name) {
		snprintf(buf, size, "%s", name);
		return buf;
	}
	if (!attr) {
		snprintf(buf, size, "unknown");
		return buf;
	}
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return pulse_attr__name(attr, buf, size);
	if (!pulse_trace__event_name(t, attr->config, buf, size))
		snprintf(buf, size, "unknown tracepoint");
	return buf;
}

const char *pulse_script__dso_name(const struct pulse_dso *dso)
{
	if (!dso)
		return "[unknown]";
	if (dso->kind == PULSE_DSO_KERNEL ||
	    (dso->kind == PULSE_DSO_MODULE && !dso->kmod_named_by_path))
		return dso->short_name;
	return dso->long_name;
}
