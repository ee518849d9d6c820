// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record --threads[=spec]: perf's parallel streaming. The spec says
 * which CPUs' rings each reader thread drains: cpu (one each, the
 * default), core, package, numa (the CPUs sharing one, from sysfs), or
 * perf's masks "maps/affinity:maps/affinity..." (CPU lists; the affinity
 * part is taken, not used). The output is perf's directory: DIR/data (the
 * header, the events, the side-band pulse made, the features with
 * DIR_FORMAT) and DIR/data.N, reader N's records; a flight recording's
 * readers all feed the flight recorder instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pulse/record-output.h>
#include "builtin.h"
#include "record.h"

#define MAX_CPUS 4096

const char *threads_spec;		/* NULL: no --threads; "": the default */
static int reader_of_cpu[MAX_CPUS];
static int nr_readers;
static struct pulse_record_output **outs;	/* [nr_readers] raw outputs, directory mode */
static int *out_fds;

int threads_opt(const struct option *opt, const char *arg, int unset)
{
	threads_spec = unset ? NULL : arg ? arg : "";
	return 0;
}

static bool online(int cpu)
{
	char path[96];

	if (!cpu)
		return true;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	FILE *f = fopen(path, "r");
	int v = 1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
	} else {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		return access(path, F_OK) == 0;
	}
	return v == 1;
}

/* A CPU list ("0-3,8") into reader @k's CPUs; the number of online CPUs it named. */
static int take_list(const char *list, int k)
{
	int *cpus = NULL, n = 0;
	size_t nr = 0;

	if (record_parse_list(list, &cpus, &nr))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (cpus[i] < 0 || cpus[i] >= MAX_CPUS || !online(cpus[i]))
			continue;
		reader_of_cpu[cpus[i]] = k;
		n++;
	}
	free(cpus);
	return n;
}

/* cpu, core, package, numa: group the online CPUs by the sysfs list they share */
static int by_topology(const char *file)
{
	char seen[64][256];
	int nr = 0;

	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		char path[128], list[256];
		FILE *f;
		int k;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		if (access(path, F_OK))
			break;
		if (!online(cpu))
			continue;
		if (!file) {
			reader_of_cpu[cpu] = nr_readers++;
			continue;
		}
		snprintf(path, sizeof(path), file, cpu);
		f = fopen(path, "r");
		if (!f || !fgets(list, sizeof(list), f)) {
			if (f)
				fclose(f);
			snprintf(list, sizeof(list), "%d", cpu);
		} else {
			fclose(f);
		}
		list[strcspn(list, "\n")] = 0;
		for (k = 0; k < nr && strcmp(seen[k], list); k++)
			;
		if (k == nr) {
			if (nr == 64)
				return -1;
			snprintf(seen[nr++], sizeof(seen[0]), "%s", list);
		}
		reader_of_cpu[cpu] = k;
	}
	if (file)
		nr_readers = nr;
	return nr_readers ? 0 : -1;
}

/* numa: one reader per node with online CPUs; no nodes in sysfs: one for all */
static int by_node(void)
{
	for (int node = 0; node < MAX_CPUS; node++) {
		char path[96], list[4096];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(list, sizeof(list), f)) {
			list[strcspn(list, "\n")] = 0;
			if (*list && take_list(list, nr_readers) > 0)
				nr_readers++;
		}
		fclose(f);
	}
	return nr_readers ? 0 : by_topology("/sys/devices/system/cpu/cpu%d/topology/package_cpus_list");
}

static int parse_masks(const char *spec)
{
	char *s = strdup(spec), *save = NULL;
	int ret = 0;

	if (!s)
		return -1;
	for (char *tok = strtok_r(s, ":", &save); tok && !ret; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');

		if (!slash || !slash[1])
			ret = -1;
		else {
			*slash = 0;
			if (take_list(tok, nr_readers) <= 0)
				ret = -1;
			else
				nr_readers++;
		}
	}
	free(s);
	return ret || !nr_readers ? -1 : 0;
}

