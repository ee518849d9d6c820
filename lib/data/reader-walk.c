// SPDX-License-Identifier: GPL-2.0
/*
 * The record walk: records are framed one by one from the source, those
 * of a byte-swapped file swapped on a private copy, COMPRESSED records
 * unpacked (one zstd stream per recording, a record may straddle two
 * COMPRESSED records), out-of-band payloads consumed, in-band HEADER_ATTR,
 * HEADER_FEATURE and EVENT_UPDATE records applied, and the first record
 * that cannot be framed ends the walk, remembering where (damage, or the
 * end of a recovered file).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/reader-internal.h"

static void mark_damage(struct pulse_data *d, __u64 off, const char *what)
{
	d->stop = true;
	if (d->unreadable)
		return;
	d->unreadable = true;
	d->unreadable_off = off;
	d->unreadable_path = d->walk_path;
	if (d->stream)	/* what is in hand: reading on could block on a live pipe */
		d->unreadable_bytes = pulse_data__src_pos(d) - off + (d->send - d->spos);
	else
		d->unreadable_bytes = d->declared_end > off ? d->declared_end - off : 0;
	pr_debug("perf.data: %s at offset %#llx, stopping\n", what, (unsigned long long)off);
}

static int deliver(struct pulse_data *d, const unsigned char *p, size_t size, __u64 off,
		   pulse_data_record_fn cb, void *arg)
{
	if ((uintptr_t)p & 7) {
		memcpy(d->recbuf, p, size);
		p = (const unsigned char *)d->recbuf;
	}
	return cb(d, (const struct perf_event_header *)p, off, arg);
}

/* HEADER_ATTR: attr (attr.size bytes), then the ids fill the record. */
static int apply_header_attr(struct pulse_data *d, const unsigned char *p, size_t size,
			     __u64 off)
{
	struct perf_event_attr attr;
	size_t used, nr;
	int err;

	err = pulse_data__copy_attr(&attr, p + 8, size - 8, off + 8, &used);
	if (err)
		return err;
	nr = (size - 8 - used) / 8;
	err = pulse_data__add_attr(d, &attr, p + 8 + used, nr);
	return err ? err : pulse_data__index_ids(d);
}

static void apply_header_feature(struct pulse_data *d, const unsigned char *p, size_t size,
				 __u64 off)
{
	struct feat_ent *f;
	__u64 feat;
	void *copy;

	if (size < 16) {
		pr_warn("perf.data: HEADER_FEATURE too short at offset %#llx\n",
			(unsigned long long)off);
		return;
	}
	feat = get_u64(p + 8);
	if (feat == 0 || feat >= PULSE_FEAT_MAX) {
		pr_debug("perf.data: unknown feature %llu at offset %#llx\n",
			 (unsigned long long)feat, (unsigned long long)off);
		return;
	}
	f = &d->feats[feat];
	if (f->p)
		return;
	/* the record bytes do not outlive the callback on a stream */
	copy = malloc(size - 16 ? size - 16 : 1);
	if (!copy)
		return;
	memcpy(copy, p + 16, size - 16);
	*f = (struct feat_ent){ copy, size - 16, true };
	if (feat == PULSE_FEAT_EVENT_DESC)
		pulse_data__parse_event_desc(d, copy, size - 16, off + 16);
}

/* EVENT_UPDATE: u64 type; u64 id; type NAME (2) carries the name. */
static void apply_event_update(struct pulse_data *d, const unsigned char *p, size_t size)
{
	int idx;

	if (size < 24 || get_u64(p + 8) != 2)
		return;
	idx = pulse_data__attr_of_id(d, get_u64(p + 16));
	if (idx >= 0 && !d->attrs[idx]->name)
		d->attrs[idx]->name = strndup((const char *)p + 24, size - 24);
}

static int handle_record(struct pulse_data *d, const unsigned char *p, size_t size, __u64 off,
			 pulse_data_record_fn cb, void *arg, bool in_z);

