// SPDX-License-Identifier: GPL-2.0
/*
 * pulse stat: perf stat's counting mode. Options are parsed here; the
 * counting session (open, workload, read, means) and the printing are
 * lib/stat's. Counts go to stderr, or to -o FILE, as perf's.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <pulse/stat.h>
#include "builtin.h"
#include "parse-options.h"
#include "record.h"
#include "stat.h"
#include "stat-record.h"

/* perf 6.1's default events, in its order */
#define DEFAULT_EVENTS \
	"context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

static const char *const stat_usage[] = {
	"pulse stat [<options>] [<command>]",
	NULL,
};

static struct pulse_evlist evlist;
static int event_error;
static bool system_wide, json, append, quiet, null_run, big_num, no_inherit, scale = true;
static const char *cpu_list, *pid_list, *tid_list, *csv_sep, *output_name;
static int repeat = 1, timeout_ms, delay_ms, interval_ms, interval_count;
static bool interval_clear, no_aggr, per_thread, per_core, per_socket, per_die, per_node;

static int parse_event_opt(const struct option *opt, const char *arg, int unset)
{
	struct pulse_parse_opts po = { .sz = sizeof(po) };
	struct pulse_parse_error perr;
	int ret;

	memset(&perr, 0, sizeof(perr));
	ret = pulse_evlist__parse(&evlist, arg, &po, &perr);
	if (!ret)
		return 0;
	event_error = event_parse_failed(arg, ret, &perr);
	return -1;
}

