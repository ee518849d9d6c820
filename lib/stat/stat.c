// SPDX-License-Identifier: GPL-2.0
/*
 * A counting session (perf stat's run_perf_stat()): each run opens the
 * evlist per (cpu, thread) cell, starts the held workload (or waits for a
 * stop, a timeout or the end of the -p/-t tasks), disables, reads every
 * cell, folds the cells into rows by the aggregation key, scales each row
 * once, adds it to the row's running means, and closes the evlist again.
 *
 * The cells of a row are summed raw (val, ena, run) and the sum scaled,
 * as perf's AGGR_GLOBAL does; an evsel that opened on no cell is
 * <not supported>, one that opened but never ran <not counted>.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "stat/internal.h"

int pulse_stat__new(struct pulse_stat **out, struct pulse_evlist *evlist, enum pulse_stat_aggr aggr)
{
	struct pulse_stat *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return -ENOMEM;
	st->evlist = evlist;
	st->aggr = aggr;
	*out = st;
	return 0;
}

void pulse_stat__delete(struct pulse_stat *st)
{
	if (!st)
		return;
	free(st->cells);
	free(st->prev);
	free(st->keys);
	free(st->cpus);
	free(st->key_of_cpu);
	free(st->clock_rounds);
	free(st);
}

int pulse_stat__nr_runs(const struct pulse_stat *st)
{
	return st->nr_runs;
}

uint64_t stat_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ms(int ms, volatile sig_atomic_t *stop)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !(stop && *stop))
		;
}

/* perf stat's attrs: counts with their times, leaders start disabled. */
static void config_attrs(struct pulse_stat *st, const struct pulse_stat_opts *o, bool forked)
{
	for (int i = 0; i < st->evlist->nr; i++) {
		struct pulse_evsel *e = st->evlist->entries[i];
		bool leader = pulse_evsel__is_leader(e);

		e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		e->attr.inherit = !o->no_inherit;
		e->attr.disabled = leader;
		e->attr.enable_on_exec = leader && forked && !o->delay_ms && !o->cpus;
	}
}

int stat_alloc_rows(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads)
{
	int keys;

	if (st->nr_keys)
		return 0;	/* every run opens on the same cells */
	keys = stat_aggr_setup(st, cpus, nr_cpus, nr_threads);
	if (keys < 0)
		return keys;
	if (cpus && cpus[0] >= 0) {
		st->cpus = malloc(nr_cpus * sizeof(*st->cpus));
		if (!st->cpus)
			return -ENOMEM;
		memcpy(st->cpus, cpus, nr_cpus * sizeof(*st->cpus));
	}
	st->cells = calloc((size_t)st->evlist->nr * keys, sizeof(*st->cells));
	st->prev = calloc((size_t)st->evlist->nr * keys, sizeof(*st->prev));
	if (!st->cells || !st->prev)
		return -ENOMEM;
	st->nr_keys = keys;
	return 0;
}

/*
 * Read every cell into @raw (@rc: each read's result), cpu by cpu. With
 * counters on several cpus pulse moves itself onto each cpu in turn and
 * reads that cpu's cells there, as perf stat does (its affinity walk): a
 * read of a counter active on another cpu costs an IPI.
 */
static void read_cells(struct pulse_stat *st, struct pulse_counts *raw, int *rc)
{
	int nr_cpus = pulse_evlist__nr_cpus(st->evlist);
	int nr_threads = pulse_evlist__nr_threads(st->evlist);
	bool affinity = st->cpus && nr_cpus > 1;
	int first = 0, here = sched_getcpu();
	cpu_set_t saved, one;

	if (affinity && sched_getaffinity(0, sizeof(saved), &saved))
		affinity = false;
	/* start where pulse runs: one move per other cpu, none for the restore */
	for (int c = 0; affinity && c < nr_cpus; c++)
		if (st->cpus[c] == here)
			first = c;
	for (int k = 0; k < nr_cpus; k++) {
		int c = (first + k) % nr_cpus;

		if (affinity && st->cpus[c] < CPU_SETSIZE) {
			CPU_ZERO(&one);
			CPU_SET(st->cpus[c], &one);
			sched_setaffinity(0, sizeof(one), &one);
		}
		for (int i = 0; i < st->evlist->nr; i++) {
			for (int t = 0; t < nr_threads; t++) {
				size_t n = ((size_t)i * nr_cpus + c) * nr_threads + t;

				rc[n] = pulse_evlist__read(st->evlist, i, c, t, &raw[n]);
			}
		}
	}
	if (affinity)
		sched_setaffinity(0, sizeof(saved), &saved);
}

