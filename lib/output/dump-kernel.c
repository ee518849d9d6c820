// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's records decoded as perf 6.1's perf_event__fprintf_*() prints
 * them: for report -D after the record's name, and for perf script's
 * side-band lines (pulse_dump__fprintf_event()).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/output-branch.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include "core/internal.h"
#include "dump-int.h"

/* ---- kernel records ------------------------------------------------------ */

void pulse_dump__kernel_record(FILE *out, struct pulse_dump *dump, struct pulse_data *d,
			       const struct rec_view *r, const struct perf_event_header *rec,
			       const struct pulse_sample *s, const struct perf_event_attr *attr,
			       int idx)
{
	static const char *const ns_names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	__u32 prot, flags;
	__u64 nr;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (attr)	/* perf stops at a sample of an unknown event */
			pulse_dump__sample_lines(out, dump, rec, s, attr, idx);
		break;
	case PERF_RECORD_MMAP:
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int)u32_at(r, 8), (int)u32_at(r, 12), (uint64_t)u64_at(r, 16),
			(uint64_t)u64_at(r, 24), (uint64_t)u64_at(r, 32),
			rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x', STR_AT(r, 40));
		break;
	case PERF_RECORD_MMAP2:
		prot = u32_at(r, 64);
		flags = u32_at(r, 68);
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)u32_at(r, 8),
			(int)u32_at(r, 12), (uint64_t)u64_at(r, 16), (uint64_t)u64_at(r, 24),
			(uint64_t)u64_at(r, 32));
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			unsigned int n = has(r, 40, 1) ? r->p[40] : 0;

			fputs(" <", out);
			for (unsigned int i = 0; i < n && i < 20; i++)
				fprintf(out, "%02x", r->p[44 + i]);
			fputc('>', out);
		} else {
			fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, u32_at(r, 40), u32_at(r, 44),
				(uint64_t)u64_at(r, 48), (uint64_t)u64_at(r, 56));
		}
		fprintf(out, "]: %c%c%c%c %.*s\n", prot & PROT_READ ? 'r' : '-',
			prot & PROT_WRITE ? 'w' : '-', prot & PROT_EXEC ? 'x' : '-',
			flags & MAP_SHARED ? 's' : 'p', STR_AT(r, 72));
		break;
	case PERF_RECORD_COMM:
		fprintf(out, "%s: %.*s:%d/%d\n", rec->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			STR_AT(r, 16), (int)u32_at(r, 8), (int)u32_at(r, 12));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(out, "(%d:%d):(%d:%d)\n", (int)u32_at(r, 8), (int)u32_at(r, 16),
			(int)u32_at(r, 12), (int)u32_at(r, 20));
		break;
	case PERF_RECORD_LOST:
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", (uint64_t)u64_at(r, 8),
			(uint64_t)u64_at(r, 16));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", (uint64_t)s->id,
			(uint64_t)u64_at(r, 8));
		/* perf's u32 hists stat takes the u64 count truncated */
		if (dump->count_lost_samples && idx >= 0 && pulse_dump__grow_counts(dump, idx))
			dump->nr_lost_samples[idx] += (__u32)u64_at(r, 8);
		break;
	case PERF_RECORD_READ: {
		const char *name = pulse_dump__event_name(dump, d, idx < 0 ? 0 : idx);
		__u64 rf = attr ? attr->read_format : 0;

		fprintf(out, ": %d %d %s %" PRIu64 "\n", (int)u32_at(r, 8), (int)u32_at(r, 12),
			name, (uint64_t)u64_at(r, 16));
		if (!attr)
			break;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "... time enabled : %" PRIu64 "\n", (uint64_t)u64_at(r, 24));
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "... time running : %" PRIu64 "\n", (uint64_t)u64_at(r, 32));
		if (rf & PERF_FORMAT_ID)
			fprintf(out, "... id           : %" PRIu64 "\n", (uint64_t)u64_at(r, 40));
		if (rf & PERF_FORMAT_LOST)
			fprintf(out, "... lost         : %" PRIu64 "\n", (uint64_t)u64_at(r, 48));
		break;
	}
	case PERF_RECORD_AUX:
		nr = u64_at(r, 24);
		fprintf(out, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			(uint64_t)u64_at(r, 8), (uint64_t)u64_at(r, 16), (uint64_t)nr,
			nr & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			nr & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			nr & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(out, " pid: %u tid: %u\n", u32_at(r, 8), u32_at(r, 12));
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out_ = rec->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out_ ? "IN         " :
			!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
			"OUT preempt";

		if (rec->type == PERF_RECORD_SWITCH)
			fprintf(out, " %s\n", in_out);
		else
			fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out, out_ ? "next" : "prev",
				(int)u32_at(r, 8), (int)u32_at(r, 12));
		break;
	}
	case PERF_RECORD_NAMESPACES:
		nr = u64_at(r, 16);
		fprintf(out, " %d/%d - nr_namespaces: %u\n\t\t[", (int)u32_at(r, 8),
			(int)u32_at(r, 12), (unsigned int)nr);
		for (__u64 i = 0; i < nr && has(r, 24 + 16 * i, 16); i++) {
			if (i && i % 4 == 0)
				fputs("\n\t\t ", out);
			fprintf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
				i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN",
				(uint64_t)u64_at(r, 24 + 16 * i), (uint64_t)u64_at(r, 32 + 16 * i),
				i + 1 != nr ? ", " : "]\n");
		}
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
			(uint64_t)u64_at(r, 8), u32_at(r, 16), u16_at(r, 20), u16_at(r, 22),
			STR_AT(r, 24));
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(out, " type %u, flags %u, id %u\n", u16_at(r, 8), u16_at(r, 10),
			u32_at(r, 12));
		break;
	case PERF_RECORD_CGROUP:
		fprintf(out, " cgroup: %" PRIu64 " %.*s\n", (uint64_t)u64_at(r, 8), STR_AT(r, 16));
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(out, " hw_id: %#" PRIx64 "\n", (uint64_t)u64_at(r, 8));
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* the report tool has no handler (process_event_stub()), script has */
		if (!dump || !dump->script_tool)
			fputs(": unhandled!\n", out);
		break;
	default:
		/* TEXT_POKE needs a disassembler; unknown types: perf stops */
		fputc('\n', out);
		break;
	}
}

/* Minimum sizes of the fixed part, below which perf's decoders read garbage. */
size_t pulse_dump__min_size(__u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:		return 40;
	case PERF_RECORD_MMAP2:		return 72;
	case PERF_RECORD_COMM:		return 16;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:		return 32;
	case PERF_RECORD_LOST:		return 24;
	case PERF_RECORD_LOST_SAMPLES:	return 16;
	case PERF_RECORD_READ:		return 24;
	default:			return 8;
	}
}
