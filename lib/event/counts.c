// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counts from open cells, by the attr's read_format, and scaling
 * them (the only place pulse scales by time_enabled / time_running).
 *
 * read(2) of a counter fd returns, per include/uapi/linux/perf_event.h:
 *
 *   without PERF_FORMAT_GROUP      with PERF_FORMAT_GROUP
 *   u64 value                      u64 nr
 *   u64 time_enabled  (ENABLED)    u64 time_enabled  (ENABLED)
 *   u64 time_running  (RUNNING)    u64 time_running  (RUNNING)
 *   u64 id            (ID)         { u64 value
 *   u64 lost          (LOST)         u64 id    (ID)
 *                                    u64 lost  (LOST) } [nr], leader first
 *
 * Reading any member of a group with PERF_FORMAT_GROUP returns the whole
 * group, members in the order they were opened.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <pulse/evlist.h>

/* A group of up to this many members is read from the stack. */
#define MAX_GROUP_READ 64

/* read(2) that must fill at least @min bytes. Return: bytes read or -errno. */
static ssize_t read_min(int fd, void *buf, size_t size, size_t min)
{
	ssize_t n = read(fd, buf, size);

	if (n < 0)
		return -errno;
	return (size_t)n < min ? -EIO : n;
}

/* Read the group of the cell's @fd, the evsel's own read_format @rf with PERF_FORMAT_GROUP. */
static int read_group(int fd, __u64 rf, struct pulse_counts *counts, int size, int *nr)
{
	__u64 buf[3 + MAX_GROUP_READ * 3];
	int per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	int k = 1;
	struct pulse_counts head = {};
	ssize_t n;

	n = read_min(fd, buf, sizeof(buf), sizeof(__u64));
	if (n < 0)
		return n;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head.ena = buf[k++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head.run = buf[k++];
	if (buf[0] > (__u64)size || buf[0] > MAX_GROUP_READ)
		return -ENOSPC;
	if ((size_t)n < (k + buf[0] * per) * sizeof(__u64))
		return -EIO;
	for (__u64 i = 0; i < buf[0]; i++) {
		struct pulse_counts *c = &counts[i];

		*c = head;
		c->val = buf[k++];
		if (rf & PERF_FORMAT_ID)
			c->id = buf[k++];
		if (rf & PERF_FORMAT_LOST)
			c->lost = buf[k++];
	}
	*nr = buf[0];
	return 0;
}

int pulse_evlist__read_group(const struct pulse_evlist *evlist, int idx, int cpu, int thread,
			     struct pulse_counts *counts, int size, int *nr)
{
	int fd = pulse_evlist__fd(evlist, idx, cpu, thread);
	__u64 rf;

	if (fd < 0)
		return fd;
	rf = evlist->entries[idx]->attr.read_format;
	if (!(rf & PERF_FORMAT_GROUP))
		return -EINVAL;
	return read_group(fd, rf, counts, size, nr);
}

int pulse_evlist__read(const struct pulse_evlist *evlist, int idx, int cpu, int thread,
		       struct pulse_counts *counts)
{
	int fd = pulse_evlist__fd(evlist, idx, cpu, thread), k = 0;
	const struct pulse_evsel *evsel;
	__u64 rf, buf[5];
	ssize_t n;

	memset(counts, 0, sizeof(*counts));
	if (fd < 0)
		return fd;
	evsel = evlist->entries[idx];
	rf = evsel->attr.read_format;
	if (rf & PERF_FORMAT_GROUP) {
		struct pulse_counts all[MAX_GROUP_READ];
		int nr, ret = read_group(fd, rf, all, MAX_GROUP_READ, &nr);

		if (ret)
			return ret;
		if (evsel->group_idx >= nr)
			return -EIO;
		*counts = all[evsel->group_idx];
		return 0;
	}
	n = read_min(fd, buf, sizeof(buf),
		     (1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + !!(rf & PERF_FORMAT_ID) +
		      !!(rf & PERF_FORMAT_LOST)) * sizeof(__u64));
	if (n < 0)
		return n;
	counts->val = buf[k++];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		counts->ena = buf[k++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		counts->run = buf[k++];
	if (rf & PERF_FORMAT_ID)
		counts->id = buf[k++];
	if (rf & PERF_FORMAT_LOST)
		counts->lost = buf[k++];
	return 0;
}

int pulse_counts__scale(struct pulse_counts *counts)
{
	if (!counts->run) {
		counts->val = 0;
		return -ENODATA;
	}
	if (counts->run >= counts->ena)
		return 0;
	counts->val = (uint64_t)((double)counts->val * counts->ena / counts->run);
	return 1;
}