/* Deliver the whole records decompressed so far; keep a partial one. */
static int drain_z(struct pulse_data *d, __u64 off, pulse_data_record_fn cb, void *arg)
{
	size_t pos = 0;
	int err = 0;

	while (d->zlen - pos >= 8 && !d->stop) {
		size_t size = get_u16(d->zbuf + pos + 6);

		if (d->swapped)
			size = __builtin_bswap16(size);
		if (size < 8) {
			mark_damage(d, off, "record smaller than its header inside COMPRESSED");
			break;
		}
		if (size > d->zlen - pos)
			break;
		err = handle_record(d, d->zbuf + pos, size, off, cb, arg, true);
		if (err)
			break;
		pos += size;
	}
	memmove(d->zbuf, d->zbuf + pos, d->zlen - pos);
	d->zlen -= pos;
	return err;
}

/*
 * perf compresses the ring buffer chunk by chunk with one zstd stream per
 * recording, and a record may continue in the next COMPRESSED record, so
 * the context and the partial record survive from one call to the next.
 */
static int decompress(struct pulse_data *d, const unsigned char *src, size_t len, __u64 off,
		      pulse_data_record_fn cb, void *arg)
{
	ZSTD_inBuffer in = { src, len, 0 };

	if (!d->zctx) {
		d->zctx = ZSTD_createDCtx();
		d->zbuf = malloc(ZBUF_SIZE);
		if (!d->zctx || !d->zbuf)
			return -ENOMEM;
	}
	d->zoff = off;
	for (;;) {
		ZSTD_outBuffer out = { d->zbuf, ZBUF_SIZE, d->zlen };
		size_t before = in.pos, ret;
		bool full;
		int err;

		ret = ZSTD_decompressStream(d->zctx, &out, &in);
		if (ZSTD_isError(ret)) {
			pr_warn("perf.data: COMPRESSED record at offset %#llx: %s\n",
				(unsigned long long)off, ZSTD_getErrorName(ret));
			mark_damage(d, off, "undecompressable record");
			return 0;
		}
		full = out.pos == out.size;
		if (out.pos == d->zlen && in.pos == before && full) {
			/* a full buffer that no record drains: cannot happen with u16 sizes */
			mark_damage(d, off, "stuck decompression");
			return 0;
		}
		d->zlen = out.pos;
		err = drain_z(d, off, cb, arg);
		if (err || d->stop)
			return err;
		if (in.pos == in.size && !full)
			return 0;
	}
}

static bool is_prefix_type(__u32 type)
{
	return type == PERF_RECORD_HEADER_ATTR || type == PERF_RECORD_HEADER_EVENT_TYPE ||
	       type == PERF_RECORD_HEADER_TRACING_DATA || type == PERF_RECORD_HEADER_FEATURE;
}

/*
 * An AUXTRACE record (in d->recbuf) and its @plen bytes of AUX data, shown
 * to @cb through pulse_data__auxtrace_data(): in place in a file or buffer,
 * copied from a stream (perf 6.1 reads it into a buffer too,
 * auxtrace_copy_data()). A payload cut short by the end of the input is
 * damage, after the record was delivered without data (perf prints the
 * record, then cannot read its data).
 */
