// SPDX-License-Identifier: GPL-2.0
/*
 * pulse script with AUX trace decoding: the decoder sees each record before
 * the script prints it (perf's auxtrace->process_event() before the tool),
 * its synthesized samples and error lines come out in their place, and the
 * rest of the trace is decoded at the end of the input.
 */
#include <pulse/auxtrace.h>
#include <pulse/dump.h>
#include <pulse/pt-decode.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include "builtin.h"
#include "script-itrace.h"

static int pt_error(const struct pulse_pt_error *e, void *arg)
{
	struct script_itrace *si = arg;

	/* perf counts it as the AUXTRACE_ERROR record it delivers */
	if (e->type < 2)
		si->aux.errors[e->type]++;
	return pulse_script__auxtrace_error(si->out, e);
}

static int wrap_user(struct pulse_session *s, const struct perf_event_header *rec,
		     uint64_t off, void *arg)
{
	struct script_itrace *si = arg;
	int err = pulse_pt__process(si->pt, rec);

	if (err)
		return err;
	pulse_aux_stats__add(&si->aux, rec);
	return si->inner.user ? si->inner.user(s, rec, off, si->inner_arg) : 0;
}

static int wrap_read(struct pulse_session *s, const struct perf_event_header *rec,
		     uint64_t off, void *arg)
{
	struct script_itrace *si = arg;

	return si->inner.read(s, rec, off, si->inner_arg);
}

static int wrap_kernel(struct pulse_session *s, const struct perf_event_header *rec,
		       uint64_t off, void *arg)
{
	struct script_itrace *si = arg;
	pulse_tool_fn fn = rec->type == PERF_RECORD_SAMPLE ? si->inner.sample : si->inner.event;
	int err = pulse_pt__process(si->pt, rec);

	if (err)
		return err;
	pulse_aux_stats__add(&si->aux, rec);
	if (rec->type == PERF_RECORD_SAMPLE) {
		const uint64_t *ips = NULL;
		size_t nr = pulse_pt__sample_callchain(si->pt, rec, &ips);

		pulse_script__set_ip_flags(si->out, pulse_pt__sample_flags(si->pt));
		pulse_script__set_callchain(si->out, ips, nr);
	}
	return fn ? fn(s, rec, off, si->inner_arg) : 0;
}

static int wrap_end(struct pulse_session *s, void *arg)
{
	struct script_itrace *si = arg;
	int err = pulse_pt__flush(si->pt);

	if (err)
		return err;
	return si->inner.end ? si->inner.end(s, si->inner_arg) : 0;
}

int script_itrace__setup(struct script_itrace *si, struct pulse_session *s,
			 struct pulse_script *out, const struct pulse_itrace_opts *o,
			 struct pulse_tool *tool, void **arg)
{
	struct pulse_pt_opts popts = {
		.sz = sizeof(popts),
		.itrace = o,
		.default_no_sample = true,
		.error = pt_error,
		.arg = si,
	};
	size_t nr_attrs = pulse_data__nr_attrs(pulse_session__data(s));
	int err;

	*si = (struct script_itrace){ .out = out, .inner = *tool, .inner_arg = *arg };
	err = pulse_pt__new(&si->pt, s, &popts);
	if (err || !si->pt)
		return err;
	if (pulse_pt__unsupported(si->pt)) {
		const char *name = pulse_auxtrace__name(pulse_pt__unsupported(si->pt));

		warning("the file's %s AUX area data is not decoded (pulse decodes Intel PT only)",
			name ? name : "unknown");
		script_itrace__exit(si);
		return 0;
	}
	/* --itrace=G: the file's own events get the thread stacks' chains */
	if (o && o->set && o->add_callchain)
		pulse_script__add_callchains(out, nr_attrs);
	si->tool = *tool;
	si->tool.user = wrap_user;
	si->tool.read = tool->read ? wrap_read : NULL;
	si->tool.sample = wrap_kernel;
	si->tool.event = wrap_kernel;
	si->tool.end = wrap_end;
	*tool = si->tool;
	*arg = si;
	return 0;
}

void script_itrace__exit(struct script_itrace *si)
{
	pulse_pt__delete(si->pt);
	si->pt = NULL;
}
