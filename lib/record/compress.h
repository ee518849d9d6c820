/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pulse record -z: ring data compressed with zstd into PERF_RECORD_COMPRESSED
 * records (lib/record/compress.c), as perf 6.1's record__pushfn() and
 * zstd_compress_stream_to_records() make them. Private to lib/record/.
 *
 * One zstd stream per output: a reader decompresses the records in file
 * order, and a record written may continue in the next COMPRESSED record.
 * Each call ends with a zstd flush, so everything a COMPRESSED record
 * unpacks to came from one call (one ring batch): perf's reader unpacks a
 * record into a buffer of HEADER_COMPRESSED's mmap_len bytes.
 *
 * COMPRESSED record (perf's struct perf_record_compressed), not padded:
 *	offset	size	what
 *	0	8	perf_event_header: type 81, misc 0, size 8 + n
 *	8	n	zstd bytes, n <= PULSE_COMPRESSED_MAX_DATA
 */
#ifndef PULSE_RECORD_COMPRESS_H
#define PULSE_RECORD_COMPRESS_H

#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>

/* perf's PERF_SAMPLE_MAX_SIZE - sizeof(struct perf_record_compressed) - 1 */
#define PULSE_COMPRESSED_MAX_DATA	(65536 - 8 - 1)
/* perf's comp_level_max */
#define PULSE_COMPRESSION_LEVEL_MAX	22

struct pulse_record_zstd;

/**
 * pulse_record_zstd__new - a zstd stream at @level (1..22)
 * @out: set to the stream, NULL on failure
 *
 * Return: 0, -EINVAL for a level out of range, -ENOMEM. Free it with
 * pulse_record_zstd__delete().
 */
int pulse_record_zstd__new(struct pulse_record_zstd **out, int level);

/* Free a stream (NULL is a no-op). */
void pulse_record_zstd__delete(struct pulse_record_zstd *z);

/**
 * pulse_record_zstd__compress - @cnt iovecs of records into COMPRESSED records
 * @recs, @len: set to the COMPRESSED records, laid end to end (@len may be
 *	0); borrowed, valid until the next call or the delete
 *
 * Return: 0, -ENOMEM, or -EIO when zstd fails (the stream is then unusable).
 */
int pulse_record_zstd__compress(struct pulse_record_zstd *z, const struct iovec *iov, int cnt,
				const void **recs, size_t *len);

/* Bytes given to and bytes made (headers included) by every call so far. */
void pulse_record_zstd__stats(const struct pulse_record_zstd *z, __u64 *transferred,
			      __u64 *compressed);

/*
 * perf's HEADER_COMPRESSED ratio of bytes given to compression over bytes
 * made: rounded, 0 before any data. One stream's, or several added up.
 */
__u32 pulse_record_zstd__ratio(__u64 transferred, __u64 compressed);

#endif
