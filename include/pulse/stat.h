/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting: pulse stat's library side (lib/stat/). A stat session borrows
 * an evlist, opens it per (cpu, thread) cell through <pulse/evlist.h>,
 * runs a workload or waits, reads every cell and folds the counts of each
 * run into running means (stats.c), by aggregation key (aggr.c). The
 * printer (display.c, shadow.c) writes perf 6.1's layouts: the default
 * table with its shadow metrics, CSV (-x) and JSON lines (-j).
 *
 * Usage:
 *   pulse_evlist__parse(&evlist, "task-clock,page-faults", NULL, NULL);
 *   pulse_stat__new(&st, &evlist);
 *   for (i = 0; i < runs; i++)
 *           pulse_stat__run(st, &opts, &res);
 *   pulse_stat__print(st, stderr, &popts);
 *   pulse_stat__delete(st);
 */
#ifndef PULSE_STAT_H
#define PULSE_STAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/types.h>
#include <pulse/evlist.h>

struct pulse_stat;

/* Running mean and variance (Welford), as perf's struct stats. */
struct pulse_stat_stats {
	double n;			/* values seen */
	double mean;
	double M2;			/* sum of squared differences from the mean */
};

void pulse_stat_stats__update(struct pulse_stat_stats *s, double val);
/* The standard deviation of the mean (0 with fewer than two values). */
double pulse_stat_stats__stddev(const struct pulse_stat_stats *s);
/* 100 * @stddev / @avg, 0 for a zero @avg (perf's rel_stddev_stats()). */
double pulse_stat_rel_stddev(double stddev, double avg);

/* How the cells' counts are folded into rows. */
enum pulse_stat_aggr {
	PULSE_STAT_AGGR_GLOBAL,		/* one row per evsel (the default) */
	PULSE_STAT_AGGR_CPU,		/* one per evsel and cpu (-A) */
	PULSE_STAT_AGGR_THREAD,		/* one per evsel and thread (--per-thread) */
	PULSE_STAT_AGGR_CORE,		/* per (socket, die, core) of the cpus (--per-core) */
	PULSE_STAT_AGGR_SOCKET,		/* per socket (--per-socket) */
	PULSE_STAT_AGGR_DIE,		/* per (socket, die) (--per-die) */
	PULSE_STAT_AGGR_NODE,		/* per NUMA node (--per-node) */
};

/* Where and what a run counts. */
struct pulse_stat_opts {
	size_t sz;			/* sizeof(struct pulse_stat_opts) */
	const int *cpus;		/* -a/-C: cpu numbers; NULL: the threads on any cpu */
	int nr_cpus;
	const pid_t *threads;		/* -p/-t: tids; NULL: the workload (or -1 with cpus) */
	int nr_threads;
	char *const *argv;		/* the workload, NULL: none (count until *stop or timeout) */
	int delay_ms;			/* -D: enable this long after the workload starts;
					 * < 0: start disabled (until a control "enable") */
	int timeout_ms;			/* --timeout: stop (and SIGTERM the workload) after it */
	bool no_inherit;		/* -i: do not count the workload's children */
	bool no_scale;			/* --no-scale: keep the raw counts */
	bool null_run;			/* -n: open nothing, time the workload only */
	volatile sig_atomic_t *stop;	/* set by a signal handler: stop counting */
	void (*enabled)(void *arg);	/* called when -D's delay is over (may be NULL) */
	int interval_ms;		/* -I: read and report every interval */
	int interval_count;		/* --interval-count: stop after this many (0: no limit) */
	/* -I: called with each interval's counts as the rows, @ts_ns since the start */
	int (*interval)(struct pulse_stat *st, uint64_t ts_ns, void *arg);
	void *arg;			/* for @enabled, @disabled and @interval */
	/* --control: perf's commands (<pulse/control.h>) read from ctl_fd while counting:
	 * "enable", "disable" (each then calls @enabled/@disabled), "ping", "stop",
	 * "snapshot" (acknowledged only, as perf stat's) */
	bool control;
	int ctl_fd, ack_fd;		/* ack_fd -1: no acks */
	void (*disabled)(void *arg);	/* called when a control "disable" stopped counting */
};

/* What one run did. */
struct pulse_stat_run {
	int stage;			/* failing step: PULSE_STAT_OPEN, _FORK, _EXEC, _READ */
	struct pulse_evsel *evsel;	/* open: the evsel that failed */
	int cpu;			/* open: its cpu (-1: any) */
	pid_t tid;			/* open: its tid */
	bool forked;			/* a workload ran */
	bool timed_out;			/* --timeout or --interval-count stopped it (SIGTERM) */
	int status;			/* its wait status */
	uint64_t wall_ns;		/* enable (after -D's delay) to end */
	struct timeval utime, stime;	/* the workload's rusage */
};

enum { PULSE_STAT_OPEN = 1, PULSE_STAT_FORK, PULSE_STAT_EXEC, PULSE_STAT_READ };