static int auxtrace(struct pulse_data *d, size_t size, __u64 plen, __u64 off,
		    pulse_data_record_fn cb, void *arg)
{
	__u64 got;
	int err;

	d->aux_data = NULL;
	if (!d->stream && plen <= d->lim - d->pos) {
		d->aux_data = d->mem + d->pos;
		got = pulse_data__src_consume(d, plen, NULL);
	} else if (d->stream && !d->skip_aux) {
		/* grown with what arrives: the size field alone proves nothing */
		for (got = 0; got < plen;) {
			__u64 step = plen - got < (1u << 20) ? plen - got : (1u << 20), n;

			if (got + step > d->aux_cap) {
				size_t ncap = d->aux_cap * 2 > got + step ? d->aux_cap * 2 : got + step;
				unsigned char *nb;

				if (ncap > plen)
					ncap = plen;
				nb = realloc(d->aux_buf, ncap);
				if (!nb)
					return -ENOMEM;
				d->aux_buf = nb;
				d->aux_cap = ncap;
			}
			n = pulse_data__src_consume(d, step, d->aux_buf + got);
			got += n;
			if (n < step)
				break;
		}
		if (got == plen)
			d->aux_data = d->aux_buf;
	} else {
		got = pulse_data__src_consume(d, plen, NULL);
	}
	d->aux_len = d->aux_data ? plen : 0;
	err = deliver(d, (const unsigned char *)d->recbuf, size, off, cb, arg);
	d->aux_data = NULL;
	d->aux_len = 0;
	if (!err && got < plen)
		mark_damage(d, off, "AUXTRACE data cut short");
	return err;
}

const void *pulse_data__auxtrace_data(const struct pulse_data *d, uint64_t *len)
{
	*len = d->aux_data ? d->aux_len : 0;
	return d->aux_data;
}

void pulse_data__set_keep_auxtrace(struct pulse_data *d, bool on)
{
	d->skip_aux = !on;
}

/* Records with a payload after them: copy, consume the payload, then deliver. */
static int handle_oob(struct pulse_data *d, const unsigned char *p, size_t size, __u32 type,
		      __u64 off, pulse_data_record_fn cb, void *arg)
{
	bool keep = false;
	__u64 plen, got;
	unsigned char *dst = NULL;
	__u32 tlen = 0;

	if (type == PERF_RECORD_HEADER_TRACING_DATA) {
		if (size < 12) {
			mark_damage(d, off, "short HEADER_TRACING_DATA");
			return 0;
		}
		tlen = get_u32(p + 8);
		plen = PULSE_ALIGN((__u64)tlen, 8);
		keep = !d->tracing;
	} else {
		if (size < 16) {
			mark_damage(d, off, "short AUXTRACE");
			return 0;
		}
		plen = get_u64(p + 8);
	}
	/* @p does not survive the stream refills below */
	memcpy(d->recbuf, p, size);
	pulse_data__src_advance(d, size);

	if (keep && !d->stream && plen <= d->lim - d->pos) {
		d->tracing = d->mem + d->pos;
		d->tracing_len = tlen;
	} else if (keep && d->stream) {
		/* grow with what arrives: the size field alone proves nothing */
		size_t cap = 0;

		for (got = 0; got < plen;) {
			size_t step = plen - got < (1u << 20) ? plen - got : (1u << 20), n;

			if (got + step > cap) {
				size_t ncap = cap * 2 > got + step ? cap * 2 : got + step;
				unsigned char *nd;

				if (ncap > plen)
					ncap = plen;
				nd = realloc(dst, ncap);
				if (!nd) {
					free(dst);
					return -ENOMEM;
				}
				dst = nd;
				cap = ncap;
			}
			n = pulse_data__src_consume(d, step, dst + got);
			got += n;
			if (n < step)
				break;
		}
		if (got < plen) {
			free(dst);
			mark_damage(d, off, "HEADER_TRACING_DATA payload cut short");
			return 0;
		}
		d->tracing_owned = dst;
		d->tracing = dst;
		d->tracing_len = tlen;
		return deliver(d, (const unsigned char *)d->recbuf, size, off, cb, arg);
	}
	if (type == PERF_RECORD_AUXTRACE)
		return auxtrace(d, size, plen, off, cb, arg);
	got = pulse_data__src_consume(d, plen, NULL);
	if (got < plen) {
		mark_damage(d, off, "out-of-band payload cut short");
		return 0;
	}
	return deliver(d, (const unsigned char *)d->recbuf, size, off, cb, arg);
}

/*
 * A foreign record becomes native on a private copy: one buffer for the
 * records of the file, another for those unpacked from a COMPRESSED record,
 * whose own copy is still being read.
 */
