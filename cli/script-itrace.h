/* SPDX-License-Identifier: GPL-2.0 */
/* cli/script-itrace.c: pulse script's AUX trace decoding (--itrace) */
#ifndef PULSE_CLI_SCRIPT_ITRACE_H
#define PULSE_CLI_SCRIPT_ITRACE_H

#include <pulse/dump.h>
#include <pulse/itrace.h>
#include <pulse/session.h>

struct pulse_pt;
struct pulse_script;

struct script_itrace {
	struct pulse_pt *pt;
	struct pulse_script *out;
	struct pulse_tool inner;	/* the script's own tool */
	void *inner_arg;
	struct pulse_tool tool;		/* the walk's: the decoder first, then the script */
	struct pulse_aux_stats aux;	/* for perf's AUX warnings at the end */
};

/*
 * Set up decoding for @s (a file's AUX data is read now) and, when there is
 * some, put the decoder in front of @tool: *@tool and *@arg are replaced.
 * Return: 0, or the error line's errno (printed by the caller).
 */
int script_itrace__setup(struct script_itrace *si, struct pulse_session *s,
			 struct pulse_script *out, const struct pulse_itrace_opts *o,
			 struct pulse_tool *tool, void **arg);
void script_itrace__exit(struct script_itrace *si);

#endif
