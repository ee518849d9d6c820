// SPDX-License-Identifier: GPL-2.0
/*
 * pulse script: print every sample of a perf.data file as perf 6.1's
 * perf script does. The session is driven as in pulse report (records in
 * time order through FINISHED_ROUND flushes, side-band records into a
 * machine model); each sample becomes a line (lib/output/script.c), its
 * tracepoint payload decoded from the file's own TRACING_DATA
 * (lib/trace/decode.c), so that files from other machines decode.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/hist.h>
#include <pulse/output-header.h>
#include <pulse/output-stat-script.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include <pulse/script.h>
#include <pulse/stat-records.h>
#include "builtin.h"
#include "itrace-opts.h"
#include "parse-options.h"
#include "script-files.h"
#include "script-itrace.h"

#define MAX_FIELD_ARGS 16
/* big enough that a write(2) carries many lines */
#define OUT_BUF_SIZE (1 << 20)

static const char *const script_usage[] = {
	"pulse script [<options>]",
	NULL,
};

struct script {
	struct pulse_session *session;
	struct pulse_script *out;
	bool trace_tried;		/* decoder set up, or found impossible */
	const char *fields[MAX_FIELD_ARGS];
	int nr_fields;
	bool show_rounds;		/* --show-round-events: file order, rounds printed */
	bool dump_raw;			/* -D: each record as report -D prints it, too */
	struct pulse_dump dump;
	struct script_event_files files;	/* --per-event-dump's */
	const struct perf_event_header *dumped;	/* -D: the sample whose values follow */
	struct pulse_stat_script *stat;	/* a pipe's stat records (a file's: is_stat) */
};

/*
 * The decoder, from the file's TRACING_DATA; from this machine's tracefs
 * only for a file that has tracepoints and no tracing data.
 */
static int script__setup_trace(struct script *sc)
{
	struct pulse_trace *t;
	int err;

	if (sc->trace_tried)
		return 0;
	err = pulse_session__trace(sc->session, &t);
	if (err != -ENODATA) {
		sc->trace_tried = true;
		if (err == -ENOMEM)
			return err;
		if (err)
			warning("tracepoint fields will not be decoded");
		return 0;
	}
	if (!pulse_session__has_tracepoints(sc->session))
		return 0;
	sc->trace_tried = true;
	warning("the file has no tracing data: decoding tracepoints with this machine's formats");
	err = pulse_session__trace_local(sc->session);
	if (err == -ENOMEM)
		return err;
	if (err)
		warning("no tracefs found: tracepoint fields will not be decoded");
	return 0;
}

/* -D: the record as report -D prints it (the file a directory's came from named) */
static int script__dump(struct pulse_session *session, const struct perf_event_header *rec,
			uint64_t file_offset, struct script *sc)
{
	struct pulse_data *d = pulse_session__data(session);
	const char *from = pulse_session__file_path(session);

	if (from)
		sc->dump.path = from;
	if (pulse_data__is_pipe(d))
		file_offset -= pulse_data__data_offset(d);
	return pulse_dump__record(stdout, d, rec, file_offset, &sc->dump);
}

static int script__deliver(struct pulse_session *session, const struct perf_event_header *rec,
			   uint64_t file_offset, void *arg)
{
	struct script *sc = arg;
	struct pulse_sample_value v;
	bool value = pulse_session__sample_value(session, &v);
	int err;

	/* a PERF_SAMPLE_READ sample is dumped once, then printed per value */
	if (sc->dump_raw && (!value || sc->dumped != rec)) {
		err = script__dump(session, rec, file_offset, sc);
		if (err)
			return err;
	}
	sc->dumped = value ? rec : NULL;
	if (value)
		return pulse_script__record_value(sc->out, rec, &v);
	return pulse_script__record(sc->out, rec);
}

