// SPDX-License-Identifier: GPL-2.0
/*
 * pulse stat report: perf 6.1's `perf stat report`. Reads a stat file
 * (pulse's or perf's, file or pipe), turns each STAT_ROUND's cells into
 * lib/stat's rows (pulse_stat__add_round(): folded and scaled as a live
 * run's) and prints them as pulse stat prints them: the FINAL round as
 * the table with the file's command line and elapsed time, each INTERVAL
 * round as -I rows, on stderr as perf's. The aggregation is the file's (STAT_CONFIG) unless
 * -A or --per-* says otherwise, as perf's.
 */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include <pulse/stat-records.h>
#include <pulse/stat.h>
#include "builtin.h"
#include "parse-options.h"
#include "stat-record.h"

static const char *const report_usage[] = {
	"pulse stat report [<options>]",
	NULL,
};

static const char *input_name;
static bool no_aggr, per_core, per_socket, per_die, per_node;

static const struct option report_options[] = {
	OPT_BOOLEAN('A', "no-aggr", &no_aggr, "disable CPU count aggregation"),
	OPT_STRING('i', "input", &input_name, "file", "input file name"),
	OPT_BOOLEAN(0, "per-core", &per_core, "aggregate counts per physical processor core"),
	OPT_BOOLEAN(0, "per-die", &per_die, "aggregate counts per processor die"),
	OPT_BOOLEAN(0, "per-node", &per_node, "aggregate counts per numa node"),
	OPT_BOOLEAN(0, "per-socket", &per_socket, "aggregate counts per processor socket"),
	OPT_END(),
};

struct report {
	struct pulse_data *d;
	struct pulse_evlist evlist;
	struct pulse_stat *st;
	struct pulse_stat_print_opts po;
	struct pulse_stat_config config;
	struct pulse_thread_map_entry *threads;
	size_t nr_threads;
	int *cpus;
	size_t nr_cpus;
	pid_t *tids;
	char **comms;
	struct pulse_counts *raw;	/* [(attr * nr_cpus + cpu) * nr_threads + thread] */
	int *rc;			/* 0: a STAT record filled the cell */
	char target[4096];
	int nr_intervals;
	bool final;			/* a FINAL round was read: print the table at the end */
};

/* perf 6.1's enum aggr_mode in the file to lib/stat's; -1 unknown */
static int file_aggr(__u64 mode)
{
	switch (mode) {
	case 0: return PULSE_STAT_AGGR_CPU;
	case 1: return PULSE_STAT_AGGR_GLOBAL;
	case 2: return PULSE_STAT_AGGR_SOCKET;
	case 3: return PULSE_STAT_AGGR_DIE;
	case 4: return PULSE_STAT_AGGR_CORE;
	case 5: return PULSE_STAT_AGGR_THREAD;
	case 7: return PULSE_STAT_AGGR_NODE;
	}
	return PULSE_STAT_AGGR_GLOBAL;
}

static enum pulse_stat_aggr report_aggr(const struct report *r)
{
	return no_aggr ? PULSE_STAT_AGGR_CPU : per_core ? PULSE_STAT_AGGR_CORE :
	       per_socket ? PULSE_STAT_AGGR_SOCKET : per_die ? PULSE_STAT_AGGR_DIE :
	       per_node ? PULSE_STAT_AGGR_NODE : file_aggr(r->config.aggr_mode);
}

/* The header's target: the file's command line in quotes, 'pipe' for a stream (perf's) */
static void describe(struct report *r)
{
	size_t len, n = 0, off = 4;
	const unsigned char *p = pulse_data__feat(r->d, PULSE_FEAT_CMDLINE, &len);
	__u32 nr;

	if (pulse_data__is_pipe(r->d) || !p || len < 4) {
		snprintf(r->target, sizeof(r->target), "'pipe'");
		return;
	}
	memcpy(&nr, p, 4);
	n = snprintf(r->target, sizeof(r->target), "'");
	for (__u32 i = 0; i < nr && off + 4 <= len && n < sizeof(r->target); i++) {
		__u32 sl;

		memcpy(&sl, p + off, 4);
		off += 4;
		if (off + sl > len)
			break;
		n += snprintf(r->target + n, sizeof(r->target) - n, "%s%.*s", i ? " " : "",
			      (int)sl, (const char *)p + off);
		off += sl;
	}
	if (n < sizeof(r->target) - 1)
		snprintf(r->target + n, sizeof(r->target) - n, "'");
}

/* The counters, the session and the cells, at the first STAT or round after the maps and config. */
static int setup(struct report *r)
{
	size_t nr = pulse_data__nr_attrs(r->d), cells;
	char buf[256];
	int ret = 0;

	if (r->st || !r->threads || !r->cpus)
		return 0;
	for (size_t a = 0; !ret && a < nr; a++) {
		const struct perf_event_attr *attr = pulse_data__attr(r->d, a);
		struct pulse_evsel *e;

		ret = pulse_evsel__new(&e, attr->type, attr->config,
				       pulse_event_name(r->d, NULL, a, buf, sizeof(buf)));
		if (!ret) {
			e->attr = *attr;
			ret = pulse_evlist__add(&r->evlist, e);
		}
	}
	cells = nr * r->nr_cpus * r->nr_threads;
	r->raw = calloc(cells + 1, sizeof(*r->raw));
	r->rc = malloc((cells + 1) * sizeof(*r->rc));
	r->tids = calloc(r->nr_threads, sizeof(*r->tids));
	r->comms = calloc(r->nr_threads, sizeof(*r->comms));
	if (!ret && (!r->raw || !r->rc || !r->tids || !r->comms))
		ret = -ENOMEM;
	for (size_t i = 0; !ret && i < cells; i++)
		r->rc[i] = -EBADF;
	for (size_t t = 0; !ret && t < r->nr_threads; t++) {
		r->tids[t] = r->threads[t].pid;
		r->comms[t] = r->threads[t].comm;
	}
	/* perf's: -A or --per-* on counts per task (cpu -1) are global counts */
	if (report_aggr(r) != PULSE_STAT_AGGR_GLOBAL && r->nr_cpus == 1 && r->cpus[0] < 0) {
		fprintf(stderr, "warning: processing task data, aggregation mode not set\n");
		no_aggr = per_core = per_socket = per_die = per_node = false;
		r->config.aggr_mode = 1;
	}
	if (!ret)
		ret = pulse_stat__new(&r->st, &r->evlist, report_aggr(r));
	r->po.cpus = r->cpus;
	r->po.tids = r->tids;
	r->po.comms = (const char *const *)r->comms;
	r->po.interval = r->config.interval;
	return ret;
}

