// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D's user records (perf's own, PERF_RECORD_USER_TYPE_START
 * and up): what the report tool prints after their name, cpu and thread
 * maps included (util/event.c perf_event__fprintf_*()).
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

/* ---- maps of cpus and threads ------------------------------------------- */

/* util/cpumap.c cpu_map__snprint() of @nr cpus, then a newline. */
static void print_cpus(FILE *out, const int *cpu, size_t nr)
{
	bool first = true;
	size_t start = SIZE_MAX;

	for (size_t i = 0; i < nr + 1; i++) {
		bool last = i == nr;
		long c = last ? (long)INT32_MAX + 1 : cpu[i];

		if (start == SIZE_MAX) {
			start = i;
			if (last)	/* an empty map: perf reads cpu -1 */
				fprintf(out, "%s%d", first ? "" : ",", nr ? cpu[i - 1] : -1);
		} else if ((long)(i - start) != c - cpu[start] || last) {
			size_t end = i - 1;

			if (start == end)
				fprintf(out, "%s%d", first ? "" : ",", cpu[start]);
			else
				fprintf(out, "%s%d-%d", first ? "" : ",", cpu[start], cpu[end]);
			first = false;
			start = i;
		}
	}
	fputc('\n', out);
}

/*
 * A perf_record_cpu_map_data at @off (CPUS, MASK or RANGE_CPUS) printed as a
 * cpu list; false when it is malformed.
 */
static bool cpu_map_data(FILE *out, const struct rec_view *r, size_t off)
{
	__u16 type = u16_at(r, off);
	int *cpu = NULL;
	size_t nr = 0;
	bool ok = false;

	if (!has(r, off, 2))
		return false;
	if (type == 0) {		/* PERF_CPU_MAP__CPUS: u16 nr; u16 cpu[] */
		__u16 n = u16_at(r, off + 2);

		if (!has(r, off + 4, 2 * (size_t)n))
			return false;
		cpu = calloc(n + 1, sizeof(*cpu));
		for (size_t i = 0; cpu && i < n; i++) {
			__u16 c = u16_at(r, off + 4 + 2 * i);

			cpu[nr++] = c == (__u16)-1 ? -1 : c;
		}
	} else if (type == 1) {		/* PERF_CPU_MAP__MASK: u16 nr; u16 long_size */
		__u16 n = u16_at(r, off + 2), lsz = u16_at(r, off + 4);
		size_t base = lsz == 8 ? off + 10 : off + 6;	/* mask64 has 4 pad bytes */

		if ((lsz != 4 && lsz != 8) || !has(r, base, (size_t)n * lsz))
			return false;
		cpu = calloc((size_t)n * lsz * 8 + 1, sizeof(*cpu));
		for (size_t i = 0; cpu && i < n; i++) {
			__u64 m = lsz == 8 ? u64_at(r, base + 8 * i) : u32_at(r, base + 4 * i);

			for (unsigned int b = 0; b < lsz * 8u; b++)
				if (m & (1ULL << b))
					cpu[nr++] = (int)(i * lsz * 8 + b);
		}
	} else if (type == 2) {		/* PERF_CPU_MAP__RANGE_CPUS */
		unsigned char any = has(r, off + 2, 1) ? r->p[off + 2] : 0;
		__u16 s = u16_at(r, off + 4), e = u16_at(r, off + 6);

		if (!has(r, off + 6, 2) || e < s)
			return false;
		cpu = calloc((size_t)(e - s) + 2, sizeof(*cpu));
		if (cpu && any)
			cpu[nr++] = -1;
		for (unsigned int c = s; cpu && c <= e; c++)
			cpu[nr++] = c;
	} else {
		return false;
	}
	if (cpu) {
		print_cpus(out, cpu, nr);
		ok = true;
	}
	free(cpu);
	return ok;
}

static void thread_map(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8);

	fputs(" nr: ", out);
	if (!has(r, 8, 8) || nr > (r->size - 16) / 24) {
		fputs("failed to get threads from event\n", out);
		return;
	}
	fprintf(out, "%d thread%s: ", (int)nr, nr > 1 ? "s" : "");
	for (__u64 i = 0; i < nr; i++)
		fprintf(out, "%s%d", i ? ", " : "", (int)u64_at(r, 16 + 24 * i));
	fputc('\n', out);
}

/* ---- user records -------------------------------------------------------- */

static void id_index(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8);

	/* perf_session__process_id_index() refuses more entries than fit */
	if (!has(r, 8, 8) || nr > (r->size - 16) / 32)
		return;
	fprintf(out, " nr: %zu\n", (size_t)nr);
	for (__u64 i = 0; i < nr; i++) {
		size_t o = 16 + 32 * i;

		fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
			"  tid: %" PRId64 "\n", (uint64_t)u64_at(r, o), (uint64_t)u64_at(r, o + 8),
			(int64_t)u64_at(r, o + 16), (int64_t)u64_at(r, o + 24));
	}
}

