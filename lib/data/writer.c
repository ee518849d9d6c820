// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data writer (file and pipe mode); the layout is in include/pulse/data.h.
 *
 * File mode freezes its layout at the first data write: header, ids, attrs,
 * then a gap that holds the feature payloads known before recording starts
 * (TRACING_DATA) and keeps room for the others, then data. The header is
 * rewritten by pulse_data_writer__sync_header() with data.size and no
 * feature bits, so a recorder that dies leaves a file perf reads up to that
 * point. Records are appended with writev straight from the ring buffer.
 *
 * Disk full: a short write is cut back to the end of the last whole write,
 * and finish() writes the feature table; if even that does not fit, whole
 * records are dropped from the end (the last record boundaries are kept in
 * a small ring) until it does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/data.h>
#include "core/internal.h"
#include "data/direct.h"

#define NR_BOUNDS 512	/* record ends remembered for cutting back on ENOSPC */
#define TABLE_ROOM 512	/* bytes kept for the feature table: 32 features */

struct feat_payload {
	void *buf;		/* owned */
	size_t len;
	__u64 offset;		/* where it was written, 0 if not yet */
	bool set;		/* the feature bit is set (STAT has no payload) */
};

struct pulse_data_writer {
	int fd;				/* not owned */
	bool pipe;
	bool frozen;			/* file-mode prologue written */
	bool failed;			/* an earlier write failed: stop writing */
	struct pulse_data_attr *attrs;	/* owned copies (ids too) */
	size_t nr_attrs;
	size_t attr_bytes;		/* of each attr in the file: opts->attr_size */
	__u64 ids_offset;
	__u64 attrs_offset;
	__u64 gap_offset;		/* first byte of the gap */
	__u64 gap_used;
	__u64 gap_size;
	__u64 data_offset;
	__u64 data_size;
	struct feat_payload feat[PULSE_FEAT_MAX];
	__u64 bounds[NR_BOUNDS];	/* data_size at recent record ends */
	unsigned int nr_bounds;		/* total ever recorded (ring index = n % NR_BOUNDS) */
	__u64 partial;			/* bytes of a record split across writev calls */
	__u64 last_kept;		/* bytes of the last writev that stayed in the file */
	struct pulse_direct direct;	/* fd -1: no O_DIRECT path */
};

/* write(2) the whole buffer, or pwrite(2) it at @off when off >= 0. */
static int write_at(int fd, const void *buf, size_t len, long long off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	return write_at(fd, buf, len, -1);
}

static int pwrite_all(int fd, const void *buf, size_t len, __u64 off)
{
	return write_at(fd, buf, len, (long long)off);
}

static size_t nr_ids_total(const struct pulse_data_writer *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nr_attrs; i++)
		n += w->attrs[i].nr_ids;
	return n;
}

/* One attr of the attrs section: the attr as this file lays it out, then its ids section. */
static size_t file_attr_bytes(const struct pulse_data_writer *w)
{
	return w->attr_bytes + sizeof(struct pulse_file_section);
}

static void fill_header(const struct pulse_data_writer *w, struct pulse_file_header *h,
			const __u64 *features)
{
	memset(h, 0, sizeof(*h));
	h->magic = PULSE_FILE_MAGIC;
	h->size = sizeof(*h);
	h->attr_size = file_attr_bytes(w);
	h->attrs.offset = w->attrs_offset;
	h->attrs.size = w->nr_attrs * file_attr_bytes(w);
	h->data.offset = w->data_offset;
	h->data.size = w->data_size;
	if (features)
		memcpy(h->adds_features, features, sizeof(h->adds_features));
}

static void file_attr_of(const struct pulse_data_writer *w, const struct pulse_data_attr *a,
			 struct perf_event_attr *out)
{
	*out = a->attr;
	/* perf 6.1 rejects attrs larger than it knows, even with zero tails. */
	out->size = w->attr_bytes;
}

