// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data outputs of pulse record: a file (header rewritten as data
 * comes, features at the end) or a pipe (everything in-band), both through
 * lib/data's writer. Each keeps its own tracking (track.c) of the records
 * it stored, for BUILD_ID and SAMPLE_TIME at finish.
 *
 * With -z, ring data passes through a zstd layer (compress.c) on its way
 * to the writer, as perf compresses what it pushes from the rings: the
 * records the recorder makes itself (side-band, FINISHED_ROUND) stay as
 * they are, the tracking sees the records before compression, and the
 * file gets HEADER_COMPRESSED (at the start in a pipe, where perf's
 * reader needs its mmap_len before the first COMPRESSED record, so with
 * perf's ratio 0; at finish with the ratio in a file).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/record-output.h>
#include <linux/perf_event.h>
#include "core/internal.h"
#include "record/compress.h"
#include "record/record-features.h"
#include "record/track.h"

struct file_output {
	struct pulse_record_output core;
	int fd;				/* not owned */
	bool pipe;			/* perf's pipe format */
	bool no_buildid;		/* -B */
	struct pulse_data_writer *w;	/* from start on */
	struct pulse_record_track track;
	struct pulse_record_zstd *zstd;	/* -z; NULL: records stored as they come */
	int comp_level;
	size_t mmap_len;		/* of one ring, for HEADER_COMPRESSED */
	int direct_fd;			/* -1, or the file opened O_DIRECT (not owned) */
	/* --threads: the readers' raw outputs note their records here too */
	pthread_mutex_t track_lock;
	__u64 raw_transferred, raw_compressed;	/* and, with -z, their compression */
	bool aux;			/* AUXTRACE records written: the AUXTRACE feature */
	struct pulse_buf aux_index;	/* file mode: { u64 file_offset, sz } per AUXTRACE */
};

static struct file_output *to_file(struct pulse_record_output *out)
{
	return container_of(out, struct file_output, core);
}

static int file_start(struct pulse_record_output *out, const struct pulse_record_output_info *info)
{
	struct file_output *f = to_file(out);
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo), .pipe = f->pipe,
					     .reserve = info->feature_reserve,
					     .direct = f->direct_fd >= 0, .direct_fd = f->direct_fd };
	int ret;

	if (f->w)
		return -EBUSY;
	f->no_buildid = info->no_buildid;
	ret = pulse_record_track__init(&f->track, info->attrs, info->nr_attrs);
	if (ret)
		return ret;
	if (info->comp_level) {
		ret = pulse_record_zstd__new(&f->zstd, info->comp_level);
		if (ret)
			return ret;
		f->comp_level = info->comp_level;
		f->mmap_len = info->mmap_len;
	}
	ret = pulse_data_writer__new(&f->w, f->fd, info->attrs, info->nr_attrs, &wo);
	if (ret)
		return ret;
	ret = pulse_record_features__write_start(f->w, info);
	if (!ret && f->zstd && f->pipe)
		ret = pulse_record_features__write_compressed(f->w, f->comp_level, 0, f->mmap_len);
	return ret;
}

/* The pump's FINISHED_ROUND, which perf writes uncompressed between batches. */
static bool is_round(const struct iovec *iov, int cnt)
{
	struct perf_event_header h;

	if (cnt != 1 || iov[0].iov_len != sizeof(h))
		return false;
	memcpy(&h, iov[0].iov_base, sizeof(h));
	return h.type == PERF_RECORD_FINISHED_ROUND;
}

/* -z: ring data compressed, all kept or (on an error) none counted. */
static int zstd_write(struct file_output *f, const struct iovec *iov, int cnt, size_t *kept)
{
	const void *recs;
	size_t len, total = 0;
	int ret;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	ret = pulse_record_zstd__compress(f->zstd, iov, cnt, &recs, &len);
	if (!ret && len)
		ret = pulse_data_writer__write(f->w, recs, len);
	*kept = ret ? 0 : total;
	pthread_mutex_lock(&f->track_lock);
	pulse_record_track__note_iov(&f->track, iov, cnt, *kept);
	pthread_mutex_unlock(&f->track_lock);
	return ret;
}

static int file_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		      size_t *kept)
{
	struct file_output *f = to_file(out);
	int ret;

	if (f->zstd && !is_round(iov, cnt))
		return zstd_write(f, iov, cnt, kept);
	ret = pulse_data_writer__writev(f->w, iov, cnt);
	*kept = pulse_data_writer__last_kept(f->w);
	pthread_mutex_lock(&f->track_lock);
	pulse_record_track__note_iov(&f->track, iov, cnt, *kept);
	pthread_mutex_unlock(&f->track_lock);
	return ret;
}

static void file_note(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		      size_t len)
{
	struct file_output *f = to_file(out);

	pthread_mutex_lock(&f->track_lock);
	/* only the readers' data.N files come here, each in its own order */
	pulse_record_track__set_unordered(&f->track);
	pulse_record_track__note_iov(&f->track, iov, cnt, len);
	pthread_mutex_unlock(&f->track_lock);
}

