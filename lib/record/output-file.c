// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data outputs of pulse record: a file (header rewritten as data
 * comes, features at the end) or a pipe (everything in-band), both through
 * lib/data's writer. Each keeps its own tracking (track.c) of the records
 * it stored, for BUILD_ID and SAMPLE_TIME at finish.
 */
#include <errno.h>
#include <stdlib.h>
#include <pulse/record-output.h>
#include "core/internal.h"
#include "record/record-features.h"
#include "record/track.h"

struct file_output {
	struct pulse_record_output core;
	int fd;				/* not owned */
	bool pipe;			/* perf's pipe format */
	bool no_buildid;		/* -B */
	struct pulse_data_writer *w;	/* from start on */
	struct pulse_record_track track;
};

static struct file_output *to_file(struct pulse_record_output *out)
{
	return container_of(out, struct file_output, core);
}

static int file_start(struct pulse_record_output *out, const struct pulse_record_output_info *info)
{
	struct file_output *f = to_file(out);
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo), .pipe = f->pipe,
					     .reserve = info->feature_reserve };
	int ret;

	if (f->w)
		return -EBUSY;
	f->no_buildid = info->no_buildid;
	ret = pulse_record_track__init(&f->track, info->attrs, info->nr_attrs);
	if (ret)
		return ret;
	ret = pulse_data_writer__new(&f->w, f->fd, info->attrs, info->nr_attrs, &wo);
	if (ret)
		return ret;
	return pulse_record_features__write_start(f->w, info);
}

static int file_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		      size_t *kept)
{
	struct file_output *f = to_file(out);
	int ret = pulse_data_writer__writev(f->w, iov, cnt);

	*kept = pulse_data_writer__last_kept(f->w);
	pulse_record_track__note_iov(&f->track, iov, cnt, *kept);
	return ret;
}

static int file_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct file_output *f = to_file(out);

	pulse_record_track__note(&f->track, rec, size);
	return pulse_data_writer__write(f->w, rec, size);
}

static int file_sync(struct pulse_record_output *out)
{
	return pulse_data_writer__sync_header(to_file(out)->w);
}

static int file_finish(struct pulse_record_output *out)
{
	struct file_output *f = to_file(out);
	int ret = pulse_record_features__write_finish(f->w, &f->track, !f->no_buildid);

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
};

static int new_output(struct pulse_record_output **out, int fd, bool pipe)
{
	struct file_output *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->core.ops = &file_ops;
	f->fd = fd;
	f->pipe = pipe;
	*out = &f->core;
	return 0;
}

int pulse_record_output__new_file(struct pulse_record_output **out, int fd)
{
	return new_output(out, fd, false);
}

int pulse_record_output__new_pipe(struct pulse_record_output **out, int fd)
{
	return new_output(out, fd, true);
}
