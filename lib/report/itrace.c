// SPDX-License-Identifier: GPL-2.0
/*
 * pulse report over AUX trace data: the decoder sees each record before the
 * report does (perf's auxtrace->process_event()), the samples it
 * synthesizes are added to the histograms like the file's own, and what is
 * left of the trace is decoded at the end of the input. perf report's
 * default is instructions every 100us with synthesized callchains
 * (--itrace=ig, thread stacks): the callchains are not synthesized yet, so
 * without --itrace the instruction samples come without them.
 */
#include <errno.h>
#include <pulse/pt-decode.h>
#include <pulse/report.h>
#include <pulse/session.h>
#include "report/report-int.h"

static int itrace_sample(struct pulse_session *s, const struct perf_event_header *rec,
			 uint64_t off, void *arg)
{
	struct pulse_report *rep = arg;
	int err = pulse_pt__process(rep->pt, rec);

	if (err)
		return err;
	/* --itrace=G: the file's own samples get the thread stack's callchain */
	rep->pt_chain_nr = pulse_pt__sample_callchain(rep->pt, rec, &rep->pt_chain);
	err = report__tool_sample(s, rec, off, arg);
	rep->pt_chain_nr = 0;
	return err;
}

static int itrace_event(struct pulse_session *s, const struct perf_event_header *rec,
			uint64_t off, void *arg)
{
	struct pulse_report *rep = arg;
	int err = pulse_pt__process(rep->pt, rec);

	return err ? err : report__tool_event(s, rec, off, arg);
}

static int itrace_user(struct pulse_session *s, const struct perf_event_header *rec,
		       uint64_t off, void *arg)
{
	struct pulse_report *rep = arg;

	return pulse_pt__process(rep->pt, rec);
}

/*
 * perf delivers each error as an AUXTRACE_ERROR record, which its session
 * counts for the "N instruction trace errors" warning
 */
static int itrace_error(const struct pulse_pt_error *e, void *arg)
{
	struct pulse_report *rep = arg;

	if (e->type < 2)
		rep->aux.errors[e->type]++;
	return 0;
}

static int itrace_end(struct pulse_session *s, void *arg)
{
	struct pulse_report *rep = arg;

	return pulse_pt__flush(rep->pt);
}

int report__itrace_setup(struct pulse_report *rep, struct pulse_tool *tool)
{
	struct pulse_pt_opts o = {
		.sz = sizeof(o),
		.itrace = &rep->itrace,
		.default_no_sample = false,
		.error = itrace_error,
		.arg = rep,
	};
	int err;

	err = pulse_pt__new(&rep->pt, rep->session, &o);
	if (err || !rep->pt)
		return err;
	tool->sample = itrace_sample;
	tool->event = itrace_event;
	tool->user = itrace_user;
	tool->end = itrace_end;
	return 0;
}
