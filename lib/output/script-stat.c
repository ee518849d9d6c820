// SPDX-License-Identifier: GPL-2.0
/*
 * `script` on a stat file, as perf 6.1's builtin-script does it
 * (process_stat_round_event(), __process_stat(); the counts as
 * util/stat.c's perf_event__process_stat_event() stores them and
 * perf_stat_process_counter() leaves them). One cell of counts per
 * (attr, cpu of the CPU_MAP, thread of the THREAD_MAP); a STAT record
 * overwrites its cell; a STAT_ROUND prints every cell, attr by attr, thread
 * by thread, cpu by cpu.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/output-stat-script.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include <pulse/stat-records.h>

#define AGGR_GLOBAL 1	/* perf 6.1's enum aggr_mode: 0 NONE, 1 GLOBAL, 2 SOCKET, ... */

struct counts {
	__u64 val, ena, run;
};

struct pulse_stat_script {
	struct pulse_data *d;		/* borrowed */
	FILE *fp;
	size_t nr_attrs;
	struct pulse_thread_map_entry *threads;
	size_t nr_threads;
	int *cpus;
	size_t nr_cpus;
	struct pulse_stat_config config;
	struct counts *cur;		/* [attr][thread][cpu], NULL until both maps */
	struct counts *prev;		/* the raw values of the last round (deltas) */
	bool header_printed;
};

int pulse_stat_script__new(struct pulse_stat_script **out, struct pulse_data *d, FILE *fp)
{
	struct pulse_stat_script *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return -ENOMEM;
	s->d = d;
	s->fp = fp;
	s->nr_attrs = pulse_data__nr_attrs(d);
	s->config.aggr_mode = AGGR_GLOBAL;
	return 0;
}

void pulse_stat_script__delete(struct pulse_stat_script *s)
{
	if (!s)
		return;
	free(s->threads);
	free(s->cpus);
	free(s->cur);
	free(s->prev);
	free(s);
}

static size_t cell(const struct pulse_stat_script *s, size_t attr, size_t thread, size_t cpu)
{
	return (attr * s->nr_threads + thread) * s->nr_cpus + cpu;
}

/* perf's set_maps(): once both maps are known, the counts exist. */
static int set_maps(struct pulse_stat_script *s)
{
	size_t n;

	if (!s->threads || !s->cpus || s->cur)
		return 0;
	n = s->nr_attrs * s->nr_threads * s->nr_cpus;
	s->cur = calloc(n ? n : 1, sizeof(*s->cur));
	s->prev = calloc(n ? n : 1, sizeof(*s->prev));
	return s->cur && s->prev ? 0 : -ENOMEM;
}

static int stat_values(struct pulse_stat_script *s, const struct perf_event_header *rec)
{
	struct pulse_stat_values v;
	size_t cpu;
	int idx;

	if (pulse_stat_values__parse(rec, rec->size, &v) || !s->cur)
		return -EBADMSG;
	idx = pulse_data__attr_of_id(s->d, v.id);
	if (idx < 0 || (size_t)idx >= s->nr_attrs || v.thread >= s->nr_threads)
		return -EBADMSG;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->cpus[cpu] == (int)v.cpu)
			break;
	if (cpu == s->nr_cpus)
		return -EBADMSG;	/* perf: "Invalid CPU %d for event %s." */
	s->cur[cell(s, idx, v.thread, cpu)] = (struct counts){ v.val, v.ena, v.run };
	return 0;
}

/* Outside global mode: the difference from the last round, then scaled. */
static void delta_scale(struct pulse_stat_script *s, struct counts *c, struct counts *prev)
{
	struct counts tmp = *prev;

	*prev = *c;
	c->val -= tmp.val;
	c->ena -= tmp.ena;
	c->run -= tmp.run;
	if (!s->config.scale)
		return;
	if (c->run == 0)
		c->val = 0;
	else if (c->run < c->ena)
		c->val = (__u64)((double)c->val * c->ena / c->run + 0.5);
}

static int stat_round(struct pulse_stat_script *s, const struct perf_event_header *rec)
{
	struct pulse_stat_round r;
	char buf[256];

	if (pulse_stat_round__parse(rec, rec->size, &r))
		return -EBADMSG;
	if (!s->cur)
		return 0;	/* perf has no counts to print either */
	if (!s->header_printed) {
		fprintf(s->fp, "%3s %8s %15s %15s %15s %15s %s\n", "CPU", "THREAD", "VAL", "ENA",
			"RUN", "TIME", "EVENT");
		s->header_printed = true;
	}
	for (size_t a = 0; a < s->nr_attrs; a++) {
		const char *name = pulse_event_name(s->d, NULL, a, buf, sizeof(buf));

		for (size_t t = 0; t < s->nr_threads; t++) {
			for (size_t c = 0; c < s->nr_cpus; c++) {
				struct counts *v = &s->cur[cell(s, a, t, c)];

				if (s->config.aggr_mode != AGGR_GLOBAL)
					delta_scale(s, v, &s->prev[cell(s, a, t, c)]);
				fprintf(s->fp, "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64
					" %15" PRIu64 " %s\n", s->cpus[c], (int)s->threads[t].pid,
					(uint64_t)v->val, (uint64_t)v->ena, (uint64_t)v->run,
					(uint64_t)r.time, name);
			}
		}
	}
	return ferror(s->fp) ? -EIO : 0;
}

int pulse_stat_script__record(struct pulse_stat_script *s, const struct perf_event_header *rec)
{
	int err;

	switch (rec->type) {
	case PERF_RECORD_THREAD_MAP:
		if (s->threads)
			return 0;	/* perf keeps the first map */
		err = pulse_thread_map__parse(rec, rec->size, &s->threads, &s->nr_threads);
		return err ? err : set_maps(s);
	case PERF_RECORD_CPU_MAP:
		if (s->cpus)
			return 0;
		err = pulse_cpu_map__parse(rec, rec->size, &s->cpus, &s->nr_cpus, NULL);
		return err ? err : set_maps(s);
	case PERF_RECORD_STAT_CONFIG:
		return pulse_stat_config__parse(rec, rec->size, &s->config);
	case PERF_RECORD_STAT:
		return stat_values(s, rec);
	case PERF_RECORD_STAT_ROUND:
		return stat_round(s, rec);
	}
	return 0;
}

static int walk_one(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		    void *arg)
{
	return pulse_stat_script__record(arg, rec);
}

int pulse_stat_script__print(struct pulse_data *d, FILE *fp)
{
	struct pulse_stat_script *s;
	int err = pulse_stat_script__new(&s, d, fp);

	if (!err)
		err = pulse_data__for_each_record(d, walk_one, s);
	if (!err && fflush(fp))
		err = -EIO;
	pulse_stat_script__delete(s);
	return err;
}
