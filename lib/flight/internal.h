/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder's object, shared by lib/flight/flight.c (the two
 * outputs the recorder writes to) and lib/flight/files.c (the files
 * snapshots go to); not part of the public API.
 */
#ifndef PULSE_FLIGHT_INTERNAL_H
#define PULSE_FLIGHT_INTERNAL_H

#include <pthread.h>
#include <pulse/flight.h>

struct pulse_flight {
	struct pulse_record_output samples;	/* the faces the recorder writes to */
	pthread_mutex_t lock;			/* --threads: readers write, main snapshots */
	struct pulse_record_output tracking;
	struct pulse_flight_opts o;
	char *path;
	const struct pulse_record_output_info *info;
	struct pulse_flight_state *state;
	struct pulse_flight_ring *ring;		/* deep mode */
	int time_off;				/* of a SAMPLE's time, -1: unknown */
	/*
	 * The file being written: a snapshot, the one file of append mode,
	 * or the current file of rotate mode; and its names.
	 */
	struct pulse_record_output *file;
	int fd;
	int direct_fd;				/* the same file, O_DIRECT; -1: none */
	char *tmp_name;
	bool in_snapshot;
	/* the samples written to the file since it was opened or last dumped */
	__u64 snap_samples, snap_first, snap_last, snap_bytes;
	/* --switch-max-files: the names written, oldest first */
	char **names;
	unsigned int nr_names;
	__u64 bytes_in, sideband_in;
	__u64 emitted;				/* append mode: side-band written up to here */
	struct pulse_flight_stats st;
	unsigned char *bounce;			/* a side-band record cut by the ring's end */
	void *auxtrace_info;			/* -S: AUXTRACE_INFO, at the head of each file */
	size_t auxtrace_info_size;
};

/* files.c */
int fl_open_file(struct pulse_flight *f);
int fl_write(struct pulse_flight *f, const struct iovec *iov, int cnt, size_t *kept);
int fl_snapshot_begin(struct pulse_flight *f);
int fl_snapshot_end(struct pulse_flight *f);
int fl_finish(struct pulse_flight *f);
void fl_close(struct pulse_flight *f);

#endif