/* Fold the cells of the evsel at @idx into @acc[key], marking @seen keys. */
static int fold_evsel(struct pulse_stat *st, int idx, const struct pulse_counts *raw,
		      const int *rc, int nr_cpus, int nr_threads, struct pulse_counts *acc,
		      bool *seen)
{
	for (int c = 0; c < nr_cpus; c++) {
		for (int t = 0; t < nr_threads; t++) {
			size_t n = ((size_t)idx * nr_cpus + c) * nr_threads + t;
			int key = stat_aggr_key(st, c, t);

			if (rc[n] == -EBADF)
				continue;
			if (rc[n])
				return rc[n];
			acc[key].val += raw[n].val;
			acc[key].ena += raw[n].ena;
			acc[key].run += raw[n].run;
			seen[key] = true;
		}
	}
	return 0;
}

int stat_read_counts(struct pulse_stat *st, bool no_scale, bool delta)
{
	int nr_cpus = pulse_evlist__nr_cpus(st->evlist);
	int nr_threads = pulse_evlist__nr_threads(st->evlist);
	size_t cells = (size_t)st->evlist->nr * nr_cpus * nr_threads;
	struct pulse_counts *raw = calloc(cells + 1, sizeof(*raw));
	int *rc = calloc(cells + 1, sizeof(*rc));
	int ret = raw && rc ? 0 : -ENOMEM;

	if (!ret)
		read_cells(st, raw, rc);
	if (!ret && st->read_hook)
		ret = st->read_hook(st, raw, rc, st->read_hook_arg);
	if (!ret)
		ret = stat_fold(st, raw, rc, nr_cpus, nr_threads, no_scale, delta);
	free(raw);
	free(rc);
	return ret;
}

int stat_fold(struct pulse_stat *st, const struct pulse_counts *raw, const int *rc, int nr_cpus,
	      int nr_threads, bool no_scale, bool delta)
{
	struct pulse_counts *acc = calloc(st->nr_keys + 1, sizeof(*acc));
	bool *seen = calloc(st->nr_keys + 1, sizeof(*seen));
	int ret = acc && seen ? 0 : -ENOMEM;

	for (int i = 0; !ret && i < st->evlist->nr; i++) {
		memset(acc, 0, st->nr_keys * sizeof(*acc));
		memset(seen, 0, st->nr_keys * sizeof(*seen));
		ret = fold_evsel(st, i, raw, rc, nr_cpus, nr_threads, acc, seen);
		for (int k = 0; !ret && k < st->nr_keys; k++) {
			struct stat_cell *c = &st->cells[i * st->nr_keys + k];

			if (!seen[k])
				continue;
			if (delta) {
				struct pulse_counts *p = &st->prev[i * st->nr_keys + k];
				struct pulse_counts now = acc[k];

				acc[k].val -= p->val;
				acc[k].ena -= p->ena;
				acc[k].run -= p->run;
				*p = now;
				c->val = c->ena = c->run = (struct pulse_stat_stats){};
			}
			if (!no_scale)
				pulse_counts__scale(&acc[k]);
			c->supported = true;
			pulse_stat_stats__update(&c->val, acc[k].val);
			pulse_stat_stats__update(&c->ena, acc[k].ena);
			pulse_stat_stats__update(&c->run, acc[k].run);
		}
	}
	free(acc);
	free(seen);
	return ret;
}

