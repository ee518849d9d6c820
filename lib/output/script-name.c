// SPDX-License-Identifier: GPL-2.0
/*
 * How perf script names an event (the one rule of every tool,
 * pulse_event_name() in lib/session/event-name.c) and how it names a DSO. In a file of their own: the
 * script's set-up and its field checks both name events, and the branch
 * stack's lines (branch.c) name DSOs as the sample line does.
 */
#include <stdio.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/session.h>
#include <pulse/symbols.h>

/* the name, always in @buf: the script keeps a copy per event */
const char *pulse_script__event_name(struct pulse_data *d, struct pulse_trace *t, size_t idx,
				     char *buf, size_t size)
{
	const char *name = pulse_event_name(d, t, idx, buf, size);

	if (name != buf)
		snprintf(buf, size, "%s", name);
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
