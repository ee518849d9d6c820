/* SPDX-License-Identifier: GPL-2.0 */
/* lib/stat's shared state: the session and its per-row means. */
#ifndef PULSE_STAT_INTERNAL_H
#define PULSE_STAT_INTERNAL_H

#include <pulse/stat.h>

/* The means of one row (evsel, key) over the runs it was counted in. */
struct stat_cell {
	struct pulse_stat_stats val, ena, run;
	bool supported;			/* opened on some cell in some run */
};

/* A topology aggregate (--per-core/socket/die/node); unused fields -1. */
struct stat_key {
	int socket, die, core, node;
	int nr_cpus;			/* the cpus it holds among those counted */
};

struct pulse_stat {
	struct pulse_evlist *evlist;	/* borrowed */
	enum pulse_stat_aggr aggr;
	int nr_keys;			/* rows per evsel; 0 before the first run */
	struct stat_cell *cells;	/* [idx * nr_keys + key] */
	int nr_runs;
	struct pulse_stat_stats wall;	/* wall time of each run, ns */
	struct pulse_stat_run last;	/* the last run (its rusage) */
	struct pulse_counts *prev;	/* -I: the raw sums at the last interval, as cells */
	struct stat_key *keys;		/* topology modes: [nr_keys] */
	int *key_of_cpu;		/* topology modes: the key of each cpu index */
	int *cpus;			/* -a, -C: the cpu numbers the cells were opened on */
	pulse_stat_read_fn read_hook;	/* stat record: each read's raw cells */
	void *read_hook_arg;
	struct pulse_stat_stats *clock_rounds;	/* stat report -I: each key's clock over the rounds */
};

/* workload.c: fork @argv held until stat_workload_go(); 0 or -errno */
int stat_workload_start(char *const *argv, pid_t *pid, int *go_fd, int *err_fd);
/* let it exec: 0, or the exec's -errno (the child is reaped) */
int stat_workload_go(pid_t pid, int go_fd, int err_fd);
/* wait4() it (@flags WNOHANG: if it has exited): 1 reaped (status, rusage in @res), 0 not yet, -errno */
int stat_workload_reap(pid_t pid, int flags, struct pulse_stat_run *res);

/*
 * loop.c: count until the workload @pid (-1: none) exits, a stop, the
 * timeout, the -p/-t tasks' end or --interval-count, reading and handing
 * each -I interval to opts->interval. @t0: when counting started (ns,
 * CLOCK_MONOTONIC). Return: 0 or -errno.
 */
int stat_loop(struct pulse_stat *st, const struct pulse_stat_opts *o, pid_t pid, uint64_t t0,
	      struct pulse_stat_run *res);
uint64_t stat_now_ns(void);

/* control.c: --control's commands while counting */
struct stat_control {
	struct pulse_stat *st;
	const struct pulse_stat_opts *o;
};
/* run what the control fd holds: 0 or -errno */
int stat_control_process(struct stat_control *ctl);
/* stat.c: read every cell into the rows' means; @delta: this interval's counts only */
int stat_read_counts(struct pulse_stat *st, bool no_scale, bool delta);

/* stat.c: the rows' keys and means for cells on @cpus x @nr_threads; 0 or -errno */
int stat_alloc_rows(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads);
/* fold raw cells [(idx * nr_cpus + cpu) * nr_threads + thread] (@rc 0: read) into the rows */
int stat_fold(struct pulse_stat *st, const struct pulse_counts *raw, const int *rc, int nr_cpus,
	      int nr_threads, bool no_scale, bool delta);

/* aggr.c: the keys for @cpus x @nr_threads cells: their number or -ENOMEM */
int stat_aggr_setup(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads);
/* the key of a cell */
int stat_aggr_key(const struct pulse_stat *st, int cpu, int thread);
/* topology modes print key by key, each with every event (perf's print_aggr()) */
bool stat_aggr_key_major(const struct pulse_stat *st);
/* the row's key column, perf 6.1's widths (@supported: the event was opened) */
void stat_aggr_print_key(const struct pulse_stat *st, FILE *out,
			 const struct pulse_stat_print_opts *o, int key, bool supported);
/* -I's header line for the mode */
const char *stat_aggr_interval_header(const struct pulse_stat *st);

/* shadow.c: the metric of a row: fmt NULL when it has none */
struct stat_metric {
	const char *fmt;		/* "%8.3f" */
	char unit[16];			/* "CPUs utilized", "K/sec" */
	double val;
};
void stat_shadow_metric(const struct pulse_stat *st, const struct pulse_stat_row *row,
			struct stat_metric *m);
/* the mean of the clock rows of @key now, 0 when none was counted */
double stat_clock_ns(const struct pulse_stat *st, int key);
/* the evsel counts time in ns and is shown in msec (task-clock, cpu-clock) */
bool stat_evsel_is_clock(const struct pulse_evsel *evsel);

#endif
