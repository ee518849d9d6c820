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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/data.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/ordering.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "builtin.h"
#include "parse-options.h"

#define MAX_FIELD_ARGS 16
/* big enough that a write(2) carries many lines */
#define OUT_BUF_SIZE (1 << 20)

static const char *const script_usage[] = {
	"pulse script [<options>]",
	NULL,
};

struct script {
	struct pulse_data *d;
	struct pulse_machine machine;
	struct pulse_ordered *oq;
	struct pulse_script *out;
	struct pulse_trace *trace;
	bool trace_tried;		/* decoder built, or found impossible */
	const char *fields[MAX_FIELD_ARGS];
	int nr_fields;
	bool show_rounds;		/* --show-round-events: file order, rounds printed */
};

static bool has_tracepoints(struct pulse_data *d)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++)
		if (pulse_data__attr(d, i)->type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/*
 * The decoder, from the file's TRACING_DATA; from this machine's tracefs
 * only for a file that has tracepoints and no tracing data.
 */
static int script__setup_trace(struct script *sc)
{
	const void *blob;
	size_t len;
	int err;

	if (sc->trace_tried)
		return 0;
	blob = pulse_data__tracing_data(sc->d, &len);
	if (blob) {
		sc->trace_tried = true;
		err = pulse_trace__parse(&sc->trace, blob, len);
		if (err == -ENOMEM)
			return err;
		if (err)
			warning("tracepoint fields will not be decoded");
		return 0;
	}
	if (!has_tracepoints(sc->d))
		return 0;
	sc->trace_tried = true;
	warning("the file has no tracing data: decoding tracepoints with this machine's formats");
	err = pulse_trace__local(&sc->trace, NULL);
	if (err == -ENOMEM)
		return err;
	if (err)
		warning("no tracefs found: tracepoint fields will not be decoded");
	return 0;
}

static int script__deliver(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct script *sc = arg;

	return pulse_script__record(sc->out, rec);
}

static int script__record(struct pulse_data *d, const struct perf_event_header *rec,
			  __u64 file_offset, void *arg)
{
	struct script *sc = arg;
	int err;

	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		if (rec->type == PERF_RECORD_FINISHED_ROUND && sc->oq)
			return pulse_ordered__flush_round(sc->oq);
		if (rec->type == PERF_RECORD_FINISHED_ROUND && sc->show_rounds)
			return pulse_script__record(sc->out, rec);
		return 0;
	}
	/* pipe mode: the tracing data came in-band before the first sample */
	if (rec->type == PERF_RECORD_SAMPLE && !sc->trace_tried) {
		err = script__setup_trace(sc);
		if (err)
			return err;
		if (sc->trace)
			pulse_script__set_trace(sc->out, sc->trace);
	}
	if (sc->oq) {
		err = pulse_ordered__queue(sc->oq, rec, pulse_session__record_time(d, rec), file_offset);
		if (err != -ETIME)
			return err;
	}
	return script__deliver(rec, file_offset, sc);
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

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
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
	const char *time_str = NULL;
	char buildid_dir[4096];
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
	sc.show_rounds = opts.show_round_events;
	if (!input)
		input = default_input();

	err = pulse_data__open(&sc.d, input);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	/* perf parses --time once the file is open: percentages need it */
	if (time_str) {
		err = parse_time_filter(&filter, sc.d, time_str);
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
	if (filter.cpus && !pulse_data__is_pipe(sc.d) && !has_sample_cpu(sc.d)) {
		error("File does not contain CPU events. Remove -C option to proceed.");
		goto out_close;
	}

	pulse_session__symbol_defaults(sc.d, &sym_opts, buildid_dir, sizeof(buildid_dir));
	err = pulse_machine__init(&sc.machine, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_close;
	}
	pulse_session__load_build_ids(sc.d, &sc.machine.dsos);
	if (!pulse_data__is_pipe(sc.d)) {
		err = script__setup_trace(&sc);
		if (err) {
			error("cannot set up: %s", strerror(-err));
			goto out_machine;
		}
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	err = pulse_script__new(&sc.out, sc.d, &sc.machine, sc.trace, &opts, stdout);
	if (err) {
		error("out of memory");
		goto out_machine;
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

	/*
	 * perf orders by time only when every record can say when it happened,
	 * and not at all when it shows the rounds
	 */
	if (!sc.show_rounds &&
	    (pulse_data__nr_attrs(sc.d) == 0 || pulse_data__attr(sc.d, 0)->sample_id_all ||
	     pulse_data__is_pipe(sc.d))) {
		sc.oq = pulse_ordered__new(script__deliver, &sc);
		if (!sc.oq) {
			error("out of memory");
			goto out_script;
		}
	}
	err = pulse_data__for_each_record(sc.d, script__record, &sc);
	if (!err && sc.oq)
		err = pulse_ordered__flush(sc.oq);
	if (err == -EINVAL && pulse_script__error(sc.out)[0]) {
		fflush(stdout);
		error("%s", pulse_script__error(sc.out));
		goto out_ordered;
	}
	if (err) {
		fflush(stdout);
		data_error("read", input, err);
		goto out_ordered;
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("write failure on standard output: %s", strerror(errno));
		goto out_ordered;
	}
	data_warn_damage(sc.d);
	data_warn_unordered(sc.oq);
	ret = 0;
out_ordered:
	pulse_ordered__delete(sc.oq);
out_script:
	fflush(stdout);
	pulse_script__delete(sc.out);
out_machine:
	pulse_trace__delete(sc.trace);
	pulse_machine__exit(&sc.machine);
out_close:
	pulse_data__close(sc.d);
	pulse_hist_filter__exit(&filter);
	return ret;
}
