// SPDX-License-Identifier: GPL-2.0
/*
 * The session: one input walked once in perf's order for a tool (perf's
 * perf_session__process_events() with a struct perf_tool). It owns the
 * reader, the time queue, the machine and the tracing-data decoder, so that
 * report, script and -D each only say what to do with a record. The rules
 * of the walk are in include/pulse/session.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/ordering.h>
#include <pulse/session.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "session/session-internal.h"

struct pulse_session {
	struct pulse_data *d;		/* the input */
	struct pulse_machine machine;	/* built from the side-band */
	bool has_machine;		/* pulse_session__init_machine() done */
	struct pulse_ordered *oq;	/* the time queue of the current walk */
	uint64_t nr_unordered;		/* of the last walk */
	struct pulse_trace *trace;	/* the tracing data's decoder */
	int trace_err;			/* 0, or why it could not be parsed */
	const char *from;		/* the file of the record delivered */
	const struct pulse_tool *tool;	/* of the current walk */
	void *arg;			/* its argument */
	struct session_read read;	/* PERF_SAMPLE_READ values (read_values) */
};

/* A session over @path, or over @buf when @path is NULL. */
static int session__new(struct pulse_session **s, const char *path, const void *buf, size_t len,
			const struct pulse_session_opts *opts)
{
	struct pulse_session *n;
	int err;

	*s = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	if (path)
		err = pulse_data__open(&n->d, path);
	else
		err = pulse_data__open_mem(&n->d, buf, len);
	if (err) {
		free(n);
		return err;
	}
	if (opts && opts->compressed)
		pulse_data__set_deliver_compressed(n->d, true);
	*s = n;
	return 0;
}

int pulse_session__new(struct pulse_session **s, const char *path,
		       const struct pulse_session_opts *opts)
{
	return session__new(s, path, NULL, 0, opts);
}

int pulse_session__new_mem(struct pulse_session **s, const void *buf, size_t len,
			   const struct pulse_session_opts *opts)
{
	return session__new(s, NULL, buf, len, opts);
}

void pulse_session__delete(struct pulse_session *s)
{
	if (!s)
		return;
	pulse_ordered__delete(s->oq);
	pulse_trace__delete(s->trace);
	session_read__exit(&s->read);
	if (s->has_machine)
		pulse_machine__exit(&s->machine);
	pulse_data__close(s->d);
	free(s);
}

struct pulse_data *pulse_session__data(const struct pulse_session *s)
{
	return s->d;
}

struct pulse_machine *pulse_session__machine(struct pulse_session *s)
{
	return s->has_machine ? &s->machine : NULL;
}

int pulse_session__init_machine(struct pulse_session *s, const struct pulse_symbol_opts *opts)
{
	struct pulse_symbol_opts o = { .sz = sizeof(o), .no_vdso = true };
	char buildid_dir[4096];
	int err;

	if (s->has_machine)
		return 0;
	if (opts) {
		o = *opts;
		session__symbol_defaults(s->d, &o, buildid_dir, sizeof(buildid_dir));
	}
	err = pulse_machine__init(&s->machine, &o);
	if (err)
		return err;
	s->has_machine = true;
	if (opts) {
		session__load_build_ids(s->d, &s->machine.dsos);
		/* read on another core while the walk reaches the first kernel sample */
		pulse_dsos__preload_kernel(&s->machine.dsos);
	}
	return 0;
}

bool pulse_session__is_ordered(const struct pulse_session *s, const struct pulse_tool *tool)
{
	if (tool->file_order)
		return false;
	return pulse_data__nr_attrs(s->d) == 0 || pulse_data__attr(s->d, 0)->sample_id_all ||
	       pulse_data__is_pipe(s->d);
}

int pulse_session__apply(struct pulse_session *s, const struct perf_event_header *rec)
{
	if (!s->has_machine)
		return 0;
	return pulse_machine__process(&s->machine, rec);
}

/* A kernel record, in time order. */
static int session__deliver(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct pulse_session *s = arg;
	const struct pulse_tool *tool = s->tool;

	s->from = s->oq && pulse_ordered__from(s->oq) ? pulse_ordered__from(s->oq) :
		  pulse_data__walk_path(s->d);
	if (rec->type == PERF_RECORD_SAMPLE) {
		const struct perf_event_attr *attr;
		int idx;

		if (!tool->sample)
			return 0;
		if (tool->read_values && (idx = pulse_data__attr_of(s->d, rec, rec->size)) >= 0 &&
		    (attr = pulse_data__attr(s->d, idx)) && attr->sample_type & PERF_SAMPLE_READ)
			return session_read__deliver(&s->read, s->d, attr, tool->sample, s, rec,
						     file_offset, s->arg);
		return tool->sample(s, rec, file_offset, s->arg);
	}
	if (tool->event)
		return tool->event(s, rec, file_offset, s->arg);
	return pulse_session__apply(s, rec);
}

