/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder (lib/record/): open the events on a target, map one ring
 * buffer per CPU (the other events of that CPU redirected into it with
 * SET_OUTPUT), pump the rings into an output (include/pulse/record-output.h)
 * until the target ends or *stop is set, then let the output write its
 * closing features.
 */
#ifndef PULSE_RECORD_H
#define PULSE_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include <pulse/event.h>

struct pulse_record_output;

/* One -D window, in ms after the command starts. */
struct pulse_record_window {
	unsigned int start, end;
};

struct pulse_record_opts {
	size_t sz;
	struct pulse_evlist *evlist;	/* parsed -e events (not empty) */
	/* target: a command, -p pids, -t tids, -a, -C cpus */
	char *const *argv;		/* command to run, NULL if none */
	const pid_t *pids;		/* -p: processes (every thread of each) */
	size_t nr_pids;
	const pid_t *tids;		/* -t: threads */
	size_t nr_tids;
	bool system_wide;		/* -a (or -C without a task target) */
	const int *cpus;		/* -C list, NULL = all online */
	size_t nr_cpus;
	/* sampling */
	bool no_inherit;
	__u64 freq;			/* -F, 0: default 4000 unless period */
	__u64 period;			/* -c */
	bool callchain;			/* -g: callchains (dwarf_stack_size: with the user stack) */
	__u16 max_stack;		/* --call-graph fp,N: sample_max_stack, 0 = the kernel's */
	bool raw;			/* -R */
	bool sample_time;		/* -T (pulse always samples time; kept for perf's flag) */
	bool sample_cpu;		/* --sample-cpu */
	__u64 sample_user_regs;		/* --user-regs: REGS_USER with this sample_regs_user */
	__u64 sample_intr_regs;		/* -I: REGS_INTR with this sample_regs_intr */
	size_t mmap_pages;		/* -m, power of 2; 0 = 128 (512 KiB) */
	bool no_samples;		/* -n: sample_period/freq 0, counting only */
	bool inherit_stat;		/* -s: per-thread counts (inherit_stat, TOTAL_TIME_*) */
	bool no_buildid;		/* -B: no BUILD_ID feature */
	__u64 max_size;			/* --max-size: stop once this many data bytes are written */
	/*
	 * -D: the events start disabled (a dummy event tracks side-band
	 * from the start), enabled this many ms after the command starts;
	 * -1: never (0: no delay)
	 */
	int delay_ms;
	/*
	 * -D START-END,...: perf's time windows, ms after the command starts;
	 * delay_ms is the first START, the events are disabled at each END and
	 * enabled again at the next START
	 */
	const struct pulse_record_window *windows;
	size_t nr_windows;
	bool use_clockid;		/* -k: attr.use_clockid and clockid, CLOCK_DATA */
	const char *kallsyms_cache;	/* a directory for the kernel's text range per boot, or NULL */
	int clockid;
	int comp_level;			/* -z: zstd level 1..22 of the ring data; 0: none */
	size_t mmap_flush;		/* --mmap-flush: bytes a ring holds before a pass takes them */
	/* output */
	struct pulse_record_output *output;	/* started, fed and finished by the run; not owned */
	/*
	 * Flight recording: the side-band gets rings of its own (a tracking
	 * dummy event, never overwritten), read into this output; NULL: the
	 * side-band goes with the samples into @output.
	 */
	struct pulse_record_output *tracking_output;
	bool overwrite;			/* --overwrite: write_backward rings, read on a snapshot */
	volatile sig_atomic_t *snapshot;	/* set: take a snapshot (@output can_snapshot) */
	/*
	 * NULL, or an fd (a self-pipe) the caller's signal handler writes to
	 * after setting a flag, so that a flag set just before the loop goes
	 * to sleep wakes it at once; the loop reads it empty.
	 */
	const int *wake_fd;
	/*
	 * --switch-output-event: events whose samples trigger a snapshot; they
	 * go with the side-band into tracking_output, which sets *snapshot
	 */
	struct pulse_evlist *trigger_events;
	/*
	 * --threads: reader threads, each draining the rings of its CPUs into
	 * its output: reader_of_cpu[cpu] (indexed by CPU number, for the
	 * nr_reader_cpus first CPUs; -1 or beyond: the main thread) names the
	 * reader, reader_outputs[reader] its output (one output for all is
	 * fine when it is thread safe, as a flight's). Overwrite rings are
	 * read by the main thread, on a snapshot.
	 */
	int nr_readers;
	const int *reader_of_cpu;
	size_t nr_reader_cpus;
	struct pulse_record_output *const *reader_outputs;
	/* --control: commands read from ctl_fd (enable, disable, snapshot, stop, ping), "ack\n" to ack_fd */
	int ctl_fd, ack_fd;
	bool control;
	__u64 snapshot_bytes;		/* --switch-output=SIZE: a snapshot per this many bytes */
	__u64 snapshot_ms;		/* --switch-output=TIME: a snapshot this often */
	bool snapshot_on_crash;		/* a last snapshot when the command fails or dies */
	int argc_self;			/* pulse's own command line, for CMDLINE */
	const char **argv_self;
	volatile sig_atomic_t *stop;	/* set by the caller's signal handler */
	/* called once the events are open and the workload may start (may be NULL) */
	void (*on_start)(void *arg);
	void *arg;
	/* -D: called when the events are enabled after the delay (may be NULL) */
	void (*on_enable)(void *arg);
	/* -D windows: called when the events are disabled at a window's end (may be NULL) */
	void (*on_disable)(void *arg);
	/* AUX area tracing (an intel_pt//, intel_bts//, cs_etm//, arm_spe// event) */
	size_t auxtrace_mmap_pages;	/* -m ,N: AUX pages per ring (power of 2); 0: perf's default */
	bool auxtrace_snapshot;		/* -S: read-only AUX areas, taken on a snapshot */
	bool auxtrace_snapshot_on_exit;	/* -Se: and one at the end */
	__u64 auxtrace_snapshot_size;	/* -S SIZE: bytes a snapshot takes; 0: the whole area */
	__u64 aux_sample_size;		/* --aux-sample: PERF_SAMPLE_AUX bytes; 0: none */
	volatile sig_atomic_t *aux_snapshot;	/* -S: set (SIGUSR2): take an AUX snapshot */
	/*
	 * --off-cpu: @offcpu_event is perf's offcpu-time event, in @evlist;
	 * @offcpu_switch a parsed sched:sched_switch (not in @evlist, borrowed)
	 * that the recorder opens, reads and consumes to make its samples
	 * (lib/record/offcpu.c); both NULL without --off-cpu
	 */
	struct pulse_evsel *offcpu_event;
	struct pulse_evsel *offcpu_switch;
	/*
	 * --call-graph dwarf[,size] (with @callchain): every event but a
	 * function trace samples the user registers and this many bytes of
	 * the user stack, for an unwinder to rebuild the user part of the
	 * chain (perf 6.1's evsel__config_callchain()); 0: frame pointers
	 */
	__u32 dwarf_stack_size;
	/* ADDR|DATA_SRC, mmap_data on the tracking event: perf 6.1 sets it with dwarf, and keeps it */
	bool sample_address;
	bool user_callchains;		/* --user-callchains: exclude_callchain_kernel */
	bool kernel_callchains;		/* --kernel-callchains: exclude_callchain_user */
};

