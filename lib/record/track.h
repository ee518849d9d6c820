/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one output's records say for its closing features: which DSOs its
 * samples hit (BUILD_ID) and the time range of its samples (SAMPLE_TIME).
 * Each output keeps one, fed with exactly the records it stored, so that
 * the file it writes describes itself whatever part of the run it holds.
 * Internal to lib/record.
 */
#ifndef PULSE_RECORD_TRACK_H
#define PULSE_RECORD_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>
#include <pulse/data.h>
#include <pulse/id-index.h>
#include <pulse/sample-offsets.h>
#include <pulse/machine.h>

/* A sample's place already marked; void after any side-band record. */
struct pulse_record_track_last {
	bool valid;
	__u8 cpumode;
	__s32 pid, tid;
	__u64 ip;
};

/* A sample that found no DSO, to place again once every map is in. */
struct pulse_record_track_miss {
	__s32 pid, tid;
	__u8 cpumode;
	__u64 ip;
};

#define PULSE_TRACK_MAX_MISSES 65536
#define PULSE_TRACK_MISS_CACHE 256

struct pulse_record_track {
	/*
	 * The session's model of threads and maps, fed with the side-band
	 * records stored, that places samples; its DSOs hit are marked
	 * (dso->hit). It loads no symbols (no_symbols).
	 */
	struct pulse_machine machine;
	bool machine_ok;		/* initialized */
	struct pulse_record_track_last last;
	struct pulse_id_index ids;	/* sample id -> event, as the reader routes them */
	__u64 last_id;			/* the last id looked up, and its event: */
	int last_ev;			/* a ring's samples mostly share one */
	struct pulse_sample_offsets *offs;	/* [nr_attrs] */
	size_t nr_attrs;
	__u64 first_time, last_time;	/* of the samples; 0: none seen */
	unsigned char *bounce;		/* a record that straddles two iovecs, copied */
	/*
	 * Records from several streams (--threads: each reader's data.N)
	 * come in no common order: a sample may come before the MMAP of its
	 * DSO, which another reader holds. Such samples are kept (one per
	 * pid and page, at most MAX_MISSES) and placed again at the end.
	 */
	bool unordered;
	struct pulse_record_track_miss *misses;
	size_t nr_misses, cap_misses;
	__u64 miss_cache[PULSE_TRACK_MISS_CACHE];	/* pid and page of a recent miss, hashed */
};

/**
 * pulse_record_track__init - empty tracking for records of @attrs
 * Return: 0 or -ENOMEM (then pulse_record_track__exit() is still safe).
 */
int pulse_record_track__init(struct pulse_record_track *t, const struct pulse_data_attr *attrs,
			     size_t nr_attrs);
void pulse_record_track__exit(struct pulse_record_track *t);

/* Take one stored record into account (any type; others are ignored). */
void pulse_record_track__note(struct pulse_record_track *t, const void *rec, size_t size);

/* The records come from several streams in no common order (see unordered). */
void pulse_record_track__set_unordered(struct pulse_record_track *t);

/* Place the samples that found no DSO again, now that every map is in. */
void pulse_record_track__retry_misses(struct pulse_record_track *t);

/* pulse_record_track__note() for each record of the first @len bytes of @iov. */
void pulse_record_track__note_iov(struct pulse_record_track *t, const struct iovec *iov, int cnt,
				  size_t len);

#endif
