/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data reader: file mode (mmap'ed, or a caller's buffer) and pipe mode
 * (a stream read incrementally, or a pipe-format buffer). Records come out
 * in file order, untouched, one callback per record; COMPRESSED records are
 * unpacked and their content delivered instead. Ordering by time, symbols
 * and everything else is built on top.
 *
 * Damage policy (issue 3's table): a bad header, attr table, feature table
 * or section that points outside the file makes pulse_data__open() fail
 * with -EBADMSG, and so does a record smaller than its header inside the
 * data the header vouches for (pulse_data__for_each_record()); then
 * pulse_data__error() says what and where, for the caller's one error
 * line. A data section cut short (or cut mid-record) only ends the
 * iteration: every whole record before it is delivered,
 * pulse_data__for_each_record() returns 0 and pulse_data__unreadable()
 * tells where reading stopped.
 *
 * A file whose feature bitmap is empty is what a recorder leaves when it is
 * killed before writing its final header; such a file is read past
 * data.size up to the first record that cannot be valid
 * (pulse_data__recovering(); pulse_data__recovered() says how much was
 * read past data.size).
 */
#ifndef PULSE_READER_H
#define PULSE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <pulse/data.h>

struct pulse_data;

/**
 * pulse_data__open - open a perf.data file
 * @d: set to the reader on success
 * @path: a file, or "-" for stdin (a pipe-mode stream unless stdin is a
 *        regular file)
 *
 * Byte-swapped files (recorded on a machine of the other endianness) are
 * read as native ones: header, attrs, ids, the features whose layout is
 * known (others are dropped) and every record are swapped on private
 * copies.
 *
 * Return: 0; -ENODATA for an empty file; -EBADMSG for a damaged header
 * (pulse_data__error() says where and what); -EOPNOTSUPP for an attr with
 * fields this pulse does not know; other -errno from open/mmap/read.
 */
int pulse_data__open(struct pulse_data **d, const char *path);

/**
 * pulse_data__open_mem - read a perf.data image held in memory
 * @d: set to the reader on success
 * @buf, @len: file or pipe format; the caller keeps @buf alive and unchanged
 *             until pulse_data__close()
 *
 * Return: as pulse_data__open().
 */
int pulse_data__open_mem(struct pulse_data **d, const void *buf, size_t len);

/* Free the reader; NULL is fine. Does not close stdin. */
void pulse_data__close(struct pulse_data *d);

/* ---- what the header says ---------------------------------------------- */

bool pulse_data__is_pipe(const struct pulse_data *d);

/* Number of events (attrs); in pipe mode, those seen so far. */
size_t pulse_data__nr_attrs(const struct pulse_data *d);

/*
 * The idx-th attr, copied into a full-size struct perf_event_attr whatever
 * attr.size the file used (attr.size is set to sizeof the struct); NULL when
 * idx is out of range. Attrs, ids and names stay valid until close, also
 * when pipe mode brings more attrs.
 */
const struct perf_event_attr *pulse_data__attr(const struct pulse_data *d, size_t idx);

/* The idx-th attr's sample ids; NULL with *nr = 0 when none. */
const __u64 *pulse_data__attr_ids(const struct pulse_data *d, size_t idx, size_t *nr);

/* The event name from EVENT_DESC (or an EVENT_UPDATE NAME record); NULL if none. */
const char *pulse_data__attr_name(const struct pulse_data *d, size_t idx);

/**
 * pulse_data__attr_of_id - the attr a sample id belongs to
 * Return: attr index; -ENOENT when no attr has @id.
 */
int pulse_data__attr_of_id(const struct pulse_data *d, __u64 id);

/**
 * pulse_data__attr_of - route a record to its attr
 * @rec, @size: the record and the bytes available at @rec
 *
 * The id is read where the attrs' sample_type puts it (IDENTIFIER or ID in
 * a SAMPLE, the sample_id trailer of other records). A file with one attr,
 * a record without an id, an id of 0 and records of user types (>= 64) all
 * go to attr 0.
 *
 * Return: attr index; -ENOENT for an unknown id or no attrs at all;
 * -EBADMSG when the record is too short for its id.
 */
int pulse_data__attr_of(const struct pulse_data *d, const void *rec, size_t size);

/* Feature bit set (file mode) or HEADER_FEATURE seen (pipe mode). */
bool pulse_data__has_feat(const struct pulse_data *d, int feat);

/**
 * pulse_data__feat - a feature section's payload
 * @len: set to its size
 *
 * Return: a pointer borrowed from the reader (valid until close), NULL when
 * the feature is absent. In pipe mode, from HEADER_FEATURE records seen so
 * far.
 */
const void *pulse_data__feat(const struct pulse_data *d, int feat, size_t *len);

/**
 * pulse_data__tracing_data - the tracepoint formats blob
 * @len: set to its size
 *
 * From the TRACING_DATA feature in file mode, from the out-of-band payload
 * of a HEADER_TRACING_DATA record in pipe mode (seen so far).
 * Return: borrowed pointer, or NULL.
 */
const void *pulse_data__tracing_data(const struct pulse_data *d, size_t *len);

/* The header's data section; pipe mode: offset 16, size 0. */
__u64 pulse_data__data_offset(const struct pulse_data *d);
__u64 pulse_data__data_size(const struct pulse_data *d);

/* Bytes of the file or buffer; a stream: bytes read so far. */
__u64 pulse_data__file_size(const struct pulse_data *d);

/* The file is read past data.size because its header was never finalised. */
bool pulse_data__recovering(const struct pulse_data *d);

/* ---- records ------------------------------------------------------------- */

/*
 * @rec is 8-aligned and header.size bytes long; it is valid during the call
 * only. @file_offset is where the record starts in the file or stream; for a
 * record unpacked from COMPRESSED records, the offset of the COMPRESSED
 * record being unpacked when it became whole.
 */
typedef int (*pulse_data_record_fn)(struct pulse_data *d, const struct perf_event_header *rec,
				    __u64 file_offset, void *arg);

/**
 * pulse_data__for_each_record - deliver every record in file order
 * @d: the reader
 * @cb: called per record; a non-zero return stops the walk and is returned
 * @arg: passed to @cb
 *
 * HEADER_ATTR, HEADER_FEATURE and EVENT_UPDATE records update the attrs,
 * features and names before they are delivered; the out-of-band payloads of
 * HEADER_TRACING_DATA and AUXTRACE are skipped (not part of @rec).
 * COMPRESSED records are not delivered themselves: their content is.
 * File and buffer readers can walk again; a stream is walked once (a second
 * call continues where the stream is).
 *
 * Return: 0 (also when damaged data ended the walk: see
 * pulse_data__unreadable()), @cb's non-zero return, -EBADMSG for a damaged
 * HEADER_ATTR record, -EOPNOTSUPP for an attr this pulse cannot read, or
 * -errno from reading a stream.
 */
int pulse_data__for_each_record(struct pulse_data *d, pulse_data_record_fn cb, void *arg);

/*
 * pulse_data__auxtrace_data - the AUX data after the AUXTRACE record being
 * delivered, valid during that callback only; NULL when the input has less
 * than the record's size says, or when a stream's data is not kept
 * (pulse_data__set_keep_auxtrace()). Sets @len to its size.
 */
const void *pulse_data__auxtrace_data(const struct pulse_data *d, uint64_t *len);

/*
 * Whether to copy AUXTRACE data out of a stream for the callback (files need
 * no copy): on by default; off when nothing reads it (report --stats).
 */
void pulse_data__set_keep_auxtrace(struct pulse_data *d, bool on);

/*
 * Also deliver each COMPRESSED (or COMPRESSED2) record itself, just before
 * the records unpacked from it: perf's stats count both (report -D).
 */
void pulse_data__set_deliver_compressed(struct pulse_data *d, bool on);

/*
 * pulse_data__add_synth_attr - an event a decoder synthesizes (perf's
 * perf_session__deliver_synth_attr_event()): @attr with one sample @id,
 * named @name, added after the file's own attrs.
 * Return: 0 or -ENOMEM.
 */
int pulse_data__add_synth_attr(struct pulse_data *d, const struct perf_event_attr *attr,
			       uint64_t id, const char *name);

/**
 * pulse_data__unreadable - did the last walk stop before the end of data?
 * @bytes: set to the bytes from @offset to the end the header claims (the
 *         end of the file when recovering; a stream: the bytes left in hand)
 * @offset: set to where the first unreadable record starts
 *
 * Return: true when the walk stopped at damage (the bytes may be partly
 * missing from a truncated file).
 */
bool pulse_data__unreadable(const struct pulse_data *d, __u64 *bytes, __u64 *offset);

/**
 * pulse_data__recovered - did the last walk read records past data.size?
 * @offset: set to where the header's data section ends (data.offset + size)
 * @bytes: set to the bytes of whole records delivered past it
 *
 * A recorder killed before its final header leaves a data.size short of
 * what it wrote (0 for perf); those records are read too.
 * Return: true when records beyond data.size were delivered.
 */
bool pulse_data__recovered(const struct pulse_data *d, __u64 *offset, __u64 *bytes);

/**
 * pulse_data__error - what made the last call in this thread fail with -EBADMSG
 * @offset: set to the file offset of the damage
 *
 * Set by pulse_data__open*() and pulse_data__for_each_record() when they
 * return -EBADMSG ("bad magic (not a perf.data file)", "record smaller than
 * its header", ...); the library only logs it at debug level, so that the
 * caller can print one line with it.
 * Return: the description, or NULL when the last call of this thread did
 * not fail with -EBADMSG.
 */
const char *pulse_data__error(__u64 *offset);

/*
 * pulse_data__corrupt - say that the input is damaged at @off: for a layer
 * above the reader that finds a record it cannot use (an AUXTRACE_INFO too
 * short for its PMU), so that pulse_data__error() tells it. @what must be
 * a static string.
 * Return: -EBADMSG.
 */
int pulse_data__corrupt(__u64 off, const char *what);

/*
 * A directory input (perf record --threads): DIR/data is read as the
 * file, then each walk goes on into the data.N files (see reader-dir.c).
 */
bool pulse_data__is_dir(const struct pulse_data *d);

/* Its DIR_FORMAT version (1), 0 for a file: what perf's header prints. */
uint64_t pulse_data__dir_version(const struct pulse_data *d);

/*
 * The file the walk is in (DIR/data, DIR/data.N; perf -D's "offset@file"),
 * valid during a walk's callbacks; NULL when the input is not a directory.
 */
const char *pulse_data__walk_path(const struct pulse_data *d);

/*
 * Does the record at @rec (@size bytes, as handed to a walk's callback)
 * stay where it is until pulse_data__close()? True for a record read in
 * place from a mapped file (the file's pages dropped behind the walk come
 * back from the page cache when read again), false for a copy (stream,
 * unaligned, byte-swapped, decompressed, a directory's data.N files).
 */
bool pulse_data__record_stays(const struct pulse_data *d, const void *rec, size_t size);

/*
 * A record of a big file is read into buffers the walk reuses, not walked
 * in its mapping: pulse_data__record_pin() keeps the one at @rec (as handed
 * to a walk's callback) where it is until pulse_data__record_unpin(), and
 * returns the handle to unpin; NULL when the record is not in such a buffer
 * or too many are held (copy it then). Walk thread only; unpin before
 * pulse_data__close().
 */
void *pulse_data__record_pin(struct pulse_data *d, const void *rec, size_t size);
void pulse_data__record_unpin(struct pulse_data *d, void *pin);

/* The file of a directory the last walk stopped in (pulse_data__unreadable()); else NULL. */
const char *pulse_data__unreadable_path(const struct pulse_data *d);

/* Was the file recorded on a machine of the other byte order? */
bool pulse_data__swapped(const struct pulse_data *d);

/* ---- byte order (lib/data/swap.c) ------------------------------------------ */

/*
 * In-place byte swaps of on-disk structures, both ways (@to_native: the
 * bytes are foreign and become native). The reader uses them on private
 * copies; a tool can use them to write a foreign file. Named after what
 * they swap: an attr, a record (perf's union perf_event); a feature
 * section's payload: pulse_feat__swap() in features.h.
 */
int pulse_attr__swap(void *attr, size_t avail, bool to_native);
int pulse_event__swap(void *rec, size_t size, const struct perf_event_attr *attr, bool to_native);

#endif
