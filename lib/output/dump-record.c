// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D's framing of each record (util/session.c dump_event(),
 * evlist__print_tstamp()): the offset and size line, the raw bytes, the
 * timestamp and the record's name, then its decoding; and perf script's
 * side-band record lines (perf_event__fprintf()).
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

int pulse_dump__fprintf_event(FILE *out, const struct perf_event_header *rec)
{
	struct rec_view r = { (const unsigned char *)rec, rec->size };

	fprintf(out, "PERF_RECORD_%s", pulse_dump__type_name(rec->type));
	switch (rec->type) {
	case PERF_RECORD_LOST:
		/* the report tool's -D line differs: machine__process_lost_event() */
		fprintf(out, " lost %" PRIu64 "\n", (uint64_t)u64_at(&r, 16));
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		if (rec->size >= pulse_dump__min_size(rec->type)) {
			pulse_dump__kernel_record(out, NULL, NULL, &r, rec, NULL, NULL, -1);
			break;
		}
		/* fall through */
	default:
		fputc('\n', out);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

int pulse_dump__record(FILE *out, struct pulse_data *d, const struct perf_event_header *rec,
		       __u64 file_offset, struct pulse_dump *dump)
{
	const struct perf_event_attr *attr = NULL;
	struct rec_view r = { (const unsigned char *)rec, rec->size };
	struct pulse_sample s;
	size_t nr_attrs = pulse_data__nr_attrs(d);
	bool user = rec->type >= PERF_RECORD_USER_TYPE_START;
	bool parsed = false;
	int idx = -1;

	/*
	 * A HEADER_ATTR is in the reader's table already; perf adds it after
	 * printing. In pipe mode the reader has read every HEADER_ATTR ahead,
	 * so perf knows only those printed before this one.
	 */
	if (pulse_data__is_pipe(d)) {
		/* also the FEATURE records a pipe may start with: "-1 -1" */
		nr_attrs = dump->nr_header_attrs < nr_attrs ? dump->nr_header_attrs : nr_attrs;
		dump->nr_header_attrs += rec->type == PERF_RECORD_HEADER_ATTR;
	} else if (rec->type == PERF_RECORD_HEADER_ATTR) {
		if (nr_attrs)
			nr_attrs--;
		dump->nr_header_attrs++;
	}

	fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", (uint64_t)file_offset, dump->path,
		rec->size, rec->type);
	pulse_dump__hex(out, rec, rec->size);
	dump->d = d;

	if (user) {
		/* perf_session__process_user_event(): a zeroed sample */
		memset(&s, 0, sizeof(s));
		parsed = true;
	} else if (nr_attrs) {
		parsed = !pulse_dump__parse_sample(d, rec, &s, &attr, &idx) &&
			 rec->size >= pulse_dump__min_size(rec->type);
	}

	/* evlist__print_tstamp() */
	if (rec->type != PERF_RECORD_SAMPLE &&
	    (!nr_attrs || !pulse_data__attr(d, 0)->sample_id_all)) {
		fputs("-1 -1 ", out);
	} else {
		__u64 st = pulse_dump__combined_sample_type(dump, d, nr_attrs);

		if (!parsed) {
			s.cpu = (__u32)-1;
			s.time = ~0ULL;
		}
		if (st & PERF_SAMPLE_CPU)
			fprintf(out, "%u ", s.cpu);
		if (st & PERF_SAMPLE_TIME)
			fprintf(out, "%" PRIu64 " ", (uint64_t)s.time);
	}
	fprintf(out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", (uint64_t)file_offset, rec->size,
		pulse_dump__type_name(rec->type));

	if (user) {
		int err = pulse_dump__user_record(out, dump, &r, rec->type, file_offset);

		if (err)
			return err;
	} else if (parsed) {
		pulse_dump__kernel_record(out, dump, d, &r, rec, &s, attr, idx);
		pulse_aux_stats__add(&dump->aux, rec);
	} else {
		fputc('\n', out);	/* undecodable: raw bytes only */
	}
	return ferror(out) ? -EIO : 0;
}
