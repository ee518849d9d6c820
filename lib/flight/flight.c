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

struct pulse_flight {
	struct pulse_record_output samples;	/* the faces the recorder writes to */
	struct pulse_record_output tracking;
	struct pulse_flight_opts o;
	char *path;
	const struct pulse_record_output_info *info;
	struct pulse_flight_state *state;
	struct pulse_flight_ring *ring;		/* deep mode */
	int time_off;				/* of a SAMPLE's time, -1: unknown */
	/* the file being written: the snapshot, or the one file of append mode */
	struct pulse_record_output *file;
	int fd;
	char *tmp_name, *final_name;
	bool in_snapshot;
	/* this snapshot's samples */
	__u64 snap_samples, snap_first, snap_last;
	/* --switch-max-files: the names written, oldest first */
	char **names;
	unsigned int nr_names;
	__u64 bytes_in, sideband_in;
	__u64 emitted;				/* append mode: side-band written up to here */
	struct pulse_flight_stats st;
	unsigned char *bounce;			/* a side-band record cut by the ring's end */
};

static const struct perf_event_header round_rec = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

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

/* ---- files ----------------------------------------------------------- */

static int open_file(struct pulse_flight *f, const char *name)
{
	int ret;

	f->fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (f->fd < 0)
		return -errno;
	ret = pulse_record_output__new_file(&f->file, f->fd);
	if (!ret)
		ret = pulse_record_output__start(f->file, f->info);
	return ret;
}

static void close_file(struct pulse_flight *f)
{
	pulse_record_output__delete(f->file);
	f->file = NULL;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* perf's --switch-output name: <path>.<YYYYmmddHHMMSScc>, made unique */
static char *snapshot_name(const struct pulse_flight *f)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32], *name = NULL;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	for (int n = 0; n < 100; n++) {
		free(name);
		if ((n ? asprintf(&name, "%s.%s%02u.%d", f->path, stamp,
				  (unsigned int)(tv.tv_usec / 10000), n)
		       : asprintf(&name, "%s.%s%02u", f->path, stamp,
				  (unsigned int)(tv.tv_usec / 10000))) < 0)
			return NULL;
		if (access(name, F_OK) != 0)
			return name;
	}
	return name;
}

/* ---- writing records into the open file ------------------------------- */

static int write_sideband_cb(const void *rec, size_t size, void *arg)
{
	struct pulse_flight *f = arg;

	return pulse_record_output__write_sideband(f->file, rec, size);
}

static int write_round(struct pulse_flight *f)
{
	struct iovec iov = { (void *)&round_rec, sizeof(round_rec) };
	size_t kept;

	return pulse_record_output__write(f->file, &iov, 1, &kept);
}

/* Note the samples among whole records, for the snapshot's summary. */
static void note_samples(struct pulse_flight *f, const unsigned char *p, size_t len)
{
	size_t off = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > len)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			f->snap_samples++;
			if (f->time_off >= 0 && (size_t)f->time_off + 8 <= h.size) {
				__u64 t = get_u64(p + off + f->time_off);

				if (!f->snap_first || t < f->snap_first)
					f->snap_first = t;
				if (t > f->snap_last)
					f->snap_last = t;
			}
		}
		off += h.size;
	}
}

static int write_chunk_cb(const void *buf, size_t len, void *arg)
{
	struct pulse_flight *f = arg;
	struct iovec iov = { (void *)buf, len };
	size_t kept;
	int ret = pulse_record_output__write(f->file, &iov, 1, &kept);

	note_samples(f, buf, kept);
	return ret;
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
	int ret;

	if (f->info)
		return -EBUSY;
	f->info = info;
	f->time_off = time_offset(info);
	ret = pulse_flight_state__new(&f->state, time_back(info), 0);
	if (ret)
		return ret;
	if (f->o.mode == PULSE_FLIGHT_DEEP) {
		ret = pulse_flight_ring__new(&f->ring, f->o.memory, f->o.level, f->time_off);
		if (ret)
			return ret;
	}
	if (!f->o.switch_output) {
		static const struct perf_event_header init = { PERF_RECORD_FINISHED_INIT, 0, 8 };

		/* a file with no dump is still a whole one, with no samples */
		ret = open_file(f, f->path);
		if (!ret)
			ret = pulse_record_output__write_sideband(f->file, &init, sizeof(init));
		return ret;
	}
	return 0;
}