/*
 * The user registers a dwarf callchain samples (x86_64, perf's
 * PERF_REGS_MASK: every register but DS, ES, FS, GS), and the two it keeps
 * (IP, SP) when --user-regs names a subset.
 */
#define PULSE_DWARF_REGS_MASK		0xff0fffULL
#define PULSE_DWARF_MINIMAL_REGS	((1ULL << 8) | (1ULL << 7))

struct pulse_record_stats {
	__u64 samples;			/* SAMPLE records written */
	__u64 lost_events;		/* sum of LOST records' counts */
	__u64 lost_chunks;		/* number of LOST records */
	__u64 lost_samples;		/* read_format LOST / LOST_SAMPLES */
	__u64 *lost_per_cpu;		/* [nr_cpus]; pulse_record_stats__exit() frees it */
	int *cpu_of;			/* [nr_cpus] cpu numbers; likewise */
	int nr_cpus;
	__u64 wakeups;
	__u64 bytes;			/* data section size */
	__u64 bytes_transferred;	/* -z: ring bytes compressed, perf's "original" */
	__u64 bytes_compressed;		/* -z: the COMPRESSED records they became */
	int workload_status;		/* wait status of the command */
	bool workload_ran;
	bool disk_full;
	bool max_size_reached;		/* --max-size stopped the recording */
	unsigned int snapshots;		/* snapshots taken */
	bool crash_snapshot;		/* one of them because the command failed */
	/* AUX area tracing */
	__u64 aux_bytes;		/* AUX data written (AUXTRACE payloads, no padding) */
	__u64 aux_chunks;		/* AUXTRACE records written */
	__u64 aux_records;		/* PERF_RECORD_AUX written, and their flags: */
	__u64 aux_truncated, aux_partial, aux_collision;
	__u64 aux_overwritten;		/* snapshot: bytes the PMU wrote over before a snapshot */
	unsigned int aux_snapshots;
	bool aux_model;			/* the AUX data came from the model PMU (PULSE_AUX_MODEL) */
	/*
	 * [one per ring] or NULL: the aux_size of the PERF_RECORD_AUX records
	 * the pump saw in each ring (owned by the recorder, which sets it)
	 */
	__u64 *aux_written;
};

