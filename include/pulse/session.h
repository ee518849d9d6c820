/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session: one perf.data input walked once in perf's order and handed to
 * a tool's callbacks, as perf's util/session.c hands records to a struct
 * perf_tool (lib/session/session.c). report, script and report -D are
 * tools over it; the walk, the rule for when to sort by time, the machine
 * state, the tracing data and the event names live here once.
 *
 * The walk:
 *  - every record is first shown, as read, to @tool->read (progress,
 *    counts); a COMPRESSED record (delivered only when the tool asked for
 *    it, see pulse_session_opts.compressed) goes nowhere else;
 *  - user records (ATTR, FEATURE, TRACING_DATA, FINISHED_ROUND, ...) go to
 *    @tool->user as read; then a FINISHED_ROUND flushes the time queue;
 *  - kernel records go through the time queue, when the file is ordered
 *    (pulse_session__is_ordered()), to @tool->sample (SAMPLE) and
 *    @tool->event (the others); a tool without an event callback gets its
 *    side-band applied to the machine (pulse_session__apply());
 *  - the end of input flushes the queue.
 */
#ifndef PULSE_SESSION_H
#define PULSE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pulse/machine.h>
#include <pulse/reader.h>

struct pulse_session;
struct pulse_trace;

/* A callback of a tool; a non-zero return stops the walk and is returned. */
typedef int (*pulse_tool_fn)(struct pulse_session *s, const struct perf_event_header *rec,
			     uint64_t file_offset, void *arg);

struct pulse_tool {
	pulse_tool_fn read;	/* every record, in file order, before anything else */
	pulse_tool_fn user;	/* user records (type >= 64), in file order */
	pulse_tool_fn sample;	/* SAMPLE records, in time order when ordered */
	pulse_tool_fn event;	/* other kernel records; NULL: pulse_session__apply() */
	/*
	 * Walk in file order even when the file could be sorted by time (perf
	 * script --show-round-events).
	 */
	bool file_order;
	/*
	 * Samples with PERF_SAMPLE_READ go to @sample once per value read, as
	 * perf delivers them (pulse_session__sample_value()); else once, as read
	 */
	bool read_values;
	/*
	 * Called once the input is exhausted and the time queue flushed, still
	 * inside the walk: a decoder delivers what it has left
	 * (pulse_session__deliver_synth()). A non-zero return is returned.
	 */
	int (*end)(struct pulse_session *s, void *arg);
};

/* One value of a PERF_SAMPLE_READ sample, as perf delivers it. */
struct pulse_sample_value {
	size_t idx;		/* the event (attr index) the value's id belongs to */
	uint64_t id;		/* the value's id */
	uint64_t period;	/* its growth since that id's last sample (never 0) */
};

struct pulse_session_opts {
	size_t sz;		/* sizeof(struct pulse_session_opts) */
	/* deliver each COMPRESSED record to @tool->read too (perf's -D counts them) */
	bool compressed;
};

/**
 * pulse_session__new - open an input for a walk
 * @s: set to the session (NULL on failure)
 * @path: a file, a directory (perf record --threads), or "-" for stdin
 *        (see pulse_data__open())
 * @opts: may be NULL
 *
 * Return: 0, or what pulse_data__open() returns (-ENODATA for an empty
 * file, -EBADMSG with pulse_data__error() set, ...), or -ENOMEM.
 */
int pulse_session__new(struct pulse_session **s, const char *path,
		       const struct pulse_session_opts *opts);

/**
 * pulse_session__new_mem - a session over a perf.data image in memory
 * @buf, @len: file or pipe format; kept alive and unchanged by the caller
 *             until pulse_session__delete()
 * Return: as pulse_session__new().
 */
int pulse_session__new_mem(struct pulse_session **s, const void *buf, size_t len,
			   const struct pulse_session_opts *opts);

/* Close the input and free the machine, trace decoder and queue; NULL is fine. */
void pulse_session__delete(struct pulse_session *s);

/* The reader (borrowed, valid until pulse_session__delete()). */
struct pulse_data *pulse_session__data(const struct pulse_session *s);

/* The machine the side-band builds (borrowed); NULL before pulse_session__init_machine(). */
struct pulse_machine *pulse_session__machine(struct pulse_session *s);

/**
 * pulse_session__init_machine - set up the machine the walk will build
 * @opts: symbol options (copied); NULL: no symbols at all (report -D)
 *
 * With @opts, perf's places to look for symbols are filled in where @opts
 * leaves them unset: this kernel's /proc/kallsyms when the file was made
 * on it, /usr/lib/debug, the build-id cache ($PERF_BUILDID_DIR, else
 * ~/.debug; with --symfs, SYMFS/.debug); and the file's BUILD_ID entries
 * are handed to the DSO table, so each DSO's file is checked.
 * Return: 0 or -ENOMEM.
 */
