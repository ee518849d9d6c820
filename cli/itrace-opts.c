// SPDX-License-Identifier: GPL-2.0
/*
 * --itrace for pulse script and pulse report (perf's
 * itrace_parse_synth_opts(): --no-itrace stops decoding, a bare --itrace is
 * the command's default, anything else is parsed by lib/aux/itrace.c).
 */
#include "builtin.h"
#include "itrace-opts.h"

int parse_itrace(const struct option *opt, const char *arg, int unset)
{
	struct pulse_itrace_opts *o = opt->value;

	if (unset) {
		o->set = true;
		o->dont_decode = true;
		return 0;
	}
	if (pulse_itrace__parse(o, arg)) {
		error("Bad Instruction Tracing options '%s'", arg);
		return -1;
	}
	return 0;
}