/* --show-round-events prints the rounds */
static int script__user(struct pulse_session *session, const struct perf_event_header *rec,
			uint64_t file_offset, void *arg)
{
	struct script *sc = arg;

	if (sc->dump_raw) {
		int err = script__dump(session, rec, file_offset, sc);

		if (err)
			return err;
	}

	if (rec->type == PERF_RECORD_FINISHED_ROUND && sc->show_rounds)
		return pulse_script__record(sc->out, rec);
	if (rec->type >= PERF_RECORD_THREAD_MAP && rec->type <= PERF_RECORD_STAT_ROUND) {
		if (!sc->stat && pulse_stat_script__new(&sc->stat, pulse_session__data(session),
							stdout))
			return -ENOMEM;
		return pulse_stat_script__record(sc->stat, rec);
	}
	return 0;
}

/* pipe mode: the tracing data came in-band before the first sample (a file's: set up before) */
static int script__read(struct pulse_session *session, const struct perf_event_header *rec,
			uint64_t file_offset, void *arg)
{
	struct script *sc = arg;
	struct pulse_trace *t;
	int err;

	if (rec->type != PERF_RECORD_SAMPLE || sc->trace_tried)
		return 0;
	err = script__setup_trace(sc);
	if (err)
		return err;
	if (!pulse_session__trace(session, &t))
		pulse_script__set_trace(sc->out, t);
	return 0;
}

/* perf_session__cpu_bitmap(): --cpu needs samples that say their cpu */
static bool has_sample_cpu(struct pulse_data *d)
{
	size_t nr = pulse_data__nr_attrs(d);

	/* the first event of each type is the one perf looks at */
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *attr = pulse_data__attr(d, i);
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = pulse_data__attr(d, j)->type != attr->type;
		if (first && !(attr->sample_type & PERF_SAMPLE_CPU))
			return false;
	}
	return true;
}

