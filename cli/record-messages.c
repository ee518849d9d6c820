// SPDX-License-Identifier: GPL-2.0
/*
 * What pulse record prints: one error: line (and at most one hint: line)
 * for a failed run, and perf's summary lines.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "record.h"

void record_print_error(const struct pulse_record_error *e, int ret, const char *out,
			const char *cmd)
{
	int err = -ret;

	switch (e->stage) {
	case PULSE_REC_OPEN:
		if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) {
			error("the '%s' event is not supported on this machine", e->evsel);
		} else if (e->tid > 0) {
			error("cannot open event '%s' for thread %d: %s", e->evsel ? e->evsel : "?",
			      (int)e->tid, strerror(err));
		} else {
			error("cannot open event '%s' on cpu %d: %s", e->evsel ? e->evsel : "?",
			      e->cpu, strerror(err));
		}
		if (hint_for_record_open_error(e, err))
			hint("%s", hint_for_record_open_error(e, err));
		break;
	case PULSE_REC_MMAP:
		error("cannot mmap the ring buffer of cpu %d: %s", e->cpu, strerror(err));
		if (hint_for_mmap_error(err))
			hint("%s", hint_for_mmap_error(err));
		break;
	case PULSE_REC_WORKLOAD:
		error("cannot run '%s': %s", cmd ? cmd : "the workload", strerror(err));
		break;
	case PULSE_REC_WRITE:
		if (err == ENOSPC)
			error("disk full writing '%s': %s; recording stopped, the file keeps what was written",
			      out, strerror(err));
		else
			error("cannot write '%s': %s", out, strerror(err));
		break;
	case PULSE_REC_TRACEFS:
		error("cannot read the tracepoint formats from tracefs: %s", strerror(err));
		hint("mount it with 'mount -t tracefs nodev /sys/kernel/tracing' (pulse does this itself when root)");
		break;
	case PULSE_REC_FILTER:
		/* perf's line, word for word */
		error("failed to set filter \"%s\" on event %s with %d (%s)", e->filter, e->evsel,
		      err, strerror(err));
		if (err == EINVAL && strchr(e->evsel, ':'))
			hint("its fields are in /sys/kernel/tracing/events/%.*s/%s/format",
			     (int)(strchr(e->evsel, ':') - e->evsel), e->evsel,
			     strchr(e->evsel, ':') + 1);
		break;
	case PULSE_REC_TARGET:
		error("no such process or thread: %d", (int)e->tid);
		break;
	default:
		error("recording failed: %s", strerror(err));
	}
}

void record_print_summary(const struct pulse_record_stats *st, const char *out, bool pipe_mode)
{
	if (st->max_size_reached)
		fprintf(stderr, "[ pulse record: pulse size limit reached (%llu KB), stopping session ]\n",
			st->bytes >> 10);
	fprintf(stderr, "[ pulse record: Woken up %llu times to write data ]\n",
		st->wakeups);
	if (st->lost_events) {
		char buf[1024];
		int n = 0;

		for (int i = 0; i < st->nr_cpus && n < (int)sizeof(buf) - 40; i++)
			if (st->lost_per_cpu[i])
				n += snprintf(buf + n, sizeof(buf) - n, "%scpu %d: %llu",
					      n ? ", " : "", st->cpu_of[i], st->lost_per_cpu[i]);
		fprintf(stderr, "[ pulse record: Lost %llu events in %llu chunks (%s) ]\n", st->lost_events, st->lost_chunks, buf);
	}
	/* The kernel counts ring-buffer drops in both; say it once. */
	if (st->lost_samples && st->lost_samples != st->lost_events)
		fprintf(stderr, "[ pulse record: Lost %llu samples ]\n", st->lost_samples);
	fprintf(stderr, "[ pulse record: Captured and wrote %.3f MB %s (%llu samples)",
		st->bytes / 1024.0 / 1024.0, pipe_mode ? "-" : out, st->samples);
	/* perf's -z tail, its ratio a float as perf's */
	if (st->bytes_transferred && st->bytes_compressed)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			st->bytes_transferred / 1024.0 / 1024.0,
			(float)st->bytes_transferred / (float)st->bytes_compressed);
	fprintf(stderr, " ]\n");
}
