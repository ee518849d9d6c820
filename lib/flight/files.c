// SPDX-License-Identifier: GPL-2.0
/*
 * Where a flight recording's snapshots go. Each is an ordinary file output
 * (lib/record), started afresh, fed the side-band state and then the
 * samples, finished, and only then given its final name, perf's
 * --switch-output one: <path>.<YYYYmmddHHMMSScc>. Three ways:
 *  - switch: a new file per snapshot;
 *  - append (deep mode without --switch-output): one file at <path>, each
 *    dump appended to it, the side-band written once;
 *  - rotate (--switch-output without -M or --overwrite, perf's plain
 *    switch): the samples stream into the current file, and a trigger
 *    closes it under its final name and opens the next.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
#include <pulse/perf-abi.h>
#include "core/internal.h"
#include "flight/internal.h"

static const struct perf_event_header round_rec = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
static const struct perf_event_header init_rec = { PERF_RECORD_FINISHED_INIT, 0, 8 };

static bool one_file(const struct pulse_flight *f)
{
	return f->o.mode == PULSE_FLIGHT_DEEP && !f->o.switch_output;
}

static bool rotating(const struct pulse_flight *f)
{
	return f->o.mode == PULSE_FLIGHT_ROTATE;
}

static int write_sideband_cb(const void *rec, size_t size, void *arg)
{
	struct pulse_flight *f = arg;

	return pulse_record_output__write_sideband(f->file, rec, size);
}

static int write_one(struct pulse_flight *f, const void *rec)
{
	struct iovec iov = { (void *)rec, 8 };
	size_t kept;

	return pulse_record_output__write(f->file, &iov, 1, &kept);
}

/*
 * Open a file under a temporary name, and start it: the header, then the
 * side-band state (in append mode only what the file does not hold yet).
 * No round follows the state: it holds records as new as the trigger, and
 * a round would let a reader flush them before older samples.
 */
static int set_tmp_name(struct pulse_flight *f)
{
	if (f->tmp_name)
		return 0;
	if (asprintf(&f->tmp_name, "%s.tmp", f->path) < 0) {
		f->tmp_name = NULL;
		return -ENOMEM;
	}
	return 0;
}

int fl_open_file(struct pulse_flight *f)
{
	const char *name = f->path;
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	int ret;

	if (!one_file(f)) {
		ret = set_tmp_name(f);
		if (ret)
			return ret;
		name = f->tmp_name;
	}
	f->fd = open(name, flags | O_TRUNC, 0600);
	if (f->fd < 0)
		return -errno;
	/*
	 * A snapshot writes tens of MiB at once: straight to the disk, where
	 * the file system allows it (lib/data/direct.c says why)
	 */
	f->direct_fd = one_file(f) || rotating(f) ? -1 : open(name, O_WRONLY | O_DIRECT | O_CLOEXEC);
	ret = f->direct_fd >= 0 ? pulse_record_output__new_file_direct(&f->file, f->fd, f->direct_fd)
				: pulse_record_output__new_file(&f->file, f->fd);
	if (!ret)
		ret = pulse_record_output__start(f->file, f->info);
	/* -S: what the AUX data is, before the side-band, as perf writes it */
	if (!ret && f->auxtrace_info)
		ret = pulse_record_output__write_sideband(f->file, f->auxtrace_info,
							  f->auxtrace_info_size);
	if (!ret && !one_file(f))
		ret = pulse_flight_state__emit(f->state, NULL, write_sideband_cb, f);
	/* a file with no dump is still a whole one, with no samples */
	if (!ret)
		ret = pulse_record_output__write_sideband(f->file, &init_rec, sizeof(init_rec));
	f->snap_samples = f->snap_first = f->snap_last = f->snap_bytes = 0;
	return ret;
}

void fl_close(struct pulse_flight *f)
{
	pulse_record_output__delete(f->file);
	f->file = NULL;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->direct_fd >= 0)
		close(f->direct_fd);
	f->direct_fd = -1;
	if (f->tmp_name) {
		unlink(f->tmp_name);
		free(f->tmp_name);
		f->tmp_name = NULL;
	}
}

/* perf's --switch-output name: <path>.<YYYYmmddHHMMSScc>, made unique */
static char *final_name(const struct pulse_flight *f)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32], *name = NULL;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	for (int n = 0; n < 100; n++) {
		int len;

		free(name);
		len = n ? asprintf(&name, "%s.%s%02u.%d", f->path, stamp,
				   (unsigned int)(tv.tv_usec / 10000), n)
			: asprintf(&name, "%s.%s%02u", f->path, stamp,
				   (unsigned int)(tv.tv_usec / 10000));
		if (len < 0)
			return NULL;
		if (access(name, F_OK) != 0)
			break;
	}
	return name;
}

/* Count the samples among whole records laid over @cnt iovecs, and their times. */
static void note_samples(struct pulse_flight *f, const struct iovec *iov, int cnt, size_t len)
{
	struct pulse_iov_walk w;
	struct perf_event_header h;

	pulse_iov_walk__init(&w, iov, cnt, len);
	while (pulse_iov_walk__peek(&w, &h) > 0) {
		const unsigned char *p = pulse_iov_walk__take(&w, h.size, f->bounce);
		__u64 t;

		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		f->snap_samples++;
		if (f->time_off < 0 || (size_t)f->time_off + 8 > h.size)
			continue;
		t = get_u64(p + f->time_off);
		if (!f->snap_first || t < f->snap_first)
			f->snap_first = t;
		if (t > f->snap_last)
			f->snap_last = t;
	}
}