static const unsigned char *swap_copy(struct pulse_data *d, const unsigned char *p, size_t size,
				      bool in_z)
{
	unsigned char *c = d->swbuf[in_z];
	int idx = pulse_data__attr_of_swap(d, p, size, true), err;

	if (idx < 0)
		idx = 0;
	memcpy(c, p, size);
	err = pulse_event__swap(c, size, pulse_data__attr(d, idx), true);
	d->skip_feature = err == -EOPNOTSUPP;
	if (err == -EBADMSG)
		pr_debug("perf.data: a byte-swapped record does not fit its layout\n");
	return c;
}

static int handle_record(struct pulse_data *d, const unsigned char *p, size_t size, __u64 off,
			 pulse_data_record_fn cb, void *arg, bool in_z)
{
	__u32 type;
	int err;

	if (d->swapped)
		p = swap_copy(d, p, size, in_z);
	type = get_u32(p);

	switch (type) {
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		if (in_z)
			goto nested;
		if (d->deliver_z) {
			err = deliver(d, p, size, off, cb, arg);
			if (err)
				return err;
		}
		if (type == PERF_RECORD_COMPRESSED2) {
			/* u64 data_size, then the (padded) zstd bytes */
			__u64 dsz = size >= 16 ? get_u64(p + 8) : 0;

			if (size < 16 || dsz > size - 16) {
				mark_damage(d, off, "bad COMPRESSED2 data_size");
				return 0;
			}
			pulse_data__src_advance(d, size);
			return decompress(d, p + 16, dsz, off, cb, arg);
		}
		pulse_data__src_advance(d, size);
		return decompress(d, p + 8, size - 8, off, cb, arg);
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_AUXTRACE:
		if (in_z)
			goto nested;
		return handle_oob(d, p, size, type, off, cb, arg);
	case PERF_RECORD_HEADER_ATTR:
		if (!in_z && off >= d->processed_upto) {
			err = apply_header_attr(d, p, size, off);
			if (err)
				return err;
		}
		break;
	case PERF_RECORD_HEADER_FEATURE:
		if (!in_z && off >= d->processed_upto && !(d->swapped && d->skip_feature))
			apply_header_feature(d, p, size, off);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		apply_event_update(d, p, size);
		break;
	}
	if (!in_z) {
		if (off >= d->processed_upto)
			d->processed_upto = off + size;
		pulse_data__src_advance(d, size);
	}
	return deliver(d, p, size, off, cb, arg);

nested:
	if (!d->warned_nested) {
		pr_warn("perf.data: record type %u inside a COMPRESSED record at offset %#llx "
			"is not supported, skipped\n", type, (unsigned long long)off);
		d->warned_nested = true;
	}
	return 0;
}

/*
 * Keep the resident part of a big mapped file small: pages of the data
 * section more than two windows behind the walk are dropped. They stay
 * valid (a private read-only file mapping refaults from the page cache), so
 * records still queued for time ordering may point there.
 *
 * The window ahead is mapped in one call (MADV_POPULATE_READ, Linux 5.14)
 * instead of one page fault per 64 KB the kernel maps around a fault: a
 * 200 MB file took some 3,000 faults to walk. An older kernel refuses the
 * advice and the walk faults as before.
 *
 * A file of more than one window has that call made on a helper thread
 * (prefetch.c), asked at every half window for the window ahead, so the
 * resident part stays as before (at most one window ahead). On the 540 MB
 * --call-graph dwarf files of bench/mkdata-dwarf.sh it took some 60 ms of
 * CPU off the walking thread of `pulse report --stdio` (python3's: 307 ->
 * 250 ms, median of 5, cpu-clock samples of that thread), the same total;
 * wall time gains only where the second core is free.
 */
