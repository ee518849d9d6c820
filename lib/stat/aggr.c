// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation keys: which row a (cpu, thread) cell's counts go to.
 *
 *   global         one row
 *   -A             one per cpu, in the order they were opened
 *   --per-thread   one per thread
 *   --per-core     one per (socket, die, core), --per-die per (socket, die),
 *   --per-socket   per socket, --per-node per NUMA node: the cpu's
 *                  topology/physical_package_id, die_id, core_id and its
 *                  nodeN link in /sys/devices/system/cpu/cpuN (perf's
 *                  cpu_map__get_*_aggr_by_cpu()), keys sorted as perf's.
 *
 * The key's column ("S0-D0-C1   2", "N0", CSV and JSON) is printed here
 * too, with perf 6.1's widths.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/internal.h"

static bool is_topology(enum pulse_stat_aggr a)
{
	return a == PULSE_STAT_AGGR_CORE || a == PULSE_STAT_AGGR_SOCKET ||
	       a == PULSE_STAT_AGGR_DIE || a == PULSE_STAT_AGGR_NODE;
}

static int read_int(int cpu, const char *file)
{
	char path[128];
	FILE *f;
	int v = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int node_of(int cpu)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) && sscanf(d->d_name + 4, "%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

/* The key of @cpu under @a; the fields that do not matter are -1. */
static struct stat_key topo_key(enum pulse_stat_aggr a, int cpu)
{
	struct stat_key k = { -1, -1, -1, -1, 0 };

	if (a == PULSE_STAT_AGGR_NODE) {
		k.node = node_of(cpu);
		return k;
	}
	k.socket = read_int(cpu, "physical_package_id");
	if (a == PULSE_STAT_AGGR_DIE || a == PULSE_STAT_AGGR_CORE)
		k.die = read_int(cpu, "die_id");
	if (a == PULSE_STAT_AGGR_CORE)
		k.core = read_int(cpu, "core_id");
	return k;
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct stat_key *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return 0;
}

int stat_aggr_setup(struct pulse_stat *st, const int *cpus, int nr_cpus, int nr_threads)
{
	struct stat_key *keys;
	int n = 0;

	if (st->aggr == PULSE_STAT_AGGR_CPU)
		return nr_cpus;
	if (st->aggr == PULSE_STAT_AGGR_THREAD)
		return nr_threads;
	if (!is_topology(st->aggr) || !cpus || cpus[0] < 0)
		return 1;
	keys = calloc(nr_cpus, sizeof(*keys));
	st->key_of_cpu = calloc(nr_cpus, sizeof(*st->key_of_cpu));
	if (!keys || !st->key_of_cpu) {
		free(keys);
		return -ENOMEM;
	}
	for (int c = 0; c < nr_cpus; c++) {
		struct stat_key k = topo_key(st->aggr, cpus[c]);
		int i;

		for (i = 0; i < n && key_cmp(&keys[i], &k); i++)
			;
		if (i == n)
			keys[n++] = k;
		keys[i].nr_cpus++;
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (int c = 0; c < nr_cpus; c++) {
		struct stat_key k = topo_key(st->aggr, cpus[c]);

		for (int i = 0; i < n; i++)
			if (!key_cmp(&keys[i], &k))
				st->key_of_cpu[c] = i;
	}
	st->keys = keys;
	return n;
}

int stat_aggr_key(const struct pulse_stat *st, int cpu, int thread)
{
	switch (st->aggr) {
	case PULSE_STAT_AGGR_CPU:
		return cpu;
	case PULSE_STAT_AGGR_THREAD:
		return thread;
	default:
		return st->key_of_cpu ? st->key_of_cpu[cpu] : 0;
	}
}

bool stat_aggr_key_major(const struct pulse_stat *st)
{
	return is_topology(st->aggr);
}

void stat_aggr_print_key(const struct pulse_stat *st, FILE *out,
			 const struct pulse_stat_print_opts *o, int key, bool supported)
{
	bool csv = o->format == PULSE_STAT_FMT_CSV, json = o->format == PULSE_STAT_FMT_JSON;
	const char *sep = csv ? (o->sep ? o->sep : ",") : " ";
	static const char *const json_key[] = {
		[PULSE_STAT_AGGR_CORE] = "core", [PULSE_STAT_AGGR_SOCKET] = "socket",
		[PULSE_STAT_AGGR_DIE] = "die", [PULSE_STAT_AGGR_NODE] = "node",
	};
	const struct stat_key *k;
	char id[64];
	int nr;

	if (st->aggr == PULSE_STAT_AGGR_CPU) {
		int cpu = o->cpus ? o->cpus[key] : key;

		if (json)
			fprintf(out, "\"cpu\" : \"%d\", ", cpu);
		else
			fprintf(out, "CPU%*d%s", csv ? 0 : -7, cpu, sep);
		return;
	}
	if (st->aggr == PULSE_STAT_AGGR_THREAD) {
		const char *comm = o->comms && o->comms[key] ? o->comms[key] : "";
		int tid = o->tids ? o->tids[key] : key;

		if (json)
			fprintf(out, "\"thread\" : \"%s-%d\", ", comm, tid);
		else
			fprintf(out, "%*s-%*d%s", csv ? 0 : 16, comm, csv ? 0 : -8, tid, sep);
		return;
	}
	if (!st->keys)
		return;
	k = &st->keys[key];
	/* perf 6.1 counts the cpus that gave a value: none for an unsupported event, shown as 1 */
	nr = supported ? k->nr_cpus : 1;
	if (json) {
		if (st->aggr == PULSE_STAT_AGGR_CORE)
			snprintf(id, sizeof(id), "S%d-D%d-C%d", k->socket, k->die, k->core);
		else if (st->aggr == PULSE_STAT_AGGR_DIE)
			snprintf(id, sizeof(id), "S%d-D%d", k->socket, k->die);
		else if (st->aggr == PULSE_STAT_AGGR_SOCKET)
			snprintf(id, sizeof(id), "S%d", k->socket);
		else
			snprintf(id, sizeof(id), "N%d", k->node);
		fprintf(out, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", json_key[st->aggr], id, nr);
		return;
	}
	if (st->aggr == PULSE_STAT_AGGR_CORE)
		fprintf(out, "S%d-D%d-C%*d%s", k->socket, k->die, csv ? 0 : -8, k->core, sep);
	else if (st->aggr == PULSE_STAT_AGGR_DIE)
		fprintf(out, "S%d-D%*d%s", k->socket, csv ? 0 : -8, k->die, sep);
	else if (st->aggr == PULSE_STAT_AGGR_SOCKET)
		fprintf(out, "S%*d%s", csv ? 0 : -5, k->socket, sep);
	else
		fprintf(out, "N%*d%s", csv ? 0 : -5, k->node, sep);
	fprintf(out, "%*d%s", csv ? 0 : 4, nr, sep);
}

const char *stat_aggr_interval_header(const struct pulse_stat *st)
{
	switch (st->aggr) {
	case PULSE_STAT_AGGR_CPU:
		return "#           time CPU                    counts unit events";
	case PULSE_STAT_AGGR_THREAD:
		return "#           time             comm-pid                  counts unit events";
	case PULSE_STAT_AGGR_CORE:
		return "#           time core            cpus             counts unit events";
	case PULSE_STAT_AGGR_SOCKET:
		return "#           time socket cpus             counts unit events";
	case PULSE_STAT_AGGR_DIE:
		return "#           time die          cpus             counts unit events";
	case PULSE_STAT_AGGR_NODE:
		return "#           time node   cpus             counts unit events";
	default:
		return "#           time             counts unit events";
	}
}
