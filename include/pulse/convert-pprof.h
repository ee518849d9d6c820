/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data to pprof (lib/convert/pprof*.c): google/pprof's profile.proto
 * (lib/convert/profile.proto, compiled by protoc-c), gzipped, as `go tool
 * pprof` reads it.
 *
 * What the profile holds:
 *  - sample types: "samples"/"count" first (pprof's convention for the
 *    number of events), then one value column per event of the file: its
 *    period, named "cpu"/"nanoseconds" for cpu-clock and task-clock (what
 *    Go's own CPU profiles say), else the event's name with unit "count".
 *    A name two events would share gets the event's name instead. The
 *    default sample type (and period_type, period) is the first event's:
 *    `pprof -top` weighs by period, as `perf report` does;
 *  - one mapping per DSO a frame landed in (not per process map: the same
 *    library in two processes is one mapping, so its build-id is listed
 *    once): memory start, limit and file offset of the first map met, the
 *    path, the build-id (BUILD_ID feature, an MMAP2 with one); a location's
 *    address is the frame's DSO address placed in that mapping;
 *  - one location per (DSO, address): its lines innermost first, as
 *    pprof wants them. Where the DSO's DWARF says the address is in code
 *    inlined from other functions (lib/convert/pprof-inline.c), a line per
 *    inlined function (its DWARF name) at the line in it, then the symbol's
 *    function at the call site; else the one line of the symbol's function
 *    (the symbol, demangled, as report names it; system_name the same).
 *    Lines carry the file's base name and line from the DWARF line table
 *    and call sites; a function's start_line is its DW_AT_decl_line;
 *  - samples leaf first, kernel frames included, with the labels "comm"
 *    (string), "pid" and "tid" (numbers); samples of one event with the
 *    same frames and labels are merged, their values summed;
 *  - duration_nanos: last sample time less the first; time_nanos: the
 *    first sample's wall-clock time from CLOCK_DATA (perf record -k), else
 *    the end time the caller gives (the file's mtime) less the duration.
 */
#ifndef PULSE_CONVERT_PPROF_H
#define PULSE_CONVERT_PPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pulse_session;

/* What a conversion did, for the command's summary. */
struct pulse_pprof_stats {
	uint64_t nr_samples;		/* SAMPLE records read */
	uint64_t nr_pprof_samples;	/* pprof samples written (after merging) */
	uint64_t nr_locations;		/* locations written */
	uint64_t nr_functions;		/* functions written */
	uint64_t nr_mappings;		/* mappings written */
	uint64_t bytes;			/* gzipped bytes written */
};

struct pulse_pprof_opts {
	size_t sz;			/* sizeof(struct pulse_pprof_opts) */
	int gzip_level;			/* zlib level, 0: Z_DEFAULT_COMPRESSION */
	/*
	 * Without CLOCK_DATA: when the recording ended (ns since the epoch,
	 * e.g. the file's mtime, which perf report's "captured on" shows);
	 * time_nanos is this less the duration. 0: no time_nanos
	 */
	int64_t end_time_nanos;
};

/**
 * pulse_pprof__convert - walk a session and write its profile
 * @s: a session with its machine set up (pulse_session__init_machine())
 * @out: where the gzipped profile goes; written, not closed
 * @opts: may be NULL
 * @st: may be NULL; filled in
 *
 * Return: 0; -ENOMEM; -EIO when writing @out fails (errno may say more);
 * what pulse_session__process() returns for a damaged input; -ENODATA
 * when the input has no events at all.
 */
int pulse_pprof__convert(struct pulse_session *s, FILE *out, const struct pulse_pprof_opts *opts,
			 struct pulse_pprof_stats *st);

#endif
