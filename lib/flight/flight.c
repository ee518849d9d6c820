// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's two outputs (see include/pulse/flight.h): the
 * samples go to the deep ring (ring.c) or, in overwrite mode, straight into
 * a snapshot while one is being taken; the side-band is folded into the
 * state (state.c). A snapshot is an ordinary file output (lib/record),
 * started afresh, fed the state and then the samples, finished, and only
 * then given its final name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
#include <pulse/data.h>
#include <pulse/flight.h>
#include <pulse/sample-offsets.h>
#include "core/internal.h"
#include "flight/internal.h"

static struct pulse_flight *of_samples(struct pulse_record_output *out)
{
	return container_of(out, struct pulse_flight, samples);
}

static struct pulse_flight *of_tracking(struct pulse_record_output *out)
{
	return container_of(out, struct pulse_flight, tracking);
}

static struct pulse_flight *of_samples_c(const struct pulse_record_output *out)
{
	return container_of(out, struct pulse_flight, samples);
}

static struct pulse_flight *of_tracking_c(const struct pulse_record_output *out)
{
	return container_of(out, struct pulse_flight, tracking);
}

/* ---- the samples' face ------------------------------------------------ */

static int time_offset(const struct pulse_record_output_info *info)
{
	int off = -1;

	for (size_t i = 0; i < info->nr_attrs; i++) {
		struct pulse_sample_offsets so;

		pulse_sample__offsets(info->attrs[i].attr.sample_type, &so);
		if (i && so.time != off)
			return -1;
		off = so.time;
	}
	return off;
}

/* bytes from a side-band record's end back to its time (0: none) */
static size_t time_back(const struct pulse_record_output_info *info)
{
	const struct perf_event_attr *a;
	size_t id_size;

	for (size_t i = 0; i < info->nr_attrs; i++) {
		a = &info->attrs[i].attr;
		if (!a->mmap && !a->comm && !a->task)
			continue;
		if (!a->sample_id_all || !(a->sample_type & PERF_SAMPLE_TIME))
			return 0;
		id_size = pulse_sample__id_size(a);
		return id_size - (a->sample_type & PERF_SAMPLE_TID ? 8 : 0);
	}
	return 0;
}

static int samples_start(struct pulse_record_output *out,
			 const struct pulse_record_output_info *info)
{
	struct pulse_flight *f = of_samples(out);
	size_t cap;
	int ret;

	if (f->info)
		return -EBUSY;
	f->info = info;
	f->time_off = time_offset(info);
	/*
	 * Tasks that exited while their samples are still held stay named up
	 * to a cap, half the past kept (8 MiB at least): past it, the oldest
	 * go first, so the newest are always named and memory stays bounded.
	 */
	cap = (f->o.mode == PULSE_FLIGHT_DEEP ? f->o.memory :
	       info->mmap_len * (size_t)sysconf(_SC_NPROCESSORS_ONLN)) / 2;
	ret = pulse_flight_state__new(&f->state, time_back(info), cap > (8u << 20) ? cap : 0);
	if (ret)
		return ret;
	if (f->o.mode == PULSE_FLIGHT_DEEP) {
		ret = pulse_flight_ring__new(&f->ring, f->o.memory, f->o.level, f->time_off);
		if (ret)
			return ret;
	}
	if (f->o.mode == PULSE_FLIGHT_ROTATE ||
	    (f->o.mode == PULSE_FLIGHT_DEEP && !f->o.switch_output))
		return fl_open_file(f);
	return 0;
}

static int write_locked(struct pulse_flight *f, const struct iovec *iov, int cnt, size_t *kept)
{
	size_t len = 0;
	int ret = 0;

	for (int i = 0; i < cnt; i++)
		len += iov[i].iov_len;
	*kept = 0;
	/* overwrite: the past, walked out of the kernel rings; rotate: the stream */
	if (f->in_snapshot || f->o.mode == PULSE_FLIGHT_ROTATE) {
		ret = fl_write(f, iov, cnt, kept);
		f->bytes_in += *kept;
		return ret;
	}
	if (f->ring) {
		__u64 dropped = f->st.chunks_dropped;
		struct pulse_flight_ring_stats rs;

		ret = pulse_flight_ring__append(f->ring, iov, cnt);
		if (ret)
			return ret;
		pulse_flight_ring__stats(f->ring, &rs);
		f->st.chunks_dropped = rs.chunks_dropped;
		if (rs.chunks_dropped != dropped)
			pulse_flight_state__age(f->state, pulse_flight_ring__oldest(f->ring));
	}
	/* overwrite mode keeps nothing outside a snapshot */
	f->bytes_in += len;
	*kept = len;
	return 0;
}

