// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record --off-cpu: the option's checks and events. As perf 6.1's
 * off_cpu_config(), an "offcpu-time" event (its attr from lib/offcpu:
 * pulse_offcpu__event_attr()) goes after the user's events; pulse also parses
 * the sched:sched_switch tracepoint the recorder makes its samples from
 * (lib/record/offcpu.c), which needs tracefs, so a user who cannot read it
 * learns it here, before anything runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pulse/offcpu.h>
#include "builtin.h"
#include "record.h"

bool record_off_cpu;
static struct pulse_evlist switch_list;	/* sched:sched_switch, owned until exit */

int record_offcpu_setup(struct pulse_evlist *evlist, struct pulse_record_opts *o)
{
	struct perf_event_attr oa = { 0 };
	struct pulse_parse_error perr;
	struct pulse_evsel *e;
	int ret;

	if (!record_off_cpu)
		return 0;
	/*
	 * The samples are made at the end of the session from everything it
	 * saw: a flight recording keeps only the recent past and writes it
	 * out while it runs, which has no end to write them at.
	 */
	if (record_flight_wanted()) {
		error("--off-cpu cannot be used with --overwrite, --switch-output or -M");
		return PULSE_EXIT_USAGE;
	}
	if (threads_spec) {
		error("--off-cpu cannot be used with --threads");
		return PULSE_EXIT_USAGE;
	}
	memset(&perr, 0, sizeof(perr));
	ret = pulse_evlist__parse(&switch_list, "sched:sched_switch", NULL, &perr);
	if (ret) {
		error("--off-cpu needs the sched:sched_switch tracepoint: %s", perr.msg);
		hint("off-CPU time is read from tracefs: run as root, or let this user read "
		     "/sys/kernel/tracing");
		return PULSE_EXIT_USAGE;
	}
	pulse_offcpu__event_attr(&oa);
	ret = pulse_evsel__new(&e, oa.type, oa.config, PULSE_OFFCPU_EVENT);
	if (!ret) {
		pulse_offcpu__event_attr(&e->attr);
		/* perf 6.1 sets them before evsel__config(), which keeps a set period */
		e->period_from_term = true;
		ret = pulse_evlist__add(evlist, e);
		if (ret)
			pulse_evsel__delete(e);
	}
	if (ret) {
		error("cannot set up --off-cpu: %s", strerror(-ret));
		return 1;
	}
	o->offcpu_event = e;
	o->offcpu_switch = switch_list.entries[0];
	return 0;
}

void record_offcpu_exit(void)
{
	pulse_evlist__exit(&switch_list);
}
