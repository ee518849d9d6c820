// SPDX-License-Identifier: GPL-2.0
/*
 * A data.N file of perf's --threads directory: the records one reader
 * thread took from its rings, as they came, with no header (perf 6.1's
 * layout; the directory's data file holds the header, the events, the
 * side-band pulse made and the features). What is stored here is also
 * handed to that data file's output, for its BUILD_ID and SAMPLE_TIME.
 * With -z each data.N has a zstd stream of its own, as perf 6.1 gives each
 * reader thread one, and perf's reader one per file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <pulse/perf-abi.h>
#include <pulse/record-output.h>
#include "core/internal.h"
#include "record/compress.h"

struct raw_output {
	struct pulse_record_output core;
	int fd;				/* not owned */
	struct pulse_record_output *main;	/* not owned */
	struct pulse_record_zstd *zstd;	/* -z; NULL: records as they come */
	__u64 bytes;			/* written by the reader, read by the main thread */
};

static struct raw_output *to_raw(struct pulse_record_output *out)
{
	return container_of(out, struct raw_output, core);
}

static int raw_start(struct pulse_record_output *out, const struct pulse_record_output_info *info)
{
	return 0;
}

/* All of it, or an error: a short write leaves a torn record behind. */
static int write_all(struct raw_output *r, const struct iovec *iov, int cnt)
{
	struct iovec local[8];
	size_t total = 0, done = 0;
	int n = cnt < 8 ? cnt : 8;

	for (int i = 0; i < n; i++) {
		local[i] = iov[i];
		total += iov[i].iov_len;
	}
	while (done < total) {
		ssize_t w = writev(r->fd, local, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? -errno : -ENOSPC;

			/* keep the file whole: cut what this write added */
			if (ftruncate(r->fd, r->bytes) == 0)
				lseek(r->fd, r->bytes, SEEK_SET);
			return err;
		}
		done += w;
		while (w > 0 && n) {
			if ((size_t)w >= local[0].iov_len) {
				w -= local[0].iov_len;
				for (int i = 1; i < n; i++)
					local[i - 1] = local[i];
				n--;
			} else {
				local[0].iov_base = (char *)local[0].iov_base + w;
				local[0].iov_len -= w;
				w = 0;
			}
		}
	}
	/* --max-size adds it up on the main thread while the reader writes */
	__atomic_store_n(&r->bytes, r->bytes + total, __ATOMIC_RELAXED);
	return 0;
}

static int raw_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		     size_t *kept)
{
	struct raw_output *r = to_raw(out);
	size_t total = 0;
	__u64 before = r->bytes;
	int ret;

	*kept = 0;
	/*
	 * No rounds in a data.N, as perf 6.1 writes none there: a reader
	 * merging the files sorts them whole, and one file's rounds would
	 * flush records older than another's.
	 */
	if (cnt == 1 && iov[0].iov_len == sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		memcpy(&h, iov[0].iov_base, sizeof(h));
		if (h.type == PERF_RECORD_FINISHED_ROUND) {
			*kept = sizeof(h);
			return 0;
		}
	}
	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (r->zstd) {
		struct iovec c;
		const void *recs;

		ret = pulse_record_zstd__compress(r->zstd, iov, cnt, &recs, &c.iov_len);
		c.iov_base = (void *)recs;
		if (!ret && c.iov_len)
			ret = write_all(r, &c, 1);
	} else {
		ret = write_all(r, iov, cnt);
	}
	if (ret)
		return ret;
	*kept = total;
	if (r->main->ops->note)
		r->main->ops->note(r->main, iov, cnt, total);
	if (r->zstd && r->main->ops->note_comp)
		r->main->ops->note_comp(r->main, total, r->bytes - before);
	return 0;
}

/* the recorder's own records stay as they are, as in the data file */
static int raw_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct raw_output *r = to_raw(out);
	struct iovec iov = { (void *)rec, size };
	int ret = write_all(r, &iov, 1);

	if (!ret && r->main->ops->note)
		r->main->ops->note(r->main, &iov, 1, size);
	return ret;
}

static int raw_nop(struct pulse_record_output *out)
{
	return 0;
}

static __u64 raw_data_size(const struct pulse_record_output *out)
{
	return __atomic_load_n(&container_of(out, struct raw_output, core)->bytes, __ATOMIC_RELAXED);
}

static void raw_delete(struct pulse_record_output *out)
{
	struct raw_output *r = to_raw(out);

	pulse_record_zstd__delete(r->zstd);
	free(r);
}

static const struct pulse_record_output_ops raw_ops = {
	.start = raw_start,
	.write = raw_write,
	.write_sideband = raw_write_sideband,
	.sync = raw_nop,
	.finish = raw_nop,
	.data_size = raw_data_size,
	.delete = raw_delete,
};

int pulse_record_output__new_raw(struct pulse_record_output **out, int fd,
				 struct pulse_record_output *main, int comp_level)
{
	struct raw_output *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	if (comp_level) {
		ret = pulse_record_zstd__new(&r->zstd, comp_level);
		if (ret) {
			free(r);
			return ret;
		}
	}
	r->core.ops = &raw_ops;
	r->fd = fd;
	r->main = main;
	*out = &r->core;
	return 0;
}