/**
 * pulse_stat__new - a counting session on @evlist
 * @out: set to the session, NULL on failure
 * @evlist: borrowed, must outlive the session; its attrs get perf stat's
 *          read_format, disabled and inherit bits
 * @aggr: how rows are keyed
 *
 * Return: 0 or -ENOMEM. The caller owns *@out: pulse_stat__delete().
 */
int pulse_stat__new(struct pulse_stat **out, struct pulse_evlist *evlist, enum pulse_stat_aggr aggr);
void pulse_stat__delete(struct pulse_stat *st);

/**
 * pulse_stat__run - one run: open, start the workload or wait, read, close
 * @st: the session; each run's counts go into its means
 * @opts: where and what
 * @res: filled in (also on failure)
 *
 * An evsel the kernel refuses as unsupported (ENOENT, EOPNOTSUPP, ENODEV,
 * EINVAL for hardware events) is left out and printed <not supported>, as
 * perf stat does.
 *
 * Return: 0; the -errno of the step @res->stage names.
 */
int pulse_stat__run(struct pulse_stat *st, const struct pulse_stat_opts *opts,
		    struct pulse_stat_run *res);

/* One printed row's values, from the means of every run so far. */
struct pulse_stat_row {
	const struct pulse_evsel *evsel;
	int key;			/* cpu or thread index (AGGR_CPU, AGGR_THREAD), the
					 * topology key's index, 0 global */
	bool supported;			/* opened on some cell */
	double val;			/* mean count (scaled unless --no-scale) */
	double ena, run;		/* mean time enabled and running, ns */
	double noise;			/* relative stddev of val, percent */
};

/*
 * The row of the evsel at @idx and aggregation @key. Return: 0, -ERANGE.
 */
int pulse_stat__row(const struct pulse_stat *st, int idx, int key, struct pulse_stat_row *row);
/* Runs so far. */
int pulse_stat__nr_runs(const struct pulse_stat *st);

enum pulse_stat_format {
	PULSE_STAT_FMT_STD,		/* perf's table */
	PULSE_STAT_FMT_CSV,		/* -x SEP */
	PULSE_STAT_FMT_JSON,		/* -j */
};

struct pulse_stat_print_opts {
	size_t sz;			/* sizeof(struct pulse_stat_print_opts) */
	enum pulse_stat_format format;
	const char *sep;		/* CSV separator */
	const char *target;		/* the header's "'true'", "'system wide'", "process id '1'" */
	bool big_num;			/* -B: thousands separators */
	bool rusage;			/* print user and sys (a workload ran once) */
	bool null_run;			/* -n: no counters, no blank line before the footer */
	bool quiet;			/* --quiet: print nothing (perf 6.1) */
	bool interval;			/* -I: rows prefixed with @ts_ns, no footer */
	uint64_t ts_ns;			/* -I: the interval's time since the start */
	bool interval_header;		/* -I: the "#   time   counts unit events" line first */
	const int *cpus;		/* -A: the cpu number of each key ("CPU3") */
	const pid_t *tids;		/* --per-thread: the tid of each key ("comm-tid") */
	const char *const *comms;	/* --per-thread: the comm of each key */
};

/**
 * pulse_stat__print - the counts in perf 6.1's layout
 * @st: after one or more runs
 * @out: where to write (perf stat writes to stderr)
 * @o: the format
 *
 * Return: 0, or -EIO when writing failed.
 */
int pulse_stat__print(const struct pulse_stat *st, FILE *out, const struct pulse_stat_print_opts *o);

/* ---- stat record / stat report (lib/stat/rounds.c) ------------------------ */

/*
 * A read's raw cells, [(idx * nr_cpus + cpu) * nr_threads + thread] of the
 * open evlist (pulse_evlist__nr_cpus/threads/ids), @rc 0 for a cell read;
 * called at each read (the final one, each -I interval) before the cells
 * are folded into the rows. A non-zero return fails the read.
 */
typedef int (*pulse_stat_read_fn)(const struct pulse_stat *st, const struct pulse_counts *raw,
				  const int *rc, void *arg);
void pulse_stat__set_read_hook(struct pulse_stat *st, pulse_stat_read_fn fn, void *arg);

/**
 * pulse_stat__add_round - the rows from one round of recorded cells
 * @st: a session on an evlist that is not opened (pulse stat report)
 * @cpus: the cells' cpus (NULL or {-1}: any), @nr_cpus of them
 * @nr_threads: the cells' threads
 * @raw, @rc: as for pulse_stat_read_fn; the running totals a file holds
 * @no_scale: keep the raw counts
 * @delta: an interval round: the rows get the difference to the last one
 * @wall_ns: the FINAL round's elapsed time (unused for an interval: as
 *           perf 6.1's report, no CPUs utilized then, and rates per second
 *           of the clock's mean over the rounds so far)
 *
 * Return: 0, -ENOMEM.
 */
int pulse_stat__add_round(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads,
			  const struct pulse_counts *raw, const int *rc, bool no_scale, bool delta,
			  uint64_t wall_ns);

#endif