/*
 * --threads: reader threads write samples while the main thread folds
 * side-band and takes snapshots, so every entry point holds f->lock.
 */
static int samples_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
			 size_t *kept)
{
	struct pulse_flight *f = of_samples(out);
	int ret;

	pthread_mutex_lock(&f->lock);
	ret = write_locked(f, iov, cnt, kept);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

/* AUXTRACE_INFO comes once, at the start: every file gets a copy */
static int keep_auxtrace_info(struct pulse_flight *f, const void *rec, size_t size)
{
	void *p = malloc(size);

	if (!p)
		return -ENOMEM;
	memcpy(p, rec, size);
	free(f->auxtrace_info);
	f->auxtrace_info = p;
	f->auxtrace_info_size = size;
	/* rotate, append: the file is open already */
	if (f->file)
		return pulse_record_output__write_sideband(f->file, rec, size);
	return 0;
}

static int add_sideband(struct pulse_flight *f, const void *rec, size_t size)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_AUXTRACE_INFO)
		return keep_auxtrace_info(f, rec, size);
	/* FINISHED_INIT and the like: each snapshot writes its own */
	if (h.type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	f->sideband_in += size;
	/* rotate: the current file gets the side-band as it comes, too */
	if (f->o.mode == PULSE_FLIGHT_ROTATE && f->file) {
		int ret = pulse_record_output__write_sideband(f->file, rec, size);

		if (ret)
			return ret;
	}
	return pulse_flight_state__fold(f->state, rec, size);
}

static int samples_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct pulse_flight *f = of_samples(out);
	int ret;

	pthread_mutex_lock(&f->lock);
	ret = add_sideband(f, rec, size);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int samples_sync(struct pulse_record_output *out)
{
	struct pulse_flight *f = of_samples(out);
	int ret;

	pthread_mutex_lock(&f->lock);
	ret = f->file && !f->in_snapshot ? pulse_record_output__sync(f->file) : 0;
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int with_lock(struct pulse_record_output *out, int (*fn)(struct pulse_flight *f))
{
	struct pulse_flight *f = of_samples(out);
	int ret;

	pthread_mutex_lock(&f->lock);
	ret = fn(f);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

/*
 * -S: a snapshot's AUXTRACE records and their data, taken from the AUX
 * areas between snapshot_begin and snapshot_end, go into its file (rotate:
 * the current file); the flight keeps no AUX data of its own
 */
static int samples_write_aux(struct pulse_record_output *out, const void *rec, size_t size,
			     const struct iovec *data, int cnt)
{
	struct pulse_flight *f = of_samples(out);
	int ret = -EINVAL;

	pthread_mutex_lock(&f->lock);
	if (f->file && (f->in_snapshot || f->o.mode == PULSE_FLIGHT_ROTATE))
		ret = pulse_record_output__write_aux(f->file, rec, size, data, cnt);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int snapshot_begin(struct pulse_record_output *out)
{
	return with_lock(out, fl_snapshot_begin);
}

static int snapshot_end(struct pulse_record_output *out)
{
	return with_lock(out, fl_snapshot_end);
}

static int samples_finish(struct pulse_record_output *out)
{
	return with_lock(out, fl_finish);
}

static __u64 samples_data_size(const struct pulse_record_output *out)
{
	return of_samples_c(out)->bytes_in;
}

static void samples_delete(struct pulse_record_output *out)
{
	(void)out;	/* owned by the flight */
}

static const struct pulse_record_output_ops samples_ops = {
	.start = samples_start,
	.write = samples_write,
	.write_sideband = samples_write_sideband,
	.sync = samples_sync,
	.finish = samples_finish,
	.data_size = samples_data_size,
	.delete = samples_delete,
	.snapshot_begin = snapshot_begin,
	.snapshot_end = snapshot_end,
	.write_aux = samples_write_aux,
};

/* ---- the side-band face ------------------------------------------------ */

static int tracking_start(struct pulse_record_output *out,
			  const struct pulse_record_output_info *info)
{
	(void)out;
	(void)info;
	return 0;
}

/* One side-band record; a sample there is a trigger event's, kept in no file. */
static int fold(struct pulse_flight *f, const void *rec, size_t size)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE)
		return 0;
	if (!f->state)
		return 0;
	return add_sideband(f, rec, size);
}

static int tracking_write_locked(struct pulse_flight *f, const struct iovec *iov, int cnt,
				 size_t *kept)
{
	struct pulse_iov_walk w;
	struct perf_event_header h;
	int ret;

	pulse_iov_walk__init(&w, iov, cnt, SIZE_MAX);
	while ((ret = pulse_iov_walk__peek(&w, &h)) > 0) {
		size_t at = w.pos;
		/* a record cut by the end of the ring is joined in the bounce buffer */
		const void *rec = pulse_iov_walk__take(&w, h.size, f->bounce);

		/* the dummy samples nothing: a sample is a trigger event's */
		if (h.type == PERF_RECORD_SAMPLE && f->o.trigger)
			*f->o.trigger = 1;
		ret = fold(f, rec, h.size);
		if (ret && ret != -EINVAL) {
			*kept = at;
			return ret;
		}
		ret = 0;
		f->sideband_in += h.size;
	}
	*kept = w.pos;
	return ret;
}

static int tracking_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
			  size_t *kept)
{
	struct pulse_flight *f = of_tracking(out);
	int ret;

	pthread_mutex_lock(&f->lock);
	ret = tracking_write_locked(f, iov, cnt, kept);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int tracking_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	return samples_write_sideband(&of_tracking(out)->samples, rec, size);
}

