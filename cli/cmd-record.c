// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record: perf record's options, the recorder in lib/record, and
 * perf's summary lines. Errors become one `error:` line and at most one
 * `hint:` line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pulse/event.h>
#include <pulse/flight.h>
#include <pulse/record.h>
#include <pulse/record-output.h>
#include "builtin.h"
#include "parse-options.h"
#include "record.h"

static const char *const record_usage[] = {
	"pulse record [<options>] [<command>]",
	"pulse record [<options>] -- <command> [<options>]",
	NULL,
};

static struct pulse_evlist evlist;
static int last_e_first;	/* the first evsel of the last -e, for --filter */
static bool explicit_cycles;
static int event_error;		/* exit status for a bad -e: usage (129) or runtime (1) */
static int parse_event_opt(const struct option *opt, const char *arg, int unset)
{
	struct pulse_parse_opts po = { .sz = sizeof(po) };
	struct pulse_parse_error perr;
	int first = evlist.nr;
	int ret;

	memset(&perr, 0, sizeof(perr));
	ret = pulse_evlist__parse(&evlist, arg, &po, &perr);
	if (ret) {
		event_error = event_parse_failed(arg, ret, &perr);
		return -1;
	}
	for (int i = first; i < evlist.nr; i++) {
		const struct perf_event_attr *a = &evlist.entries[i]->attr;

		if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES)
			explicit_cycles = true;
	}
	last_e_first = first;
	return 0;
}

/* --filter, --exclude-perf (NULL): on the events of the last -e (record-args.c) */
static int filter_opt(const struct option *opt, const char *arg, int unset)
{
	event_error = record_add_filter(&evlist, last_e_first, arg);
	return event_error ? -1 : 0;
}

static __u64 user_regs, intr_regs;

static int regs_opt(const struct option *opt, const char *arg, int unset)
{
	bool intr = opt->short_name == 'I';

	if (unset)
		return 0;
	event_error = record_parse_regs(arg, intr, intr ? &intr_regs : &user_regs);
	return event_error ? -1 : 0;
}

static int exclude_perf_opt(const struct option *opt, const char *arg, int unset)
{
	return filter_opt(opt, NULL, unset);
}

static const char *cpu_list, *pid_list, *tid_list, *output_name, *freq_str;
static const char *mmap_str;
static bool system_wide, no_inherit, raw, timestamp, sample_cpu, quiet, verbose;
static bool strict_freq, no_samples, inherit_stat, no_buildid, no_buildid_cache;
static uint64_t period;

static bool use_clockid;
static int clockid;
static uint64_t max_size;
static int delay_ms;
static struct pulse_record_window *windows;	/* -D START-END,... */
static size_t nr_windows;
static int comp_level;		/* -z: 0 = no compression */
static const char *mmap_flush_str;

static void on_enable(void *arg)
{
	if (!quiet)
		fprintf(stderr, "Events enabled\n");
}

static void on_disable(void *arg)
{
	if (!quiet)
		fprintf(stderr, "Events disabled\n");
}

static int delay_opt(const struct option *opt, const char *arg, int unset)
{
	free(windows);
	return record_parse_delay(arg, &delay_ms, &windows, &nr_windows);
}

static int comp_level_opt(const struct option *opt, const char *arg, int unset)
{
	comp_level = unset ? 0 : record_parse_comp_level(arg, comp_level);
	return 0;
}

static int max_size_opt(const struct option *opt, const char *arg, int unset)
{
	if (unset) {
		max_size = 0;
		return 0;
	}
	if (record_parse_size(arg, (__u64 *)&max_size)) {
		error("invalid --max-size '%s': give a size such as 100K or 2M", arg);
		return -1;
	}
	return 0;
}

static int clockid_opt(const struct option *opt, const char *arg, int unset)
{
	if (unset) {
		use_clockid = false;
		return 0;
	}
	if (use_clockid) {
		error("-k given twice");
		return -1;
	}
	if (record_parse_clockid(arg, &clockid))
		return -1;
	use_clockid = true;
	return 0;
}