/* Open, run, read: the part after the workload was forked (@pid > 0). */
static int count(struct pulse_stat *st, const struct pulse_stat_opts *o, pid_t pid, int go_fd,
		 int err_fd, struct pulse_stat_run *res)
{
	static const int any_cpu[] = { -1 };
	static const pid_t all_tasks[] = { -1 };
	struct pulse_evlist_open_opts oo = { .sz = sizeof(oo), .skip_unsupported = true };
	struct pulse_evlist_open_result or;
	uint64_t t0;
	int ret;

	oo.cpus = o->cpus ? o->cpus : any_cpu;
	oo.nr_cpus = o->cpus ? o->nr_cpus : 1;
	if (o->cpus) {
		oo.threads = all_tasks;	/* -a, -C: every task, the workload among them */
		oo.nr_threads = 1;
	} else if (pid > 0) {
		oo.threads = &pid;
		oo.nr_threads = 1;
	} else if (o->threads) {
		oo.threads = o->threads;
		oo.nr_threads = o->nr_threads;
	} else {
		oo.threads = all_tasks;
		oo.nr_threads = 1;
	}
	if (!o->null_run) {
		ret = pulse_evlist__open(st->evlist, &oo, &or);
		if (ret) {
			res->stage = PULSE_STAT_OPEN;
			res->evsel = or.evsel;
			res->cpu = or.cpu;
			res->tid = or.tid;
			goto out_kill;
		}
		ret = stat_alloc_rows(st, oo.cpus, pulse_evlist__nr_cpus(st->evlist),
				      pulse_evlist__nr_threads(st->evlist));
		if (ret)
			goto out_close;
	}
	/* perf's elapsed time starts at the workload's go, or when -D's delay ends */
	t0 = stat_now_ns();
	/* -a, -C: counting starts before the workload does, as perf's */
	if (o->cpus && !o->delay_ms)
		pulse_evlist__enable(st->evlist);
	if (pid > 0) {
		res->forked = true;
		ret = stat_workload_go(pid, go_fd, err_fd);
		go_fd = err_fd = -1;
		if (ret) {
			res->stage = PULSE_STAT_EXEC;
			goto out_close;
		}
	}
	if (o->delay_ms > 0) {
		sleep_ms(o->delay_ms, o->stop);
		t0 = stat_now_ns();
	}
	/* -D -1: disabled until a control "enable" */
	if (((pid <= 0 && !o->cpus) || o->delay_ms) && o->delay_ms >= 0)
		pulse_evlist__enable(st->evlist);
	if (o->delay_ms > 0 && o->enabled)
		o->enabled(o->arg);
	ret = stat_loop(st, o, pid, t0, res);
	res->wall_ns = stat_now_ns() - t0;
	pulse_evlist__disable(st->evlist);
	if (!ret && !o->null_run && !o->interval_ms)
		ret = stat_read_counts(st, o->no_scale, false);
	if (ret)
		res->stage = PULSE_STAT_READ;
	pulse_evlist__close(st->evlist);
	return ret;

out_close:
	pulse_evlist__close(st->evlist);
out_kill:
	if (go_fd >= 0) {
		close(go_fd);	/* the held child reads EOF and exits 127 */
		close(err_fd);
		waitpid(pid, NULL, 0);
	}
	return ret;
}

int pulse_stat__run(struct pulse_stat *st, const struct pulse_stat_opts *opts,
		    struct pulse_stat_run *res)
{
	struct pulse_stat_opts o = {};
	int go_fd = -1, err_fd = -1, ret;
	pid_t pid = -1;

	if (!opts || opts->sz < sizeof(o))
		return -EINVAL;
	o = *opts;
	*res = (struct pulse_stat_run){ .cpu = -1, .tid = -1 };
	config_attrs(st, &o, !!o.argv);
	if (o.argv) {
		ret = stat_workload_start(o.argv, &pid, &go_fd, &err_fd);
		if (ret) {
			res->stage = PULSE_STAT_FORK;
			return ret;
		}
	}
	ret = count(st, &o, pid, go_fd, err_fd, res);
	if (ret)
		return ret;
	pulse_stat_stats__update(&st->wall, res->wall_ns);
	st->last = *res;
	st->nr_runs++;
	return 0;
}

int pulse_stat__row(const struct pulse_stat *st, int idx, int key, struct pulse_stat_row *row)
{
	const struct stat_cell *c;

	if (idx < 0 || idx >= st->evlist->nr || key < 0 || key >= (st->nr_keys ? st->nr_keys : 1))
		return -ERANGE;
	memset(row, 0, sizeof(*row));
	row->evsel = st->evlist->entries[idx];
	row->key = key;
	if (!st->cells)
		return 0;
	c = &st->cells[idx * st->nr_keys + key];
	row->supported = c->supported;
	row->val = c->val.mean;
	row->ena = c->ena.mean;
	row->run = c->run.mean;
	row->noise = pulse_stat_rel_stddev(pulse_stat_stats__stddev(&c->val), c->val.mean);
	return 0;
}