static int stat_values(struct report *r, const struct perf_event_header *rec)
{
	struct pulse_stat_values v;
	size_t cpu, n;
	int idx;

	if (pulse_stat_values__parse(rec, rec->size, &v) || !r->st)
		return -EBADMSG;
	idx = pulse_data__attr_of_id(r->d, v.id);
	if (idx < 0 || idx >= r->evlist.nr || v.thread >= r->nr_threads)
		return -EBADMSG;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->cpus[cpu] == (int)v.cpu)
			break;
	if (cpu == r->nr_cpus)
		return -EBADMSG;
	n = ((size_t)idx * r->nr_cpus + cpu) * r->nr_threads + v.thread;
	r->raw[n] = (struct pulse_counts){ .val = v.val, .ena = v.ena, .run = v.run };
	r->rc[n] = 0;
	return 0;
}

static int stat_round(struct report *r, const struct perf_event_header *rec)
{
	struct pulse_stat_round rd;
	bool interval = r->config.interval;
	int ret;

	if (pulse_stat_round__parse(rec, rec->size, &rd))
		return -EBADMSG;
	if (!r->st)
		return 0;
	ret = pulse_stat__add_round(r->st, r->cpus, r->nr_cpus, r->nr_threads, r->raw, r->rc,
				    !r->config.scale, interval,
				    interval ? r->config.interval * 1000000ULL : rd.time);
	if (ret || !interval) {
		r->final = !ret;
		return ret;
	}
	r->po.ts_ns = rd.time;
	r->po.interval_header = r->nr_intervals++ % 25 == 0;
	return pulse_stat__print(r->st, stderr, &r->po);
}

static int one_record(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		      void *arg)
{
	struct report *r = arg;
	int ret;

	switch (rec->type) {
	case PERF_RECORD_THREAD_MAP:
		if (r->threads)
			return 0;
		return pulse_thread_map__parse(rec, rec->size, &r->threads, &r->nr_threads);
	case PERF_RECORD_CPU_MAP:
		if (r->cpus)
			return 0;
		return pulse_cpu_map__parse(rec, rec->size, &r->cpus, &r->nr_cpus, NULL);
	case PERF_RECORD_STAT_CONFIG:
		return r->st ? 0 : pulse_stat_config__parse(rec, rec->size, &r->config);
	case PERF_RECORD_STAT:
		ret = setup(r);
		return ret ? ret : stat_values(r, rec);
	case PERF_RECORD_STAT_ROUND:
		ret = setup(r);
		return ret ? ret : stat_round(r, rec);
	}
	return 0;
}

int cmd_stat_report(int argc, const char **argv)
{
	struct report r = { .config = { .aggr_mode = 1, .scale = true } };
	int ret, status = 1;

	setvbuf(stderr, NULL, _IOFBF, 64 << 10);	/* the counts go there, as perf's */
	setlocale(LC_NUMERIC, "");
	argc = parse_options(argc - 1, argv + 1, report_options, 0);
	if (argc != 0) {
		usage_with_options(report_usage, report_options);
		return PULSE_EXIT_USAGE;
	}
	if (no_aggr + per_core + per_socket + per_die + per_node > 1) {
		error("-A and --per-core/socket/die/node exclude each other");
		return PULSE_EXIT_USAGE;
	}
	if (!input_name)
		input_name = "perf.data";
	pulse_evlist__init(&r.evlist);
	r.po.sz = sizeof(r.po);
	r.po.format = PULSE_STAT_FMT_STD;
	r.po.target = r.target;
	ret = pulse_data__open(&r.d, input_name);
	if (ret) {
		error("cannot read '%s': %s", input_name, strerror(-ret));
		goto out;
	}
	describe(&r);
	ret = pulse_data__for_each_record(r.d, one_record, &r);
	if (!ret && r.final)
		ret = pulse_stat__print(r.st, stderr, &r.po);
	if (ret) {
		error("cannot report '%s': %s", input_name, strerror(-ret));
		goto out;
	}
	if (!r.st) {
		error("'%s' holds no stat counts", input_name);
		hint("write one with 'pulse stat record'");
		goto out;
	}
	status = fflush(stderr) ? 1 : 0;
out:
	pulse_stat__delete(r.st);
	pulse_evlist__exit(&r.evlist);
	pulse_data__close(r.d);
	free(r.threads);
	free(r.cpus);
	free(r.raw);
	free(r.rc);
	free(r.tids);
	free(r.comms);
	return status;
}
