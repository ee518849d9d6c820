// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader. A file is mmap'ed and walked in place; a stream
 * (pipe mode on stdin or a FIFO) goes through a small buffer that is
 * refilled as records are consumed, so memory stays at one 64 KiB record
 * plus what the caller keeps (attrs, features, tracing data). Buffers given
 * to pulse_data__open_mem() are walked like mmap'ed files.
 *
 * Everything read from the input is untrusted: the header and the tables it
 * points to are checked against the input size when opening, and the walk
 * over the data section stops at the first record that does not fit,
 * remembering where, so that the caller can still show everything before it.
 *
 * A byte-swapped file is read through private copies: the header and attrs
 * are swapped when opening, the features whose layout is known are copied
 * and swapped (the others dropped), and each record is copied and swapped
 * before it is looked at, so that everything after the walk sees a native
 * file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/reader-internal.h"

static int save_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		   void *arg)
{
	struct saved_rec *s = realloc(d->saved, (d->nr_saved + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	d->saved = s;
	s = &d->saved[d->nr_saved];
	s->p = malloc(rec->size);
	if (!s->p)
		return -ENOMEM;
	memcpy(s->p, rec, rec->size);
	s->off = off;
	d->nr_saved++;
	return 0;
}

static int nop_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		  void *arg)
{
	return 0;
}

/*
 * Pipe mode has no header tables: the attrs and features arrive as the
 * first records. Apply them now so that the accessors work before the
 * walk, as in file mode; a stream keeps copies to deliver them later.
 */
static int open_pipe_mode(struct pulse_data *d)
{
	int err;

	d->pipe = true;
	d->data_offset = PIPE_HEADER_SIZE;
	d->file_size = d->stream ? PIPE_HEADER_SIZE : d->mem_len;
	d->declared_end = d->mem_len;
	d->pos = PIPE_HEADER_SIZE;
	d->lim = d->mem_len;
	d->prefix_mode = true;
	err = pulse_data__walk(d, d->stream ? save_cb : nop_cb, NULL);
	d->prefix_mode = false;
	return err;
}

static int check_magic(struct pulse_data *d, const unsigned char *p, size_t len, bool *pipe)
{
	__u64 magic, size;

	if (len < 16)
		return PULSE_CORRUPT(0, "file header cut short");
	magic = get_u64(p);
	size = get_u64(p + 8);
	if (magic == PULSE_FILE_MAGIC_SWAPPED) {
		pr_debug("perf.data: recorded on a machine of the other endianness\n");
		d->swapped = true;
		size = __builtin_bswap64(size);
		for (int i = 0; i < 2; i++) {
			d->swbuf[i] = malloc(PULSE_MAX_RECORD_SIZE);
			if (!d->swbuf[i])
				return -ENOMEM;
		}
	} else if (magic != PULSE_FILE_MAGIC) {
		return PULSE_CORRUPT(0, "bad magic (not a perf.data file)");
	}
	*pipe = size == PIPE_HEADER_SIZE;
	return 0;
}

static int data_new(struct pulse_data **out)
{
	struct pulse_data *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->fd = -1;
	pulse_id_index__init(&d->ids);
	d->recbuf = malloc(PULSE_MAX_RECORD_SIZE);
	if (!d->recbuf) {
		free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

static int open_image(struct pulse_data *d)
{
	bool pipe = false;
	int err;

	if (!d->mem_len)
		return -ENODATA;
	err = check_magic(d, d->mem, d->mem_len, &pipe);
	if (err)
		return err;
	return pipe ? open_pipe_mode(d) : pulse_data__open_file(d);
}

int pulse_data__open_mem(struct pulse_data **dp, const void *buf, size_t len)
{
	struct pulse_data *d;
	int err;

	*dp = NULL;
	pulse_data__error_reset();
	if (!buf && len)
		return -EINVAL;
	err = data_new(&d);
	if (err)
		return err;
	d->mem = buf;
	d->mem_len = len;
	err = open_image(d);
	if (err) {
		pulse_data__close(d);
		return err;
	}
	*dp = d;
	return 0;
}

static int open_stream(struct pulse_data *d)
{
	const unsigned char *p;
	size_t n;
	bool pipe = false;
	int err;

	d->stream = true;
	d->sbuf = malloc(STREAM_BUF_SIZE);
	if (!d->sbuf)
		return -ENOMEM;
	n = pulse_data__src_peek(d, PIPE_HEADER_SIZE, &p);
	if (d->serr)
		return d->serr;
	if (!n)
		return -ENODATA;
	err = check_magic(d, p, n, &pipe);
	if (err)
		return err;
	if (!pipe) {
		pr_warn("perf.data: a file-mode perf.data cannot be read from a pipe; "
			"record with -o - for pipe mode\n");
		return -EINVAL;
	}
	pulse_data__src_advance(d, PIPE_HEADER_SIZE);
	return open_pipe_mode(d);
}

int pulse_data__open(struct pulse_data **dp, const char *path)
{
	struct pulse_data *d;
	struct stat st;
	int err;

	*dp = NULL;
	pulse_data__error_reset();
	err = data_new(&d);
	if (err)
		return err;
	d->path = strdup(path);
	if (!d->path) {
		err = -ENOMEM;
		goto fail;
	}
	if (!strcmp(path, "-")) {
		d->fd = STDIN_FILENO;
	} else {
		/* perf record --threads: DIR/data is the header file */
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			if (asprintf(&d->hdr_path, "%s/data", path) < 0) {
				d->hdr_path = NULL;
				err = -ENOMEM;
				goto fail;
			}
		}
		d->fd = open(d->hdr_path ? d->hdr_path : path, O_RDONLY | O_CLOEXEC);
		if (d->fd < 0) {
			err = -errno;
			goto fail;
		}
	}
	if (fstat(d->fd, &st)) {
		err = -errno;
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		if (!st.st_size) {
			err = -ENODATA;
			goto fail;
		}
		d->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, d->fd, 0);
		if (d->map == MAP_FAILED) {
			d->map = NULL;
			err = -errno;
			goto fail;
		}
		d->map_len = st.st_size;
		madvise(d->map, d->map_len, MADV_SEQUENTIAL);
		d->mem = d->map;
		d->mem_len = st.st_size;
		err = open_image(d);
		if (!err && d->hdr_path)
			err = pulse_data__open_dir(d, path);
	} else {
		err = open_stream(d);
	}
	if (err)
		goto fail;
	*dp = d;
	return 0;
fail:
	pulse_data__close(d);
	return err;
}

void pulse_data__close(struct pulse_data *d)
{
	if (!d)
		return;
	free(d->path);
	for (size_t i = 0; i < d->nr_attrs; i++) {
		free(d->attrs[i]->ids);
		free(d->attrs[i]->name);
		free(d->attrs[i]);
	}
	free(d->attrs);
	pulse_id_index__exit(&d->ids);
	for (size_t i = 0; i < PULSE_FEAT_MAX; i++)
		if (d->feats[i].owned)
			free((void *)d->feats[i].p);
	for (size_t i = 0; i < d->nr_saved; i++)
		free(d->saved[i].p);
	free(d->saved);
	free(d->tracing_owned);
	free(d->aux_buf);
	free(d->recbuf);
	free(d->swbuf[0]);
	free(d->swbuf[1]);
	free(d->sbuf);
	free(d->zbuf);
	pulse_data__close_dir(d);
	pulse_chunks__delete(d->chunks);
	ZSTD_freeDCtx(d->zctx);
	if (d->map)
		munmap(d->map, d->map_len);
	if (d->fd > STDIN_FILENO)
		close(d->fd);
	free(d);
}

/* ---- accessors --------------------------------------------------------------- */

bool pulse_data__is_pipe(const struct pulse_data *d)
{
	return d->pipe;
}

bool pulse_data__has_feat(const struct pulse_data *d, int feat)
{
	return feat > 0 && feat < PULSE_FEAT_MAX && d->feats[feat].p;
}

const void *pulse_data__feat(const struct pulse_data *d, int feat, size_t *len)
{
	if (!pulse_data__has_feat(d, feat)) {
		*len = 0;
		return NULL;
	}
	*len = d->feats[feat].len;
	return d->feats[feat].p;
}

const void *pulse_data__tracing_data(const struct pulse_data *d, size_t *len)
{
	*len = d->tracing ? d->tracing_len : 0;
	return d->tracing;
}

__u64 pulse_data__data_offset(const struct pulse_data *d)
{
	return d->data_offset;
}

__u64 pulse_data__data_size(const struct pulse_data *d)
{
	return d->data_size;
}

__u64 pulse_data__file_size(const struct pulse_data *d)
{
	if (d->stream)
		return d->soff + d->send;
	return d->file_size;
}

bool pulse_data__recovering(const struct pulse_data *d)
{
	return d->recovering;
}

bool pulse_data__swapped(const struct pulse_data *d)
{
	return d->swapped;
}

bool pulse_data__recovered(const struct pulse_data *d, __u64 *offset, __u64 *bytes)
{
	__u64 end = d->data_offset + d->data_size;

	*offset = end;
	*bytes = 0;
	if (!d->recovering || d->walk_end <= end)
		return false;
	*bytes = d->walk_end - end;
	return true;
}

bool pulse_data__unreadable(const struct pulse_data *d, __u64 *bytes, __u64 *offset)
{
	*bytes = d->unreadable ? d->unreadable_bytes : 0;
	*offset = d->unreadable ? d->unreadable_off : 0;
	return d->unreadable;
}