#define RSS_WINDOW (32ULL << 20)
#define PREFETCH_STEP (RSS_WINDOW / 2)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static void populate_ahead(struct pulse_data *d, __u64 start, __u64 end)
{
	if (!d->prefetch && !d->no_prefetch) {
		/* a small file: one call, no thread to race the walk on its pages */
		d->no_prefetch = d->map_len - start <= RSS_WINDOW ||
				 pulse_prefetch__start(&d->prefetch, d->map, d->map_len, start);
		if (d->prefetch)
			pr_debug("perf.data: windows populated ahead on a helper thread\n");
	}
	if (d->prefetch) {
		pulse_prefetch__want(d->prefetch, start, end);
		d->populated = start + PREFETCH_STEP < end ? start + PREFETCH_STEP : end;
		return;
	}
	if (end > start)
		madvise((char *)d->map + start, end - start, MADV_POPULATE_READ);
	d->populated = end;
}

static void window_step(struct pulse_data *d, __u64 off)
{
	static long page;
	__u64 start, end;

	if (!d->map || d->chunked || (off < d->populated && off < d->dropped + 2 * RSS_WINDOW))
		return;
	if (!page)
		page = sysconf(_SC_PAGESIZE);
	if (off >= d->populated) {
		start = off & ~((__u64)page - 1);
		end = start + RSS_WINDOW < d->map_len ? start + RSS_WINDOW : d->map_len;
		populate_ahead(d, start, end);
	}
	if (off < d->dropped + 2 * RSS_WINDOW)
		return;
	start = d->dropped ? d->dropped : d->data_offset;
	start = (start + page - 1) & ~((__u64)page - 1);
	end = (off - RSS_WINDOW) & ~((__u64)page - 1);
	if (end > start)
		madvise((char *)d->map + start, end - start, MADV_DONTNEED);
	d->dropped = end;
}

#define PREFETCH_AHEAD 4096

static int walk_records(struct pulse_data *d, pulse_data_record_fn cb, void *arg)
{
	while (!d->stop) {
		const unsigned char *p;
		__u64 off = pulse_data__src_pos(d);
		size_t n = pulse_data__src_peek(d, 8, &p), size;
		__u32 type;
		int err;

		if (n == 0) {
			if (d->serr)
				return d->serr;
			if (!d->stream && off < d->declared_end)
				mark_damage(d, off, "data section cut short");
			break;
		}
		if (n < 8) {
			mark_damage(d, off, "record header cut short");
			break;
		}
		size = get_u16(p + 6);
		type = get_u32(p);
		if (d->swapped) {
			size = __builtin_bswap16(size);
			type = __builtin_bswap32(type);
		}
		if (size < 8) {
			/*
			 * Damage (a file or a pipe), or where the records of a
			 * killed recording end (a zero-filled tail): nothing past
			 * it can be framed, but every whole record before it was
			 * delivered, and the caller warns with the offset.
			 */
			mark_damage(d, off, "record smaller than its header");
			break;
		}
		if (d->recovering && (type == 0 || type >= RECOVERY_MAX_TYPE)) {
			mark_damage(d, off, "invalid record type");
			break;
		}
		if (d->prefix_mode && !is_prefix_type(type))
			return 0;
		if (pulse_data__src_peek(d, size, &p) < size) {
			if (d->serr)
				return d->serr;
			mark_damage(d, off, "record cut short");
			break;
		}
		if (!d->stream)
			__builtin_prefetch(p + PREFETCH_AHEAD);
		err = handle_record(d, p, size, off, cb, arg, false);
		if (err)
			return err;
		if (off + size > d->walk_end)
			d->walk_end = off + size;
		window_step(d, off);
	}
	if (d->zlen && !d->unreadable) {
		d->unreadable = true;
		d->unreadable_off = d->zoff;
		d->unreadable_bytes = d->zlen;
		pr_debug("perf.data: %zu decompressed bytes left without a whole record\n",
			 d->zlen);
	}
	return 0;
}