int record_threads_setup(struct pulse_record_opts *o, const char *output, bool pipe_mode)
{
	int ret;

	if (!threads_spec)
		return 0;
	if (pipe_mode) {
		error("--threads: parallel trace streaming is not available in pipe mode");
		return PULSE_EXIT_USAGE;
	}
	for (int i = 0; i < MAX_CPUS; i++)
		reader_of_cpu[i] = -1;
	if (!*threads_spec || !strcmp(threads_spec, "cpu"))
		ret = by_topology(NULL);
	else if (!strcmp(threads_spec, "core"))
		ret = by_topology("/sys/devices/system/cpu/cpu%d/topology/core_cpus_list");
	else if (!strcmp(threads_spec, "package"))
		ret = by_topology("/sys/devices/system/cpu/cpu%d/topology/package_cpus_list");
	else if (!strcmp(threads_spec, "numa"))
		ret = by_node();
	else
		ret = parse_masks(threads_spec);
	if (ret) {
		error("invalid --threads '%s': give cpu, core, package, numa, or masks such as 0-1/0-1:2-3/2-3 that name online CPUs",
		      threads_spec);
		return PULSE_EXIT_USAGE;
	}
	o->nr_readers = nr_readers;
	o->reader_of_cpu = reader_of_cpu;
	o->nr_reader_cpus = MAX_CPUS;
	(void)output;
	return 0;
}

/* An old perf --threads directory (data, data.N) or a file: gone. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192 + 512];

	if (!d) {
		unlink(dir);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/*
 * perf's directory: @dir (an existing one becomes @dir.old), @dir/data for
 * the main output (its fd in *@fd), @dir/data.N for each reader.
 */
int record_threads_open_dir(const char *dir, struct pulse_record_opts *o, int *fd)
{
	char path[8192], old[8192];
	struct stat st;

	*fd = -1;
	if (!stat(dir, &st)) {
		snprintf(old, sizeof(old), "%s.old", dir);
		remove_dir(old);
		if (rename(dir, old))
			return -errno;
	}
	if (mkdir(dir, 0700))
		return -errno;
	snprintf(path, sizeof(path), "%s/data", dir);
	*fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (*fd < 0)
		return -errno;
	outs = calloc(nr_readers, sizeof(*outs));
	out_fds = calloc(nr_readers, sizeof(*out_fds));
	if (!outs || !out_fds)
		return -ENOMEM;
	for (int k = 0; k < nr_readers; k++)
		out_fds[k] = -1;
	for (int k = 0; k < nr_readers; k++) {
		snprintf(path, sizeof(path), "%s/data.%d", dir, k);
		out_fds[k] = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (out_fds[k] < 0)
			return -errno;
	}
	return 0;
}

/* The readers' outputs: data.N files behind @main, or a flight's one output for all. */
int record_threads_outputs(struct pulse_record_opts *o, struct pulse_record_output *main,
			   bool flight)
{
	if (!o->nr_readers)
		return 0;
	if (!outs) {
		outs = calloc(nr_readers, sizeof(*outs));
		if (!outs)
			return -ENOMEM;
	}
	for (int k = 0; k < nr_readers; k++) {
		int ret = flight ? 0 : pulse_record_output__new_raw(&outs[k], out_fds[k], main,
								    o->comp_level);

		if (ret)
			return ret;
		if (flight)
			outs[k] = main;
	}
	o->reader_outputs = outs;
	return 0;
}

void record_threads_exit(bool flight)
{
	for (int k = 0; outs && k < nr_readers; k++)
		if (!flight)
			pulse_record_output__delete(outs[k]);
	for (int k = 0; out_fds && k < nr_readers; k++)
		if (out_fds[k] >= 0)
			close(out_fds[k]);
	free(outs);
	free(out_fds);
	outs = NULL;
	out_fds = NULL;
}
