// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's callchain options, as perf 6.1 takes them: -g,
 * --call-graph fp[,max_stack] | dwarf[,size] | lbr, --no-call-graph,
 * --user-callchains, --kernel-callchains. What they leave behind is
 * sticky the way perf's callchain_param is: a later --call-graph changes
 * the mode but keeps fp's max_stack, and once dwarf was asked for the
 * samples keep ADDR|DATA_SRC (perf's record_opts.sample_address) even if
 * another mode or --no-call-graph follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "parse-options.h"
#include "record.h"

/* perf's default stack copy, and its limit: round_down(USHRT_MAX, 8) */
#define DWARF_DEFAULT_SIZE	8192
#define DWARF_MAX_SIZE		65528UL

struct record_callchain record_cg;

/*
 * perf's get_stack_size(): strtoul(base 0), nothing after the number,
 * rounded up to a multiple of 8, 8..65528. A negative number is a huge
 * unsigned one (its rounding may wrap to 0): refused either way.
 */
static int parse_stack_size(const char *s, __u32 *size)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*end) {
		v = (v + 7) & ~7UL;
		if (v && v <= DWARF_MAX_SIZE) {
			*size = (__u32)v;
			return 0;
		}
	}
	error("incorrect stack dump size (max %lu): %s", DWARF_MAX_SIZE, s);
	return -1;
}

/* fp's max_stack: kept only below kernel.perf_event_max_stack, as perf */
static void parse_max_stack(const char *s, struct record_callchain *cg)
{
	unsigned long v = strtoul(s, NULL, 0);
	unsigned long limit = 127;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");

	if (f) {
		if (fscanf(f, "%lu", &limit) != 1)
			limit = 127;
		fclose(f);
	}
	if (v < limit)
		cg->max_stack = v;
}

/*
 * perf's parse_callchain_record(): the first comma token names the mode
 * (strtok: empty tokens vanish, ",dwarf" is dwarf); fp takes a max_stack,
 * dwarf a stack size, both ignore what follows; lbr takes nothing.
 * Return: 1 (set), -2 after the error: line for lbr, -1 after it for a
 * bad argument.
 */
int record_parse_call_graph(const char *arg, struct record_callchain *cg)
{
	char *buf = strdup(arg), *save = NULL, *name, *tok;
	int ret = -1;

	if (!buf) {
		error("out of memory");
		return -1;
	}
	name = strtok_r(buf, ",", &save);
	if (!name)
		name = buf;
	tok = strtok_r(NULL, ",", &save);
	if (!strcmp(name, "fp")) {
		cg->dwarf = false;
		if (tok)
			parse_max_stack(tok, cg);
		ret = 1;
	} else if (!strcmp(name, "dwarf")) {
		__u32 size = DWARF_DEFAULT_SIZE;

		if (!tok || !parse_stack_size(tok, &size)) {
			cg->dwarf = true;
			cg->dump_size = size;
			cg->sample_address = true;
			ret = 1;
		}
	} else if (!strcmp(name, "lbr")) {
		if (tok)
			error("no more arguments needed for --call-graph lbr");
		else
			error("pulse cannot record lbr callchains yet: use --call-graph fp or dwarf");
		ret = tok ? -1 : -2;
	} else {
		error("unknown --call-graph mode '%s': use fp, dwarf[,size] or lbr", arg);
	}
	free(buf);
	return ret;
}

int record_call_graph_opt(const struct option *opt, const char *arg, int unset)
{
	int ret = record_parse_call_graph(arg, &record_cg);

	if (ret == 1)
		record_cg.enabled = true;
	record_cg.unsupported = ret == -2;
	return ret == 1 ? 0 : -1;
}

int record_no_call_graph_opt(const struct option *opt, const char *arg, int unset)
{
	record_cg.enabled = false;
	return 0;
}

void record_callchain_apply(struct pulse_record_opts *o, bool quiet)
{
	o->callchain = record_cg.enabled;
	o->max_stack = (__u16)record_cg.max_stack;
	o->sample_address = record_cg.sample_address;
	o->user_callchains = record_cg.user_callchains;
	o->kernel_callchains = record_cg.kernel_callchains;
	o->dwarf_stack_size = record_cg.enabled && record_cg.dwarf ? record_cg.dump_size : 0;
	/* perf warns once per event; once is enough to be told */
	if (o->dwarf_stack_size && o->sample_user_regs && !quiet)
		warning("the use of --call-graph=dwarf may require all the user registers, "
			"specifying a subset with --user-regs may render DWARF unwinding unreliable, "
			"so the minimal registers set (IP, SP) is explicitly forced.");
}
