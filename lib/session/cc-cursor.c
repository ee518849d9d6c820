// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's resolved frames, in a buffer reused from sample to sample
 * (include/pulse/cc-cursor.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <pulse/cc-cursor.h>

int pulse_cc_cursor__append(struct pulse_cc_cursor *c, const struct pulse_cc_loc *loc)
{
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? c->alloc * 2 : 64;
		struct pulse_cc_loc *l = realloc(c->locs, n * sizeof(*l));

		if (!l)
			return -ENOMEM;
		c->locs = l;
		c->alloc = n;
	}
	c->locs[c->nr++] = *loc;
	return 0;
}

void pulse_cc_cursor__exit(struct pulse_cc_cursor *c)
{
	free(c->locs);
	memset(c, 0, sizeof(*c));
}

int pulse_cc_context_mode(uint64_t marker)
{
	switch (marker) {
	case (uint64_t)PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case (uint64_t)PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case (uint64_t)PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	default:
		return -EINVAL;
	}
}

int pulse_cc_iter__next(struct pulse_cc_iter *it, uint64_t *ip)
{
	while (it->i < it->nr) {
		uint64_t v;
		int mode;

		memcpy(&v, (const char *)it->ips + it->i++ * sizeof(v), sizeof(v));
		if (v < (uint64_t)PERF_CONTEXT_MAX) {
			*ip = v;
			return 1;
		}
		mode = pulse_cc_context_mode(v);
		if (mode < 0)
			return mode;
		it->cpumode = (uint8_t)mode;
	}
	return 0;
}
