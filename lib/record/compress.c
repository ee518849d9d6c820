// SPDX-License-Identifier: GPL-2.0
/*
 * The zstd layer of pulse record -z (see compress.h): each call feeds a
 * ring batch to one long-lived compression stream and flushes it, cutting
 * the output into COMPRESSED records of at most perf's size. The bytes in
 * and out are counted for HEADER_COMPRESSED's ratio and the summary line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <linux/perf_event.h>
#include <pulse/perf-abi.h>
#include "record/compress.h"

struct pulse_record_zstd {
	ZSTD_CCtx *cctx;		/* the one stream of this output */
	unsigned char *buf;		/* COMPRESSED records of the last call */
	size_t len, cap;		/* bytes used and allocated in buf */
	__u64 transferred;		/* bytes given to every call */
	__u64 compressed;		/* bytes of COMPRESSED records made, headers included */
};

int pulse_record_zstd__new(struct pulse_record_zstd **out, int level)
{
	struct pulse_record_zstd *z;

	*out = NULL;
	if (level < 1 || level > PULSE_COMPRESSION_LEVEL_MAX)
		return -EINVAL;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx || ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel,
							      level))) {
		pulse_record_zstd__delete(z);
		return -ENOMEM;
	}
	*out = z;
	return 0;
}

void pulse_record_zstd__delete(struct pulse_record_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z->buf);
	free(z);
}

/* Room for one more whole record at the end of buf. */
static int reserve_record(struct pulse_record_zstd *z)
{
	size_t need = z->len + sizeof(struct perf_event_header) + PULSE_COMPRESSED_MAX_DATA;
	unsigned char *nb;

	if (need <= z->cap)
		return 0;
	nb = realloc(z->buf, need);
	if (!nb)
		return -ENOMEM;
	z->buf = nb;
	z->cap = need;
	return 0;
}

/* Close the record that starts at @start: its header, or nothing if it is empty. */
static void close_record(struct pulse_record_zstd *z, size_t start)
{
	struct perf_event_header h = { PERF_RECORD_COMPRESSED, 0, 0 };

	if (z->len == start + sizeof(h)) {
		z->len = start;
		return;
	}
	h.size = (__u16)(z->len - start);
	memcpy(z->buf + start, &h, sizeof(h));
}

int pulse_record_zstd__compress(struct pulse_record_zstd *z, const struct iovec *iov, int cnt,
				const void **recs, size_t *len)
{
	size_t start = 0, used = PULSE_COMPRESSED_MAX_DATA;	/* no record open yet */
	int err;

	z->len = 0;
	for (int i = 0; i < cnt; i++) {
		ZSTD_inBuffer in = { iov[i].iov_base, iov[i].iov_len, 0 };
		ZSTD_EndDirective mode = i == cnt - 1 ? ZSTD_e_flush : ZSTD_e_continue;
		size_t left;

		do {
			ZSTD_outBuffer out;

			if (used == PULSE_COMPRESSED_MAX_DATA) {
				if (z->len)
					close_record(z, start);
				err = reserve_record(z);
				if (err)
					return err;
				start = z->len;
				z->len += sizeof(struct perf_event_header);
				used = 0;
			}
			out = (ZSTD_outBuffer){ z->buf + z->len, PULSE_COMPRESSED_MAX_DATA - used, 0 };
			left = ZSTD_compressStream2(z->cctx, &out, &in, mode);
			if (ZSTD_isError(left))
				return -EIO;
			z->len += out.pos;
			used += out.pos;
			/* a flush is done when zstd holds nothing back */
		} while (mode == ZSTD_e_flush ? left != 0 : in.pos < in.size);
		z->transferred += iov[i].iov_len;
	}
	if (z->len)
		close_record(z, start);
	z->compressed += z->len;
	*recs = z->buf;
	*len = z->len;
	return 0;
}

void pulse_record_zstd__stats(const struct pulse_record_zstd *z, __u64 *transferred,
			      __u64 *compressed)
{
	*transferred = z->transferred;
	*compressed = z->compressed;
}

__u32 pulse_record_zstd__ratio(__u64 transferred, __u64 compressed)
{
	float ratio;

	if (!transferred || !compressed)
		return 0;
	/* perf: comp_ratio = ratio + 0.5, both floats */
	ratio = (float)transferred / (float)compressed;
	return (__u32)(ratio + 0.5);
}