static int write_pipe_prologue(struct pulse_data_writer *w)
{
	struct pulse_pipe_header ph = { .magic = PULSE_FILE_MAGIC, .size = sizeof(ph) };
	int err = write_all(w->fd, &ph, sizeof(ph));

	for (size_t i = 0; !err && i < w->nr_attrs; i++) {
		const struct pulse_data_attr *a = &w->attrs[i];
		struct perf_event_header hdr = {
			.type = PERF_RECORD_HEADER_ATTR,
			.size = sizeof(hdr) + w->attr_bytes + a->nr_ids * sizeof(__u64),
		};
		struct perf_event_attr fa;

		file_attr_of(w, a, &fa);
		err = write_all(w->fd, &hdr, sizeof(hdr));
		if (!err)
			err = write_all(w->fd, &fa, w->attr_bytes);
		if (!err && a->nr_ids)
			err = write_all(w->fd, a->ids, a->nr_ids * sizeof(__u64));
	}
	return err;
}

static __u64 payload_reserve(const struct pulse_data_writer *w)
{
	__u64 n = 0;

	for (int f = 0; f < PULSE_FEAT_MAX; f++)
		n += PULSE_ALIGN((__u64)w->feat[f].len, 8);
	return n;
}

/* Write header, ids, attrs and the gap (with the payloads known so far). */
static int freeze_layout(struct pulse_data_writer *w)
{
	size_t nr_ids = nr_ids_total(w);
	struct pulse_file_header h;
	char *zero;
	int err;

	if (w->frozen)
		return 0;
	w->ids_offset = sizeof(struct pulse_file_header);
	w->attrs_offset = w->ids_offset + nr_ids * sizeof(__u64);
	w->gap_offset = w->attrs_offset + w->nr_attrs * file_attr_bytes(w);
	w->gap_size = PULSE_ALIGN(w->gap_size + payload_reserve(w), 4096);
	w->data_offset = w->gap_offset + w->gap_size;
	w->data_size = 0;

	fill_header(w, &h, NULL);
	err = pwrite_all(w->fd, &h, sizeof(h), 0);
	if (err)
		return err;
	__u64 off = w->ids_offset;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		size_t len = w->attrs[i].nr_ids * sizeof(__u64);

		if (len && (err = pwrite_all(w->fd, w->attrs[i].ids, len, off)))
			return err;
		off += len;
	}
	off = w->ids_offset;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		unsigned char fa[sizeof(struct pulse_file_attr)];
		struct perf_event_attr attr;
		struct pulse_file_section ids = { off, w->attrs[i].nr_ids * sizeof(__u64) };

		/* an older layout: the attr cut to its size, the ids section right after */
		file_attr_of(w, &w->attrs[i], &attr);
		memcpy(fa, &attr, w->attr_bytes);
		memcpy(fa + w->attr_bytes, &ids, sizeof(ids));
		off += ids.size;
		err = pwrite_all(w->fd, fa, file_attr_bytes(w),
				 w->attrs_offset + i * file_attr_bytes(w));
		if (err)
			return err;
	}
	/* Real zeroes, not a hole: the gap must own its blocks before the disk fills. */
	zero = calloc(1, w->gap_size);
	if (!zero)
		return -ENOMEM;
	err = pwrite_all(w->fd, zero, w->gap_size, w->gap_offset);
	free(zero);
	if (err)
		return err;
	for (int f = 0; f < PULSE_FEAT_MAX; f++) {
		struct feat_payload *fp = &w->feat[f];

		if (!fp->set)
			continue;
		fp->offset = w->gap_offset + w->gap_used;
		err = pwrite_all(w->fd, fp->buf, fp->len, fp->offset);
		if (err)
			return err;
		w->gap_used += PULSE_ALIGN((__u64)fp->len, 8);
	}
	if (lseek(w->fd, w->data_offset, SEEK_SET) < 0)
		return -errno;
	w->frozen = true;
	return 0;
}

