// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots of a flight recording (the output is a lib/flight one): on a
 * trigger, bring the side-band up to date, then let the output write what
 * it keeps. With --overwrite the past is in the kernel rings: they are
 * paused (PERF_EVENT_IOC_PAUSE_OUTPUT) so that the walk from data_head
 * sees no record being written, walked into the snapshot over whole
 * records, and resumed; each walk covers only what came since the last.
 * With -S the AUX areas go in too (aux.c: paused, the newest bytes from
 * aux_head back in one AUXTRACE record each).
 */
#include <errno.h>
#include <time.h>
#include <sys/ioctl.h>
#include "record/internal.h"

static void pause_rings(struct rec *r, int on)
{
	for (int c = 0; c < r->nr_cpus; c++)
		if (r->ring_fd && r->ring_fd[c] >= 0)
			ioctl(r->ring_fd[c], PERF_EVENT_IOC_PAUSE_OUTPUT, on);
}

int rec_snapshot(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	struct timespec ts;
	int ret, ret2;

	/* -S alone (--control snapshot): the AUX areas into the one file */
	if (!pulse_record_output__can_snapshot(r->out))
		return rec_aux_snapshot_mode(r) ? rec_aux_snapshot(r) : 0;
	ret = rec_drain_all(r);
	if (!ret)
		ret = rec_readers_sync(r);
	if (ret)
		return ret;
	if (o->overwrite)
		pause_rings(r, 1);
	/* > 0: the output could not start this snapshot, and said so; go on */
	ret = r->out->ops->snapshot_begin(r->out);
	if (ret > 0) {
		ret = 0;
	} else if (!ret) {
		/* -S: the AUX areas' newest bytes go into the snapshot first */
		if (rec_aux_snapshot_mode(r))
			ret = rec_aux_snapshot(r);
		if (!ret && o->overwrite)
			ret = pulse_record_pump__drain(r->pump);
		ret2 = r->out->ops->snapshot_end(r->out);
		if (!ret)
			ret = ret2;
	}
	if (o->overwrite)
		pause_rings(r, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->snap_last_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	r->snap_base_bytes = pulse_record_output__data_size(r->out);
	if (ret)
		return rec_write_err(r, ret);
	r->stats->snapshots++;
	return 0;
}

/* The triggers the loop checks after each pass: a signal, a size, a period. */
int rec_maybe_snapshot(struct rec *r, __u64 now)
{
	const struct pulse_record_opts *o = r->opts;
	bool go = false;

	if (o->snapshot && *o->snapshot) {
		*o->snapshot = 0;
		go = true;
	}
	if (o->snapshot_bytes &&
	    pulse_record_output__data_size(r->out) - r->snap_base_bytes >= o->snapshot_bytes)
		go = true;
	if (o->snapshot_ms && now - r->snap_last_ns >= o->snapshot_ms * 1000000ULL)
		go = true;
	return go ? rec_snapshot(r) : 0;
}
