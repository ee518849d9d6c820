/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where pulse record puts what it records (lib/record/output*.c), and the
 * pump that feeds it from the ring buffers (lib/record/pump.c).
 *
 * An output is an object behind an ops table. It is given the events once
 * (start), then receives whole records: batches copied from the rings
 * (write), and records the recorder made itself (write_sideband: the tasks
 * that existed before recording, from /proc, and FINISHED_INIT), until
 * finish writes its closing features. Every output keeps its own feature
 * state (which DSOs its samples hit, for BUILD_ID; the time range of its
 * samples, for SAMPLE_TIME), computed from the records it stored, so each
 * output makes a complete file on its own, whichever records it saw.
 *
 * The pump does not own its output and may be pointed at another one
 * between two passes (pulse_record_pump__set_output()): an output that
 * keeps the recent past in memory and replays it into a new file output
 * for each snapshot fits this protocol.
 *
 *	pulse_record_output__new_file(&out, fd);
 *	pulse_record_output__start(out, &info);
 *	pulse_record_output__write_sideband(out, rec, size);	(each)
 *	pulse_record_pump__new(&pump, maps, nr_maps, &stats);
 *	pulse_record_pump__set_output(pump, out);
 *	pulse_record_pump__drain(pump);				(each wakeup)
 *	pulse_record_output__finish(out);
 *	pulse_record_pump__delete(pump);
 *	pulse_record_output__delete(out);
 */
#ifndef PULSE_RECORD_OUTPUT_H
#define PULSE_RECORD_OUTPUT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>
#include <pulse/data.h>
#include <pulse/mmap.h>
#include <pulse/record.h>

/* What an output needs to start a file; it must outlive the output. */
struct pulse_record_output_info {
	size_t sz;				/* sizeof(struct pulse_record_output_info) */
	const struct pulse_data_attr *attrs;	/* the events, ids included */
	size_t nr_attrs;
	int argc;				/* the recorder's command line, for CMDLINE */
	const char **argv;
	const void *tracing_data;		/* TRACING_DATA payload; NULL: no tracepoints */
	size_t tracing_data_size;
	/*
	 * Bytes kept before the data for the closing features (BUILD_ID,
	 * SAMPLE_TIME) so that they survive a full disk; 0: 128 KiB.
	 */
	size_t feature_reserve;
	bool no_buildid;			/* -B: no BUILD_ID feature */
	bool dir_format;			/* --threads: the DIR_FORMAT feature (version 1) */
	bool use_clockid;			/* -k: CLOCKID and CLOCK_DATA of @clockid */
	int clockid;
	/*
	 * -z: ring data compressed with zstd at this level (1..22) into
	 * COMPRESSED records, and HEADER_COMPRESSED; 0: none
	 */
	int comp_level;
	size_t mmap_len;			/* one ring's mapping, header page included */
};

struct pulse_record_output;

/*
 * One output implementation. Every function returns 0 or -errno; records
 * are whole and not aligned (read them with memcpy).
 */
