// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D: every record as perf 6.1 dumps it, raw bytes and decoding
 * side by side. The layouts are perf's own (util/session.c dump_event(),
 * dump_sample(), evlist__print_tstamp(), util/debug.c trace_event(),
 * util/event.c perf_event__fprintf_*(), the report tool's stubs that print
 * ": unhandled!"), checked against perf 6.1 on the golden files in
 * tests/data (tests/e2e/t2501) and on fresh recordings (tests/interop/t9251).
 * Records perf's report tool prints nothing more for (attrs, features,
 * tracing data, build ids) end without a newline: the next record's
 * leading newline ends their line, exactly as in perf's output.
 *
 * This file holds the dump's state, the names of records and events and
 * the hex dump, which the others use; dump-int.h says where the rest lives.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/output-branch.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include "core/internal.h"
#include "dump-int.h"

static const char *const type_names[PULSE_DUMP_NR_TYPES] = {
	[0] = "TOTAL",
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *pulse_dump__type_name(__u32 type)
{
	if (type >= PULSE_DUMP_NR_TYPES)
		return "INVALID";
	return type_names[type] ? type_names[type] : "UNKNOWN";
}

int pulse_dump__init(struct pulse_dump *dump, const char *path, struct pulse_machine *machine,
		     const char *(*name)(struct pulse_data *d, size_t idx, void *arg),
		     void *name_arg)
{
	memset(dump, 0, sizeof(*dump));
	dump->path = path;
	dump->machine = machine;
	dump->name = name;
	dump->name_arg = name_arg;
	return 0;
}

const char *pulse_dump__event_name(const struct pulse_dump *dump, struct pulse_data *d, size_t idx)
{
	const char *n = dump->name ? dump->name(d, idx, dump->name_arg) : NULL;

	if (!n)
		n = pulse_data__attr_name(d, idx);
	return n ? n : "unknown";
}

void pulse_dump__exit(struct pulse_dump *dump)
{
	free(dump->nr_samples);
	free(dump->nr_lost_samples);
	free(dump->reads);
	dump->reads = NULL;
	dump->nr_reads = 0;
	dump->nr_samples = NULL;
	dump->nr_lost_samples = NULL;
	dump->nr_attrs = 0;
}

/* util/debug.c trace_event() with binary__fprintf(), 16 bytes a line. */
void pulse_dump__hex(FILE *out, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	fprintf(out, ".\n. ... raw event: size %zu bytes\n", len);
	for (size_t i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;

		fprintf(out, ".  %04zx: ", i);
		for (size_t j = 0; j < 16; j++) {
			if (j < n)
				fprintf(out, " %02x", p[i + j]);
			else
				fputs("   ", out);
		}
		fputs("  ", out);
		for (size_t j = 0; j < 16; j++) {
			if (j < n)
				fputc(isprint(p[i + j]) && isascii(p[i + j]) ? p[i + j] : '.', out);
			else
				fputc(' ', out);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}
