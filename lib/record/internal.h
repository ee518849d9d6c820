/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of one pulse_record__run() shared by the files of lib/record/; not
 * part of the public API.
 */
#ifndef PULSE_RECORD_INTERNAL_H
#define PULSE_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <pulse/data.h>
#include <pulse/event.h>
#include <pulse/mmap.h>
#include <pulse/open.h>
#include <pulse/record.h>
#include <pulse/synthesize.h>
#include <pulse/build-id.h>
#include <pulse/features.h>
#include <pulse/trace.h>
#include "core/internal.h"
#include "record/dso-hits.h"

#define STORM_BYTES (64 * 1024)	/* a pass this large means data is pouring in */

struct id_ent {
	__u64 id;
	int evsel;
};

/*
 * Where the fields the recorder needs sit in this evsel's SAMPLE records:
 * they precede every variable-size field, so their offsets are fixed and a
 * sample is accounted with a few loads instead of a full parse.
 */
struct sample_offs {
	int ip, pid, time;	/* byte offsets, -1 when absent */
	int min_size;		/* the record must be at least this long */
};

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
	struct pulse_evsel *dummy;	/* owned when system wide */
	struct pulse_evsel *tracking;
	struct pulse_mmap *maps;	/* [nr_cpus] */
	struct pulse_data_writer *w;
	struct dso_hits *hits;
	struct id_ent *ids;
	size_t nr_ids;
	struct sample_offs *offs;	/* [nr_evsels] */
	struct pulse_data_attr *attrs;	/* [nr_evsels], the events as the file stores them */
	size_t id_size;			/* sample_id trailer bytes */
	pid_t child;
	int go_pipe[2];
	int exec_pipe[2];
	int pidfd;
	int epfd;
	int nr_polled;			/* event fds in epoll, not yet hung up */
	bool child_done;
	__u64 first_time, last_time;
	bool wrote_this_pass;
	__u64 pass_bytes;		/* bytes the last pass copied */
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
	return r->opts->stop && *r->opts->stop;
}

/* target.c */
int rec_setup_target(struct rec *r);
/* workload.c */
int rec_start_workload(struct rec *r);
int rec_go_workload(struct rec *r);
void rec_reap_child(struct rec *r, bool block);
/* pump.c */
int rec_build_id_table(struct rec *r);
int rec_build_sample_offsets(struct rec *r);
void rec_account(struct rec *r, const unsigned char *p, size_t size, int map);
int rec_write_err(struct rec *r, int ret);
int rec_drain_all(struct rec *r);
int rec_main_loop(struct rec *r);
/* record-features.c */
int rec_features_at_start(struct rec *r);
int rec_tracing_data(struct rec *r);
int rec_finish_features(struct rec *r);
/* record-synth.c */
int rec_synthesize(struct rec *r);
int rec_write_lost_samples(struct rec *r);

#endif