struct pulse_record_output_ops {
	/* Begin the file: header, events, the features known at the start. */
	int (*start)(struct pulse_record_output *out, const struct pulse_record_output_info *info);
	/*
	 * Append ring data (and the FINISHED_ROUND and LOST_SAMPLES records
	 * the recorder puts among it): whole records laid end to end over
	 * @cnt iovecs (a record may straddle two). *@kept is set to the bytes
	 * stored, whole records from the start, all of them unless an error
	 * is returned.
	 */
	int (*write)(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		     size_t *kept);
	/* Append one record the recorder synthesized (side-band, FINISHED_INIT). */
	int (*write_sideband)(struct pulse_record_output *out, const void *rec, size_t size);
	/* Make what is stored so far readable should the recorder die (may be a no-op). */
	int (*sync)(struct pulse_record_output *out);
	/* Write the closing features (BUILD_ID, SAMPLE_TIME) and end the file. */
	int (*finish)(struct pulse_record_output *out);
	/* Bytes of records stored (the data section). */
	__u64 (*data_size)(const struct pulse_record_output *out);
	void (*delete)(struct pulse_record_output *out);
	/*
	 * Optional: the fd a stream (pipe-mode) output writes to, which a
	 * workload must not write into; -1 (or no op) when there is none.
	 */
	int (*stream_fd)(const struct pulse_record_output *out);
	/*
	 * Optional, for an output that keeps the recent past (lib/flight): a
	 * trigger asks for a snapshot. Between begin and end the recorder
	 * writes with write() what overwrite rings hold (each ring newest
	 * first); an output that kept the past itself writes it at end.
	 * snapshot_begin returns > 0 for a snapshot it skips (it could not
	 * start it and said so); end is then not called.
	 */
	int (*snapshot_begin)(struct pulse_record_output *out);
	int (*snapshot_end)(struct pulse_record_output *out);
	/*
	 * Optional: the bytes of ring data given to compression and the
	 * bytes of COMPRESSED records made of them; both 0 (or no op)
	 * without compression.
	 */
	void (*comp_stats)(const struct pulse_record_output *out, __u64 *transferred,
			   __u64 *compressed);
	/*
	 * Optional: take records stored elsewhere (a raw data.N file) into
	 * account for this output's closing features; may be called from
	 * reader threads
	 */
	void (*note)(struct pulse_record_output *out, const struct iovec *iov, int cnt,
		     size_t len);
	/*
	 * Optional, with note: @transferred bytes of ring data became
	 * @compressed bytes of COMPRESSED records elsewhere (-z with
	 * --threads), for this output's HEADER_COMPRESSED ratio and
	 * comp_stats; may be called from reader threads
	 */
	void (*note_comp)(struct pulse_record_output *out, __u64 transferred, __u64 compressed);
	/*
	 * Optional: a PERF_RECORD_AUXTRACE (@rec, @size bytes) and the AUX
	 * data it announces (@data over @cnt iovecs, its auxtrace.size bytes,
	 * padding included), which are no records and must not be parsed as
	 * such; a file output lists the record in the AUXTRACE feature
	 */
	int (*write_aux)(struct pulse_record_output *out, const void *rec, size_t size,
			 const struct iovec *data, int cnt);
};

/* The interface; implementations embed it first and go back with container_of. */
struct pulse_record_output {
	const struct pulse_record_output_ops *ops;
};

/**
 * pulse_record_output__new_file - an output writing a perf.data file
 * @out: set to the output, NULL on failure
 * @fd: a regular file open for reading and writing; not owned (the caller
 *	closes it after pulse_record_output__delete())
 *
 * Return: 0 or -ENOMEM. Free the output with pulse_record_output__delete().
 */
int pulse_record_output__new_file(struct pulse_record_output **out, int fd);

/*
 * As pulse_record_output__new_file(), with @direct_fd the same file opened
 * O_DIRECT (not owned): big appends (a snapshot's) go to the disk through
 * it instead of into new page-cache pages
 */
int pulse_record_output__new_file_direct(struct pulse_record_output **out, int fd,
					 int direct_fd);

/**
 * pulse_record_output__new_pipe - as pulse_record_output__new_file(), in
 * perf's pipe format (everything in-band; @fd may be a pipe or a socket)
 */
int pulse_record_output__new_pipe(struct pulse_record_output **out, int fd);

/**
 * pulse_record_output__new_raw - the records alone, as they come, for one
 * reader thread's data.N file of perf's --threads directory
 * @out: set to the output
 * @fd: the file (not owned)
 * @main: the directory's data file output, whose closing features (BUILD_ID,
 *	SAMPLE_TIME, COMPRESSED) take these records into account too (not owned)
 * @comp_level: -z: the records go through a zstd stream of this output's
 *	own, as perf 6.1 compresses each reader's; 0: stored as they come
 */
int pulse_record_output__new_raw(struct pulse_record_output **out, int fd,
				 struct pulse_record_output *main, int comp_level);

/* Free an output (NULL is a no-op); unfinished files stay as they are. */
void pulse_record_output__delete(struct pulse_record_output *out);

