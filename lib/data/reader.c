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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <pulse/reader.h>
#include "core/internal.h"

#define PIPE_HEADER_SIZE	16
#define FILE_HEADER_SIZE	104
/* The header before feature bits existed; perf still reads it. */
#define FILE_HEADER_SIZE_OLD	72
#define ATTR_SIZE_VER0		64
/* A stream is refilled in chunks; it must hold the largest record. */
#define STREAM_BUF_SIZE		(256 * 1024)
/* Decompressed records; one may be carried over into the next chunk. */
#define ZBUF_SIZE		(256 * 1024)
/* Kernel types are below 64, perf's user types below 128. */
#define RECOVERY_MAX_TYPE	128

struct attr_ent {
	struct perf_event_attr attr;
	__u64 *ids;
	size_t nr_ids;
	char *name;
};

struct id_ent {
	__u64 id;
	size_t idx;
};

struct feat_ent {
	const void *p;
	size_t len;
	bool owned;
};

struct saved_rec {
	void *p;
	__u64 off;
};

struct pulse_data {
	/* file or buffer image */
	const unsigned char *mem;
	size_t mem_len;
	void *map;
	size_t map_len;

	/* stream */
	int fd;
	bool stream;
	unsigned char *sbuf;
	size_t spos, send;
	__u64 soff;			/* stream offset of sbuf[0] */
	bool seof;
	int serr;

	bool pipe;
	bool swapped;			/* recorded on a machine of the other endianness */
	unsigned char *swbuf[2];	/* swapped copies: a record, one from COMPRESSED */
	bool skip_feature;		/* a HEADER_FEATURE we cannot swap */
	__u64 walk_end;			/* end of the last record read from the file */
	struct pulse_file_header hdr;
	__u64 data_offset, data_size, file_size;
	bool recovering;
	bool data_cut;			/* data section runs past the end of the file */
	__u64 dropped;			/* data pages below this were released (madvise) */

	struct attr_ent **attrs;
	size_t nr_attrs;
	struct id_ent *ids;
	size_t nr_ids;
	bool same_id_pos;		/* every attr puts its id at the same place */

	struct feat_ent feats[PULSE_FEAT_MAX];

	const void *tracing;
	size_t tracing_len;
	void *tracing_owned;

	/* walk state */
	size_t pos, lim;		/* buffer walks */
	__u64 declared_end;
	bool stop;
	bool unreadable;
	__u64 unreadable_off, unreadable_bytes;
	__u64 processed_upto;		/* HEADER_ATTR/FEATURE before this were applied */
	bool prefix_mode;
	struct saved_rec *saved;
	size_t nr_saved;
	bool replayed;

	__u64 *recbuf;			/* aligned copy of an unaligned record */

	ZSTD_DCtx *zctx;
	unsigned char *zbuf;
	size_t zlen;
	__u64 zoff;
	bool warned_nested;
	bool deliver_z;			/* hand out COMPRESSED records too */
};

/*
 * What made the last call of this thread fail with -EBADMSG. The library
 * only logs it at debug level: the caller prints it, once, as its error.
 */
static __thread const char *last_err;
static __thread __u64 last_err_off;

static int corrupt(__u64 off, const char *what)
{
	last_err = what;
	last_err_off = off;
	pr_debug("perf.data: %s at offset %#llx\n", what, (unsigned long long)off);
	return -EBADMSG;
}

#undef PULSE_CORRUPT
#define PULSE_CORRUPT(off, what) corrupt((off), (what))

static __u64 bswap64_if(bool swap, __u64 v)
{
	return swap ? __builtin_bswap64(v) : v;
}

/* ---- attrs and ids ------------------------------------------------------ */