static const struct option record_options[] = {
	OPT_CALLBACK('e', "event", NULL, "event", "event selector: use 'pulse list' to list events",
		     parse_event_opt),
	OPT_CALLBACK(0, "filter", NULL, "filter", "event filter", filter_opt),
	OPT_CALLBACK_NOOPT(0, "exclude-perf", NULL, "don't record events from perf itself",
			   exclude_perf_opt),
	OPT_STRING('o', "output", &output_name, "file", "output file name ('-' for a pipe)"),
	OPT_BOOLEAN('a', "all-cpus", &system_wide, "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &cpu_list, "cpu", "list of cpus to monitor"),
	OPT_STRING('p', "pid", &pid_list, "pid", "record events on existing process id"),
	OPT_STRING('t', "tid", &tid_list, "tid", "record events on existing thread id"),
	OPT_BOOLEAN('i', "no-inherit", &no_inherit, "child tasks do not inherit counters"),
	OPT_STRING('F', "freq", &freq_str, "freq or 'max'", "profile at this frequency"),
	OPT_U64('c', "count", &period, "event period to sample"),
	OPT_BOOLEAN(0, "strict-freq", &strict_freq, "fail if the specified frequency can't be used"),
	OPT_BOOLEAN('g', NULL, &record_cg.enabled, "enables call-graph recording"),
	OPT_CALLBACK(0, "call-graph", NULL, "record_mode[,record_size]",
		     "fp[,max_stack]: frame-pointer call graphs; dwarf[,size]: user registers and stack (default 8192)",
		     record_call_graph_opt),
	OPT_CALLBACK_NOOPT(0, "no-call-graph", NULL, "disables call-graph recording",
			   record_no_call_graph_opt),
	OPT_BOOLEAN(0, "user-callchains", &record_cg.user_callchains,
		    "collect user callchains"),
	OPT_BOOLEAN(0, "kernel-callchains", &record_cg.kernel_callchains,
		    "collect kernel callchains"),
	OPT_BOOLEAN('R', "raw-samples", &raw, "collect raw sample records from all opened counters"),
	OPT_BOOLEAN('T', "timestamp", &timestamp, "record the sample timestamps"),
	OPT_BOOLEAN(0, "sample-cpu", &sample_cpu, "record the sample cpu"),
	OPT_CALLBACK_OPTARG(0, "user-regs", NULL, "any register",
			    "sample selected machine registers in user space, use '--user-regs=?' to list register names",
			    regs_opt),
	OPT_CALLBACK_OPTARG('I', "intr-regs", NULL, "any register",
			    "sample selected machine registers on interrupt, use '-I?' to list register names",
			    regs_opt),
	OPT_STRING('m', "mmap-pages", &mmap_str, "pages[,pages]",
		   "number of mmap data pages and AUX area tracing mmap pages"),
	OPT_CALLBACK_OPTARG('S', "snapshot", NULL, "opts", "AUX area tracing Snapshot Mode",
			    record_snapshot_opt),
	OPT_CALLBACK_OPTARG(0, "aux-sample", NULL, "opts", "Sample AUX area", record_aux_sample_opt),
	OPT_BOOLEAN('q', "quiet", &quiet, "don't print any message"),
	OPT_CALLBACK('k', "clockid", NULL, "clockid",
		     "clockid to use for events, see clock_gettime()", clockid_opt),
	OPT_CALLBACK(0, "max-size", NULL, "size", "Limit the maximum size of the output file",
		     max_size_opt),
	OPT_CALLBACK('D', "delay", NULL, "ms",
		     "ms to wait before starting measurement after program start (-1: start with events disabled)",
		     delay_opt),
	OPT_BOOLEAN('n', "no-samples", &no_samples, "don't sample"),
	OPT_BOOLEAN('s', "stat", &inherit_stat, "per thread counts"),
	OPT_BOOLEAN('B', "no-buildid", &no_buildid, "do not collect buildids in perf.data"),
	OPT_BOOLEAN('N', "no-buildid-cache", &no_buildid_cache,
		    "do not update the buildid cache (pulse never does)"),
	OPT_STRING(0, "mmap-flush", &mmap_flush_str, "number",
		   "Minimal number of bytes that is extracted from mmap data pages (default: 1)"),
	OPT_CALLBACK_OPTARG('z', "compression-level", NULL, "n",
			    "Compress records using specified level (default: 1 - fastest compression, 22 - greatest compression)",
			    comp_level_opt),
	OPT_BOOLEAN('v', "verbose", &verbose, "be more verbose"),
	OPT_BOOLEAN(0, "overwrite", &flight_overwrite,
		    "use overwrite mode: keep the newest in the kernel's rings, write them on SIGUSR2"),
	OPT_CALLBACK_OPTARG(0, "switch-output", NULL, "signal or size[BKMG] or time[smhd]",
			    "a snapshot (a new file) on SIGUSR2, or per size or time", flight_switch_output_opt),
	OPT_INTEGER(0, "switch-max-files", &flight_max_files, "keep at most this many snapshot files"),
	OPT_STRING('M', "memory", &flight_memory, "size",
		   "flight recorder: keep the recent past in this much compressed memory, write it on SIGUSR2"),
	OPT_CALLBACK(0, "switch-output-event", NULL, "switch output event",
		     "a snapshot when this event happens", flight_trigger_event_opt),
	OPT_STRING(0, "control", &flight_control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
		   "commands: enable, disable, snapshot, stop, ping; 'ack\\n' on ack"),
	OPT_CALLBACK_OPTARG(0, "threads", NULL, "spec",
			    "reader threads: cpu, core, package, numa or masks (perf's directory)", threads_opt),
	OPT_BOOLEAN(0, "off-cpu", &record_off_cpu, "Enable off-cpu analysis"),
	OPT_CALLBACK_NOOPT(0, "crash-snapshot", NULL,
			   "a last snapshot when the command fails (default with -M)", flight_crash_opt),
	OPT_END(),
};

static int do_record(int argc, const char **argv, const char **argv_self)
{
	struct pulse_record_opts o = { .sz = sizeof(o) };
	struct pulse_record_output *out = NULL;
	struct pulse_flight *flight = NULL;
	struct pulse_record_stats st = { 0 };
	struct pulse_record_error e;
	int *cpus = NULL, *pids = NULL, *tids = NULL;
	size_t nr_cpus = 0, nr_pids = 0, nr_tids = 0;
	bool pipe_mode;
	int fd, ret, status = 1;
	int argc_self = argc;

	argc = parse_options(argc - 1, argv + 1, record_options, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		/* an event error already said what is wrong and what is near */
		if (event_error)
			return event_error;
		if (record_cg.unsupported)
			return PULSE_EXIT_USAGE;
		usage_with_options(record_usage, record_options);
		return PULSE_EXIT_USAGE;
	}
	argv = argv + 1;
	if (cpu_list && record_parse_list(cpu_list, &cpus, &nr_cpus)) {
		error("invalid cpu list '%s'", cpu_list);
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	if (pid_list && record_parse_list(pid_list, &pids, &nr_pids)) {
		error("invalid pid list '%s'", pid_list);
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	if (tid_list && record_parse_list(tid_list, &tids, &nr_tids)) {
		error("invalid tid list '%s'", tid_list);
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	/* perf refuses these too (silently, exit 255) */
	if (argc && (pid_list || tid_list)) {
		error("a command cannot be recorded with %s: give one or the other",
		      pid_list ? "-p" : "-t");
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	if (!argc && !system_wide && !cpu_list && !pid_list && !tid_list) {
		error("nothing to record: give a command, -p, -t, -a or -C");
		usage_with_options(record_usage, record_options);
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	if (freq_str && period) {
		error("cannot set frequency and period at the same time");
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	ret = record_config_freq(period ? NULL : freq_str, strict_freq, quiet, &o.freq);
	if (ret)
		goto out_lists;
	if (mmap_str && record_parse_mmap_arg(mmap_str, &o.mmap_pages, &o.auxtrace_mmap_pages, quiet)) {
		error("invalid -m '%s': give a number of pages (or a size like 512K)",
		      mmap_str);
		ret = PULSE_EXIT_USAGE;
		goto out_lists;
	}
	if (mmap_flush_str) {
		/* perf caps it at a quarter of a ring's mapping (header page included) */
		long cap = ((o.mmap_pages ? o.mmap_pages : 128) + 1) * sysconf(_SC_PAGESIZE) / 4;
		int v = record_parse_mmap_flush(mmap_flush_str);

		/* as perf, a negative int is a huge size_t: only the last pass takes data */
		o.mmap_flush = (size_t)(v > cap ? (int)cap : v);
	}
	if (!evlist.nr) {
		struct pulse_parse_error perr;

		/* perf's default: cycles:P, which becomes cpu-clock:ppp without a PMU. */
		if (pulse_evlist__parse(&evlist, "cycles:P", NULL, &perr)) {
			error("%s", perr.msg);
			ret = 1;
			goto out_lists;
		}
	}
	ret = record_aux_setup(&evlist, &o);
	if (!ret)
		ret = record_offcpu_setup(&evlist, &o);
	if (ret)
		goto out_lists;
	if (!output_name)
		output_name = "perf.data";
	ret = record_control_setup(&o);
	if (ret)
		goto out_lists;
	ret = record_threads_setup(&o, output_name, !strcmp(output_name, "-"));
	if (ret)
		goto out_lists;
	if (record_flight_wanted()) {
		pipe_mode = false;
		fd = -1;
		ret = record_flight_setup(&o, output_name, &quiet, &flight);
		if (ret)
			goto out_lists;
		out = o.output;
	} else if (threads_spec) {
		pipe_mode = false;
		ret = record_threads_open_dir(output_name, &o, &fd);
		if (!ret)
			ret = pulse_record_output__new_file(&out, fd);
		if (ret) {
			error("cannot create '%s': %s", output_name, strerror(-ret));
			record_threads_exit(false);
			if (fd >= 0)
				close(fd);
			ret = 1;
			goto out_lists;
		}
	} else {
		fd = record_open_output(output_name, &pipe_mode);
		if (fd < 0) {
			error("cannot create '%s': %s", output_name, strerror(-fd));
			ret = 1;
			goto out_lists;
		}
		ret = pipe_mode ? pulse_record_output__new_pipe(&out, fd) :
				  pulse_record_output__new_file(&out, fd);
		if (ret) {
			error("cannot create '%s': %s", output_name, strerror(-ret));
			if (!pipe_mode)
				close(fd);
			ret = 1;
			goto out_lists;
		}
	}

	o.stop = record_signals_install();

	o.evlist = &evlist;
	o.argv = argc ? (char *const *)argv : NULL;
	o.pids = pids;
	o.nr_pids = nr_pids;
	o.tids = tids;
	o.nr_tids = nr_tids;
	o.system_wide = system_wide;
	o.cpus = cpus;
	o.nr_cpus = nr_cpus;
	o.no_inherit = no_inherit;
	o.period = period;
	o.raw = raw;
	o.sample_user_regs = user_regs;
	o.sample_intr_regs = intr_regs;
	record_callchain_apply(&o, quiet);
	o.no_samples = no_samples;
	o.inherit_stat = inherit_stat;
	o.no_buildid = no_buildid;
	o.use_clockid = use_clockid;
	o.kallsyms_cache = record_kallsyms_cache();
	o.comp_level = comp_level;
	o.max_size = max_size;
	o.delay_ms = delay_ms;
	o.on_enable = on_enable;
	o.on_disable = on_disable;
	o.windows = windows;
	o.nr_windows = nr_windows;
	if ((delay_ms || nr_windows) && !quiet)
		fprintf(stderr, "Events disabled\n");
	o.clockid = clockid;
	o.sample_time = timestamp;
	o.sample_cpu = sample_cpu;
	if (!flight)
		o.output = out;
	if (record_threads_outputs(&o, out, flight != NULL)) {
		error("cannot set up the reader threads: %s", strerror(ENOMEM));
		status = 1;
		goto out_delete;
	}
	o.argc_self = argc_self;
	o.argv_self = argv_self;

	ret = pulse_record__run(&o, &st, &e);
	if (e.user_only && !quiet)
		warning("kernel.perf_event_paranoid=%d: recording user space only (kernel excluded)",
			e.paranoid);
	if (e.fell_back && explicit_cycles && !quiet)
		warning("the cycles event is not supported (no hardware PMU), falling back to cpu-clock");
	if (ret) {
		record_print_error(&e, ret, output_name, argc ? argv[0] : NULL);
		/* A full disk still leaves a finished, readable file: say what it holds. */
		if (e.stage == PULSE_REC_WRITE && st.disk_full)
			status = 1;
	} else {
		status = 0;
	}
	/* perf exits with the command's status, or dies of its signal */
	if (!ret && st.workload_ran && WIFEXITED(st.workload_status))
		status = WEXITSTATUS(st.workload_status);
	else if (!ret && st.workload_ran && WIFSIGNALED(st.workload_status))
		record_signals_exit_with(WTERMSIG(st.workload_status));
	if (flight)
		record_flight_summary(flight, &st, output_name, quiet);
	else if ((!ret || st.disk_full) && !quiet)
		record_print_summary(&st, output_name, pipe_mode);
	record_aux_summary(&st, !ret, quiet);
out_delete:
	record_threads_exit(flight != NULL);
	if (flight)
		pulse_flight__delete(flight);
	else
		pulse_record_output__delete(out);
	if (!pipe_mode && fd >= 0 && close(fd)) {
		error("cannot close '%s': %s", output_name, strerror(errno));
		status = 1;
	}
	pulse_record_stats__exit(&st);
	free(cpus);
	free(pids);
	free(tids);
	return status;
out_lists:
	/* a usage error after the -C/-p/-t lists were parsed */
	free(cpus);
	free(pids);
	free(tids);
	return ret;
}

int cmd_record(int argc, const char **argv)
{
	const char **argv_self = calloc(argc + 1, sizeof(*argv));
	int ret;

	/* parse_options reorders argv; CMDLINE must show it as typed. */
	if (!argv_self)
		return 1;
	memcpy(argv_self, argv, argc * sizeof(*argv));
	ret = do_record(argc, argv, argv_self);
	free(argv_self);
	pulse_evlist__exit(&evlist);
	record_flight_exit();
	record_offcpu_exit();
	free(windows);
	record_signals_raise();
	return ret;
}
