/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records of a `perf stat record` file: decoding and building them.
 *
 * Checked against perf 6.1 (tools/lib/perf/include/perf/event.h). The
 * records are native-endian when they reach these functions (the reader
 * swaps a foreign file's records first, lib/data/swap.c). Layouts, offsets
 * from the start of the record (after its 8-byte perf_event_header):
 *
 *   THREAD_MAP (73)   8  u64 nr
 *                     16 nr * { u64 pid; char comm[16]; }           24 B each
 *   CPU_MAP (74)      8  u16 type, then by type (struct packed: no padding
 *                        after type):
 *                        0 CPUS    u16 nr; u16 cpu[nr]   (0xffff: cpu -1)
 *                        1 MASK    u16 nr; u16 long_size;
 *                                  long_size 4: u32 mask[nr]
 *                                  long_size 8: u32 pad; u64 mask[nr]
 *                        2 RANGE   u8 any_cpu; u8 pad; u16 start, end
 *                                  (any_cpu: cpu -1 first, then start..end)
 *   STAT_CONFIG (75)  8  u64 nr
 *                     16 nr * { u64 tag; u64 val; }   tag 0 aggr_mode,
 *                        1 interval (ms), 2 scale, 3 aggr_level (newer perf)
 *   STAT (76)         8  u64 id; 16 u32 cpu (a cpu of the CPU_MAP, -1 for
 *                        any: perf 6.1 looks it up); 20 u32 thread (index
 *                        into the THREAD_MAP);
 *                     24 u64 val; 32 u64 ena; 40 u64 run          48 B
 *   STAT_ROUND (77)   8  u64 type (0 INTERVAL, 1 FINAL); 16 u64 time (ns)
 *
 * A stat file's attrs have sample_type IDENTIFIER and read_format
 * TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING; its header sets the STAT feature
 * (no payload) besides the machine's features; the records come in the
 * order THREAD_MAP, CPU_MAP, STAT_CONFIG, then per round one STAT per
 * (counter, cpu, thread) and a STAT_ROUND.
 */
#ifndef PULSE_STAT_RECORDS_H
#define PULSE_STAT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <pulse/buf.h>
#include <pulse/data.h>

struct pulse_feat_ctx;

enum pulse_stat_round_type {
	PULSE_STAT_ROUND_INTERVAL = 0,
	PULSE_STAT_ROUND_FINAL = 1,
};

/* STAT_CONFIG tags (PERF_STAT_CONFIG_TERM__*). */
enum pulse_stat_config_tag {
	PULSE_STAT_CONFIG_AGGR_MODE = 0,
	PULSE_STAT_CONFIG_INTERVAL = 1,
	PULSE_STAT_CONFIG_SCALE = 2,
	PULSE_STAT_CONFIG_AGGR_LEVEL = 3,
	PULSE_STAT_CONFIG_MAX,
};

/* CPU_MAP encodings (PERF_CPU_MAP__*); AUTO lets the writer pick. */
enum pulse_cpu_map_layout {
	PULSE_CPU_MAP_CPUS = 0,
	PULSE_CPU_MAP_MASK = 1,		/* with 8-byte longs, as perf on 64-bit */
	PULSE_CPU_MAP_RANGE = 2,
	PULSE_CPU_MAP_MASK32 = 0x101,	/* MASK with 4-byte longs (32-bit perf) */
	PULSE_CPU_MAP_AUTO = -1,
};

/* A STAT_CONFIG record. */
struct pulse_stat_config {
	__u64 aggr_mode;	/* perf's enum aggr_mode: 1 AGGR_GLOBAL, 2 AGGR_NONE, ... */
	__u64 interval;		/* -I msecs, 0 without */
	bool scale;		/* counts are scaled by ena/run */
	__u64 aggr_level;	/* newer perf only */
	__u32 present;		/* bit per enum pulse_stat_config_tag the record carried */
};

/* A STAT record: one counter's reading on one cpu and thread. */
struct pulse_stat_values {
	__u64 id;		/* the attr's id */
	__u32 cpu;		/* a cpu of the CPU_MAP ((__u32)-1: any), not its index */
	__u32 thread;		/* index into the THREAD_MAP */
	__u64 val;		/* count */
	__u64 ena;		/* time enabled (ns) */
	__u64 run;		/* time running (ns); < ena: multiplexed */
};

/* A STAT_ROUND record. */
struct pulse_stat_round {
	__u64 type;		/* enum pulse_stat_round_type */
	__u64 time;		/* ns since the start */
};

/* One THREAD_MAP entry. */
struct pulse_thread_map_entry {
	__u64 pid;
	char comm[17];		/* NUL-terminated copy of the 16 bytes */
};

/**
 * pulse_stat_config__parse - decode a STAT_CONFIG record
 * @rec, @size: the record (header.size bytes are at @rec)
 * @out: filled in; tags the record lacks are 0, unknown tags are skipped
 *
 * Return: 0; -EBADMSG when the record is shorter than its entry count says.
 */
int pulse_stat_config__parse(const void *rec, size_t size, struct pulse_stat_config *out);

/**
 * pulse_stat_values__parse - decode a STAT record
 * Return: 0; -EBADMSG when the record is shorter than 48 bytes.
 */
int pulse_stat_values__parse(const void *rec, size_t size, struct pulse_stat_values *out);

/**
 * pulse_stat_round__parse - decode a STAT_ROUND record
 * Return: 0; -EBADMSG when the record is shorter than 24 bytes.
 */
int pulse_stat_round__parse(const void *rec, size_t size, struct pulse_stat_round *out);

/**
 * pulse_thread_map__parse - decode a THREAD_MAP record
 * @out: set to a malloc'ed array of @nr entries (caller frees with free(3));
 *       NULL when @nr is 0 or on failure
 *
 * Return: 0; -EBADMSG when nr entries do not fit the record; -ENOMEM.
 */
int pulse_thread_map__parse(const void *rec, size_t size, struct pulse_thread_map_entry **out,
			    size_t *nr);

/**
 * pulse_cpu_map_data__parse - decode a perf_record_cpu_map_data (the body
 * of a CPU_MAP record, or of an EVENT_UPDATE of type CPUS)
 * @data, @size: the bytes from its u16 type on
 * @cpus: set to a malloc'ed array of @nr cpus, ascending as perf lists them
 *        (-1 for "any cpu"); caller frees with free(3); NULL when @nr is 0
 * @layout: the encoding found (enum pulse_cpu_map_layout); may be NULL
 *
 * Return: 0; -EBADMSG for a length that does not fit, a long_size other
 * than 4 or 8, or a range that ends before it starts; -EOPNOTSUPP for an
 * unknown type; -ENOMEM.
 */
int pulse_cpu_map_data__parse(const void *data, size_t size, int **cpus, size_t *nr,
			      int *layout);

/* pulse_cpu_map__parse - pulse_cpu_map_data__parse() on a CPU_MAP record. */
int pulse_cpu_map__parse(const void *rec, size_t size, int **cpus, size_t *nr, int *layout);

/*
 * pulse_data__is_stat - a file of `perf stat record`: it has the STAT
 * feature (what perf's script checks before printing the counts)
 */
struct pulse_data;
bool pulse_data__is_stat(const struct pulse_data *d);

/* ---- building records (lib/data/stat-write.c) ------------------------------ */

/*
 * Each appends one whole record (8-aligned) to @b; 0, -EINVAL for
 * arguments that cannot be encoded, or -ENOMEM. Write @b with
 * pulse_data_writer__write().
 */
int pulse_thread_map__build(struct pulse_buf *b, const struct pulse_thread_map_entry *t,
			    size_t nr);
/*
 * @cpus ascending, -1 only first; @layout an enum pulse_cpu_map_layout.
 * AUTO picks perf 6.1's choice: RANGE for a contiguous run (after an
 * optional -1), else CPUS or MASK, whichever is smaller.
 */
int pulse_cpu_map__build(struct pulse_buf *b, const int *cpus, size_t nr, int layout);
/* Writes the AGGR_MODE, SCALE and INTERVAL tags, as perf 6.1 does. */
int pulse_stat_config__build(struct pulse_buf *b, const struct pulse_stat_config *c);
int pulse_stat_values__build(struct pulse_buf *b, const struct pulse_stat_values *v);
int pulse_stat_round__build(struct pulse_buf *b, const struct pulse_stat_round *r);

/**
 * pulse_data_writer__add_stat_features - the header features of a stat file
 * @w: the writer
 * @ctx: as for pulse_feat__build() (argc/argv for CMDLINE, the attrs for
 *       EVENT_DESC)
 *
 * Adds the machine's features that `perf stat record` writes (HOSTNAME,
 * OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 * EVENT_DESC; those this machine cannot say are left out) and STAT.
 *
 * Return: 0 or -errno from building or adding a feature.
 */
int pulse_data_writer__add_stat_features(struct pulse_data_writer *w,
					 const struct pulse_feat_ctx *ctx);

#endif
