/* SPDX-License-Identifier: GPL-2.0 */
/* cli/itrace-opts.c: --itrace for pulse script and pulse report */
#ifndef PULSE_CLI_ITRACE_OPTS_H
#define PULSE_CLI_ITRACE_OPTS_H

#include <stdbool.h>
#include <pulse/itrace.h>
#include "parse-options.h"

/*
 * --itrace[=OPTS] / --no-itrace, on a struct pulse_itrace_opts: perf 6.1's
 * itrace_parse_synth_opts(); a bad string prints perf's words as the one
 * error line and fails (usage, 129).
 */
int parse_itrace(const struct option *opt, const char *arg, int unset);

#define OPT_ITRACE(v) \
	OPT_CALLBACK_OPTARG('\0', "itrace", (v), "opts", \
			    "Instruction Tracing options (perf's letters: i b c r x w p o I e d " \
			    "g G l L s f m t a M q A Z)", parse_itrace)

#endif
