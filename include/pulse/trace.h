/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint metadata for perf.data: the trace-cmd "tracing.dat" blob
 * (TRACING_DATA feature / HEADER_TRACING_DATA) that lets perf script and
 * perf report decode the raw payload of tracepoint samples.
 */
#ifndef PULSE_TRACE_H
#define PULSE_TRACE_H

#include <stddef.h>
#include <pulse/data.h>

/**
 * pulse_tracing_data__build - append the tracing data blob to @b
 * @tracefs_dir: the tracefs mount ("/sys/kernel/tracing"); tests pass a fake
 * @systems, @events: @nr tracepoints, systems[i]:events[i]; duplicates are
 *        written once, systems in order of first appearance
 *
 * Layout (perf 6.1's tracing_data_get(), trace-cmd file version 0.6):
 * "\x17\x08\x44tracing0.6\0", u8 big-endian, u8 sizeof(long), u32 page
 * size, "header_page\0" u64 size + events/header_page, "header_event\0" u64
 * size + events/header_event, u32 0 ftrace formats, u32 nr systems and per
 * system its name, u32 nr events and per event u64 size + its format file,
 * u32 0 kallsyms, u32 size + printk_formats, u64 size + saved_cmdlines.
 *
 * Return: 0; -ENOENT when a format file does not exist; -EACCES; -ENOMEM.
 */
int pulse_tracing_data__build(struct pulse_buf *b, const char *tracefs_dir,
			      const char *const *systems, const char *const *events, size_t nr);

#endif