int pulse_data_writer__new(struct pulse_data_writer **out, int fd,
			   const struct pulse_data_attr *attrs, size_t nr_attrs,
			   const struct pulse_data_writer_opts *opts)
{
	struct pulse_data_writer *w = calloc(1, sizeof(*w));
	int err = -ENOMEM;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->pipe = opts && opts->pipe;
	w->direct.fd = opts && opts->sz > offsetof(struct pulse_data_writer_opts, direct_fd) &&
		       opts->direct ? opts->direct_fd : -1;
	w->gap_size = opts && opts->reserve ? opts->reserve : 128 * 1024;
	w->attr_bytes = PULSE_FILE_ATTR_SIZE;
	if (opts && opts->sz > offsetof(struct pulse_data_writer_opts, attr_size) &&
	    opts->attr_size) {
		err = -EINVAL;
		if (opts->attr_size < PERF_ATTR_SIZE_VER0 || opts->attr_size > PULSE_FILE_ATTR_SIZE ||
		    opts->attr_size % 8)
			goto out_delete;
		err = -ENOMEM;
		w->attr_bytes = opts->attr_size;
	}
	w->attrs = calloc(nr_attrs ? nr_attrs : 1, sizeof(*w->attrs));
	if (!w->attrs)
		goto out_delete;
	w->nr_attrs = nr_attrs;
	for (size_t i = 0; i < nr_attrs; i++) {
		__u64 *ids = calloc(attrs[i].nr_ids ? attrs[i].nr_ids : 1, sizeof(__u64));

		if (!ids)
			goto out_delete;
		memcpy(ids, attrs[i].ids, attrs[i].nr_ids * sizeof(__u64));
		w->attrs[i] = attrs[i];
		w->attrs[i].ids = ids;
		w->attrs[i].name = attrs[i].name ? strdup(attrs[i].name) : NULL;
	}
	if (w->pipe) {
		err = write_pipe_prologue(w);
		if (err)
			goto out_delete;
	}
	*out = w;
	return 0;

out_delete:
	pulse_data_writer__delete(w);
	return err;
}

void pulse_data_writer__delete(struct pulse_data_writer *w)
{
	if (!w)
		return;
	pulse_direct__exit(&w->direct);
	for (size_t i = 0; w->attrs && i < w->nr_attrs; i++) {
		free((void *)w->attrs[i].ids);
		free((void *)w->attrs[i].name);
	}
	free(w->attrs);
	for (int f = 0; f < PULSE_FEAT_MAX; f++)
		free(w->feat[f].buf);
	free(w);
}

/* Remember where records end, so that finish() can cut back whole records. */
static void note_bounds(struct pulse_data_writer *w, const struct iovec *iov, int cnt)
{
	__u64 pos = w->data_size;
	__u64 skip = w->partial;

	for (int i = 0; i < cnt; i++) {
		const unsigned char *p = iov[i].iov_base;
		size_t len = iov[i].iov_len, off = 0;

		if (skip >= len) {
			skip -= len;
			pos += len;
			continue;
		}
		off = skip;
		skip = 0;
		while (off + sizeof(struct perf_event_header) <= len) {
			__u16 size = get_u16(p + off + 6);

			if (size < sizeof(struct perf_event_header))
				return; /* not records: stop tracking, nothing to cut */
			off += size;
			if (off <= len)
				w->bounds[w->nr_bounds++ % NR_BOUNDS] = pos + off;
		}
		if (off > len)
			skip = off - len;
		pos += len;
	}
	w->partial = skip;
}

static int cut_back(struct pulse_data_writer *w, size_t need);