static int tracking_nop(struct pulse_record_output *out)
{
	(void)out;
	return 0;
}

static __u64 tracking_data_size(const struct pulse_record_output *out)
{
	return of_tracking_c(out)->sideband_in;
}

static const struct pulse_record_output_ops tracking_ops = {
	.start = tracking_start,
	.write = tracking_write,
	.write_sideband = tracking_write_sideband,
	.sync = tracking_nop,
	.finish = tracking_nop,
	.data_size = tracking_data_size,
	.delete = samples_delete,
};

/* ---- the object ------------------------------------------------------- */

int pulse_flight__new(struct pulse_flight **out, const struct pulse_flight_opts *opts)
{
	struct pulse_flight *f;

	*out = NULL;
	if (!opts->path)
		return -EINVAL;
	if (opts->mode == PULSE_FLIGHT_DEEP && opts->memory < PULSE_FLIGHT_MIN_MEMORY)
		return -EINVAL;
	if (opts->mode != PULSE_FLIGHT_DEEP && !opts->switch_output)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->o = *opts;
	f->fd = -1;
	f->direct_fd = -1;
	pthread_mutex_init(&f->lock, NULL);
	f->samples.ops = &samples_ops;
	f->tracking.ops = &tracking_ops;
	f->path = strdup(opts->path);
	f->bounce = malloc(PULSE_MAX_RECORD_SIZE);
	if (!f->path || !f->bounce) {
		pulse_flight__delete(f);
		return -ENOMEM;
	}
	*out = f;
	return 0;
}

void pulse_flight__delete(struct pulse_flight *f)
{
	if (!f)
		return;
	fl_close(f);
	for (unsigned int i = 0; i < f->nr_names; i++)
		free(f->names[i]);
	free(f->names);
	pulse_flight_ring__delete(f->ring);
	pulse_flight_state__delete(f->state);
	free(f->bounce);
	free(f->auxtrace_info);
	free(f->path);
	free(f);
}

struct pulse_record_output *pulse_flight__output(struct pulse_flight *f)
{
	return &f->samples;
}

struct pulse_record_output *pulse_flight__tracking(struct pulse_flight *f)
{
	return &f->tracking;
}

void pulse_flight__stats(const struct pulse_flight *f, struct pulse_flight_stats *st)
{
	*st = f->st;
	if (f->ring) {
		struct pulse_flight_ring_stats rs;

		pulse_flight_ring__stats(f->ring, &rs);
		st->chunks_dropped = rs.chunks_dropped;
		st->samples_dropped = rs.samples_dropped;
		st->raw_bytes = rs.raw_in;
		st->kept_bytes = rs.held;
	}
	if (f->state)
		pulse_flight_state__usage(f->state, &st->state_records, &st->state_bytes);
}
