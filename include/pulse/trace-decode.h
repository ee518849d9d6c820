/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding tracepoint samples (lib/trace/decode.c): the TRACING_DATA blob of
 * a perf.data file (trace-cmd tracing.dat 0.6, see pulse/trace.h) is parsed
 * into a libtraceevent handle, so that a file recorded on another machine
 * decodes with that machine's formats; a sample's raw payload is then
 * printed as perf 6.1's perf script prints it (the event's print fmt, or a
 * plugin's handler).
 *
 * Plugins are searched where perf 6.1 (Debian, bundled libtraceevent)
 * searches them: $TRACEEVENT_PLUGIN_DIR and ~/.local/lib/traceevent/plugins,
 * not the system directory of the shared libtraceevent, which perf does not
 * know about. Loading those would print sched_switch and friends in the
 * plugins' own format, unlike perf on the same machine.
 */
#ifndef PULSE_TRACE_DECODE_H
#define PULSE_TRACE_DECODE_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct tep_handle;
struct tep_event;
struct pulse_trace;

/**
 * pulse_trace__parse - build a decoder from a TRACING_DATA blob
 * @t: set to the decoder on success
 * @blob, @len: the blob (pulse_data__tracing_data()); copied where needed
 *
 * Return: 0; -EBADMSG when the blob is malformed (a pr_warn names the
 * offset in the blob); -ENOMEM.
 */
int pulse_trace__parse(struct pulse_trace **t, const void *blob, size_t len);

/**
 * pulse_trace__local - build a decoder from this machine's tracefs formats
 * @tracing_dir: the tracefs mount, NULL for the default one
 *
 * For a file without TRACING_DATA only: the formats may not be those of the
 * machine that recorded it.
 * Return: 0; -ENOENT when no tracefs is found; -ENOMEM.
 */
int pulse_trace__local(struct pulse_trace **t, const char *tracing_dir);

/* Free the decoder; NULL is fine. */
void pulse_trace__delete(struct pulse_trace *t);

/* The libtraceevent handle (for callers that need more than printing). */
struct tep_handle *pulse_trace__tep(const struct pulse_trace *t);

/* The format with tracepoint id @id (an attr's config), or NULL. */
struct tep_event *pulse_trace__event(const struct pulse_trace *t, __u64 id);

/**
 * pulse_trace__event_name - "system:name" of tracepoint @id
 * Return: @buf, or NULL when the decoder does not know @id.
 */
const char *pulse_trace__event_name(const struct pulse_trace *t, __u64 id, char *buf,
				    size_t size);

/**
 * pulse_trace__fprintf - print a raw tracepoint payload as perf script does
 * (tep_print_event()'s TEP_PRINT_INFO, with perf's record set-up)
 * @ev: from pulse_trace__event()
 * @cpu: the sample's cpu
 * @raw, @size: the sample's raw data
 *
 * Uses a buffer held by @t: no allocation per call once it has grown.
 * Return: characters written, or -EIO.
 */
int pulse_trace__fprintf(struct pulse_trace *t, struct tep_event *ev, int cpu, const void *raw,
			 size_t size, FILE *fp);

#endif