int fl_write(struct pulse_flight *f, const struct iovec *iov, int cnt, size_t *kept)
{
	int ret = pulse_record_output__write(f->file, iov, cnt, kept);

	note_samples(f, iov, cnt, *kept);
	return ret;
}

static int write_chunk_cb(const void *buf, size_t len, void *arg)
{
	struct pulse_flight *f = arg;
	struct iovec iov = { (void *)buf, len };
	size_t kept;

	return fl_write(f, &iov, 1, &kept);
}

static void snapshot_failed(struct pulse_flight *f, int err)
{
	struct pulse_flight_snapshot s = { .path = f->tmp_name ? f->tmp_name : f->path,
					   .error = err };

	f->st.failed++;
	if (f->o.on_snapshot)
		f->o.on_snapshot(&s, f->o.arg);
}

int fl_snapshot_begin(struct pulse_flight *f)
{
	int ret = 0;

	if (f->in_snapshot)
		return -EBUSY;
	if (one_file(f)) {
		f->snap_samples = f->snap_first = f->snap_last = 0;
		ret = pulse_flight_state__emit(f->state, &f->emitted, write_sideband_cb, f);
	} else if (!rotating(f)) {
		ret = fl_open_file(f);
		if (ret) {
			/* a snapshot that cannot be written is not the end of the recording */
			snapshot_failed(f, ret);
			fl_close(f);
			return 1;
		}
	}
	if (!ret)
		f->in_snapshot = true;
	return ret;
}

/* --switch-max-files: remember @name, and name the oldest to remove */
static int keep_name(struct pulse_flight *f, char *name, char **removed)
{
	char **n;

	*removed = NULL;
	if (!f->o.max_files)
		return 0;
	if (f->nr_names == f->o.max_files) {
		*removed = f->names[0];
		memmove(f->names, f->names + 1, (f->nr_names - 1) * sizeof(*f->names));
		f->nr_names--;
	}
	n = realloc(f->names, (f->nr_names + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->names = n;
	f->names[f->nr_names++] = strdup(name);
	return f->names[f->nr_names - 1] ? 0 : -ENOMEM;
}

/* End the current file: finish it and give it its final name. */
static int close_under_final_name(struct pulse_flight *f, struct pulse_flight_snapshot *s,
				  char **name, char **removed)
{
	int ret = pulse_record_output__finish(f->file);

	*name = NULL;
	*removed = NULL;
	s->bytes = pulse_record_output__data_size(f->file);
	pulse_record_output__delete(f->file);
	f->file = NULL;
	if (close(f->fd) && !ret)
		ret = -errno;
	f->fd = -1;
	if (f->direct_fd >= 0)
		close(f->direct_fd);
	f->direct_fd = -1;
	if (!ret) {
		*name = final_name(f);
		if (!*name)
			ret = -ENOMEM;
		else if (rename(f->tmp_name, *name))
			ret = -errno;
	}
	if (!ret)
		ret = keep_name(f, *name, removed);
	if (!ret && *removed)
		unlink(*removed);
	return ret;
}

static void report(struct pulse_flight *f, struct pulse_flight_snapshot *s, const char *path,
		   const char *removed)
{
	/* what the snapshot held can no longer be asked for */
	if (f->snap_first && !rotating(f))
		pulse_flight_state__age(f->state, f->snap_first);
	f->st.snapshots++;
	f->st.samples_written += f->snap_samples;
	s->path = path;
	s->removed = removed;
	s->samples = f->snap_samples;
	s->first_time = f->snap_first;
	s->last_time = f->snap_last;
	if (f->o.on_snapshot)
		f->o.on_snapshot(s, f->o.arg);
}

static int end_file(struct pulse_flight *f, bool reopen)
{
	struct pulse_flight_snapshot s = { 0 };
	char *name = NULL, *removed = NULL;
	__u64 before;
	int ret = 0;

	if (!f->in_snapshot)
		return -EINVAL;
	f->in_snapshot = false;
	before = pulse_record_output__data_size(f->file);
	if (f->ring)
		ret = pulse_flight_ring__flush(f->ring, write_chunk_cb, f);
	if (!ret)
		ret = write_one(f, &round_rec);
	if (one_file(f)) {
		s.bytes = pulse_record_output__data_size(f->file) - before;
		if (!ret)
			ret = pulse_record_output__sync(f->file);
		if (!ret)
			report(f, &s, f->path, NULL);
		return ret;
	}
	if (!ret)
		ret = close_under_final_name(f, &s, &name, &removed);
	if (!ret)
		report(f, &s, name, removed);
	else if (!rotating(f))
		snapshot_failed(f, ret);
	fl_close(f);
	free(name);
	free(removed);
	/* rotate: the next file starts now */
	if (!ret && reopen)
		ret = fl_open_file(f);
	/* a failed snapshot of its own file: the recording goes on */
	return rotating(f) ? ret : 0;
}

int fl_snapshot_end(struct pulse_flight *f)
{
	return end_file(f, rotating(f));
}

/* The end of the recording: only rotate and append mode have a file open. */
int fl_finish(struct pulse_flight *f)
{
	int ret;

	if (!f->file)
		return 0;
	if (rotating(f)) {
		/* as perf, the last file is written under its name too */
		f->in_snapshot = true;
		return end_file(f, false);
	}
	ret = pulse_record_output__finish(f->file);
	return ret;
}