/* Where an error happened, for the CLI's message. */
enum pulse_record_stage {
	PULSE_REC_OK,
	PULSE_REC_OPEN,			/* perf_event_open of .evsel */
	PULSE_REC_MMAP,
	PULSE_REC_WORKLOAD,		/* fork/exec of the command */
	PULSE_REC_WRITE,		/* writing the output */
	PULSE_REC_TRACEFS,		/* reading tracepoint formats */
	PULSE_REC_TARGET,		/* the -p/-t target does not exist */
	PULSE_REC_FILTER,		/* the kernel refused .evsel's .filter */
};

struct pulse_record_error {
	enum pulse_record_stage stage;
	const char *evsel;		/* event name for PULSE_REC_OPEN, as opened */
	const char *filter;		/* PULSE_REC_FILTER: the filter the kernel refused */
	__u32 type;			/* and its attr's type and sample_freq (0: a period) */
	__u64 sample_freq;
	int cpu;
	pid_t tid;
	bool fell_back;			/* cycles -> cpu-clock happened (warn once) */
	bool user_only;			/* kernel samples excluded: no right to profile it */
	int paranoid;			/* kernel.perf_event_paranoid, when user_only */
};

/* -a, or -C without a task target. */
bool pulse_record__is_system_wide(const struct pulse_record_opts *opts);

/**
 * pulse_record__config_attrs - add the sampling and side-band bits perf 6.1
 * adds for this command line (see lib/record/attr.c)
 * @evsels, @nr: every event that will be opened, @dummy among them or NULL
 * @tracking: the event that carries MMAP/COMM/FORK/EXIT
 */
void pulse_record__config_attrs(const struct pulse_record_opts *opts, struct pulse_evsel **evsels,
				int nr, const struct pulse_evsel *dummy,
				const struct pulse_evsel *tracking);

/**
 * pulse_record__run - record until the target ends or *opts->stop
 * @opts: what to record, and the output it goes to
 * @stats: filled either way; release it with pulse_record_stats__exit()
 * @err: where an error happened (the error itself is the return value)
 *
 * Return: 0 or -errno: -ESRCH for a -p/-t target that does not exist, the
 * open, mmap, workload or output error otherwise (@err->stage says which).
 */
int pulse_record__run(const struct pulse_record_opts *opts, struct pulse_record_stats *stats,
		      struct pulse_record_error *err);

/* Free what pulse_record__run() allocated in @stats (a zeroed one is fine). */
void pulse_record_stats__exit(struct pulse_record_stats *stats);

#endif