static void file_note_comp(struct pulse_record_output *out, __u64 transferred, __u64 compressed)
{
	struct file_output *f = to_file(out);

	pthread_mutex_lock(&f->track_lock);
	f->raw_transferred += transferred;
	f->raw_compressed += compressed;
	pthread_mutex_unlock(&f->track_lock);
}

static int file_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct file_output *f = to_file(out);

	pthread_mutex_lock(&f->track_lock);
	pulse_record_track__note(&f->track, rec, size);
	pthread_mutex_unlock(&f->track_lock);
	return pulse_data_writer__write(f->w, rec, size);
}

/* perf's auxtrace_index__auxtrace_event(): where each AUXTRACE is, for the feature */
static int file_write_aux(struct pulse_record_output *out, const void *rec, size_t size,
			  const struct iovec *data, int cnt)
{
	struct file_output *f = to_file(out);
	struct iovec iov[4] = { { (void *)rec, size } };
	__u64 off = pulse_data_writer__data_offset(f->w) + pulse_data_writer__data_size(f->w);
	__u64 sz = size;	/* perf's index: the record's header.size, not its data */
	int ret;

	if (cnt > 3)
		return -EINVAL;
	for (int i = 0; i < cnt; i++)
		iov[i + 1] = data[i];
	f->aux = true;
	ret = pulse_data_writer__writev(f->w, iov, cnt + 1);
	if (ret)
		return ret;
	if (f->pipe)
		return 0;
	ret = pulse_buf__add(&f->aux_index, &off, 8);
	return ret ? ret : pulse_buf__add(&f->aux_index, &sz, 8);
}

static int file_sync(struct pulse_record_output *out)
{
	return pulse_data_writer__sync_header(to_file(out)->w);
}

static void file_comp_stats(const struct pulse_record_output *out, __u64 *transferred,
			    __u64 *compressed)
{
	const struct file_output *f = container_of(out, struct file_output, core);

	*transferred = *compressed = 0;
	if (f->zstd)
		pulse_record_zstd__stats(f->zstd, transferred, compressed);
	/* the reader threads have been joined by now */
	*transferred += f->raw_transferred;
	*compressed += f->raw_compressed;
}

static int file_finish(struct pulse_record_output *out)
{
	struct file_output *f = to_file(out);
	__u64 in, made;
	int ret;

	pulse_record_track__retry_misses(&f->track);
	ret = pulse_record_features__write_finish(f->w, &f->track, !f->no_buildid);

	if (!ret && f->aux && !f->pipe) {
		/* u64 nr, then the entries */
		struct pulse_buf b = { 0 };
		__u64 nr = f->aux_index.len / 16;

		ret = pulse_buf__add(&b, &nr, sizeof(nr));
		if (!ret)
			ret = pulse_buf__add(&b, f->aux_index.p, f->aux_index.len);
		if (!ret)
			ret = pulse_data_writer__add_feature(f->w, PULSE_FEAT_AUXTRACE, b.p, b.len);
		pulse_buf__release(&b);
	}
	file_comp_stats(out, &in, &made);
	if (!ret && f->zstd && !f->pipe)
		ret = pulse_record_features__write_compressed(f->w, f->comp_level,
							      pulse_record_zstd__ratio(in, made),
							      f->mmap_len);
	if (!ret)
		ret = pulse_data_writer__finish(f->w);
	return ret;
}

static __u64 file_data_size(const struct pulse_record_output *out)
{
	const struct file_output *f = container_of(out, struct file_output, core);

	return f->w ? pulse_data_writer__data_size(f->w) : 0;
}

static int file_stream_fd(const struct pulse_record_output *out)
{
	const struct file_output *f = container_of(out, struct file_output, core);

	return f->pipe ? f->fd : -1;
}

static void file_delete(struct pulse_record_output *out)
{
	struct file_output *f = to_file(out);

	pulse_data_writer__delete(f->w);
	pulse_record_track__exit(&f->track);
	pulse_record_zstd__delete(f->zstd);
	pulse_buf__release(&f->aux_index);
	free(f);
}

static const struct pulse_record_output_ops file_ops = {
	.start = file_start,
	.write = file_write,
	.write_sideband = file_write_sideband,
	.sync = file_sync,
	.finish = file_finish,
	.data_size = file_data_size,
	.delete = file_delete,
	.stream_fd = file_stream_fd,
	.comp_stats = file_comp_stats,
	.note_comp = file_note_comp,
	.note = file_note,
	.write_aux = file_write_aux,
};

static int new_output(struct pulse_record_output **out, int fd, bool pipe)
{
	struct file_output *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->core.ops = &file_ops;
	pthread_mutex_init(&f->track_lock, NULL);
	f->fd = fd;
	f->pipe = pipe;
	f->direct_fd = -1;
	*out = &f->core;
	return 0;
}

int pulse_record_output__new_file_direct(struct pulse_record_output **out, int fd, int direct_fd)
{
	int ret = new_output(out, fd, false);

	if (!ret)
		to_file(*out)->direct_fd = direct_fd;
	return ret;
}

int pulse_record_output__new_file(struct pulse_record_output **out, int fd)
{
	return new_output(out, fd, false);
}

int pulse_record_output__new_pipe(struct pulse_record_output **out, int fd)
{
	return new_output(out, fd, true);
}
