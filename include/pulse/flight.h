/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder (lib/flight/): keep the recent past of a recording,
 * write it out whole on a trigger.
 *
 * A flight is a pair of record outputs (include/pulse/record-output.h)
 * handed to pulse_record__run():
 *  - the samples' output (pulse_flight__output()): in deep mode (-M) it
 *    keeps what the pump gives it in a user-space ring of zstd-compressed
 *    chunks, oldest chunks dropped whole; in overwrite mode the kernel
 *    keeps the past (write_backward rings) and the recorder walks the rings
 *    into this output only between snapshot_begin and snapshot_end;
 *  - the side-band output (pulse_flight__tracking()): the tracking event's
 *    own, never overwritten rings, folded into the live state of tasks and
 *    maps (state.c), which heads every snapshot, so a snapshot names the
 *    tasks that exited before it was taken.
 *
 * A snapshot goes to a new file "<path>.<YYYYmmddHHMMSScc>" (perf's
 * --switch-output naming), written under a temporary name and renamed
 * when complete; or, in deep mode without --switch-output, it is appended
 * to the one file at <path>, each sample written once (lib/flight/files.c).
 */
#ifndef PULSE_FLIGHT_H
#define PULSE_FLIGHT_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <linux/types.h>
#include <pulse/record-output.h>

struct pulse_flight;
struct pulse_flight_state;
struct pulse_flight_ring;

enum pulse_flight_mode {
	PULSE_FLIGHT_OVERWRITE,		/* --overwrite: the kernel rings hold the past */
	PULSE_FLIGHT_DEEP,		/* -M SIZE: a compressed ring in user space */
	/*
	 * --switch-output alone (perf's plain switch): no past is kept, the
	 * samples stream into the current file; a trigger closes it under its
	 * final name and opens the next, and the last is closed at the end
	 */
	PULSE_FLIGHT_ROTATE,
};

/* What one snapshot wrote, for the caller's message. */
struct pulse_flight_snapshot {
	const char *path;		/* the file, under its final name */
	__u64 samples;			/* SAMPLE records written */
	__u64 bytes;			/* data bytes written */
	__u64 first_time, last_time;	/* of the samples written (0: none) */
	const char *removed;		/* a file --switch-max-files removed, or NULL */
	/*
	 * 0, or the -errno that kept this snapshot from being written (with
	 * --switch-output the recording goes on, and what a deep ring holds
	 * is kept for the next one)
	 */
	int error;
};

typedef void (*pulse_flight_snapshot_fn)(const struct pulse_flight_snapshot *s, void *arg);

struct pulse_flight_opts {
	size_t sz;			/* sizeof(struct pulse_flight_opts) */
	enum pulse_flight_mode mode;
	const char *path;		/* -o, the output's name (not "-") */
	bool switch_output;		/* a new file per snapshot; else append to path (deep) */
	unsigned int max_files;		/* --switch-max-files: keep this many (0: all) */
	size_t memory;			/* deep: bytes of ring, compressed chunks and staging */
	int level;			/* deep: zstd level of the chunks (0: 1) */
	pulse_flight_snapshot_fn on_snapshot;	/* may be NULL */
	/* set when a sample (of a --switch-output-event) reaches the side-band output */
	volatile sig_atomic_t *trigger;
	void *arg;
};

/* Smallest -M: four chunks of the smallest size. */
#define PULSE_FLIGHT_MIN_MEMORY (4 * 64 * 1024)

/**
 * pulse_flight__new - a flight recorder, ready to hand to the recorder
 * @out: set to it (NULL on failure)
 *
 * Return: 0, -EINVAL (deep mode with less than PULSE_FLIGHT_MIN_MEMORY,
 * append mode without deep mode), -ENOMEM.
 */
int pulse_flight__new(struct pulse_flight **out, const struct pulse_flight_opts *opts);
void pulse_flight__delete(struct pulse_flight *f);

/* The samples' output and the side-band output; owned by @f. */
struct pulse_record_output *pulse_flight__output(struct pulse_flight *f);
struct pulse_record_output *pulse_flight__tracking(struct pulse_flight *f);

struct pulse_flight_stats {
	unsigned int snapshots;		/* snapshots written */
	unsigned int failed;		/* snapshots that could not be written */
	__u64 samples_written;		/* SAMPLE records in all of them */
	__u64 chunks_dropped;		/* deep: chunks pushed out of the ring */
	__u64 samples_dropped;		/* deep: their samples */
	__u64 raw_bytes, kept_bytes;	/* deep: bytes taken in, compressed bytes held now */
	size_t state_records;		/* side-band records held for the next snapshot */
	size_t state_bytes;
};

void pulse_flight__stats(const struct pulse_flight *f, struct pulse_flight_stats *st);

/* ---- the parts, public for their tests ------------------------------- */

/**
 * pulse_flight_state__new - the live side-band state
 * @time_back: bytes from a side-band record's end back to its u64 time
 *	(from the tracking attr's sample_id trailer; 0: the records carry none)
 * @cap: memory the records of exited tasks may take (0: 8 MiB)
 */
int pulse_flight_state__new(struct pulse_flight_state **out, size_t time_back, size_t cap);
void pulse_flight_state__delete(struct pulse_flight_state *s);

/*
 * Fold one side-band record (COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL,
 * ITRACE_START; others are ignored).
 */
int pulse_flight_state__fold(struct pulse_flight_state *s, const void *rec, size_t size);

/* Forget what died before @time: no sample still kept can need it. */
void pulse_flight_state__age(struct pulse_flight_state *s, __u64 time);

/*
 * Hand the records held to @fn, in the order they came: all of them, or
 * with @since those that came after the last call given the same @since
 * (a file that already holds the others).
 */
int pulse_flight_state__emit(const struct pulse_flight_state *s, __u64 *since,
			     int (*fn)(const void *rec, size_t size, void *arg), void *arg);

void pulse_flight_state__usage(const struct pulse_flight_state *s, size_t *records,
			       size_t *bytes);

/**
 * pulse_flight_ring__new - a ring of compressed chunks of whole records
 * @memory: bytes it may use (staging buffer and chunks)
 * @level: zstd level
 * @time_off: offset of the u64 time in a SAMPLE record (-1: unknown)
 */
int pulse_flight_ring__new(struct pulse_flight_ring **out, size_t memory, int level, int time_off);
void pulse_flight_ring__delete(struct pulse_flight_ring *r);

/* Append whole records laid end to end over @cnt iovecs. */
int pulse_flight_ring__append(struct pulse_flight_ring *r, const struct iovec *iov, int cnt);

/*
 * Hand the records held to @fn, oldest first, a chunk at a time (whole
 * records), then empty the ring; when @fn fails, the ring keeps them all.
 */
int pulse_flight_ring__flush(struct pulse_flight_ring *r,
			     int (*fn)(const void *buf, size_t len, void *arg), void *arg);

/* Time of the oldest sample held (0: none or unknown). */
__u64 pulse_flight_ring__oldest(const struct pulse_flight_ring *r);

struct pulse_flight_ring_stats {
	__u64 raw_in;			/* bytes appended, ever */
	__u64 held_raw;			/* bytes held, uncompressed */
	__u64 held;			/* bytes of memory held (compressed chunks + staging) */
	__u64 samples_held;
	__u64 chunks_dropped, samples_dropped;
	size_t chunk_size;		/* raw bytes a chunk holds at most */
};

void pulse_flight_ring__stats(const struct pulse_flight_ring *r, struct pulse_flight_ring_stats *st);

#endif