static void event_update(FILE *out, const struct rec_view *r)
{
	__u64 type = u64_at(r, 8);
	double scale;

	fprintf(out, "\n... id:    %" PRIu64 "\n", (uint64_t)u64_at(r, 16));
	switch (type) {
	case 0:		/* PERF_EVENT_UPDATE__UNIT */
		fprintf(out, "... unit:  %.*s\n", STR_AT(r, 24));
		break;
	case 1:		/* PERF_EVENT_UPDATE__SCALE */
		scale = 0;
		if (has(r, 24, 8))
			memcpy(&scale, r->p + 24, sizeof(scale));
		fprintf(out, "... scale: %f\n", scale);
		break;
	case 2:		/* PERF_EVENT_UPDATE__NAME */
		fprintf(out, "... name:  %.*s\n", STR_AT(r, 24));
		break;
	case 3:		/* PERF_EVENT_UPDATE__CPUS */
		fputs("... ", out);
		if (!cpu_map_data(out, r, 24))
			fputs("failed to get cpus\n", out);
		break;
	default:
		fputs("... unknown type\n", out);
		break;
	}
}

static void time_conv(FILE *out, const struct rec_view *r)
{
	fprintf(out, "\n... Time Shift      %" PRIu64 "\n", (uint64_t)u64_at(r, 8));
	fprintf(out, "... Time Muliplier  %" PRIu64 "\n", (uint64_t)u64_at(r, 16));
	fprintf(out, "... Time Zero       %" PRIu64 "\n", (uint64_t)u64_at(r, 24));
	/* perf prints the extended fields only when the record has them */
	if (has(r, 32, 8)) {
		fprintf(out, "... Time Cycles     %" PRIu64 "\n", (uint64_t)u64_at(r, 32));
		fprintf(out, "... Time Mask       %#" PRIx64 "\n", (uint64_t)u64_at(r, 40));
		fprintf(out, "... Cap Time Zero   %" PRId32 "\n", has(r, 48, 1) ? r->p[48] : 0);
		fprintf(out, "... Cap Time Short  %" PRId32 "\n", has(r, 49, 1) ? r->p[49] : 0);
	}
}

static void stat_config(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8), v[4] = { 0 };

	for (__u64 i = 0; has(r, 16, 8) && i < nr && i < (r->size - 16) / 16; i++) {
		__u64 tag = u64_at(r, 16 + 16 * i);

		if (tag < 4)
			v[tag] = u64_at(r, 24 + 16 * i);
	}
	/* tags: 0 aggr_mode, 1 interval, 2 scale (a bool), 3 aggr_level */
	fprintf(out, "\n... aggr_mode %d\n", (int)v[0]);
	fprintf(out, "... scale     %d\n", v[2] != 0);
	fprintf(out, "... interval  %u\n", (unsigned int)v[1]);
}

/* What perf's report tool prints after the name of a user record. */
int pulse_dump__user_record(FILE *out, struct pulse_dump *dump, const struct rec_view *r,
			    __u32 type, __u64 off)
{
	bool script = dump->script_tool;

	switch (type) {
	case PERF_RECORD_FINISHED_ROUND:	/* process_finished_round() */
		fputc('\n', out);
		break;
	case PERF_RECORD_ID_INDEX:
		id_index(out, r);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		if (dump->stats_tool) {	/* perf's --stats tool does not take it */
			fprintf(out, " type: %u\n", u32_at(r, 8));
			break;
		}
		return pulse_dump__auxtrace_info(out, dump, r, off);
	case PERF_RECORD_AUXTRACE:
		return pulse_dump__auxtrace(out, dump, r);
	case PERF_RECORD_AUXTRACE_ERROR:
		pulse_aux_stats__add(&dump->aux, (const struct perf_event_header *)r->p);
		if (script)
			pulse_dump__auxtrace_error(out, r);
		else	/* perf's report tool has no handler */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_THREAD_MAP:
		thread_map(out, r);
		if (!script)	/* perf script handles it */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_CPU_MAP:
		fputs(": ", out);
		if (!cpu_map_data(out, r, 8))
			fputs("failed to get cpumap from event\n", out);
		if (!script)	/* perf script handles it */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT_CONFIG:
		stat_config(out, r);
		if (!script)	/* perf script handles it */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT:
		fprintf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n", (uint64_t)u64_at(r, 8),
			(int)u32_at(r, 16), (int)u32_at(r, 20));
		fprintf(out, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			(uint64_t)u64_at(r, 24), (uint64_t)u64_at(r, 32), (uint64_t)u64_at(r, 40));
		if (!script)	/* perf script handles it */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT_ROUND:
		fprintf(out, "\n... time %" PRIu64 ", type %s\n", (uint64_t)u64_at(r, 16),
			u64_at(r, 8) == 1 ? "FINAL" : "INTERVAL");
		if (!script)	/* perf script handles it */
			fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		event_update(out, r);
		break;
	case PERF_RECORD_TIME_CONV:
		time_conv(out, r);
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_FINISHED_INIT:
		fputs(": unhandled!\n", out);
		break;
	default:
		/*
		 * ATTR, EVENT_TYPE, TRACING_DATA, BUILD_ID, FEATURE: perf
		 * prints nothing more.
		 */
		break;
	}
	return 0;
}