static inline int pulse_record_output__start(struct pulse_record_output *out,
					     const struct pulse_record_output_info *info)
{
	return out->ops->start(out, info);
}

static inline int pulse_record_output__write(struct pulse_record_output *out,
					     const struct iovec *iov, int cnt, size_t *kept)
{
	return out->ops->write(out, iov, cnt, kept);
}

static inline int pulse_record_output__write_sideband(struct pulse_record_output *out,
						      const void *rec, size_t size)
{
	return out->ops->write_sideband(out, rec, size);
}

static inline int pulse_record_output__sync(struct pulse_record_output *out)
{
	return out->ops->sync(out);
}

static inline int pulse_record_output__finish(struct pulse_record_output *out)
{
	return out->ops->finish(out);
}

/* The fd @out streams to, or -1 (see pulse_record_output_ops.stream_fd). */
static inline int pulse_record_output__stream_fd(const struct pulse_record_output *out)
{
	return out->ops->stream_fd ? out->ops->stream_fd(out) : -1;
}

/* Whether @out can take snapshots (see pulse_record_output_ops.snapshot_begin). */
static inline bool pulse_record_output__can_snapshot(const struct pulse_record_output *out)
{
	return out->ops->snapshot_begin && out->ops->snapshot_end;
}

/* -z: bytes compressed and bytes they became (see pulse_record_output_ops.comp_stats). */
static inline void pulse_record_output__comp_stats(const struct pulse_record_output *out,
						   __u64 *transferred, __u64 *compressed)
{
	*transferred = *compressed = 0;
	if (out->ops->comp_stats)
		out->ops->comp_stats(out, transferred, compressed);
}

/* An AUXTRACE record and its data (see pulse_record_output_ops.write_aux); -EOPNOTSUPP without. */
static inline int pulse_record_output__write_aux(struct pulse_record_output *out, const void *rec,
						 size_t size, const struct iovec *data, int cnt)
{
	return out->ops->write_aux ? out->ops->write_aux(out, rec, size, data, cnt) : -EOPNOTSUPP;
}

static inline __u64 pulse_record_output__data_size(const struct pulse_record_output *out)
{
	return out->ops->data_size(out);
}

/* ---- pump --------------------------------------------------------------- */

struct pulse_record_pump;

/**
 * pulse_record_pump__new - a pump from @maps to an output
 * @out: set to the pump, NULL on failure
 * @maps: the rings, [@nr_maps]; borrowed (a map with a NULL base is skipped)
 * @stats: counted into (samples, LOST records, LOST_SAMPLES); its
 *	lost_per_cpu, when not NULL, has @nr_maps entries, indexed like @maps
 *
 * Return: 0 or -ENOMEM. Free it with pulse_record_pump__delete().
 */
int pulse_record_pump__new(struct pulse_record_pump **out, struct pulse_mmap *maps, int nr_maps,
			   struct pulse_record_stats *stats);

/* Free a pump (NULL is a no-op); its output is not touched. */
void pulse_record_pump__delete(struct pulse_record_pump *p);

/* Where the next passes write; borrowed, may change between passes. */
void pulse_record_pump__set_output(struct pulse_record_pump *p, struct pulse_record_output *out);

/**
 * pulse_record_pump__drain - one pass: copy what every ring holds to the
 * output, count it, release it; a FINISHED_ROUND follows a pass that wrote
 *
 * Only what the output kept is counted, so the stats match the file.
 * Return: 0, or the output's -errno (-ENOSPC sets stats->disk_full).
 */
int pulse_record_pump__drain(struct pulse_record_pump *p);

/*
 * --mmap-flush: a pass leaves a ring alone while it holds fewer than
 * @bytes (0 or 1: takes any data), as perf's mmap flush; set 0 before
 * the last pass, which must take everything.
 */
void pulse_record_pump__set_flush(struct pulse_record_pump *p, size_t bytes);

/*
 * Bytes of ring data the last pass took (before any compression): how
 * busy the rings are.
 */
__u64 pulse_record_pump__pass_bytes(const struct pulse_record_pump *p);

#endif