/* the queue is done with a record read into the reader's buffers */
static void session__unpin(void *arg, void *pin)
{
	pulse_data__record_unpin(arg, pin);
}

static int session__record(struct pulse_data *d, const struct perf_event_header *rec,
			   __u64 file_offset, void *arg)
{
	struct pulse_session *s = arg;
	const struct pulse_tool *tool = s->tool;
	int err;

	s->from = pulse_data__walk_path(d);
	if (tool->read) {
		err = tool->read(s, rec, file_offset, s->arg);
		if (err)
			return err;
	}
	if (rec->type == PERF_RECORD_COMPRESSED || rec->type == PERF_RECORD_COMPRESSED2)
		return 0;
	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		if (tool->user) {
			err = tool->user(s, rec, file_offset, s->arg);
			if (err)
				return err;
		}
		if (rec->type == PERF_RECORD_FINISHED_ROUND && s->oq)
			return pulse_ordered__flush_round(s->oq);
		return 0;
	}
	if (s->oq) {
		__u64 t = session__record_time(d, rec);

		const char *from = pulse_data__walk_path(d);
		void *pin = NULL;

		if (pulse_data__record_stays(d, rec, rec->size))
			err = pulse_ordered__queue_ref(s->oq, rec, t, file_offset, from);
		else if ((pin = pulse_data__record_pin(d, rec, rec->size)))
			err = pulse_ordered__queue_pinned(s->oq, rec, t, file_offset, from, pin);
		else
			err = pulse_ordered__queue_from(s->oq, rec, t, file_offset, from);
		if (err && pin)
			pulse_data__record_unpin(d, pin);
		if (err != -ETIME)
			return err;
	}
	return session__deliver(rec, file_offset, s);
}

int pulse_session__process(struct pulse_session *s, const struct pulse_tool *tool, void *arg)
{
	int err;

	s->tool = tool;
	s->arg = arg;
	s->nr_unordered = 0;
	if (pulse_session__is_ordered(s, tool)) {
		err = pulse_ordered__new(&s->oq, session__deliver, s);
		if (err)
			return err;
		pulse_ordered__set_unpin(s->oq, session__unpin, s->d);
	}
	err = pulse_data__for_each_record(s->d, session__record, s);
	if (!err && s->oq)
		err = pulse_ordered__flush(s->oq);
	if (!err && tool->end)
		err = tool->end(s, arg);
	if (s->oq)
		s->nr_unordered = pulse_ordered__nr_unordered(s->oq);
	pulse_ordered__delete(s->oq);
	s->oq = NULL;
	s->tool = NULL;
	return err;
}

int pulse_session__deliver_synth(struct pulse_session *s, const struct perf_event_header *rec)
{
	if (!s->tool || rec->type >= PERF_RECORD_USER_TYPE_START)
		return -EINVAL;
	return session__deliver(rec, ~0ULL, s);
}

bool pulse_session__sample_value(const struct pulse_session *s, struct pulse_sample_value *v)
{
	if (!s->read.active)
		return false;
	*v = s->read.cur;
	return true;
}

uint64_t pulse_session__nr_unknown_id(const struct pulse_session *s)
{
	return s->read.nr_unknown_id;
}

uint64_t pulse_session__nr_unordered(const struct pulse_session *s)
{
	return s->nr_unordered;
}

bool pulse_session__has_tracepoints(const struct pulse_session *s)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(s->d); i++)
		if (pulse_data__attr(s->d, i)->type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

int pulse_session__trace(struct pulse_session *s, struct pulse_trace **t)
{
	const void *blob;
	size_t len;
	int err;

	*t = s->trace;
	if (s->trace)
		return 0;
	if (s->trace_err)
		return s->trace_err;
	blob = pulse_data__tracing_data(s->d, &len);
	if (!blob)
		return -ENODATA;
	err = pulse_trace__parse(&s->trace, blob, len);
	if (err) {
		/* a bad blob stays bad; a failed allocation may be retried */
		if (err != -ENOMEM)
			s->trace_err = err;
		return err;
	}
	*t = s->trace;
	return 0;
}

int pulse_session__trace_local(struct pulse_session *s)
{
	if (s->trace)
		return 0;
	return pulse_trace__local(&s->trace, NULL);
}

const char *pulse_session__event_name(struct pulse_session *s, size_t idx, char *buf,
				      size_t size)
{
	const struct perf_event_attr *attr = pulse_data__attr(s->d, idx);
	struct pulse_trace *t = NULL;

	/* only a tracepoint without a recorded name needs the formats */
	if (attr && attr->type == PERF_TYPE_TRACEPOINT && !pulse_data__attr_name(s->d, idx))
		pulse_session__trace(s, &t);
	return pulse_event_name(s->d, t, idx, buf, size);
}

int pulse_session__sample_time(struct pulse_session *s, uint64_t *first, uint64_t *last)
{
	return session__sample_time(s->d, first, last);
}

const char *pulse_session__file_path(const struct pulse_session *s)
{
	return s->from;
}