static int parse_field_arg(const struct option *opt, const char *arg, int unset)
{
	struct script *sc = opt->value;

	if (unset || !arg)
		return 0;
	if (sc->nr_fields >= MAX_FIELD_ARGS) {
		error("too many -F options");
		return -1;
	}
	sc->fields[sc->nr_fields++] = arg;
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	static char outbuf[OUT_BUF_SIZE];
	const char *input = NULL;
	struct script sc = { 0 };
	struct pulse_script_opts opts = { .sz = sizeof(opts) };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	struct pulse_hist_filter filter = { 0 };
	struct pulse_tool tool = {
		.read = script__read,
		.user = script__user,
		.sample = script__deliver,
		.event = script__deliver,
		.read_values = true,
	};
	struct pulse_trace *trace;
	struct pulse_data *d;
	const char *time_str = NULL, *vmlinux = NULL, *kallsyms_file = NULL;
	bool header = false, force = false, verbose = false, per_event_dump = false;
	struct pulse_itrace_opts itrace = { .default_no_sample = true };
	struct script_itrace si = { 0 };
	void *arg = &sc;
	int max_stack = INT_MIN;	/* not given */
	bool inline_names = true;	/* perf's symbol_conf.inline_name */
	int ret = 1, err;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_CALLBACK('F', "fields", &sc, "str",
			     "comma separated output fields, [type:]f1,f2 or +f/-f (types: hw,sw,"
			     "trace,raw,break): comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,"
			     "symoff,period,misc,flags,data_src,weight,ins_lat,phys_addr,data_page_size,"
			     "code_page_size",
			     parse_field_arg),
		OPT_BOOLEAN('\0', "ns", &opts.ns, "show times in nanoseconds"),
		OPT_BOOLEAN('\0', "reltime", &opts.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN('\0', "deltatime", &opts.deltatime,
			    "Show time stamps relative to previous event"),
		OPT_BOOLEAN('G', "hide-call-graph", &opts.hide_callchain,
			    "when printing symbols do not display call chain"),
		OPT_BOOLEAN('\0', "show-task-events", &opts.show_task_events,
			    "show the fork/comm/exit events"),
		OPT_BOOLEAN('\0', "show-mmap-events", &opts.show_mmap_events,
			    "show the mmap events"),
		OPT_BOOLEAN('\0', "show-switch-events", &opts.show_switch_events,
			    "show context switch events (if recorded)"),
		OPT_BOOLEAN('\0', "show-namespace-events", &opts.show_namespace_events,
			    "show namespace events (if recorded)"),
		OPT_BOOLEAN('\0', "show-cgroup-events", &opts.show_cgroup_events,
			    "show cgroup events (if recorded)"),
		OPT_BOOLEAN('\0', "show-lost-events", &opts.show_lost_events,
			    "show lost events (if recorded)"),
		OPT_BOOLEAN('\0', "show-bpf-events", &opts.show_bpf_events,
			    "show bpf related events (if recorded)"),
		OPT_BOOLEAN('\0', "show-round-events", &opts.show_round_events,
			    "show round events (if recorded); records stay in file order"),
		OPT_STRING('c', "comms", &filter.comms, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING('\0', "pid", &filter.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING('\0', "tid", &filter.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		OPT_STRING('\0', "dsos", &filter.dsos, "dso[,dso...]",
			   "only consider symbols in these DSOs"),
		OPT_STRING('S', "symbols", &filter.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('C', "cpu", &filter.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING('\0', "time", &time_str, "str", "time span of interest (start,stop)"),
		OPT_STRING('\0', "symfs", &sym_opts.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('\0', "kallsyms", &kallsyms_file, "file", "kallsyms pathname"),
		OPT_BOOLEAN('\0', "header", &header, "Show data header."),
		OPT_BOOLEAN('D', "dump-raw-trace", &sc.dump_raw, "dump raw trace in ASCII"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('v', "verbose", &verbose, "be more verbose (show symbol address, etc)"),
		OPT_INTEGER('\0', "max-stack", &max_stack,
			    "Set the maximum stack depth when parsing the callchain, "
			    "anything beyond the specified depth will be ignored. Default: 127"),
		OPT_BOOLEAN('\0', "inline", &inline_names, "Show inline function"),
		OPT_ITRACE(&itrace),
		OPT_BOOLEAN('\0', "per-event-dump", &per_event_dump,
			    "Dump trace output to files named by the monitored events"),
		OPT_END(),
	};

	argc = parse_options(argc - 1, argv + 1, options, 0);
	argv++;
	if (argc < 0) {
		usage_with_options(script_usage, options);
		return PULSE_EXIT_USAGE;
	}
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		usage_with_options(script_usage, options);
		return PULSE_EXIT_USAGE;
	}
	if (opts.reltime && opts.deltatime) {
		error("--reltime and --deltatime do not go together: give one");
		return PULSE_EXIT_USAGE;
	}
	if (max_stack < 0 && max_stack != INT_MIN) {
		error("option 'max-stack' expects an unsigned numerical value");
		return PULSE_EXIT_USAGE;
	}
	opts.no_inline = !inline_names;
	if (max_stack != INT_MIN) {
		opts.max_stack_set = true;
		opts.max_stack = max_stack;
	}
	/* -v: the library's debug lines too (read by the print callback at its first use) */
	if (verbose)
		setenv("PULSE_DEBUG", "1", 0);
	sc.show_rounds = opts.show_round_events;
	if (!input)
		input = default_input();
	if (data_check_owner(input, force))
		return 1;
	/* perf refuses a -k or --kallsyms it cannot read before opening the input */
	for (int i = 0; i < 2; i++) {
		const char *f = i ? kallsyms_file : vmlinux;

		if (f && access(f, R_OK)) {
			error("cannot read '%s': %s", f, strerror(errno));
			return 1;
		}
	}

	err = pulse_session__new(&sc.session, input, NULL);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	d = pulse_session__data(sc.session);
	/* perf parses --time once the file is open: percentages need it */
	if (time_str) {
		err = parse_time_filter(&filter, sc.session, time_str);
		if (err) {
			ret = err == -ENOMEM ? 1 : PULSE_EXIT_USAGE;
			goto out_close;
		}
	}
	ret = setup_filter(&filter);
	if (ret)
		goto out_close;
	ret = 1;
	if (filter.comms || filter.pids || filter.tids || filter.dsos || filter.symbols ||
	    filter.cpus || filter.nr_time)
		opts.filter = &filter;
	if (filter.cpus && !pulse_data__is_pipe(d) && !has_sample_cpu(d)) {
		error("File does not contain CPU events. Remove -C option to proceed.");
		goto out_close;
	}

	/* --header: the header as report --header-only prints it, then the samples */
	if (header) {
		struct stat st;

		if (strcmp(input, "-") ? stat(input, &st) : fstat(0, &st))
			st.st_mtime = 0;
		pulse_header__fprintf(stdout, d, st.st_mtime, false);
	}
	if (pulse_data__is_stat(d)) {	/* perf prints the counts whatever -F says */
		err = pulse_stat_script__print(d, stdout);
		ret = err && !ferror(stdout) ? (data_error("read", input, err), 1) : !!err;
		goto out_close;
	}
	if (kallsyms_file) {
		sym_opts.kallsyms = kallsyms_file;
		sym_opts.kallsyms_given = true;
	}
	sym_opts.vmlinux = vmlinux;
	err = pulse_session__init_machine(sc.session, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_close;
	}
	if (!pulse_data__is_pipe(d)) {
		err = script__setup_trace(&sc);
		if (err) {
			error("cannot set up: %s", strerror(-err));
			goto out_close;
		}
	}
	if (pulse_session__trace(sc.session, &trace))
		trace = NULL;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	err = pulse_script__new(&sc.out, d, pulse_session__machine(sc.session), trace, &opts,
				stdout);
	if (err) {
		error("out of memory");
		goto out_close;
	}
	for (int i = 0; i < sc.nr_fields; i++) {
		err = pulse_script__set_fields(sc.out, sc.fields[i]);
		/* perf's warnings, in its words */
		fputs(pulse_script__warnings(sc.out), stderr);
		if (err) {
			error("-F %s: %s", sc.fields[i], pulse_script__error(sc.out));
			ret = PULSE_EXIT_USAGE;
			goto out_script;
		}
	}

	if (sc.dump_raw) {
		pulse_dump__init(&sc.dump, pulse_data__is_pipe(d) ? "pipe" : input,
				 pulse_session__machine(sc.session), NULL, NULL);
		/* the AUX data under each AUXTRACE, also from a pipe */
		pulse_data__set_keep_auxtrace(d, true);
	}
	sc.dump.script_tool = true;
	if (per_event_dump && script_event_files__open(&sc.files, sc.session, sc.out, input))
		goto out_script;

	/* perf does not order by time when it shows the rounds */
	tool.file_order = sc.show_rounds;
	/* a file's decoder is set up above; a pipe's comes in-band */
	if (!pulse_data__is_pipe(d))
		tool.read = NULL;
	err = script_itrace__setup(&si, sc.session, sc.out, &itrace, &tool, &arg);
	if (!err)
		err = pulse_session__process(sc.session, &tool, arg);
	if (err == -EINVAL && pulse_script__error(sc.out)[0]) {
		fflush(stdout);
		error("%s", pulse_script__error(sc.out));
		goto out_script;
	}
	if (err) {
		fflush(stdout);
		data_error("read", input, err);
		goto out_script;
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("write failure on standard output: %s", strerror(errno));
		goto out_script;
	}
	if (!script_event_files__close(&sc.files, sc.out, true))
		goto out_script;
	data_warn_damage(d);
	data_warn_unordered(pulse_session__nr_unordered(sc.session));
	data_warn_aux(&si.aux);
	ret = 0;
out_script:
	script_event_files__close(&sc.files, sc.out, false);
	script_itrace__exit(&si);
	fflush(stdout);
	if (sc.dump_raw)
		pulse_dump__exit(&sc.dump);
	pulse_script__delete(sc.out);
	pulse_stat_script__delete(sc.stat);
out_close:
	pulse_session__delete(sc.session);
	pulse_hist_filter__exit(&filter);
	return ret;
}
