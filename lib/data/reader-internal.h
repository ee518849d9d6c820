/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf.data reader's state and the helpers its files share; not part
 * of the public API. The reader is one object (struct pulse_data) in six
 * files, one per responsibility:
 *
 *   reader.c         open (file, buffer, stream), close, pipe-mode prefix,
 *                    what the header says
 *   reader-file.c    file mode: header, attr table, feature table, recovery
 *                    of an unfinished header
 *   reader-attr.c    attrs, their ids and names, routing a record to its attr
 *   reader-source.c  the bytes: a buffer walked in place or a stream refilled
 *   reader-walk.c    the record walk: COMPRESSED records, out-of-band
 *                    payloads, in-band header records, damage
 *   reader-dir.c     a directory (perf record --threads): the header file,
 *                    then each data.N file's records
 *   corrupt.c        what made the last call of a thread fail with -EBADMSG
 */
#ifndef PULSE_DATA_READER_INTERNAL_H
#define PULSE_DATA_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <zstd.h>

#include <pulse/id-index.h>
#include <pulse/reader.h>
#include "core/internal.h"

#define PIPE_HEADER_SIZE	16
#define FILE_HEADER_SIZE	104
/* The header before feature bits existed; perf still reads it. */
#define FILE_HEADER_SIZE_OLD	72
#define ATTR_SIZE_VER0		64
/* the largest AUXTRACE payload copied out of a stream */

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
	char *path;			/* as opened, for warnings; NULL: a buffer */
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
	__u64 populated;		/* data pages below this were mapped ahead (madvise) */
	struct pulse_prefetch *prefetch;	/* the helper mapping ahead (prefetch.c) */
	bool no_prefetch;		/* no helper for this walk: map ahead in line */
	/* a big file's data section read into reused buffers (chunks.c), not walked in place */
	struct pulse_chunks *chunks;
	bool chunked;			/* this walk reads through @chunks */

	struct attr_ent **attrs;
	size_t nr_attrs;
	struct pulse_id_index ids;	/* every attr's ids -> its index */
	bool same_id_pos;		/* every attr puts its id at the same place */
	int id_pos[2];			/* then there: [is_sample], pulse_sample__id_offset() */

	struct feat_ent feats[PULSE_FEAT_MAX];

	const void *tracing;
	size_t tracing_len;
	void *tracing_owned;
	/*
	 * The AUX data of the AUXTRACE record being delivered (reader-walk.c):
	 * in place in a file or buffer; from a stream, a copy in aux_buf when
	 * keep_aux (the default), grown with what arrives.
	 */
	const unsigned char *aux_data;
	__u64 aux_len;
	unsigned char *aux_buf;
	size_t aux_cap;
	bool skip_aux;

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

	/* a directory (perf record --threads): its data.N files (reader-dir.c) */
	struct dir_file *dir;
	size_t nr_dir;
	char *hdr_path;			/* DIR/data */
	const char *walk_path;		/* the file being walked; NULL: not a directory */
	const char *unreadable_path;	/* the file the walk stopped in (a directory's) */
	__u64 dir_version;
};

struct dir_file {
	char *path;
	void *map;
	size_t len;
};

/* Record @what at @off as this thread's last error; returns -EBADMSG. */
int pulse_data__corrupt(__u64 off, const char *what);
/* Forget the last error (each public entry point starts with this). */
void pulse_data__error_reset(void);
bool pulse_data__has_error(void);

#undef PULSE_CORRUPT
#define PULSE_CORRUPT(off, what) pulse_data__corrupt((off), (what))

static inline __u64 bswap64_if(bool swap, __u64 v)
{
	return swap ? __builtin_bswap64(v) : v;
}

/* reader-attr.c */
int pulse_data__index_ids(struct pulse_data *d);
int pulse_data__copy_attr(struct perf_event_attr *dst, const unsigned char *src, size_t avail,
			  __u64 off, size_t *used);
int pulse_data__add_attr(struct pulse_data *d, const struct perf_event_attr *attr,
			 const unsigned char *ids, size_t nr_ids);
void pulse_data__parse_event_desc(struct pulse_data *d, const unsigned char *p, size_t len,
				  __u64 off);
/* pulse_data__attr_of() of a native record or, with @swap, of a foreign one */
int pulse_data__attr_of_swap(const struct pulse_data *d, const unsigned char *r, size_t size,
			     bool swap);

/* reader-file.c */
int pulse_data__open_file(struct pulse_data *d);

/* reader-source.c */
__u64 pulse_data__src_pos(const struct pulse_data *d);
size_t pulse_data__src_peek(struct pulse_data *d, size_t want, const unsigned char **p);
void pulse_data__src_advance(struct pulse_data *d, size_t n);
__u64 pulse_data__src_consume(struct pulse_data *d, __u64 n, unsigned char *dst);

/* reader-dir.c */
int pulse_data__open_dir(struct pulse_data *d, const char *path);
int pulse_data__walk_dir(struct pulse_data *d, pulse_data_record_fn cb, void *arg);
void pulse_data__close_dir(struct pulse_data *d);

/* reader-walk.c */
int pulse_data__walk(struct pulse_data *d, pulse_data_record_fn cb, void *arg);

/*
 * chunks.c: the data section read with pread() ahead of the walk into a few
 * reused buffers; records are handed out in place and may be pinned.
 */
struct pulse_chunks;
int pulse_chunks__new(struct pulse_chunks **out, int fd, size_t size);
void pulse_chunks__delete(struct pulse_chunks *c);
/* Start reading [@from, @end) for a walk (ends the last walk's). */
int pulse_chunks__walk(struct pulse_chunks *c, __u64 from, __u64 end);
/* The walk is over: the reader stops; pinned buffers stay until unpinned. */
void pulse_chunks__end_walk(struct pulse_chunks *c);
/*
 * Up to @want (at most 64 KiB) contiguous bytes at file offset @pos, which
 * never goes back within a walk: fewer only at the end of the data or on a
 * read error (*@err). Valid until the next peek unless pinned.
 */
size_t pulse_chunks__peek(struct pulse_chunks *c, __u64 pos, size_t want,
			  const unsigned char **p, int *err);
/* Keep the record at @rec valid until unpinned: a handle, or NULL (copy it). */
void *pulse_chunks__pin(struct pulse_chunks *c, const void *rec, size_t size);
void pulse_chunks__unpin(struct pulse_chunks *c, void *pin);

/* prefetch.c: a thread populating [from, upto) of a mapping ahead of the walk */
struct pulse_prefetch;
int pulse_prefetch__start(struct pulse_prefetch **out, void *base, __u64 len, __u64 from);
/* The walk is at @walk; populate below @upto (capped to the mapping); never waits. */
void pulse_prefetch__want(struct pulse_prefetch *pf, __u64 walk, __u64 upto);
/* Stop after the chunk in hand, join, free; NULL is a no-op. */
void pulse_prefetch__stop(struct pulse_prefetch *pf);

#endif
