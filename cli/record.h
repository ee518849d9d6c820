/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pulse record's helpers in cli/: option values (record-args.c) and the
 * lines it prints (record-messages.c).
 */
#ifndef PULSE_CLI_RECORD_H
#define PULSE_CLI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <pulse/record.h>
#include <pulse/record-output.h>

/* "1,2,5-7" into an int array: 0, or -1 for a bad list */
int record_parse_list(const char *s, int **out, size_t *nr);
/* -m: pages, or a size with a B/K/M/G suffix: 0, or -1 for a bad value */
int record_parse_mmap_pages(const char *s, size_t *pages, bool quiet);
/* cli/record-aux.c: -m DATA[,AUX], -S, --aux-sample; setup: 0 or an exit status */
struct option;
int record_parse_mmap_arg(const char *s, size_t *pages, size_t *aux_pages, bool quiet);
int record_snapshot_opt(const struct option *opt, const char *arg, int unset);
int record_aux_sample_opt(const struct option *opt, const char *arg, int unset);
int record_aux_setup(const struct pulse_evlist *evlist, struct pulse_record_opts *o);
void record_aux_summary(const struct pulse_record_stats *st, bool ok, bool quiet);
/* --max-size: "100K", "2M" (the unit is required, as perf): 0 or -1 */
int record_parse_size(const char *s, __u64 *size);
/* -k: a clock name or number into *clockid: 0, or -1 after an error: line */
int record_parse_clockid(const char *str, int *clockid);
/* -z[n]: perf's level for @s (NULL: no argument, keep @current), 1..22; never refused */
int record_parse_comp_level(const char *s, int current);
/* --mmap-flush: perf's value for @s (before the cap), never refused */
int record_parse_mmap_flush(const char *s);
/* -F (NULL: none) and --strict-freq into *freq: 0 or an exit status */
int record_config_freq(const char *str, bool strict, bool quiet, __u64 *freq);
/* --filter F, --exclude-perf (F NULL) on evlist->entries[first..]: 0 or an exit status */
int record_add_filter(struct pulse_evlist *evlist, int first, const char *filter);
/* --user-regs (@intr false), -I: REGS ("AX,ip"; NULL: all) or-ed into *mask: 0 or an exit status */
int record_parse_regs(const char *str, bool intr, __u64 *mask);

/* cli/strerror-hints.c: the hint for a failed open, by errno and target */
const char *hint_for_record_open_error(const struct pulse_record_error *e, int err);

/* The error: and hint: lines of a failed pulse_record__run(). */
void record_print_error(const struct pulse_record_error *e, int ret, const char *out,
			const char *cmd);
/* perf's "[ perf record: ... ]" summary lines. */
void record_print_summary(const struct pulse_record_stats *st, const char *out, bool pipe_mode);

/* cli/record-callchain.c: -g, --call-graph, --no-call-graph, --user/kernel-callchains */
struct record_callchain {
	bool enabled;			/* -g or --call-graph, not undone by --no-call-graph */
	bool dwarf;			/* the last --call-graph was dwarf */
	__u32 dump_size;		/* dwarf's stack bytes */
	unsigned long max_stack;	/* fp,N: sample_max_stack, 0: the kernel's */
	bool sample_address;		/* dwarf was asked for once: ADDR|DATA_SRC stay */
	bool user_callchains, kernel_callchains;
	bool unsupported;		/* lbr: said so, no usage dump */
};
extern struct record_callchain record_cg;
struct option;
/* --call-graph: 1 (set), -2 (lbr: not yet) or -1, after an error: line */
int record_parse_call_graph(const char *arg, struct record_callchain *cg);
int record_call_graph_opt(const struct option *opt, const char *arg, int unset);
int record_no_call_graph_opt(const struct option *opt, const char *arg, int unset);
/* into @o (after sample_user_regs): perf's warning for dwarf with --user-regs */
void record_callchain_apply(struct pulse_record_opts *o, bool quiet);
/* -D: ms, -1, or windows (*@windows is allocated): 0, or -1 after an error: line */
int record_parse_delay(const char *arg, int *delay_ms, struct pulse_record_window **windows,
		       size_t *nr);

/* the per-boot cache directory for the kernel's text range, or NULL */
const char *record_kallsyms_cache(void);
/* -o: an fd to write to (stdout for '-'), or -errno */
int record_open_output(const char *name, bool *pipe_mode);

/* cli/record-signals.c: SIGINT/SIGTERM stop; pulse dies of the signal at the end */
#include <signal.h>
volatile sig_atomic_t *record_signals_install(void);
void record_signals_exit_with(int sig);
void record_signals_raise(void);

/* cli/record-threads.c: --threads */
struct option;
extern const char *threads_spec;
int threads_opt(const struct option *opt, const char *arg, int unset);
int record_threads_setup(struct pulse_record_opts *o, const char *output, bool pipe_mode);
int record_threads_open_dir(const char *dir, struct pulse_record_opts *o, int *fd);
int record_threads_outputs(struct pulse_record_opts *o, struct pulse_record_output *main,
			   bool flight);
void record_threads_exit(bool flight);

/* cli/record-offcpu.c: --off-cpu; setup: 0 or an exit status after an error: line */
extern bool record_off_cpu;
int record_offcpu_setup(struct pulse_evlist *evlist, struct pulse_record_opts *o);
void record_offcpu_exit(void);

/* cli/record-flight.c: the flight recorder's options and lines */
struct option;
struct pulse_flight;
extern bool flight_overwrite;
extern int flight_max_files;
extern const char *flight_memory;
int flight_switch_output_opt(const struct option *opt, const char *arg, int unset);
int flight_crash_opt(const struct option *opt, const char *arg, int unset);
extern const char *flight_control;
int flight_trigger_event_opt(const struct option *opt, const char *arg, int unset);
bool record_flight_wanted(void);
/* --control: 0, or an exit status after an error: line */
int record_control_setup(struct pulse_record_opts *o);
void record_flight_exit(void);
/* cli/control.c: --control fifo:CTL[,ACK] or fd:CTL[,ACK] into fds (ack -1: none); 0, or an
 * exit status after an error: line */
int control_setup(const char *control, int *ctl_fd, int *ack_fd);
/* Point @o's outputs at a new flight: 0 or an exit status after an error: line */
int record_flight_setup(struct pulse_record_opts *o, const char *output, bool *quiet,
			struct pulse_flight **out);
void record_flight_summary(struct pulse_flight *f, const struct pulse_record_stats *st,
			   const char *output, bool quiet);

#endif