int pulse_session__init_machine(struct pulse_session *s, const struct pulse_symbol_opts *opts);

/*
 * Whether the walk sorts kernel records by time: perf does when every
 * record can say when it happened (the first attr has sample_id_all, or
 * a pipe, or no attrs at all), unless the tool asks for file order.
 */
bool pulse_session__is_ordered(const struct pulse_session *s, const struct pulse_tool *tool);

/**
 * pulse_session__process - walk the input once, delivering to @tool
 * Return: 0 (damaged data that only ends the walk included: see
 * pulse_data__unreadable()), a callback's non-zero return, -ENOMEM, or
 * what pulse_data__for_each_record() returns.
 */
int pulse_session__process(struct pulse_session *s, const struct pulse_tool *tool, void *arg);

/**
 * pulse_session__apply - apply a side-band record to the machine
 * Return: 0, -EBADMSG for a malformed COMM/FORK/EXIT/MMAP, -ENOMEM.
 */
int pulse_session__apply(struct pulse_session *s, const struct perf_event_header *rec);

/**
 * pulse_session__deliver_synth - hand a record a tool made to the walk's tool
 * @rec: a SAMPLE or side-band record (e.g. decoded from an AUX area)
 *
 * Delivered at once to the current walk's sample or event callback, as
 * perf's perf_session__deliver_synth_event() does: a decoder called from a
 * callback delivers what it decodes in the place of what it decodes.
 * Return: the callback's return; -EINVAL outside a walk or for a user
 * record type.
 */
int pulse_session__deliver_synth(struct pulse_session *s, const struct perf_event_header *rec);

/*
 * The file the record handed to a callback was read from, for a directory
 * input (perf record --threads: DIR/data, DIR/data.N; perf -D prints it
 * after the offset); NULL for a file or a pipe.
 */
const char *pulse_session__file_path(const struct pulse_session *s);

/*
 * pulse_session__sample_value - in a @tool->sample call of a tool with
 * read_values, for a sample with PERF_SAMPLE_READ: true and *@v, the value
 * this call is for (its event and period replace the record's, as perf's
 * deliver_sample_value() does); false otherwise.
 */
bool pulse_session__sample_value(const struct pulse_session *s, struct pulse_sample_value *v);

/* Values of PERF_SAMPLE_READ samples whose id no event has (perf's nr_unknown_id). */
uint64_t pulse_session__nr_unknown_id(const struct pulse_session *s);

/* Records the last walk queued older than one already delivered (perf's "out of order"). */
uint64_t pulse_session__nr_unordered(const struct pulse_session *s);

/* ---- tracing data and event names ------------------------------------------ */

/* Does any event of the file (so far, in a pipe) come from a tracepoint? */
bool pulse_session__has_tracepoints(const struct pulse_session *s);

/**
 * pulse_session__trace - the decoder of the file's tracing data, parsed once
 * @t: set to the decoder (borrowed, valid until pulse_session__delete()),
 *     NULL when there is none
 *
 * Parsed from the file's TRACING_DATA (in a pipe, the HEADER_TRACING_DATA
 * seen so far) the first time it is asked for with some; later calls
 * return the same decoder.
 * Return: 0; -ENODATA when the file has no tracing data (yet); -ENOMEM;
 * another -errno when the tracing data cannot be parsed (asked again, the
 * same).
 */
int pulse_session__trace(struct pulse_session *s, struct pulse_trace **t);

/**
 * pulse_session__trace_local - decode with this machine's tracefs formats
 * For a file that has tracepoints and no tracing data.
 * Return: 0 (then pulse_session__trace() gives it), -ENOMEM, or another
 * -errno when there is no tracefs.
 */
int pulse_session__trace_local(struct pulse_session *s);

/**
 * pulse_event_name - an event's name as perf 6.1's evsel__name() gives it
 * @d: the file
 * @t: the decoder of its tracing data, or NULL
 * @idx: the attr
 *
 * The recorded name (EVENT_DESC, EVENT_UPDATE), else: a tracepoint's
 * "system:name" from @t ("unknown tracepoint" without it), other types
 * perf's name from the attr with its modifiers; "unknown" for a bad @idx.
 * Return: @buf, or the recorded name (valid until the file is closed).
 */
const char *pulse_event_name(struct pulse_data *d, const struct pulse_trace *t, size_t idx,
			     char *buf, size_t size);

/* pulse_event_name() with the session's tracing data (parsed if need be). */
const char *pulse_session__event_name(struct pulse_session *s, size_t idx, char *buf,
				      size_t size);

/**
 * pulse_session__sample_time - the first and last sample times the file
 * says it has (its SAMPLE_TIME feature, in the file's byte order)
 * Return: 0, or -ENODATA when it does not say (a pipe, an old perf).
 */
int pulse_session__sample_time(struct pulse_session *s, uint64_t *first, uint64_t *last);

#endif