static int id_cmp(const void *a, const void *b)
{
	const struct id_ent *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Rebuild the sorted id index and the id-position fast path. */
static int index_ids(struct pulse_data *d)
{
	struct id_ent *ids;
	size_t n = 0, k = 0;

	for (size_t i = 0; i < d->nr_attrs; i++)
		n += d->attrs[i]->nr_ids;
	ids = n ? calloc(n, sizeof(*ids)) : NULL;
	if (n && !ids)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr_attrs; i++)
		for (size_t j = 0; j < d->attrs[i]->nr_ids; j++)
			ids[k++] = (struct id_ent){ d->attrs[i]->ids[j], i };
	if (n)
		qsort(ids, n, sizeof(*ids), id_cmp);
	free(d->ids);
	d->ids = ids;
	d->nr_ids = n;

	d->same_id_pos = true;
	for (size_t i = 1; i < d->nr_attrs; i++) {
		const struct perf_event_attr *a = &d->attrs[0]->attr, *b = &d->attrs[i]->attr;

		if (pulse_sample__id_offset(a->sample_type, true) !=
			    pulse_sample__id_offset(b->sample_type, true) ||
		    a->sample_id_all != b->sample_id_all ||
		    (a->sample_id_all &&
		     pulse_sample__id_offset(a->sample_type, false) !=
			     pulse_sample__id_offset(b->sample_type, false)))
			d->same_id_pos = false;
	}
	return 0;
}

/*
 * Copy an on-disk attr of any size into a full struct. Smaller attrs are
 * older ABIs (the missing fields are zero by definition); larger ones are
 * fine as long as the fields we do not know are zero.
 */
static int copy_attr(struct perf_event_attr *dst, const unsigned char *src, size_t avail,
		     __u64 off, size_t *used)
{
	__u32 sz;

	if (avail < ATTR_SIZE_VER0)
		return PULSE_CORRUPT(off, "attr cut short");
	sz = get_u32(src + offsetof(struct perf_event_attr, size));
	if (!sz)
		sz = ATTR_SIZE_VER0;
	if (sz < ATTR_SIZE_VER0 || sz > avail)
		return PULSE_CORRUPT(off, "bad attr.size");
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, sz < sizeof(*dst) ? sz : sizeof(*dst));
	for (size_t i = sizeof(*dst); i < sz; i++) {
		if (src[i]) {
			pr_warn("perf.data: the attr at offset %#llx is %u bytes with fields this "
				"pulse does not know (byte %zu is not zero); not supported\n",
				(unsigned long long)off, sz, i);
			return -EOPNOTSUPP;
		}
	}
	dst->size = sizeof(*dst);
	*used = sz;
	return 0;
}

static int add_attr(struct pulse_data *d, const struct perf_event_attr *attr,
		    const unsigned char *ids, size_t nr_ids)
{
	struct attr_ent *a;

	struct attr_ent **v;

	/* entries stay put: pointers handed out survive later HEADER_ATTRs */
	v = realloc(d->attrs, (d->nr_attrs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->attrs = v;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->attr = *attr;
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(__u64));
		if (!a->ids) {
			free(a);
			return -ENOMEM;
		}
		memcpy(a->ids, ids, nr_ids * sizeof(__u64));
		a->nr_ids = nr_ids;
	}
	d->attrs[d->nr_attrs++] = a;
	return 0;
}

