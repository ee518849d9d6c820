/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which DSOs the samples hit, tracked while recording so that BUILD_ID can
 * be written for exactly those without a second pass over the file (where
 * perf spends much of its time at the end of a recording).
 */
#ifndef PULSE_DSO_HITS_H
#define PULSE_DSO_HITS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

struct dso_hits;

struct dso_hit {
	char *name;		/* path as in the MMAP record */
	bool hit;
	bool kernel;		/* [kernel.kallsyms] */
	bool has_build_id;	/* from an MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	__u8 build_id[20];
	__u8 build_id_size;
};

struct dso_hits *dso_hits__new(void);
void dso_hits__delete(struct dso_hits *h);
/* Feed one record (any type); unknown types are ignored. */
void dso_hits__mmap(struct dso_hits *h, pid_t pid, __u64 start, __u64 len, const char *name,
		    bool kernel, const __u8 *build_id, __u8 build_id_size);
void dso_hits__fork(struct dso_hits *h, pid_t pid, pid_t ppid);
void dso_hits__exec(struct dso_hits *h, pid_t pid);
void dso_hits__sample(struct dso_hits *h, pid_t pid, __u64 ip, bool kernel);
/* The DSOs, hit or not; valid until delete. */
struct dso_hit *dso_hits__dsos(struct dso_hits *h, size_t *nr);

#endif