/* Bytes of whole records within the first `limit` bytes of iov. */
static size_t whole_records(const struct iovec *iov, int cnt, size_t limit)
{
	size_t pos = 0, next = 0, base = 0;

	for (int i = 0; i < cnt; i++) {
		const unsigned char *p = iov[i].iov_base;

		while (next + sizeof(struct perf_event_header) <= base + iov[i].iov_len) {
			__u16 size;

			if (next >= base) {
				size = get_u16(p + (next - base) + 6);
			} else {
				break; /* header split across iovecs: a wrapped record */
			}
			if (size < sizeof(struct perf_event_header))
				return pos;
			if (next + size > limit)
				return pos;
			next += size;
			pos = next;
		}
		if (next < base + iov[i].iov_len && next + 8 > base + iov[i].iov_len) {
			/* A header that straddles two iovecs: read it through a copy. */
			unsigned char hdr[8];
			size_t first = base + iov[i].iov_len - next;

			if (i + 1 >= cnt || iov[i + 1].iov_len < 8 - first)
				return pos;
			memcpy(hdr, p + (next - base), first);
			memcpy(hdr + first, iov[i + 1].iov_base, 8 - first);
			__u16 size = get_u16(hdr + 6);

			if (size < 8 || next + size > limit)
				return pos;
			next += size;
			pos = next;
		}
		base += iov[i].iov_len;
	}
	return pos;
}

/* The first `len` bytes of iov as a new iovec array. */
static int clip_iov(const struct iovec *iov, int cnt, size_t len, struct iovec *out)
{
	int n = 0;

	for (int i = 0; i < cnt && len && n < 8; i++) {
		out[n] = iov[i];
		if (out[n].iov_len > len)
			out[n].iov_len = len;
		len -= out[n].iov_len;
		n++;
	}
	return n;
}

__u64 pulse_data_writer__last_kept(const struct pulse_data_writer *w)
{
	return w->last_kept;
}

int pulse_data_writer__writev(struct pulse_data_writer *w, const struct iovec *iov, int cnt)
{
	size_t total = 0;
	int err;

	w->last_kept = 0;
	if (w->failed)
		return -EIO;
	if (!w->pipe && (err = freeze_layout(w)))
		return err;
	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	/* big appends straight to the disk; should that fail, write it all again */
	if (!w->pipe && w->direct.fd >= 0 && total >= PULSE_DIRECT_MIN) {
		/* the bounds are walked while the disk takes the last slots */
		err = pulse_direct__start(&w->direct, w->fd, w->data_offset + w->data_size,
					  iov, cnt, total);
		if (!err) {
			__u64 partial = w->partial;
			unsigned int nr_bounds = w->nr_bounds;

			note_bounds(w, iov, cnt);
			err = pulse_direct__finish(&w->direct);
			if (!err) {
				w->data_size += total;
				w->last_kept = total;
				return 0;
			}
			w->partial = partial;	/* bounds past data_size are never used */
			w->nr_bounds = nr_bounds;
		}
		w->direct.fd = -1;
		if (lseek(w->fd, w->data_offset + w->data_size, SEEK_SET) < 0)
			return -errno;
	}

	struct iovec local[8];
	int n = cnt < 8 ? cnt : 8;
	size_t done = 0;

	memcpy(local, iov, n * sizeof(*iov));
	while (done < total) {
		ssize_t r = writev(w->fd, local, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : -ENOSPC;
			if (!w->pipe && !w->partial) {
				/* Keep the whole records that made it; cut the torn one. */
				w->last_kept = whole_records(iov, cnt, done);
				if (w->last_kept) {
					struct iovec kept[8];
					int nk = clip_iov(iov, cnt, w->last_kept, kept);

					note_bounds(w, kept, nk);
					w->data_size += w->last_kept;
				}
			}
			if (!w->pipe && ftruncate(w->fd, w->data_offset + w->data_size) == 0)
				lseek(w->fd, w->data_offset + w->data_size, SEEK_SET);
			if (!w->pipe && err == -ENOSPC) {
				__u64 before = w->data_size - w->last_kept;

				/*
				 * Leave room in the last block for the feature table now,
				 * so that the records counted as kept stay in the file.
				 */
				if (((w->data_offset + w->data_size) & 4095) + TABLE_ROOM > 4096)
					cut_back(w, TABLE_ROOM);
				w->last_kept = w->data_size > before ? w->data_size - before : 0;
			}
			if (err != -ENOSPC || w->pipe)
				w->failed = true;
			return err;
		}
		done += r;
		/* Advance over what was written (short writes happen on pipes and full disks). */
		while (r > 0 && n) {
			if ((size_t)r >= local[0].iov_len) {
				r -= local[0].iov_len;
				memmove(local, local + 1, --n * sizeof(*local));
			} else {
				local[0].iov_base = (char *)local[0].iov_base + r;
				local[0].iov_len -= r;
				r = 0;
			}
		}
	}
	if (!w->pipe)
		note_bounds(w, iov, cnt);
	w->data_size += total;
	w->last_kept = total;
	return 0;
}

