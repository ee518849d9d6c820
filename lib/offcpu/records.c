// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the sched:sched_switch event's records for the off-CPU
 * bookkeeping (offcpu.c): its SAMPLEs are switch-outs (the task in the
 * sample's TID leaves, prev_state in RAW says why, CALLCHAIN is where it
 * stopped), its SWITCH / SWITCH_CPU_WIDE records without SWITCH_OUT are
 * switch-ins (the task in their sample_id comes in: the kernel writes them
 * from finish_task_switch(), where current is already the incoming task).
 * Every length comes from the ring and is checked against the record
 * before it is used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include "core/internal.h"
#include "offcpu/internal.h"

static __u64 read_state(const struct pulse_offcpu *oc, const unsigned char *raw)
{
	const unsigned char *p = raw + oc->state_offset;

	switch (oc->state_size) {
	case 1:
		return *p;
	case 2:
		return get_u16(p);
	case 4:
		return get_u32(p);
	default:
		return get_u64(p);
	}
}

int pulse_offcpu__add_record(struct pulse_offcpu *oc, const void *rec, size_t size)
{
	struct perf_event_header h;
	struct pulse_sample s;

	if (size < sizeof(h)) {
		oc->st.bad++;
		return 0;
	}
	memcpy(&h, rec, sizeof(h));
	if (h.size < sizeof(h) || h.size > size) {
		oc->st.bad++;
		return 0;
	}
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		if (pulse_sample__parse(rec, h.size, &oc->attr, &s) ||
		    (oc->attr.sample_type & PERF_SAMPLE_RAW) == 0 ||
		    (size_t)oc->state_offset + oc->state_size > s.raw_size) {
			oc->st.bad++;
			return 0;
		}
		return pulse_offcpu__switch_out(oc, s.pid, s.tid, s.time,
						read_state(oc, s.raw), s.callchain,
						s.callchain_nr);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (h.misc & PERF_RECORD_MISC_SWITCH_OUT)
			return 0;
		if (!oc->attr.sample_id_all || pulse_sample__parse(rec, h.size, &oc->attr, &s) ||
		    h.size < sizeof(h) + pulse_sample__id_size(&oc->attr)) {
			oc->st.bad++;
			return 0;
		}
		return pulse_offcpu__switch_in(oc, s.pid, s.tid, s.time);
	case PERF_RECORD_LOST:
		if (h.size >= 24) {
			oc->st.lost += get_u64((const unsigned char *)rec + 16);
			oc->st.lost_chunks++;
		}
		return 0;
	default:
		return 0;
	}
}

int pulse_offcpu__parse_format(const char *text, unsigned int *offset, unsigned int *size)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *name = strstr(line, " prev_state;");
		unsigned int off, sz;

		if (name && (!end || name < end)) {
			const char *o = strstr(name, "offset:");
			const char *z = strstr(name, "size:");

			if (o && z && (!end || z < end) && sscanf(o, "offset:%u;", &off) == 1 &&
			    sscanf(z, "size:%u;", &sz) == 1 &&
			    (sz == 1 || sz == 2 || sz == 4 || sz == 8) && off < 4096) {
				*offset = off;
				*size = sz;
				return 0;
			}
			return -ENOENT;
		}
		line = end ? end + 1 : NULL;
	}
	return -ENOENT;
}
