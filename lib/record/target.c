// SPDX-License-Identifier: GPL-2.0
/*
 * What pulse record watches: the CPUs (-C, or every online one) and the
 * threads (-p: every thread of each process, -t, or -1 for "every task",
 * system wide or for a command not yet forked).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/internal.h"

static int read_online_cpus(int **cpus)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = 0, alloc = 16, a, b;
	int *v = malloc(alloc * sizeof(int));
	char c;

	if (!v) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	if (!f) {
		long nr = sysconf(_SC_NPROCESSORS_ONLN);

		for (int i = 0; i < nr; i++) {
			if (n == alloc)
				v = realloc(v, (alloc *= 2) * sizeof(int));
			v[n++] = i;
		}
		*cpus = v;
		return n;
	}
	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		if (fscanf(f, "%c", &c) == 1 && c == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			if (fscanf(f, "%c", &c) != 1)
				c = 0;
		}
		for (int i = a; i <= b; i++) {
			if (n == alloc) {
				int *nv = realloc(v, (alloc *= 2) * sizeof(int));

				if (!nv)
					break;
				v = nv;
			}
			v[n++] = i;
		}
		if (c != ',')
			break;
	}
	fclose(f);
	*cpus = v;
	return n;
}

static int add_thread(struct rec *r, pid_t tid)
{
	return pulse_threads__add(&r->threads, &r->nr_threads, tid);
}

int rec_setup_target(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	int ret;

	if (o->cpus && o->nr_cpus) {
		r->cpus = malloc(o->nr_cpus * sizeof(int));
		if (!r->cpus)
			return -ENOMEM;
		memcpy(r->cpus, o->cpus, o->nr_cpus * sizeof(int));
		r->nr_cpus = o->nr_cpus;
	} else {
		r->nr_cpus = read_online_cpus(&r->cpus);
		if (r->nr_cpus < 0)
			return r->nr_cpus;
	}
	/* -1: every task of the CPUs */
	if (is_system_wide(o))
		return add_thread(r, -1);
	for (size_t i = 0; i < o->nr_pids; i++) {
		ret = pulse_threads__add_process(&r->threads, &r->nr_threads, o->pids[i]);
		if (ret) {
			r->err->stage = PULSE_REC_TARGET;
			r->err->tid = o->pids[i];
			return ret;
		}
	}
	for (size_t i = 0; i < o->nr_tids; i++) {
		if (pulse_threads__exists(o->tids[i])) {
			r->err->stage = PULSE_REC_TARGET;
			r->err->tid = o->tids[i];
			return -ESRCH;
		}
		if (add_thread(r, o->tids[i]))
			return -ENOMEM;
	}
	/* a command: its pid is filled in once forked */
	if (!r->nr_threads)
		return add_thread(r, -1);
	return 0;
}