/*
 * Big files are read into reused buffers (chunks.c) rather than walked in
 * their mapping: data sections of at least CHUNKED_MIN bytes, in reads of
 * CHUNK_SIZE. Not for a directory's files, a file of a dynamic PMU's
 * events (Intel PT's setup keeps AUXTRACE records where they are read)
 * or a walk of the prefix records only. PULSE_READ_CHUNK=N (bytes, 64 KiB
 * at least) reads every such file so, in reads of N; 0 never: for tests.
 */
#define CHUNK_SIZE	(512 * 1024)
#define CHUNKED_MIN	(8ULL << 20)
#define CHUNK_SIZE_MIN	(64 * 1024)

static bool walk__chunked(struct pulse_data *d, size_t *size)
{
	const char *env = getenv("PULSE_READ_CHUNK");
	__u64 min = CHUNKED_MIN;

	*size = CHUNK_SIZE;
	if (env) {
		unsigned long long v = strtoull(env, NULL, 0);

		if (!v)
			return false;
		*size = v < CHUNK_SIZE_MIN ? CHUNK_SIZE_MIN : v > (1ULL << 30) ? 1ULL << 30 : v;
		min = 0;
	}
	if (d->stream || !d->map || d->pipe || d->hdr_path || d->prefix_mode || d->fd < 0 ||
	    d->lim - d->pos < min)
		return false;
	for (size_t i = 0; i < d->nr_attrs; i++)
		if (d->attrs[i]->attr.type >= PERF_TYPE_MAX)
			return false;
	return true;
}

int pulse_data__walk(struct pulse_data *d, pulse_data_record_fn cb, void *arg)
{
	size_t size;
	int err;

	d->dropped = 0;
	d->populated = 0;
	d->no_prefetch = false;
	d->chunked = false;
	if (walk__chunked(d, &size) && (d->chunks || !pulse_chunks__new(&d->chunks, d->fd, size)) &&
	    !pulse_chunks__walk(d->chunks, d->pos, d->lim)) {
		d->chunked = true;
		pr_debug("perf.data: data section read in %zu-byte chunks on a helper thread\n", size);
	}
	err = walk_records(d, cb, arg);
	/* the helpers end with the walk: a callback may unmap the file after */
	pulse_prefetch__stop(d->prefetch);
	d->prefetch = NULL;
	if (d->chunked)
		pulse_chunks__end_walk(d->chunks);
	d->chunked = false;
	return err;
}

static void reset_walk(struct pulse_data *d)
{
	d->stop = false;
	d->walk_end = 0;
	d->unreadable = false;
	d->unreadable_off = d->unreadable_bytes = 0;
	d->zlen = 0;
	if (d->zctx)
		ZSTD_DCtx_reset(d->zctx, ZSTD_reset_session_only);
}

void pulse_data__set_deliver_compressed(struct pulse_data *d, bool on)
{
	d->deliver_z = on;
}

/**
 * pulse_data__for_each_record - deliver every record in file order
 * @d: the reader
 * @cb: called per record; a non-zero return stops the walk and is returned
 * @arg: passed to @cb
 *
 * Return: 0 (also when damage ended the walk, see pulse_data__unreadable()),
 * @cb's return, or a negative errno.
 */
int pulse_data__for_each_record(struct pulse_data *d, pulse_data_record_fn cb, void *arg)
{
	int err;

	pulse_data__error_reset();
	if (!d->stream) {
		reset_walk(d);
		d->pos = d->pipe ? PIPE_HEADER_SIZE : d->data_offset;
		d->lim = d->pipe ? d->mem_len : (d->declared_end < d->file_size ?
						 d->declared_end : d->file_size);
		err = pulse_data__walk(d, cb, arg);
		if (!err && d->nr_dir)
			err = pulse_data__walk_dir(d, cb, arg);
		return err;
	}
	if (!d->replayed) {
		d->replayed = true;
		for (size_t i = 0; i < d->nr_saved; i++) {
			const struct perf_event_header *h = d->saved[i].p;

			err = cb(d, h, d->saved[i].off, arg);
			if (err)
				return err;
		}
	}
	if (d->stop)
		return 0;
	return pulse_data__walk(d, cb, arg);
}
