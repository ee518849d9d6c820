/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report -D (--dump-raw-trace) output, as perf 6.1 prints it
 * (lib/output/dump.c): per record a blank line, "OFF@FILE [0xSIZE]: event:
 * TYPE", the raw bytes in hex and ASCII, a blank line, then "CPU TIME OFF
 * [0xSIZE]: PERF_RECORD_<NAME>" with the record decoded the way perf's
 * report tool decodes it (util/session.c dump_event(), dump_sample(),
 * util/event.c perf_event__fprintf_*()). The caller walks the file, puts
 * kernel records in time order as perf does and applies side-band records
 * to its machine; this module only prints and counts.
 *
 * What perf knows and pulse does not: perf may rename the kernel DSO to the
 * vmlinux it found and split kernel samples into module maps when it loads
 * kernel symbols, so the "...... dso:" line of a kernel sample can differ
 * between machines; pulse prints the kernel map's name ([kernel.kallsyms]).
 * Interrupt registers (a PMU-only sample field) are not decoded.
 */
#ifndef PULSE_DUMP_H
#define PULSE_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <pulse/perf-abi.h>

struct pulse_data;
struct pulse_machine;

/* perf 6.1's PERF_RECORD_HEADER_MAX: its stats table stops before COMPRESSED2. */
#define PULSE_DUMP_NR_TYPES 83

/*
 * struct pulse_aux_stats - perf's counts of AUX records (util/session.c
 * machines__deliver_event()): all of them, and those whose flags say the
 * AUX data was truncated (lost), had gaps (partial) or collided, for the
 * warnings perf prints after report -D and report (perf_session__warn_
 * about_errors(): "AUX data lost N times out of M!"); and the AUXTRACE_ERROR
 * records by type ("N instruction trace errors").
 */
struct pulse_aux_stats {
	uint64_t nr_aux, lost, partial, collision;
	uint64_t errors[2];	/* AUXTRACE_ERROR records of type 0 (unknown), 1 (itrace) */
};

/* count one PERF_RECORD_AUX or AUXTRACE_ERROR (others are ignored) */
void pulse_aux_stats__add(struct pulse_aux_stats *st, const struct perf_event_header *rec);

/*
 * struct pulse_dump - state of one dump (perf's evlist stats and the
 * combined sample_type it caches). Set up with pulse_dump__init().
 */
struct pulse_dump {
	const char *path;		/* after '@': the input's name; "pipe" in pipe mode */
	struct pulse_machine *machine;	/* resolves samples' thread/dso lines; may be NULL */
	/* perf's evsel__name() of attr @idx, for READ records and the stats */
	const char *(*name)(struct pulse_data *d, size_t idx, void *arg);
	void *name_arg;
	__u64 combined_sample_type;	/* cached once non-zero, as perf does */
	__u32 nr_events[PULSE_DUMP_NR_TYPES];	/* [0]: every record */
	__u32 *nr_samples;		/* per attr: samples delivered */
	__u32 *nr_lost_samples;		/* per attr: LOST_SAMPLES' counts, if counted */
	bool count_lost_samples;	/* perf's --stats counts them per event, -D not */
	bool branch_mode;		/* report's branch mode: a sample per branch entry */
	/* perf script's tool: THROTTLE, the map and the stat records are handled */
	bool script_tool;
	size_t nr_attrs;		/* entries of nr_samples, nr_lost_samples */
	struct pulse_dump_read {	/* PERF_SAMPLE_READ: last value per id */
		__u64 id, value;
	} *reads;
	size_t nr_reads;
	struct pulse_data *d;		/* the file being dumped */
	size_t nr_header_attrs;		/* HEADER_ATTR records printed so far */
	bool stats_tool;		/* report --stats: AUXTRACE_INFO is not processed */
	struct pulse_aux_stats aux;	/* the AUX records printed */
	bool has_auxtrace;		/* an AUXTRACE_INFO was taken, ... */
	__u32 auxtrace_type;		/* ... of this PMU (enum pulse_auxtrace) */
};

/**
 * pulse_dump__init - start a dump; @path, @machine and @name's data must
 * outlive it. @name may be NULL (events are then called by their
 * EVENT_DESC name or "unknown").
 *
 * Return: 0 (nothing is allocated before the first record); release with
 * pulse_dump__exit().
 */
int pulse_dump__init(struct pulse_dump *dump, const char *path, struct pulse_machine *machine,
		     const char *(*name)(struct pulse_data *d, size_t idx, void *arg),
		     void *name_arg);
void pulse_dump__exit(struct pulse_dump *dump);

/* perf's record name for @type ("MMAP", "FINISHED_ROUND"...); "UNKNOWN"/"INVALID". */
const char *pulse_dump__type_name(__u32 type);

/**
 * pulse_dump__count - count a record as it is read (before time ordering)
 *
 * perf counts every record it reads, also a COMPRESSED record whose
 * content it then reads, and types it cannot process.
 */
void pulse_dump__count(struct pulse_dump *dump, __u32 type);

/**
 * pulse_dump__hex - perf's raw event dump of @len bytes: a "." line,
 * ". ... raw event: size N bytes", 16 bytes a line with their ASCII, and a
 * blank line.
 */
void pulse_dump__hex(FILE *out, const void *buf, size_t len);

/**
 * pulse_dump__record - print one record as perf report -D does
 * @out: where to print
 * @d: the file (attrs, for decoding ids, timestamps and samples)
 * @rec: the record, header.size bytes
 * @file_offset: printed as perf does: the file offset; in pipe mode the
 *               stream offset after the 16-byte pipe header
 * @dump: the dump state; its machine (if any) is only read for samples
 *        (threads may be created), not updated: apply side-band records
 *        to it after this call
 *
 * The decoded line of records perf leaves without a newline (features,
 * attrs, build ids) is ended by the next record's leading newline, as in
 * perf's output. Malformed records get their raw dump and name; their
 * decoding is skipped or cut short, never read out of bounds.
 *
 * Return: 0, -EIO when @out failed, or -EBADMSG for a record perf stops
 * at (an AUXTRACE_INFO too short for its PMU, or of a type perf 6.1 does
 * not know): pulse_data__error() says what and where.
 */
int pulse_dump__record(FILE *out, struct pulse_data *d, const struct perf_event_header *rec,
		       __u64 file_offset, struct pulse_dump *dump);

/**
 * pulse_dump__fprintf_event - one side-band record as perf 6.1's
 * perf_event__fprintf() prints it (perf script --show-*-events):
 * "PERF_RECORD_<NAME>" and its decoded fields, ended by a newline. Types
 * it does not decode (TEXT_POKE, user types) get the name alone.
 *
 * Return: 0, or -EIO when @out failed.
 */
int pulse_dump__fprintf_event(FILE *out, const struct perf_event_header *rec);

/**
 * pulse_dump__fprintf_stats - the "Aggregated stats:" block perf prints
 * after the records (non-empty types only), and the per-event "SAMPLE
 * events" (and "LOST_SAMPLES events", if counted) of every event that had
 * some, named by dump->name
 *
 * Return: 0 or -EIO.
 */
int pulse_dump__fprintf_stats(FILE *out, struct pulse_data *d, const struct pulse_dump *dump);

#endif
