// SPDX-License-Identifier: GPL-2.0
/*
 * pulse stat record: perf 6.1's `perf stat record`. The counting is pulse
 * stat's (cmd-stat.c, lib/stat); this file takes `-o FILE` (default
 * perf.data, "-" a pipe), and writes what perf writes: the attrs with
 * their ids, the stat features, THREAD_MAP, CPU_MAP, STAT_CONFIG, then at
 * each read (-I: each interval) one STAT per counter, cpu and thread with
 * the running totals, and a STAT_ROUND (INTERVAL, or FINAL at the end).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/features.h>
#include <pulse/stat-records.h>
#include <pulse/stat.h>
#include "builtin.h"
#include "stat-record.h"

static struct {
	bool on;
	const char *path;
	int fd;
	int argc;
	const char *const *argv;
	const int *cpus;
	size_t nr_cpus;
	const pid_t *tids;
	int nr_tids;
	__u64 interval;
	int aggr_mode;
	struct pulse_data_writer *w;
	struct pulse_buf b;
	int err;
} rec = { .fd = -1 };

bool stat_recording(void)
{
	return rec.on;
}

/* The writer, once the counters are open and have ids: attrs, features, maps, config. */
static int start_file(const struct pulse_stat *st, struct pulse_evlist *evlist)
{
	struct pulse_data_writer_opts o = { .sz = sizeof(o), .pipe = !strcmp(rec.path, "-") };
	struct pulse_stat_config cfg = { .aggr_mode = rec.aggr_mode, .scale = true,
					 .interval = rec.interval };
	struct pulse_data_attr *attrs = calloc(evlist->nr + 1, sizeof(*attrs));
	struct pulse_thread_map_entry *thr = calloc(rec.nr_tids + 1, sizeof(*thr));
	static const int any = -1;
	size_t nr_thr = rec.nr_tids ? rec.nr_tids : 1;
	int ret = attrs && thr ? 0 : -ENOMEM;

	for (int i = 0; !ret && i < evlist->nr; i++) {
		attrs[i].attr = evlist->entries[i]->attr;
		attrs[i].attr.sample_type = PERF_SAMPLE_IDENTIFIER;
		attrs[i].name = evlist->entries[i]->name;
		attrs[i].ids = pulse_evlist__ids(evlist, i, &attrs[i].nr_ids);
		if (pulse_evsel__is_leader(evlist->entries[i]))
			attrs[i].nr_members = evlist->entries[i]->nr_members;
	}
	thr[0].pid = (__u64)-1;
	for (int i = 0; i < rec.nr_tids; i++)
		thr[i].pid = rec.tids[i];
	if (!ret)
		ret = pulse_data_writer__new(&rec.w, rec.fd, attrs, evlist->nr, &o);
	if (!ret) {
		struct pulse_feat_ctx ctx = { .argc = rec.argc, .argv = rec.argv, .attrs = attrs,
					      .nr_attrs = evlist->nr };

		ret = pulse_data_writer__add_stat_features(rec.w, &ctx);
	}
	if (!ret)
		ret = pulse_thread_map__build(&rec.b, thr, nr_thr);
	if (!ret)
		ret = rec.cpus ? pulse_cpu_map__build(&rec.b, rec.cpus, rec.nr_cpus, PULSE_CPU_MAP_AUTO)
			       : pulse_cpu_map__build(&rec.b, &any, 1, PULSE_CPU_MAP_AUTO);
	if (!ret)
		ret = pulse_stat_config__build(&rec.b, &cfg);
	free(attrs);
	free(thr);
	return ret;
}

/* Each read: a STAT per open cell, as perf's read_counter_cpu() writes them. */
static int write_cells(const struct pulse_stat *st, const struct pulse_counts *raw, const int *rc,
		       void *arg)
{
	struct pulse_evlist *evlist = arg;
	int nr_cpus = pulse_evlist__nr_cpus(evlist), nr_threads = pulse_evlist__nr_threads(evlist);
	int ret = rec.w ? 0 : start_file(st, evlist);

	for (int i = 0; !ret && i < evlist->nr; i++) {
		size_t nr_ids;
		const __u64 *ids = pulse_evlist__ids(evlist, i, &nr_ids);

		for (int c = 0; !ret && c < nr_cpus; c++) {
			for (int t = 0; !ret && t < nr_threads; t++) {
				size_t n = ((size_t)i * nr_cpus + c) * nr_threads + t;
				struct pulse_stat_values v = {
					.cpu = rec.cpus ? (__u32)rec.cpus[c] : (__u32)-1,
					.thread = t, .val = raw[n].val, .ena = raw[n].ena,
					.run = raw[n].run,
				};

				if (rc[n] || !ids || !ids[c * nr_threads + t])
					continue;
				v.id = ids[c * nr_threads + t];
				ret = pulse_stat_values__build(&rec.b, &v);
			}
		}
	}
	if (ret)
		rec.err = ret;
	return ret;
}

