// SPDX-License-Identifier: GPL-2.0
/*
 * The pump: one pass copies each ring's batch [tail, head) to the output
 * with one write straight from the mapping (two iovecs when the batch wraps),
 * counts what the output kept (samples, LOST, LOST_SAMPLES) for the
 * summary, then releases the batch. A FINISHED_ROUND follows each pass
 * that wrote something: every record before it is older than every record
 * after it, which lets a reader sort a round at a time.
 *
 * The pump knows nothing of files: the output is a pointer it is handed,
 * and it may be handed another between passes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/record-output.h>
#include "core/internal.h"

struct pulse_record_pump {
	struct pulse_mmap *maps;		/* [nr_maps], borrowed */
	int nr_maps;
	struct pulse_record_stats *stats;	/* borrowed */
	struct pulse_record_output *out;	/* borrowed; NULL: passes do nothing */
	__u64 pass_bytes;			/* bytes the last pass stored */
	size_t flush;				/* --mmap-flush: a smaller batch waits */
};

int pulse_record_pump__new(struct pulse_record_pump **out, struct pulse_mmap *maps, int nr_maps,
			   struct pulse_record_stats *stats)
{
	struct pulse_record_pump *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->maps = maps;
	p->nr_maps = nr_maps;
	p->stats = stats;
	*out = p;
	return 0;
}

void pulse_record_pump__delete(struct pulse_record_pump *p)
{
	free(p);
}

void pulse_record_pump__set_output(struct pulse_record_pump *p, struct pulse_record_output *out)
{
	p->out = out;
}

void pulse_record_pump__set_flush(struct pulse_record_pump *p, size_t bytes)
{
	p->flush = bytes;
}

__u64 pulse_record_pump__pass_bytes(const struct pulse_record_pump *p)
{
	return p->pass_bytes;
}

/* Count one record the output kept, for the summary; never fails. */
static void count(struct pulse_record_pump *p, const unsigned char *rec, size_t size, int map)
{
	struct pulse_record_stats *st = p->stats;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		st->samples++;
		break;
	case PERF_RECORD_LOST:
		if (size >= 24) {
			st->lost_events += get_u64(rec + 16);
			st->lost_chunks++;
			if (st->lost_per_cpu)
				st->lost_per_cpu[map] += get_u64(rec + 16);
		}
		break;
	case PERF_RECORD_AUX:
		if (size >= 32) {
			__u64 flags = get_u64(rec + 24);

			st->aux_records++;
			if (st->aux_written)
				st->aux_written[map] += get_u64(rec + 16);
			st->aux_truncated += !!(flags & PERF_AUX_FLAG_TRUNCATED);
			st->aux_partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
			st->aux_collision += !!(flags & PERF_AUX_FLAG_COLLISION);
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			st->lost_samples += get_u64(rec + 8);
		break;
	}
}

static int write_err(struct pulse_record_pump *p, int ret)
{
	if (ret == -ENOSPC)
		p->stats->disk_full = true;
	return ret;
}

/* 1: wrote something, 0: nothing to write, or -errno */
static int drain_map(struct pulse_record_pump *p, int c)
{
	struct pulse_mmap *m = &p->maps[c];
	const struct perf_event_header *ev;
	struct iovec iov[2];
	size_t kept = 0, seen = 0;
	int n, ret;

	if (!m->base || pulse_mmap__read_init(m))
		return 0;
	/* left unread (no read_done): the next read_init takes it with more */
	if (m->end - m->start < p->flush)
		return 0;
	n = pulse_mmap__batch_iov(m, iov);
	if (n) {
		ret = pulse_record_output__write(p->out, iov, n, &kept);
		p->pass_bytes += kept;
		/* Count only what reached the output, so the summary matches it. */
		while (seen < kept && (ev = pulse_mmap__read_event(m)) != NULL) {
			count(p, (const unsigned char *)ev, ev->size, c);
			seen += ev->size;
		}
		if (ret)
			return write_err(p, ret);
	}
	pulse_mmap__read_done(m);
	return n > 0;
}

int pulse_record_pump__drain(struct pulse_record_pump *p)
{
	static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	struct iovec iov = { .iov_base = (void *)&round, .iov_len = sizeof(round) };
	bool wrote = false;
	size_t kept;
	int ret;

	if (!p->out)
		return 0;
	p->pass_bytes = 0;
	for (int c = 0; c < p->nr_maps; c++) {
		ret = drain_map(p, c);
		if (ret < 0)
			return ret;
		wrote |= ret;
	}
	if (wrote) {
		ret = pulse_record_output__write(p->out, &iov, 1, &kept);
		if (ret)
			return write_err(p, ret);
	}
	return 0;
}
