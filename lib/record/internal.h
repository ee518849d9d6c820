/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of one pulse_record__run() shared by the files of lib/record/; not
 * part of the public API.
 */
#ifndef PULSE_RECORD_INTERNAL_H
#define PULSE_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/types.h>
#include <pulse/data.h>
#include <pulse/event.h>
#include <pulse/evlist.h>
#include <pulse/mmap.h>
#include <pulse/open.h>
#include <pulse/record.h>
#include <pulse/record-output.h>
#include <pulse/synthesize.h>
#include <pulse/build-id.h>
#include <pulse/features.h>
#include <pulse/trace.h>
#include "core/internal.h"

#define STORM_BYTES (64 * 1024)	/* a pass this large means data is pouring in */
#define REC_SIZE_WAKE (~3ULL)	/* the main epoll's tag for rec.size_fd */

/* One --threads reader: the rings of its CPUs, drained into its output. */
struct rec_reader {
	struct rec *r;
	pthread_t thread;
	bool started;
	int epfd;
	int wake_fd;			/* eventfd: rec_readers_sync() wants a pass */
	int done_gen;			/* atomic: the drain_gen its last pass covered */
	struct pulse_mmap *maps;	/* [nr_maps], moved out of rec.maps */
	int *cpu_idx;			/* [nr_maps] index into rec.cpus */
	int nr_maps;
	struct pulse_record_pump *pump;
	struct pulse_record_stats stats;
	int err;
	bool size_told;			/* it woke the main thread for --max-size */
};

struct rec_aux;
struct rec_offcpu;
struct epoll_event;

struct rec {
	const struct pulse_record_opts *opts;
	struct pulse_record_stats *stats;
	struct pulse_record_error *err;
	int *cpus;			/* owned */
	int nr_cpus;
	pid_t *threads;			/* owned */
	int nr_threads;
	struct pulse_evsel **evsels;	/* borrowed from the evlist, plus the dummy */
	int nr_evsels;
	/*
	 * A view over evsels[] that opens them: it borrows the evsels and owns
	 * their cells (fds, ids), so rec_cleanup() closes it but never exits it.
	 */
	struct pulse_evlist evlist;
	struct pulse_evsel *dummy;	/* owned when system wide */
	struct pulse_evsel *tracking;
	int trig_first, trig_end;	/* evsels[trig_first..trig_end): --switch-output-event */
	struct pulse_mmap *maps;	/* [nr_cpus] */
	int *ring_fd;			/* [nr_cpus] the fd each sample ring belongs to */
	struct pulse_mmap *track_maps;	/* [nr_cpus] flight: the side-band's own rings */
	struct pulse_record_pump *track_pump;	/* owned, drains track_maps into tracking_output */
	struct pulse_record_stats track_stats;
	__u64 snap_base_bytes;		/* output data size at the last snapshot */
	__u64 snap_last_ns;		/* when the last snapshot was taken */
	__u64 t0_ns;			/* -D windows: when the command started */
	struct rec_reader *readers;	/* [opts->nr_readers] when reader threads run */
	int readers_stop;		/* atomic: the readers drain once more and return */
	int size_fd;			/* eventfd: the readers' files reached --max-size */
	int drain_gen;			/* atomic: passes asked for by rec_readers_sync() */
	size_t next_toggle;		/* -D windows: 1 = the first window's end, 2 = the next start... */
	struct pulse_record_output *out;	/* owned */
	struct pulse_record_pump *pump;	/* owned, drains maps into out */
	struct pulse_data_attr *attrs;	/* [nr_evsels], the events as the file stores them */
	struct pulse_buf tracing_data;	/* TRACING_DATA payload, empty without tracepoints */
	size_t id_size;			/* sample_id trailer bytes */
	pid_t child;
	int go_pipe[2];
	int exec_pipe[2];
	int pidfd;
	int epfd;
	int nr_polled;			/* event fds in epoll, not yet hung up */
	bool child_done;
	struct rec_aux *aux;		/* AUX area tracing (aux.c), NULL without an AUX event */
	struct rec_offcpu *offcpu;	/* --off-cpu (offcpu.c), NULL without it */
};

static inline bool is_system_wide(const struct pulse_record_opts *o)
{
	return pulse_record__is_system_wide(o);
}

static inline bool has_task_target(const struct pulse_record_opts *o)
{
	return o->nr_pids || o->nr_tids;
}

static inline bool want_stop(struct rec *r)
{
	return (r->opts->stop && *r->opts->stop) || r->stats->max_size_reached;
}

/* target.c */
int rec_setup_target(struct rec *r);
/* workload.c */
int rec_start_workload(struct rec *r);
int rec_go_workload(struct rec *r);
void rec_reap_child(struct rec *r, bool block);
/* loop.c */
int rec_write_err(struct rec *r, int ret);
int rec_drain_all(struct rec *r);
int rec_main_loop(struct rec *r);
/* record-features.c */
int rec_tracing_data(struct rec *r, struct pulse_buf *b);
static inline bool is_trigger(const struct rec *r, int i)
{
	return i >= r->trig_first && i < r->trig_end;
}

/* readers.c */
int rec_readers_setup(struct rec *r);
int rec_readers_start(struct rec *r);
int rec_readers_stop(struct rec *r);
__u64 rec_readers_bytes(const struct rec *r);
int rec_readers_sync(struct rec *r);
void rec_readers_cleanup(struct rec *r);
/* control.c */
int rec_control(struct rec *r);
/* snapshot.c */
int rec_snapshot(struct rec *r);
int rec_maybe_snapshot(struct rec *r, __u64 now);
/* aux.c: AUX area capture (the kernel's, or the model's with PULSE_AUX_MODEL) */
int rec_aux_prepare(struct rec *r);
int rec_aux_config(struct rec *r);
int rec_aux_map(struct rec *r, size_t data_pages);
int rec_aux_nr_model(const struct rec *r);
int rec_aux_attrs(struct rec *r, struct pulse_data_attr *attrs, int *nr);
int rec_aux_info(struct rec *r);
int rec_aux_start(struct rec *r);
int rec_aux_drain(struct rec *r);
int rec_aux_snapshot(struct rec *r);
int rec_aux_stop(struct rec *r);
void rec_aux_cleanup(struct rec *r);
static inline bool rec_aux_snapshot_mode(const struct rec *r)
{
	return r->aux && r->opts->auxtrace_snapshot;
}
/* offcpu.c: --off-cpu, the hidden sched_switch event and its rings */
int rec_offcpu_open(struct rec *r);
bool rec_offcpu_event(struct rec *r, const struct epoll_event *ev);
bool rec_offcpu_storm(const struct rec *r);
int rec_offcpu_drain(struct rec *r);
int rec_offcpu_write(struct rec *r);
void rec_offcpu_cleanup(struct rec *r);
/* record-synth.c */
int rec_synthesize(struct rec *r);
int rec_write_lost_samples(struct rec *r);

#endif