static int samples_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
			 size_t *kept)
{
	struct pulse_flight *f = of_samples(out);
	size_t len = 0;
	int ret = 0;

	for (int i = 0; i < cnt; i++)
		len += iov[i].iov_len;
	*kept = 0;
	if (f->in_snapshot) {
		/* overwrite mode: the past, walked out of the kernel rings */
		ret = pulse_record_output__write(f->file, iov, cnt, kept);
		for (int i = 0; i < cnt; i++)
			note_samples(f, iov[i].iov_base, iov[i].iov_len);
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

static int samples_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct pulse_flight *f = of_samples(out);
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	/* FINISHED_INIT and the like: each snapshot writes its own */
	if (h.type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	f->sideband_in += size;
	return pulse_flight_state__fold(f->state, rec, size);
}

static int samples_sync(struct pulse_record_output *out)
{
	struct pulse_flight *f = of_samples(out);

	return f->file && !f->in_snapshot ? pulse_record_output__sync(f->file) : 0;
}

static int snapshot_begin(struct pulse_record_output *out)
{
	struct pulse_flight *f = of_samples(out);
	static const struct perf_event_header init = { PERF_RECORD_FINISHED_INIT, 0, 8 };
	int ret;

	if (f->in_snapshot)
		return -EBUSY;
	f->snap_samples = f->snap_first = f->snap_last = 0;
	if (f->o.switch_output) {
		f->final_name = snapshot_name(f);
		if (!f->final_name || asprintf(&f->tmp_name, "%s.tmp", f->final_name) < 0)
			return -ENOMEM;
		ret = open_file(f, f->tmp_name);
		if (ret) {
			close_file(f);
			unlink(f->tmp_name);
			return ret;
		}
	}
	f->in_snapshot = true;
	/* the one file of append mode holds what earlier dumps wrote */
	ret = pulse_flight_state__emit(f->state, f->o.switch_output ? NULL : &f->emitted,
				       write_sideband_cb, f);
	/*
	 * No round after the state: it holds records as new as the trigger,
	 * and a round would let a reader flush them before older samples.
	 */
	if (!ret && f->o.switch_output)
		ret = pulse_record_output__write_sideband(f->file, &init, sizeof(init));
	return ret;
}

static int keep_name(struct pulse_flight *f, const char **removed)
{
	char **n;

	*removed = NULL;
	if (!f->o.max_files)
		return 0;
	if (f->nr_names == f->o.max_files) {
		/* the oldest goes, as perf's --switch-max-files */
		unlink(f->names[0]);
		*removed = f->names[0];
		memmove(f->names, f->names + 1, (f->nr_names - 1) * sizeof(*f->names));
		f->nr_names--;
	}
	n = realloc(f->names, (f->nr_names + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->names = n;
	f->names[f->nr_names++] = f->final_name;
	f->final_name = NULL;
	return 0;
}

static int snapshot_end(struct pulse_record_output *out)
{
	struct pulse_flight *f = of_samples(out);
	struct pulse_flight_snapshot s = { 0 };
	char *removed_copy = NULL;
	const char *removed = NULL;
	__u64 before;
	int ret = 0;

	if (!f->in_snapshot)
		return -EINVAL;
	before = pulse_record_output__data_size(f->file);
	if (f->ring)
		ret = pulse_flight_ring__flush(f->ring, write_chunk_cb, f);
	if (!ret)
		ret = write_round(f);
	f->in_snapshot = false;
	s.bytes = pulse_record_output__data_size(f->file) - before;
	if (f->o.switch_output) {
		if (!ret)
			ret = pulse_record_output__finish(f->file);
		close_file(f);
		if (!ret && rename(f->tmp_name, f->final_name))
			ret = -errno;
		if (ret)
			unlink(f->tmp_name);
		free(f->tmp_name);
		f->tmp_name = NULL;
		s.path = f->final_name;
	} else {
		if (!ret)
			ret = pulse_record_output__sync(f->file);
		s.path = f->path;
	}
	if (ret) {
		free(f->final_name);
		f->final_name = NULL;
		return ret;
	}
	/* what the snapshot held can no longer be asked for */
	if (f->snap_first)
		pulse_flight_state__age(f->state, f->snap_first);
	f->st.snapshots++;
	f->st.samples_written += f->snap_samples;
	s.samples = f->snap_samples;
	s.first_time = f->snap_first;
	s.last_time = f->snap_last;
	if (f->o.switch_output) {
		const char *path = f->final_name;

		ret = keep_name(f, &removed);
		removed_copy = (char *)removed;
		s.removed = removed;
		if (f->o.on_snapshot)
			f->o.on_snapshot(&s, f->o.arg);
		if (!f->o.max_files)
			free((char *)path);
		f->final_name = NULL;
		free(removed_copy);
		return ret;
	}
	if (f->o.on_snapshot)
		f->o.on_snapshot(&s, f->o.arg);
	return 0;
}

static int samples_finish(struct pulse_record_output *out)
{
	struct pulse_flight *f = of_samples(out);
	int ret;

	if (f->o.switch_output || !f->file)
		return 0;
	ret = pulse_record_output__finish(f->file);
	return ret;
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
};

/* ---- the side-band face ------------------------------------------------ */

static int tracking_start(struct pulse_record_output *out,
			  const struct pulse_record_output_info *info)
{
	(void)out;
	(void)info;
	return 0;
}

static int tracking_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
			  size_t *kept)
{
	struct pulse_flight *f = of_tracking(out);
	int i = 0;
	size_t off = 0;

	*kept = 0;
	while (i < cnt) {
		const unsigned char *p = (const unsigned char *)iov[i].iov_base + off;
		size_t left = iov[i].iov_len - off;
		struct perf_event_header h;
		int ret;

		if (!left) {
			i++;
			off = 0;
			continue;
		}
		if (left >= sizeof(h)) {
			memcpy(&h, p, sizeof(h));
		} else if (i + 1 < cnt && iov[i + 1].iov_len >= sizeof(h) - left) {
			memcpy(&h, p, left);
			memcpy((unsigned char *)&h + left, iov[i + 1].iov_base, sizeof(h) - left);
		} else {
			return -EINVAL;
		}
		if (h.size < sizeof(h))
			return -EINVAL;
		if (h.size <= left) {
			ret = f->state ? pulse_flight_state__fold(f->state, p, h.size) : 0;
			off += h.size;
		} else {
			/* cut by the end of the ring: join its two parts */
			if (i + 1 >= cnt || iov[i + 1].iov_len < h.size - left)
				return -EINVAL;
			memcpy(f->bounce, p, left);
			memcpy(f->bounce + left, iov[i + 1].iov_base, h.size - left);
			ret = f->state ? pulse_flight_state__fold(f->state, f->bounce, h.size) : 0;
			i++;
			off = h.size - left;
		}
		if (ret && ret != -EINVAL)
			return ret;
		*kept += h.size;
		f->sideband_in += h.size;
	}
	return 0;
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
	if (opts->mode == PULSE_FLIGHT_OVERWRITE && !opts->switch_output)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->o = *opts;
	f->fd = -1;
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
	close_file(f);
	if (f->tmp_name)
		unlink(f->tmp_name);
	free(f->tmp_name);
	free(f->final_name);
	for (unsigned int i = 0; i < f->nr_names; i++)
		free(f->names[i]);
	free(f->names);
	pulse_flight_ring__delete(f->ring);
	pulse_flight_state__delete(f->state);
	free(f->bounce);
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