int pulse_data_writer__write(struct pulse_data_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return pulse_data_writer__writev(w, &iov, 1);
}

static int write_pipe_feature(struct pulse_data_writer *w, int feat, const void *buf, size_t len)
{
	if (feat == PULSE_FEAT_TRACING_DATA) {
		/* perf pipe mode: a 16-byte record whose payload follows out of band. */
		struct {
			struct perf_event_header h;
			__u32 size;
			__u32 pad;
		} rec = { { PERF_RECORD_HEADER_TRACING_DATA, 0, 16 }, PULSE_ALIGN(len, 8), 0 };
		static const char zero[8];
		int err = write_all(w->fd, &rec, sizeof(rec));

		if (!err)
			err = write_all(w->fd, buf, len);
		if (!err && PULSE_ALIGN(len, 8) != len)
			err = write_all(w->fd, zero, PULSE_ALIGN(len, 8) - len);
		return err;
	}
	/*
	 * perf does not post-process build-ids in pipe mode, and the feature's
	 * entries (type 0, 36 + 64k bytes) are not records a stream may carry.
	 */
	if (feat == PULSE_FEAT_BUILD_ID)
		return 0;
	/* perf 6.1 report aborts on a HEADER_FEATURE id it does not know. */
	if (feat > PULSE_FEAT_LAST_KNOWN_BY_PERF61)
		return 0;

	size_t size = sizeof(struct perf_event_header) + 8 + PULSE_ALIGN(len, 8);
	unsigned char *rec;
	int err;

	if (size > 65535)
		return -E2BIG;
	rec = calloc(1, size);
	if (!rec)
		return -ENOMEM;
	struct perf_event_header h = { PERF_RECORD_HEADER_FEATURE, 0, (__u16)size };
	__u64 id = feat;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &id, 8);
	memcpy(rec + 16, buf, len);
	err = write_all(w->fd, rec, size);
	free(rec);
	return err;
}

int pulse_data_writer__add_feature(struct pulse_data_writer *w, int feat, const void *buf,
				   size_t len)
{
	struct feat_payload *fp;

	if (feat <= 0 || feat >= PULSE_FEAT_MAX)
		return -EINVAL;
	if (w->pipe)
		return write_pipe_feature(w, feat, buf, len);
	fp = &w->feat[feat];
	free(fp->buf);
	fp->buf = malloc(len ? len : 1);
	if (!fp->buf) {
		fp->len = 0;
		fp->set = false;
		return -ENOMEM;
	}
	memcpy(fp->buf, buf, len);
	fp->len = len;
	fp->offset = 0;
	fp->set = true;
	return 0;
}

int pulse_data_writer__sync_header(struct pulse_data_writer *w)
{
	struct pulse_file_header h;

	if (w->pipe || w->failed)
		return 0;
	if (!w->frozen)
		return freeze_layout(w);
	fill_header(w, &h, NULL);
	return pwrite_all(w->fd, &h, sizeof(h), 0);
}

__u64 pulse_data_writer__data_size(const struct pulse_data_writer *w)
{
	return w->data_size;
}