static void set_name(struct pulse_data *d, __u64 id, size_t fallback_idx, const char *name,
		     size_t len)
{
	int idx = id ? pulse_data__attr_of_id(d, id) : -ENOENT;
	struct attr_ent *a;

	if (idx < 0) {
		if (fallback_idx >= d->nr_attrs)
			return;
		idx = fallback_idx;
	}
	a = d->attrs[idx];
	if (a->name)
		return;
	a->name = strndup(name, len);
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr, u32 nr_ids,
 * a perf_header_string name (u32 len; char[len]) and the ids. Names are
 * matched to attrs by their first id, as perf does. A malformed payload
 * only loses the names.
 */
static void parse_event_desc(struct pulse_data *d, const unsigned char *p, size_t len,
			     __u64 off)
{
	size_t pos = 8;
	__u32 nr, asz;

	if (len < 8)
		goto bad;
	nr = get_u32(p);
	asz = get_u32(p + 4);
	if (asz < ATTR_SIZE_VER0)
		goto bad;
	for (__u32 i = 0; i < nr; i++) {
		__u32 nr_ids, slen;
		const char *name;

		if (asz > len - pos || len - pos - asz < 8)
			goto bad;
		pos += asz;
		nr_ids = get_u32(p + pos);
		slen = get_u32(p + pos + 4);
		pos += 8;
		if (slen > len - pos)
			goto bad;
		name = (const char *)p + pos;
		pos += slen;
		if (nr_ids > (len - pos) / 8)
			goto bad;
		set_name(d, nr_ids ? get_u64(p + pos) : 0, i, name, strnlen(name, slen));
		pos += (size_t)nr_ids * 8;
	}
	return;
bad:
	pr_warn("perf.data: malformed EVENT_DESC at offset %#llx, event names ignored\n",
		(unsigned long long)off);
}

/* ---- file mode header ----------------------------------------------------- */

static bool section_ok(const struct pulse_file_section *s, __u64 file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static bool feat_bit(const struct pulse_file_header *h, unsigned int bit)
{
	return h->adds_features[bit / 64] >> (bit % 64) & 1;
}

static int read_attrs(struct pulse_data *d)
{
	const struct pulse_file_header *h = &d->hdr;
	size_t nr;

	if (!section_ok(&h->attrs, d->file_size))
		return PULSE_CORRUPT(24, "attrs section outside the file");
	if (!h->attrs.size)
		return 0;
	if (h->attr_size < ATTR_SIZE_VER0 + sizeof(struct pulse_file_section) ||
	    h->attr_size > h->attrs.size || h->attrs.size % h->attr_size)
		return PULSE_CORRUPT(16, "bad attr_size");
	nr = h->attrs.size / h->attr_size;
	for (size_t i = 0; i < nr; i++) {
		__u64 off = h->attrs.offset + i * h->attr_size;
		const unsigned char *p = d->mem + off;
		struct pulse_file_section ids;
		struct perf_event_attr attr;
		size_t used;
		int err;

		if (d->swapped) {
			unsigned char *tmp = malloc(h->attr_size);

			if (!tmp)
				return -ENOMEM;
			memcpy(tmp, p, h->attr_size);
			err = pulse_data__swap_attr(tmp, h->attr_size - sizeof(ids), true);
			if (!err)
				err = copy_attr(&attr, tmp, h->attr_size - sizeof(ids), off, &used);
			free(tmp);
			if (err == -EBADMSG && !last_err)
				err = PULSE_CORRUPT(off, "bad attr.size");
		} else {
			err = copy_attr(&attr, p, h->attr_size - sizeof(ids), off, &used);
		}
		if (err)
			return err;
		/* perf reads the ids section right after attr.size bytes */
		memcpy(&ids, p + used, sizeof(ids));
		ids.offset = bswap64_if(d->swapped, ids.offset);
		ids.size = bswap64_if(d->swapped, ids.size);
		if (!section_ok(&ids, d->file_size) || ids.size % 8)
			return PULSE_CORRUPT(off + used, "attr ids section outside the file");
		err = add_attr(d, &attr, d->mem + ids.offset, ids.size / 8);
		if (err)
			return err;
		if (d->swapped)
			for (size_t j = 0; j < d->attrs[d->nr_attrs - 1]->nr_ids; j++)
				d->attrs[d->nr_attrs - 1]->ids[j] =
					__builtin_bswap64(d->attrs[d->nr_attrs - 1]->ids[j]);
	}
	return 0;
}

static int read_features(struct pulse_data *d)
{
	const struct pulse_file_header *h = &d->hdr;
	__u64 table = d->data_offset + d->data_size;
	size_t nr = 0, k = 0;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		nr += feat_bit(h, bit);
	if (!nr)
		return 0;
	if (d->data_cut) {
		pr_warn("perf.data: data section runs past the end of the file; "
			"the features after it are lost\n");
		return 0;
	}
	if (table > d->file_size || nr * sizeof(struct pulse_file_section) > d->file_size - table)
		return PULSE_CORRUPT(table, "feature table outside the file");

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++) {
		__u64 off = table + k * sizeof(struct pulse_file_section);
		struct pulse_file_section s;

		if (!feat_bit(h, bit))
			continue;
		k++;
		memcpy(&s, d->mem + off, sizeof(s));
		s.offset = bswap64_if(d->swapped, s.offset);
		s.size = bswap64_if(d->swapped, s.size);
		if (!section_ok(&s, d->file_size))
			return PULSE_CORRUPT(off, "feature section outside the file");
		if (d->swapped && bit != PULSE_FEAT_TRACING_DATA) {
			void *copy = malloc(s.size ? s.size : 1);

			if (!copy)
				return -ENOMEM;
			memcpy(copy, d->mem + s.offset, s.size);
			if (pulse_data__swap_feature(bit, copy, s.size, true)) {
				pr_debug("perf.data: feature %u of a byte-swapped file dropped: "
					 "unknown or damaged layout\n", bit);
				free(copy);
				continue;
			}
			d->feats[bit] = (struct feat_ent){ copy, s.size, true };
			continue;
		}
		d->feats[bit] = (struct feat_ent){ d->mem + s.offset, s.size, false };
	}
	if (d->feats[PULSE_FEAT_TRACING_DATA].p) {
		d->tracing = d->feats[PULSE_FEAT_TRACING_DATA].p;
		d->tracing_len = d->feats[PULSE_FEAT_TRACING_DATA].len;
	}
	if (d->feats[PULSE_FEAT_EVENT_DESC].p)
		parse_event_desc(d, d->feats[PULSE_FEAT_EVENT_DESC].p,
				 d->feats[PULSE_FEAT_EVENT_DESC].len,
				 d->feats[PULSE_FEAT_EVENT_DESC].owned ? 0 :
				 (const unsigned char *)d->feats[PULSE_FEAT_EVENT_DESC].p - d->mem);
	return 0;
}

/* Does a whole, in-file feature table sit at @table? (no side effects) */
static bool feature_table_ok(const struct pulse_data *d, __u64 table)
{
	size_t nr = 0;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		nr += feat_bit(&d->hdr, bit);
	if (table > d->file_size || nr * sizeof(struct pulse_file_section) > d->file_size - table)
		return false;
	for (size_t k = 0; k < nr; k++) {
		struct pulse_file_section s;

		memcpy(&s, d->mem + table + k * sizeof(s), sizeof(s));
		s.offset = bswap64_if(d->swapped, s.offset);
		s.size = bswap64_if(d->swapped, s.size);
		if (!section_ok(&s, d->file_size))
			return false;
	}
	return true;
}

static int open_file_mode(struct pulse_data *d)
{
	struct pulse_file_header *h = &d->hdr;
	bool any_feat = false;
	int err;

	if (d->mem_len < FILE_HEADER_SIZE_OLD)
		return PULSE_CORRUPT(0, "file header cut short");
	memset(h, 0, sizeof(*h));
	memcpy(h, d->mem, FILE_HEADER_SIZE_OLD);
	if (bswap64_if(d->swapped, h->size) == FILE_HEADER_SIZE) {
		if (d->mem_len < FILE_HEADER_SIZE)
			return PULSE_CORRUPT(0, "file header cut short");
		memcpy(h, d->mem, FILE_HEADER_SIZE);
	}
	if (d->swapped) {
		/* every header field is a u64; so is each word of the feature bitmap */
		__u64 *w = (__u64 *)h;

		for (size_t i = 0; i < sizeof(*h) / 8; i++)
			w[i] = __builtin_bswap64(w[i]);
	}
	if (h->size != FILE_HEADER_SIZE && h->size != FILE_HEADER_SIZE_OLD) {
		return PULSE_CORRUPT(8, "bad file header size");
	}
	d->file_size = d->mem_len;
	d->data_offset = h->data.offset;
	d->data_size = h->data.size;
	if (h->data.offset > d->file_size || h->data.offset < h->size)
		return PULSE_CORRUPT(40, "data section outside the file");
	if (h->data.size > UINT64_MAX - h->data.offset)
		return PULSE_CORRUPT(48, "bad data section size");

	err = read_attrs(d);
	if (err)
		return err;
	err = index_ids(d);
	if (err)
		return err;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		any_feat |= feat_bit(h, bit);
	/*
	 * A recorder killed before its final header rewrite leaves either no
	 * feature bits (pulse's periodic rewrite) or data.size 0 (perf's
	 * first header, whose feature bits point at a table never written).
	 * A finished file without records has data.size 0 too, but then its
	 * feature table is where it belongs.
	 */
	if ((h->data.size == 0 && !(any_feat && feature_table_ok(d, h->data.offset))) ||
	    (!any_feat && d->file_size > h->data.offset + h->data.size)) {
		d->recovering = true;
		d->declared_end = d->file_size;
		pr_debug("perf.data: header never finalised: reading records up to EOF\n");
		return 0;
	}
	d->declared_end = h->data.offset + h->data.size;
	d->data_cut = d->declared_end > d->file_size;
	return read_features(d);
}

/* ---- sources: a buffer or a stream --------------------------------------- */

static __u64 src_pos(const struct pulse_data *d)
{
	return d->stream ? d->soff + d->spos : d->pos;
}

/* Make up to @want bytes contiguous at the current position; returns how many. */
static size_t src_peek(struct pulse_data *d, size_t want, const unsigned char **p)
{
	if (!d->stream) {
		size_t left = d->lim - d->pos;

		*p = d->mem + d->pos;
		return want < left ? want : left;
	}
	if (d->send - d->spos < want && !d->seof) {
		memmove(d->sbuf, d->sbuf + d->spos, d->send - d->spos);
		d->send -= d->spos;
		d->soff += d->spos;
		d->spos = 0;
		while (d->send < want) {
			ssize_t n = read(d->fd, d->sbuf + d->send, STREAM_BUF_SIZE - d->send);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				d->serr = -errno;
			if (n <= 0) {
				d->seof = true;
				break;
			}
			d->send += n;
		}
	}
	*p = d->sbuf + d->spos;
	return want < d->send - d->spos ? want : d->send - d->spos;
}

static void src_advance(struct pulse_data *d, size_t n)
{
	if (d->stream)
		d->spos += n;
	else
		d->pos += n;
}

/*
 * Consume an out-of-band payload, copying it to @dst (NULL: discard).
 * Returns the bytes consumed, less than @n at the end of the input.
 */
static __u64 src_consume(struct pulse_data *d, __u64 n, unsigned char *dst)
{
	__u64 done = 0;

	while (done < n) {
		const unsigned char *p;
		size_t chunk = n - done > STREAM_BUF_SIZE ? STREAM_BUF_SIZE : n - done;
		size_t got = src_peek(d, chunk, &p);

		if (!got)
			break;
		if (dst)
			memcpy(dst + done, p, got);
		src_advance(d, got);
		done += got;
	}
	return done;
}

/* ---- the walk -------------------------------------------------------------- */

static void mark_damage(struct pulse_data *d, __u64 off, const char *what)
{
	d->stop = true;
	if (d->unreadable)
		return;
	d->unreadable = true;
	d->unreadable_off = off;
	if (d->stream)	/* what is in hand: reading on could block on a live pipe */
		d->unreadable_bytes = src_pos(d) - off + (d->send - d->spos);
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

	err = copy_attr(&attr, p + 8, size - 8, off + 8, &used);
	if (err)
		return err;
	nr = (size - 8 - used) / 8;
	err = add_attr(d, &attr, p + 8 + used, nr);
	return err ? err : index_ids(d);
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
		parse_event_desc(d, copy, size - 16, off + 16);
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
	src_advance(d, size);

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
			n = src_consume(d, step, dst + got);
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
	got = src_consume(d, plen, NULL);
	if (got < plen) {
		mark_damage(d, off, "out-of-band payload cut short");
		return 0;
	}
	return deliver(d, (const unsigned char *)d->recbuf, size, off, cb, arg);
}

static int attr_of(const struct pulse_data *d, const unsigned char *r, size_t size, bool swap);

/*
 * A foreign record becomes native on a private copy: one buffer for the
 * records of the file, another for those unpacked from a COMPRESSED record,
 * whose own copy is still being read.
 */
static const unsigned char *swap_copy(struct pulse_data *d, const unsigned char *p, size_t size,
				      bool in_z)
{
	unsigned char *c = d->swbuf[in_z];
	int idx = attr_of(d, p, size, true), err;

	if (idx < 0)
		idx = 0;
	memcpy(c, p, size);
	err = pulse_data__swap_record(c, size, pulse_data__attr(d, idx), true);
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
			src_advance(d, size);
			return decompress(d, p + 16, dsz, off, cb, arg);
		}
		src_advance(d, size);
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
		src_advance(d, size);
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
 */
#define RSS_WINDOW (32ULL << 20)

static void drop_behind(struct pulse_data *d, __u64 off)
{
	long page = sysconf(_SC_PAGESIZE);
	__u64 start, end;

	if (!d->map || off < d->dropped + 2 * RSS_WINDOW)
		return;
	start = d->dropped ? d->dropped : d->data_offset;
	start = (start + page - 1) & ~((__u64)page - 1);
	end = (off - RSS_WINDOW) & ~((__u64)page - 1);
	if (end > start)
		madvise((char *)d->map + start, end - start, MADV_DONTNEED);
	d->dropped = end;
}

static int walk(struct pulse_data *d, pulse_data_record_fn cb, void *arg)
{
	d->dropped = 0;
	while (!d->stop) {
		const unsigned char *p;
		__u64 off = src_pos(d);
		size_t n = src_peek(d, 8, &p), size;
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
		if (src_peek(d, size, &p) < size) {
			if (d->serr)
				return d->serr;
			mark_damage(d, off, "record cut short");
			break;
		}
		err = handle_record(d, p, size, off, cb, arg, false);
		if (err)
			return err;
		if (off + size > d->walk_end)
			d->walk_end = off + size;
		drop_behind(d, off);
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
	err = walk(d, d->stream ? save_cb : nop_cb, NULL);
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

static struct pulse_data *data_new(void)
{
	struct pulse_data *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = -1;
	d->recbuf = malloc(PULSE_MAX_RECORD_SIZE);
	if (!d->recbuf) {
		free(d);
		return NULL;
	}
	return d;
}

static int open_image(struct pulse_data *d)
{
	bool pipe;
	int err;

	if (!d->mem_len)
		return -ENODATA;
	err = check_magic(d, d->mem, d->mem_len, &pipe);
	if (err)
		return err;
	return pipe ? open_pipe_mode(d) : open_file_mode(d);
}

int pulse_data__open_mem(struct pulse_data **dp, const void *buf, size_t len)
{
	struct pulse_data *d;
	int err;

	*dp = NULL;
	last_err = NULL;
	if (!buf && len)
		return -EINVAL;
	d = data_new();
	if (!d)
		return -ENOMEM;
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
	bool pipe;
	int err;

	d->stream = true;
	d->sbuf = malloc(STREAM_BUF_SIZE);
	if (!d->sbuf)
		return -ENOMEM;
	n = src_peek(d, PIPE_HEADER_SIZE, &p);
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
	src_advance(d, PIPE_HEADER_SIZE);
	return open_pipe_mode(d);
}

int pulse_data__open(struct pulse_data **dp, const char *path)
{
	struct pulse_data *d;
	struct stat st;
	int err;

	*dp = NULL;
	last_err = NULL;
	d = data_new();
	if (!d)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		d->fd = STDIN_FILENO;
	} else {
		d->fd = open(path, O_RDONLY | O_CLOEXEC);
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
	for (size_t i = 0; i < d->nr_attrs; i++) {
		free(d->attrs[i]->ids);
		free(d->attrs[i]->name);
		free(d->attrs[i]);
	}
	free(d->attrs);
	free(d->ids);
	for (size_t i = 0; i < PULSE_FEAT_MAX; i++)
		if (d->feats[i].owned)
			free((void *)d->feats[i].p);
	for (size_t i = 0; i < d->nr_saved; i++)
		free(d->saved[i].p);
	free(d->saved);
	free(d->tracing_owned);
	free(d->recbuf);
	free(d->swbuf[0]);
	free(d->swbuf[1]);
	free(d->sbuf);
	free(d->zbuf);
	ZSTD_freeDCtx(d->zctx);
	if (d->map)
		munmap(d->map, d->map_len);
	if (d->fd > STDIN_FILENO)
		close(d->fd);
	free(d);
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

	last_err = NULL;
	if (!d->stream) {
		reset_walk(d);
		d->pos = d->pipe ? PIPE_HEADER_SIZE : d->data_offset;
		d->lim = d->pipe ? d->mem_len : (d->declared_end < d->file_size ?
						 d->declared_end : d->file_size);
		return walk(d, cb, arg);
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
	return walk(d, cb, arg);
}

/* ---- accessors --------------------------------------------------------------- */

bool pulse_data__is_pipe(const struct pulse_data *d)
{
	return d->pipe;
}

size_t pulse_data__nr_attrs(const struct pulse_data *d)
{
	return d->nr_attrs;
}

const struct perf_event_attr *pulse_data__attr(const struct pulse_data *d, size_t idx)
{
	return idx < d->nr_attrs ? &d->attrs[idx]->attr : NULL;
}

const __u64 *pulse_data__attr_ids(const struct pulse_data *d, size_t idx, size_t *nr)
{
	if (idx >= d->nr_attrs) {
		*nr = 0;
		return NULL;
	}
	*nr = d->attrs[idx]->nr_ids;
	return d->attrs[idx]->ids;
}

const char *pulse_data__attr_name(const struct pulse_data *d, size_t idx)
{
	return idx < d->nr_attrs ? d->attrs[idx]->name : NULL;
}

int pulse_data__attr_of_id(const struct pulse_data *d, __u64 id)
{
	size_t lo = 0, hi = d->nr_ids;

	/* lower bound, so that a duplicated id goes to its first attr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nr_ids && d->ids[lo].id == id)
		return d->ids[lo].idx;
	return -ENOENT;
}

/* The attr of the id found where @attr's layout puts it; 0 when it has none. */
static int attr_of_layout(const struct pulse_data *d, const unsigned char *rec, size_t hsize,
			  bool is_sample, const struct perf_event_attr *attr, bool swap)
{
	int off;
	__u64 id;

	if (!is_sample && !attr->sample_id_all)
		return 0;
	off = pulse_sample__id_offset(attr->sample_type, is_sample);
	if (off == INT32_MIN)
		return 0;
	if (off >= 0) {
		if ((size_t)off + 8 > hsize)
			return -EBADMSG;
	} else if ((size_t)-off > hsize - sizeof(struct perf_event_header)) {
		return -EBADMSG;
	}
	id = bswap64_if(swap, get_u64(rec + (off >= 0 ? (size_t)off : hsize + off)));
	return id ? pulse_data__attr_of_id(d, id) : 0;
}

/* pulse_data__attr_of() of a native record or, with @swap, of a foreign one */
static int attr_of(const struct pulse_data *d, const unsigned char *r, size_t size, bool swap)
{
	size_t hsize;
	__u32 type;
	bool is_sample;

	if (!d->nr_attrs)
		return -ENOENT;
	if (d->nr_attrs == 1)
		return 0;
	if (size < sizeof(struct perf_event_header))
		return -EBADMSG;
	type = get_u32(r);
	hsize = get_u16(r + 6);
	if (swap) {
		type = __builtin_bswap32(type);
		hsize = __builtin_bswap16(hsize);
	}
	if (hsize < sizeof(struct perf_event_header) || hsize > size)
		return -EBADMSG;
	if (type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	is_sample = type == PERF_RECORD_SAMPLE;
	if (d->same_id_pos)
		return attr_of_layout(d, r, hsize, is_sample, &d->attrs[0]->attr, swap);
	/* mixed layouts: the right attr is the one whose layout finds its own id */
	for (size_t i = 0; i < d->nr_attrs; i++)
		if (attr_of_layout(d, r, hsize, is_sample, &d->attrs[i]->attr, swap) == (int)i)
			return i;
	return -ENOENT;
}

int pulse_data__attr_of(const struct pulse_data *d, const void *rec, size_t size)
{
	return attr_of(d, rec, size, false);
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

const char *pulse_data__error(__u64 *offset)
{
	*offset = last_err ? last_err_off : 0;
	return last_err;
}

bool pulse_data__unreadable(const struct pulse_data *d, __u64 *bytes, __u64 *offset)
{
	*bytes = d->unreadable ? d->unreadable_bytes : 0;
	*offset = d->unreadable ? d->unreadable_off : 0;
	return d->unreadable;
}
