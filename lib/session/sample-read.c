// SPDX-License-Identifier: GPL-2.0
/*
 * Samples that carry PERF_SAMPLE_READ, delivered as perf 6.1's
 * evlist__deliver_sample() does: one sample per value read (each group
 * member's with PERF_FORMAT_GROUP, the event's own without), to the event
 * the value's id belongs to, with the value's growth since that id's last
 * sample as its period; a value that did not grow, or of an unknown id, is
 * not delivered. The tool asks pulse_session__sample_value() which value
 * it was handed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/session.h>
#include "session/session-internal.h"

struct read_slot {
	__u64 id;
	__u64 value;
	bool used;
};

void session_read__exit(struct session_read *r)
{
	free(r->slots);
	memset(r, 0, sizeof(*r));
}

static int read__grow(struct session_read *r)
{
	size_t n = r->size ? r->size * 2 : 64;
	struct read_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < r->size; i++) {
		size_t j;

		if (!r->slots[i].used)
			continue;
		for (j = r->slots[i].id * 0x9e3779b97f4a7c15ULL >> 7 & (n - 1); s[j].used;
		     j = (j + 1) & (n - 1))
			;
		s[j] = r->slots[i];
	}
	free(r->slots);
	r->slots = s;
	r->size = n;
	return 0;
}

/* perf's sid->period of @id: set to @value, the old one in *@prev (0 at first) */
static int read__swap(struct session_read *r, __u64 id, __u64 value, __u64 *prev)
{
	size_t j;

	if ((r->nr + 1) * 2 > r->size && read__grow(r))
		return -ENOMEM;
	for (j = id * 0x9e3779b97f4a7c15ULL >> 7 & (r->size - 1); r->slots[j].used;
	     j = (j + 1) & (r->size - 1)) {
		if (r->slots[j].id == id) {
			*prev = r->slots[j].value;
			r->slots[j].value = value;
			return 0;
		}
	}
	r->slots[j] = (struct read_slot){ .id = id, .value = value, .used = true };
	r->nr++;
	*prev = 0;
	return 0;
}

static int read__value(struct session_read *r, struct pulse_data *d, __u64 value, __u64 id,
		       pulse_tool_fn sample, struct pulse_session *s,
		       const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	__u64 prev;
	int idx = pulse_data__attr_of_id(d, id);
	int err;

	if (idx < 0) {
		r->nr_unknown_id++;
		return 0;
	}
	err = read__swap(r, id, value, &prev);
	if (err)
		return err;
	if (value == prev)
		return 0;
	r->cur = (struct pulse_sample_value){ .idx = idx, .id = id, .period = value - prev };
	r->active = true;
	err = sample(s, rec, file_offset, arg);
	r->active = false;
	return err;
}

static __u64 get_u64(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int session_read__deliver(struct session_read *r, struct pulse_data *d,
			  const struct perf_event_attr *attr, pulse_tool_fn sample,
			  struct pulse_session *s, const struct perf_event_header *rec,
			  uint64_t file_offset, void *arg)
{
	__u64 fmt = attr->read_format;
	struct pulse_sample smp;
	const unsigned char *p;
	size_t each = 8, off;
	int err;

	if (pulse_sample__parse(rec, rec->size, attr, &smp) || !smp.read)
		return 0;
	p = smp.read;
	/* without PERF_FORMAT_ID perf has no id to find the event by */
	if (!(fmt & PERF_FORMAT_ID)) {
		r->nr_unknown_id++;
		return 0;
	}
	if (!(fmt & PERF_FORMAT_GROUP)) {
		/* value, time_enabled, time_running, id, lost */
		off = 8 + !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) * 8 +
		      !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) * 8;
		return read__value(r, d, get_u64(p), get_u64(p + off), sample, s, rec,
				   file_offset, arg);
	}
	/* nr, time_enabled, time_running, { value, id, lost } * nr */
	each += 8 + !!(fmt & PERF_FORMAT_LOST) * 8;
	off = 8 + !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) * 8 +
	      !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) * 8;
	for (__u64 i = 0, nr = get_u64(p); i < nr; i++, off += each) {
		err = read__value(r, d, get_u64(p + off), get_u64(p + off + 8), sample, s, rec,
				  file_offset, arg);
		if (err)
			return err;
	}
	return 0;
}
