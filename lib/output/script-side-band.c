// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's side-band lines (--show-task-events, --show-mmap-events,
 * ...): the sample columns from the record's sample_id, then the record as
 * perf_event__fprintf() prints it.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pulse/branch.h>
#include <pulse/data-src.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/output-branch.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "script-int.h"

/* --show-*-events: is this side-band record printed? */
bool pulse_script__side_band_shown(const struct pulse_script *s, __u32 type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return s->opts.show_task_events;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return s->opts.show_mmap_events;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return s->opts.show_switch_events;
	case PERF_RECORD_NAMESPACES:
		return s->opts.show_namespace_events;
	case PERF_RECORD_CGROUP:
		return s->opts.show_cgroup_events;
	case PERF_RECORD_LOST:
		return s->opts.show_lost_events;
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
		return s->opts.show_bpf_events;
	case PERF_RECORD_FINISHED_ROUND:
		return s->opts.show_round_events;
	default:
		return false;
	}
}

/*
 * perf's print_event_with_time(): the sample columns from the record's
 * sample_id (without sample_id_all: cpu 0, the record's pid/tid and its
 * own time, 0 but for FORK and EXIT), then perf_event__fprintf()
 */
int pulse_script__print_side_band(struct pulse_script *s, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr = NULL;
	struct pulse_thread *thread = NULL;
	struct pulse_sample smp;
	int32_t pid, tid;
	__u32 u32s[2];
	int idx = -1;

	if (rec->type == PERF_RECORD_FINISHED_ROUND)
		return pulse_dump__fprintf_event(s->fp, rec);
	memset(&smp, 0, sizeof(smp));
	smp.pid = smp.tid = smp.cpu = (__u32)-1;
	smp.time = ~0ULL;
	if (pulse_data__nr_attrs(s->d)) {
		idx = pulse_data__attr_of(s->d, rec, rec->size);
		if (idx >= 0 && (size_t)idx >= s->nr_ev) {
			int err = pulse_script__prepare(s);

			if (err)
				return err;
			if ((size_t)idx >= s->nr_ev)
				idx = -1;
		}
		if (idx >= 0)
			attr = pulse_data__attr(s->d, idx);
	}
	if (attr && attr->sample_id_all) {
		__u64 st = attr->sample_type;

		if (pulse_sample__parse(rec, rec->size, attr, &smp))
			return 0;
		if (!(st & PERF_SAMPLE_TID))
			smp.pid = smp.tid = (__u32)-1;
		if (!(st & PERF_SAMPLE_CPU))
			smp.cpu = (__u32)-1;
		if (!(st & PERF_SAMPLE_TIME))
			smp.time = ~0ULL;
	}
	smp.misc = rec->misc;
	/* the thread the line names: the record's own, else the sample's */
	switch (rec->type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
		if (rec->size < 16)
			return 0;
		memcpy(u32s, (const char *)rec + 8, 8);
		pid = (int32_t)u32s[0];
		tid = (int32_t)u32s[1];
		/* FORK and EXIT: pid, ppid, tid, ptid */
		if (rec->type == PERF_RECORD_FORK || rec->type == PERF_RECORD_EXIT) {
			if (rec->size < 20)
				return 0;
			memcpy(&u32s[1], (const char *)rec + 16, 4);
			tid = (int32_t)u32s[1];
		}
		break;
	default:
		pid = (int32_t)smp.pid;
		tid = (int32_t)smp.tid;
		break;
	}
	if (attr && !attr->sample_id_all) {
		smp.cpu = 0;
		smp.time = 0;
		if (rec->type == PERF_RECORD_FORK || rec->type == PERF_RECORD_EXIT) {
			if (rec->size < 32)
				return 0;
			memcpy(&smp.time, (const char *)rec + 24, 8);
		}
		smp.pid = (__u32)pid;
		smp.tid = (__u32)tid;
	}
	if (s->opts.filter && s->opts.filter->cpus) {
		struct pulse_hist_filter cpus = { .cpus = s->opts.filter->cpus };

		if (smp.cpu != (__u32)-1 &&
		    pulse_hist_filter__match(&cpus, NULL, NULL, 0, (int)smp.cpu, ~0ULL) !=
		    PULSE_FILTER_KEEP)
			return 0;
	}
	if (tid != -1) {
		thread = pulse_machine__findnew_thread(s->m, pid, tid);
		if (!thread)
			return -ENOMEM;
	}
	if (attr)
		pulse_script__print_start(s, &s->ev[idx], &smp, thread ? thread->comm : ":-1",
					  rec->type);
	return pulse_dump__fprintf_event(s->fp, rec);
}