static const struct option stat_options[] = {
	OPT_CALLBACK('e', "event", NULL, "event", "event selector (pulse list)", parse_event_opt),
	OPT_BOOLEAN('a', "all-cpus", &system_wide, "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &cpu_list, "cpu", "list of cpus to monitor"),
	OPT_STRING('p', "pid", &pid_list, "pid", "stat events on existing process ids"),
	OPT_STRING('t', "tid", &tid_list, "tid", "stat events on existing thread ids"),
	OPT_BOOLEAN('A', "no-aggr", &no_aggr, "disable CPU count aggregation"),
	OPT_BOOLEAN(0, "per-thread", &per_thread, "aggregate counts per thread"),
	OPT_BOOLEAN(0, "per-core", &per_core, "aggregate counts per physical processor core"),
	OPT_BOOLEAN(0, "per-socket", &per_socket, "aggregate counts per processor socket"),
	OPT_BOOLEAN(0, "per-die", &per_die, "aggregate counts per processor die"),
	OPT_BOOLEAN(0, "per-node", &per_node, "aggregate counts per numa node"),
	OPT_BOOLEAN('i', "no-inherit", &no_inherit, "child tasks do not inherit counters"),
	OPT_INTEGER('r', "repeat", &repeat, "repeat command and print average + stddev"),
	OPT_STRING('x', "field-separator", &csv_sep, "separator", "print counts with a separator"),
	OPT_BOOLEAN('j', "json-output", &json, "print counts in JSON format"),
	OPT_STRING('o', "output", &output_name, "file", "output file name"),
	OPT_BOOLEAN(0, "append", &append, "append to the output file"),
	OPT_BOOLEAN('q', "quiet", &quiet, "print nothing (errors only)"),
	OPT_BOOLEAN('n', "null", &null_run, "null run: no counters, the elapsed time only"),
	OPT_BOOLEAN('B', "big-num", &big_num, "print large numbers with thousands' separators"),
	OPT_BOOLEAN(0, "scale", &scale, "scale multiplexed counts (--no-scale: raw counts)"),
	OPT_INTEGER(0, "timeout", &timeout_ms, "stop the workload and print counts after ms"),
	OPT_INTEGER('D', "delay", &delay_ms, "ms to wait before counting after the program starts"),
	OPT_INTEGER('I', "interval-print", &interval_ms, "print counts at regular interval in ms"),
	OPT_INTEGER(0, "interval-count", &interval_count, "print counts for fixed number of times"),
	OPT_BOOLEAN(0, "interval-clear", &interval_clear, "clear screen in between new interval"),
	OPT_STRING(0, "control", &stat_control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
		   "enable/disable counting by commands on a fd or fifo"),
	OPT_END(),
};

/* "1,2" into tids: 0, or the exit status after an error: line (129 a bad list, 1 no such task) */
static int task_list(const char *list, bool whole_process, pid_t **out, int *nr)
{
	int *ids = NULL, k = 0, ret = 0;
	size_t n = 0;
	pid_t *t = NULL;

	if (record_parse_list(list, &ids, &n) || !n) {
		error("invalid %s list '%s'", whole_process ? "pid" : "tid", list);
		free(ids);
		return PULSE_EXIT_USAGE;
	}
	for (size_t i = 0; !ret && i < n; i++) {
		int err = whole_process ? pulse_threads__add_process(&t, &k, ids[i])
				: pulse_threads__exists(ids[i]) ?: pulse_threads__add(&t, &k, ids[i]);

		if (err == -ESRCH)
			error("no such %s '%d'", whole_process ? "process" : "thread", ids[i]);
		else if (err)
			error("cannot list the threads of '%d': %s", ids[i], strerror(-err));
		ret = err ? 1 : 0;
	}
	free(ids);
	if (ret) {
		free(t);
		return ret;
	}
	*out = t;
	*nr = k;
	return 0;
}

/* --per-thread: each thread's comm, as it is now (perf reads them at the start too) */
static int read_comms(const pid_t *tids, int nr, char ***out)
{
	char **c = calloc(nr, sizeof(*c));

	if (!c)
		return -1;
	for (int i = 0; i < nr; i++) {
		char path[64], buf[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", tids[i]);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		buf[strcspn(buf, "\n")] = 0;
		c[i] = strdup(buf);
		if (!c[i]) {
			while (i--)
				free(c[i]);
			free(c);
			return -1;
		}
	}
	*out = c;
	return 0;
}

/* The online CPUs, for -a. */
static int online_cpus(int **cpus, size_t *nr)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return record_parse_list(buf[0] ? buf : "0", cpus, nr);
}

/* -C: every cpu must be online (perf 6.1 prints <not supported> rows instead) */
static int check_online(const int *cpus, size_t nr)
{
	int *on = NULL;
	size_t nr_on = 0;
	int ret = 0;

	if (online_cpus(&on, &nr_on))
		return 0;	/* cannot tell: let the open say */
	for (size_t i = 0; !ret && i < nr; i++) {
		bool found = false;

		for (size_t j = 0; j < nr_on; j++)
			found |= on[j] == cpus[i];
		if (!found) {
			error("cpu %d is not online", cpus[i]);
			ret = -1;
		}
	}
	free(on);
	return ret;
}

/* The header's target: 'cmd args', 'system wide', process id 'N'. */
static void describe_target(char *buf, size_t sz, int argc, const char **argv)
{
	size_t n;

	if (pid_list)
		snprintf(buf, sz, "process id '%s'", pid_list);
	else if (tid_list)
		snprintf(buf, sz, "thread id '%s'", tid_list);
	else if (cpu_list)
		snprintf(buf, sz, "'CPU(s) %s'", cpu_list);
	else if (system_wide)
		snprintf(buf, sz, "'system wide'");
	else {
		n = snprintf(buf, sz, "'%s", argv[0]);
		for (int i = 1; i < argc && n < sz; i++)
			n += snprintf(buf + n, sz - n, " %s", argv[i]);
		if (n < sz)
			snprintf(buf + n, sz - n, "'");
	}
}

static void run_error(const struct pulse_stat_run *res, int ret, const char *cmd)
{
	if (res->stage == PULSE_STAT_EXEC || res->stage == PULSE_STAT_FORK) {
		error("cannot run '%s': %s", cmd, strerror(-ret));
		return;
	}
	if (res->stage == PULSE_STAT_OPEN && res->evsel) {
		const char *h = hint_for_open_error(-ret, res->evsel->name);

		if (res->tid > 0 && ret == -ESRCH)
			error("no such process '%d'", res->tid);
		else
			error("cannot open event '%s': %s", res->evsel->name, strerror(-ret));
		if (h)
			hint("%s", h);
		return;
	}
	error("cannot count: %s", strerror(-ret));
}

static FILE *interval_out;
static int nr_intervals;

/* -I: print one interval; perf's header first and every 25 intervals (each with --interval-clear) */
static int print_interval(struct pulse_stat *st, uint64_t ts_ns, void *arg)
{
	struct pulse_stat_print_opts *po = arg;

	if (interval_clear)
		printf("\033[H\033[2J\n");
	po->ts_ns = ts_ns;
	po->interval_header = interval_clear || nr_intervals++ % 25 == 0;
	if (stat_record_round(ts_ns, false))
		return -EIO;
	return pulse_stat__print(st, interval_out, po);
}

static enum pulse_stat_aggr aggr_mode(void)
{
	return no_aggr ? PULSE_STAT_AGGR_CPU : per_thread ? PULSE_STAT_AGGR_THREAD :
	       per_core ? PULSE_STAT_AGGR_CORE : per_socket ? PULSE_STAT_AGGR_SOCKET :
	       per_die ? PULSE_STAT_AGGR_DIE : per_node ? PULSE_STAT_AGGR_NODE :
	       PULSE_STAT_AGGR_GLOBAL;
}

/* -D's delay is over: perf's info line */
static void events_enabled(void *arg)
{
	if (!quiet)
		fprintf(stderr, "Events enabled\n");
	fflush(stderr);
}

/* -o FILE: perf's first line, the local start time */
static void started_on(FILE *out)
{
	time_t now = time(NULL);

	fprintf(out, "# started on %s\n", ctime(&now));
}

int cmd_stat(int argc, const char **argv)
{
	struct pulse_stat_opts o = { .sz = sizeof(o) };
	struct pulse_stat_print_opts po = { .sz = sizeof(po) };
	struct pulse_stat_run res = {};
	struct pulse_stat *st = NULL;
	int *cpus = NULL, nr_t = 0, ret, status = 1;
	size_t nr_cpus = 0;
	pid_t *tids = NULL;
	char target[512], **comms = NULL;
	FILE *out = stderr;

	/* one write per table, not one per field: stderr is unbuffered (print flushes) */
	setvbuf(stderr, NULL, _IOFBF, 64 << 10);
	setlocale(LC_NUMERIC, "");
	if (argc > 1 && !strcmp(argv[1], "record") && !stat_recording())
		return cmd_stat_record(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_stat_report(argc - 1, argv + 1);
	pulse_evlist__init(&evlist);
	argc = parse_options(argc - 1, argv + 1, stat_options, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		if (event_error)
			return event_error;
		usage_with_options(stat_usage, stat_options);
		return PULSE_EXIT_USAGE;
	}
	argv++;
	if (repeat < 1 || timeout_ms < 0 || (delay_ms < 0 && delay_ms != -1) || interval_ms < 0 || interval_count < 0) {
		error("invalid value: -r, -I, --interval-count, --timeout and -D take a positive number"
		      " (-D: or -1)");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (interval_ms && interval_ms < 10) {
		error("-I %d: the interval must be at least 10 ms", interval_ms);
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if ((interval_count || interval_clear) && !interval_ms) {
		error("--interval-count and --interval-clear need -I");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (!argc && !system_wide && !cpu_list && !pid_list && !tid_list) {
		usage_with_options(stat_usage, stat_options);
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (pid_list || tid_list) {
		ret = task_list(pid_list ? pid_list : tid_list, !!pid_list, &tids, &nr_t);
		if (ret) {
			status = ret;
			goto out;
		}
	}
	if (cpu_list ? record_parse_list(cpu_list, &cpus, &nr_cpus) :
	    system_wide ? online_cpus(&cpus, &nr_cpus) : 0) {
		error("invalid cpu list '%s'", cpu_list ? cpu_list : "online");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (cpu_list && check_online(cpus, nr_cpus)) {
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (no_aggr && !cpus) {
		error("-A needs -a or -C (counts per cpu)");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (per_thread && !tids) {
		error("--per-thread needs -p or -t");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (no_aggr + per_thread + per_core + per_socket + per_die + per_node > 1) {
		error("-A, --per-thread and --per-core/socket/die/node exclude each other");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if ((per_core || per_socket || per_die || per_node) && !cpus) {
		error("--per-core/socket/die/node need -a or -C");
		status = PULSE_EXIT_USAGE;
		goto out;
	}
	if (per_thread && read_comms(tids, nr_t, &comms)) {
		error("cannot read the threads' names: %s", strerror(ENOMEM));
		goto out;
	}
	if (!evlist.nr && !null_run) {
		struct pulse_parse_error perr;
		const char *clock = cpus ? "cpu-clock," : "task-clock,";
		char spec[256];

		snprintf(spec, sizeof(spec), "%s%s", clock, DEFAULT_EVENTS);
		if (pulse_evlist__parse(&evlist, spec, NULL, &perr)) {
			error("%s", perr.msg);
			goto out;
		}
	}
	if (output_name) {
		out = fopen(output_name, append ? "a" : "w");
		if (!out) {
			error("cannot open '%s': %s", output_name, strerror(errno));
			out = stderr;
			goto out;
		}
		started_on(out);
	}
	describe_target(target, sizeof(target), argc, argv);
	po.format = json ? PULSE_STAT_FMT_JSON : csv_sep ? PULSE_STAT_FMT_CSV : PULSE_STAT_FMT_STD;
	po.sep = csv_sep;
	po.target = target;
	po.big_num = big_num;
	po.rusage = argc && repeat == 1 && !cpus;
	po.null_run = null_run;
	po.quiet = quiet;
	po.interval = interval_ms;
	interval_out = out;
	o.cpus = cpus;
	o.nr_cpus = nr_cpus;
	o.threads = tids;
	o.nr_threads = nr_t;
	o.argv = argc ? (char *const *)argv : NULL;
	o.timeout_ms = timeout_ms;
	o.delay_ms = delay_ms;
	o.no_inherit = no_inherit;
	o.no_scale = !scale;
	o.null_run = null_run;
	o.stop = record_signals_install();
	o.enabled = events_enabled;
	o.interval_ms = interval_ms;
	o.interval_count = interval_count;
	o.interval = print_interval;
	o.arg = &po;
	status = stat_control_setup(&o);
	if (status)
		goto out;
	status = 1;
	if (delay_ms && !quiet)
		fprintf(stderr, "Events disabled\n");
	fflush(stderr);
	po.cpus = cpus;
	po.tids = tids;
	po.comms = (const char *const *)comms;
	ret = pulse_stat__new(&st, &evlist, aggr_mode());
	if (!ret)
		ret = stat_record_attach(st, &evlist, cpus, nr_cpus, tids, nr_t, interval_ms, aggr_mode());
	for (int i = 0; !ret && i < repeat && !*o.stop; i++)
		ret = pulse_stat__run(st, &o, &res);
	if (ret) {
		run_error(&res, ret, argc ? argv[0] : "");
		goto out;
	}
	if (stat_record_finish(res.wall_ns, interval_ms))
		goto out;
	if (!interval_ms && pulse_stat__print(st, out, &po)) {
		error("cannot write the counts: %s", strerror(EIO));
		goto out;
	}
	status = 0;
	if (res.forked && WIFEXITED(res.status))
		status = WEXITSTATUS(res.status);
	else if (res.forked && WIFSIGNALED(res.status) && res.timed_out && timeout_ms)
		fprintf(stderr, "%s: %s\n", argv[0], strsignal(WTERMSIG(res.status)));
	else if (res.forked && WIFSIGNALED(res.status) && res.timed_out)
		;	/* --interval-count stopped it */
	else if (res.forked && WIFSIGNALED(res.status))
		record_signals_exit_with(WTERMSIG(res.status));
out:
	if (out != stderr && fclose(out) && !status) {
		error("cannot write '%s': %s", output_name, strerror(errno));
		status = 1;
	}
	pulse_stat__delete(st);
	pulse_evlist__exit(&evlist);
	for (int i = 0; comms && i < nr_t; i++)
		free(comms[i]);
	free(comms);
	free(cpus);
	free(tids);
	record_signals_raise();
	return status;
}
