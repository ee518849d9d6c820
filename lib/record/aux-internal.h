/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AUX area capture state shared by lib/record/aux.c (the capture: areas,
 * AUXTRACE_INFO, AUXTRACE records, snapshots) and lib/record/aux-model.c
 * (the model PMU that stands in for the kernel's under PULSE_AUX_MODEL).
 */
#ifndef PULSE_RECORD_AUX_INTERNAL_H
#define PULSE_RECORD_AUX_INTERNAL_H

#include <pthread.h>
#include <pulse/ring-aux.h>
#include <pulse/ring-model.h>
#include "record/internal.h"

/* One AUX area and where its data goes in the AUXTRACE records. */
struct rec_aux_src {
	struct pulse_aux aux;
	int fd;				/* kernel: the AUX event's fd (PAUSE_OUTPUT); -1: model */
	int idx;			/* the ring's index */
	int cpu;			/* -1 per thread */
	pid_t tid;			/* -1 per CPU */
	/* the model: its normal ring and its PMU */
	struct pulse_ring_model *rm;
	struct pulse_aux_model *am;
	__u64 id;			/* the id of its AUX and ITRACE_START records */
};

struct rec_aux {
	struct rec_aux_src *src;	/* [nr] */
	int nr;
	struct pulse_evsel *evsel;	/* the (first) AUX event */
	int kind;			/* enum pulse_aux_pmu_kind */
	size_t size;			/* bytes of each area */
	__u64 *written;			/* [nr_cpus] by ring: aux_size of its AUX records */
	bool model;
	/* the model: its events are not opened; their attrs and rings are its own */
	struct pulse_evsel **model_evsels;
	int nr_model;
	__u64 *model_ids;		/* [nr_model][nr] */
	struct pulse_mmap *model_maps;	/* [nr] the model's normal rings */
	struct pulse_record_pump *pump;	/* drains model_maps into the output */
	__u64 model_bytes;		/* what the model PMU writes into each area */
	bool model_truncate;		/* it writes without waiting for room */
	bool model_slow;		/* a piece per area every 50 ms */
	__u64 model_flags;		/* PARTIAL, COLLISION on every 4th piece */
	pthread_t pmu;
	bool pmu_started;
	int pmu_done;			/* atomic: the model PMU wrote all it had to */
	int pmu_stop;			/* atomic: stop it now */
};

/* aux.c: a snapshot-mode area whose aux_head the driver keeps inside it (PT, BTS) */
bool rec_aux_masked_head(const struct rec *r);

/* aux-model.c */
int rec_aux_model_new(struct rec *r, struct rec_aux_src *s);
int rec_aux_model_start(struct rec *r);
void rec_aux_model_stop(struct rec *r, bool now);
void rec_aux_model_pause(struct rec_aux_src *s, bool on);
void rec_aux_model_delete(struct rec_aux_src *s);

#endif
