// SPDX-License-Identifier: GPL-2.0
/*
 * A data.N file of perf's --threads directory: the records one reader
 * thread took from its rings, as they came, with no header (perf 6.1's
 * layout; the directory's data file holds the header, the events, the
 * side-band pulse made and the features). What is stored here is also
 * handed to that data file's output, for its BUILD_ID and SAMPLE_TIME.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <pulse/perf-abi.h>
#include <pulse/record-output.h>
#include "core/internal.h"

struct raw_output {
	struct pulse_record_output core;
	int fd;				/* not owned */
	struct pulse_record_output *main;	/* not owned */
	__u64 bytes;
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
static int raw_write(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		     size_t *kept)
{
	struct raw_output *r = to_raw(out);
	struct iovec local[8];
	size_t total = 0, done = 0;
	int n = cnt < 8 ? cnt : 8;

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
	r->bytes += total;
	*kept = total;
	if (r->main->ops->note)
		r->main->ops->note(r->main, iov, cnt, total);
	return 0;
}

static int raw_write_sideband(struct pulse_record_output *out, const void *rec, size_t size)
{
	struct iovec iov = { (void *)rec, size };
	size_t kept;

	return raw_write(out, &iov, 1, &kept);
}

static int raw_nop(struct pulse_record_output *out)
{
	return 0;
}

static __u64 raw_data_size(const struct pulse_record_output *out)
{
	return container_of(out, struct raw_output, core)->bytes;
}

static void raw_delete(struct pulse_record_output *out)
{
	free(to_raw(out));
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
				 struct pulse_record_output *main)
{
	struct raw_output *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->core.ops = &raw_ops;
	r->fd = fd;
	r->main = main;
	*out = &r->core;
	return 0;
}