int stat_record_attach(struct pulse_stat *st, struct pulse_evlist *evlist, const int *cpus,
		       size_t nr_cpus, const pid_t *tids, int nr_tids, int interval_ms,
		       enum pulse_stat_aggr aggr)
{
	/* perf 6.1's enum aggr_mode: 0 NONE (-A), 1 GLOBAL, 2 SOCKET, 3 DIE, 4 CORE, 5 THREAD, 7 NODE */
	static const int mode[] = {
		[PULSE_STAT_AGGR_GLOBAL] = 1, [PULSE_STAT_AGGR_CPU] = 0,
		[PULSE_STAT_AGGR_THREAD] = 5, [PULSE_STAT_AGGR_CORE] = 4,
		[PULSE_STAT_AGGR_SOCKET] = 2, [PULSE_STAT_AGGR_DIE] = 3,
		[PULSE_STAT_AGGR_NODE] = 7,
	};

	if (!rec.on)
		return 0;
	rec.cpus = cpus;
	rec.nr_cpus = nr_cpus;
	rec.tids = tids;
	rec.nr_tids = nr_tids;
	rec.interval = interval_ms;
	rec.aggr_mode = mode[aggr];
	pulse_stat__set_read_hook(st, write_cells, evlist);
	return 0;
}

int stat_record_round(__u64 time_ns, bool final)
{
	struct pulse_stat_round r = { final ? PULSE_STAT_ROUND_FINAL : PULSE_STAT_ROUND_INTERVAL,
				      time_ns };
	int ret;

	if (!rec.on || !rec.w)
		return rec.on ? rec.err : 0;
	ret = pulse_stat_round__build(&rec.b, &r);
	if (!ret)
		ret = pulse_data_writer__write(rec.w, rec.b.p, rec.b.len);
	rec.b.len = 0;
	return ret;
}

int stat_record_finish(__u64 wall_ns, bool interval)
{
	int ret = 0;

	if (!rec.on)
		return 0;
	if (rec.w && !interval)
		ret = stat_record_round(wall_ns, true);
	if (rec.w && !ret)
		ret = pulse_data_writer__finish(rec.w);
	if (!ret && rec.err)
		ret = rec.err;
	pulse_data_writer__delete(rec.w);
	rec.w = NULL;
	pulse_buf__release(&rec.b);
	if (rec.fd > STDOUT_FILENO && close(rec.fd) && !ret)
		ret = -errno;
	if (ret)
		error("cannot write '%s': %s", rec.path, strerror(-ret));
	return ret;
}

/* `pulse stat record [-o FILE] [stat options] [--] cmd`: @argv[0] is "record" */
int cmd_stat_record(int argc, const char **argv)
{
	const char **args = calloc(argc + 2, sizeof(*args));
	int n = 0;

	if (!args)
		return 1;
	rec.path = "perf.data";
	args[n++] = "stat";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--") || a[0] != '-') {
			while (i < argc)
				args[n++] = argv[i++];
			break;
		}
		if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc)
			rec.path = argv[++i];
		else if (!strncmp(a, "--output=", 9))
			rec.path = a + 9;
		else if (!strncmp(a, "-o", 2) && a[2])
			rec.path = a + 2;
		else
			args[n++] = a;
	}
	rec.fd = strcmp(rec.path, "-") ? open(rec.path, O_WRONLY | O_CREAT | O_TRUNC, 0644)
				       : STDOUT_FILENO;
	if (rec.fd < 0) {
		error("cannot open '%s': %s", rec.path, strerror(errno));
		free(args);
		return 1;
	}
	rec.on = true;
	rec.argc = argc + 1;
	rec.argv = argv - 1;	/* "stat", "record", ... as perf's cmdline */
	n = cmd_stat(n, args);
	free(args);
	return n;
}