__u64 pulse_data_writer__data_offset(const struct pulse_data_writer *w)
{
	return w->frozen ? w->data_offset : 0;
}

/* Drop the newest whole records until `need` more bytes fit in the last page. */
static int cut_back(struct pulse_data_writer *w, size_t need)
{
	unsigned int n = w->nr_bounds, oldest = n > NR_BOUNDS ? n - NR_BOUNDS : 0;

	while (n > oldest) {
		__u64 end = w->bounds[--n % NR_BOUNDS];

		if (end >= w->data_size)
			continue;
		w->data_size = end;
		if (ftruncate(w->fd, w->data_offset + end) < 0)
			return -errno;
		if (((w->data_offset + end) & 4095) + need <= 4096)
			return 0;
	}
	return -ENOSPC;
}

static void drop_feature(struct pulse_data_writer *w, int f)
{
	free(w->feat[f].buf);
	w->feat[f].buf = NULL;
	w->feat[f].len = 0;
	w->feat[f].offset = 0;
	w->feat[f].set = false;
}

static size_t build_table(const struct pulse_data_writer *w, struct pulse_file_section *table,
			  __u64 *features)
{
	size_t nr = 0;

	memset(features, 0, 4 * sizeof(__u64));
	for (int f = 1; f < PULSE_FEAT_MAX; f++) {
		if (!w->feat[f].set)
			continue;
		features[f / 64] |= 1ULL << (f % 64);
		table[nr].offset = w->feat[f].offset;
		table[nr].size = w->feat[f].len;
		nr++;
	}
	return nr;
}

int pulse_data_writer__finish(struct pulse_data_writer *w)
{
	struct pulse_file_section table[PULSE_FEAT_MAX];
	__u64 features[4] = { 0 };
	size_t nr = 0;
	__u64 end;
	int err;

	if (w->pipe)
		return 0;
	if ((err = freeze_layout(w)))
		return err;

	for (int f = 1; f < PULSE_FEAT_MAX; f++)
		if (w->feat[f].set)
			nr++;
	size_t table_size = nr * sizeof(struct pulse_file_section);

	/* Payloads go into the gap while they fit, the rest after the table. */
	end = w->data_offset + w->data_size + table_size;
	for (int f = 1; f < PULSE_FEAT_MAX; f++) {
		struct feat_payload *fp = &w->feat[f];
		__u64 aligned = PULSE_ALIGN((__u64)fp->len, 8);

		if (!fp->set || fp->offset)
			continue;
		if (w->gap_used + aligned <= w->gap_size) {
			fp->offset = w->gap_offset + w->gap_used;
			w->gap_used += aligned;
		} else {
			fp->offset = end;
			end += aligned;
		}
		err = pwrite_all(w->fd, fp->buf, fp->len, fp->offset);
		if (err == -ENOSPC && fp->offset >= w->data_offset) {
			pr_warn("perf.data: no room for feature %d, dropped\n", f);
			drop_feature(w, f);
			continue;
		}
		if (err)
			return err;
	}
	for (;;) {
		nr = build_table(w, table, features);
		table_size = nr * sizeof(struct pulse_file_section);
		err = table_size ? pwrite_all(w->fd, table, table_size,
					      w->data_offset + w->data_size) : 0;
		if (err != -ENOSPC)
			break;
		err = cut_back(w, table_size);
		if (err)
			return err;
		/* The cut also removed the payloads that sat after the old table. */
		for (int f = 1; f < PULSE_FEAT_MAX; f++)
			if (w->feat[f].set && w->feat[f].offset >= w->data_offset)
				drop_feature(w, f);
		pr_warn("perf.data: disk full, dropped records to fit the header\n");
	}
	if (err)
		return err;

	struct pulse_file_header h;

	fill_header(w, &h, features);
	err = pwrite_all(w->fd, &h, sizeof(h), 0);
	if (err)
		return err;
	return 0;
}
