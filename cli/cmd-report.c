// SPDX-License-Identifier: GPL-2.0
/*
 * pulse report: read a perf.data file and print perf report's --stdio
 * self-overhead table, one per event that has samples. Records are read in
 * file order, put in time order as perf does (FINISHED_ROUND flushes), and
 * applied to a machine model (threads, maps, DSOs); each sample is placed
 * on a thread, DSO and symbol and added to its event's histogram.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/data.h>
#include <pulse/output-header.h>
#include <pulse/reader.h>
#include <pulse/report.h>
#include <pulse/session.h>
#include "builtin.h"
#include "itrace-opts.h"
#include "parse-options.h"
#include "report-opts.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
/* report__record(): the end of the data section perf reads is reached */

static const char *const report_usage[] = {
	"pulse report [<options>]",
	NULL,
};

/* --header-only on a pipe: its features only */
static int report__header_record(struct pulse_data *d, const struct perf_event_header *rec,
				 __u64 file_offset, void *arg)
{
	if (rec->type == PERF_RECORD_HEADER_FEATURE)
		pulse_report__fprintf_feature(stdout, arg, rec);
	return 0;
}

/*
 * perf's open_file_read(): a file owned by another user than this one or
 * root is refused unless -f is given (a pipe is not checked)
 */
static bool report__owner_ok(const char *input)
{
	struct stat st;

	if (!strcmp(input, "-") || stat(input, &st) || S_ISFIFO(st.st_mode))
		return true;
	if (!st.st_uid || st.st_uid == geteuid())
		return true;
	error("file %s not owned by current user or root", input);
	hint("use -f to override");
	return false;
}

/* @argv: the options, without "report" */
/* --sort into rep->keys: the number of keys, or -1 after the error line */
static int report__parse_sort(struct pulse_report *rep, const char *spec)
{
	const char *bad = NULL;
	size_t bad_len = 0;
	int n = pulse_sort_keys__parse(spec, rep->keys, PULSE_SORT_MAX_KEYS, &bad, &bad_len);

	if (n > 0)
		return n;
	if (n == 0)
		error("empty --sort list");
	else
		error("unknown --sort key '%.*s' (known: %s)", (int)bad_len, bad,
		      pulse_sort_keys__known());
	return -1;
}

/*
 * The --sort keys perf uses on this file, checked against its modes (branch,
 * --mem-mode, -p): 0, or the exit status after the error line. @sort_buf
 * outlives @sopts, which may point into it.
 */
static int report__setup_keys(struct pulse_report *rep, const char *user_sort,
			      const char *parent_pattern, struct pulse_stdio_opts *sopts,
			      char *sort_buf, size_t sort_size)
{
	const char *sort;
	char msg[256];
	int err;

	if (rep->branch.on) {
		const char *bad;
		size_t bad_len;

		if (pulse_report_branch__setup(&rep->branch, user_sort, &bad, &bad_len)) {
			error("unknown --sort key '%.*s' in branch mode (known: %s)", (int)bad_len,
			      bad, pulse_branch_sort_keys__known());
			return PULSE_EXIT_USAGE;
		}
	}
	sort = pulse_report__sort_order(rep, user_sort, sort_buf, sort_size);
	if (rep->mem_mode) {
		sopts->mem_sort_order = sort;
		if (pulse_report__check_mem_mode(rep)) {
			error("Selected --mem-mode but no mem data. Did you call perf record without -d?");
			return 1;
		}
	}
	err = report__parse_sort(rep, sort);
	if (err < 0)
		return PULSE_EXIT_USAGE;
	rep->nr_keys = err;
	for (size_t k = 0; k < rep->nr_keys; k++) {
		if (!rep->mem_mode && pulse_sort_key__needs_mem_mode(rep->keys[k])) {
			/* perf's sort_dimension__add() refuses them outside memory mode */
			error("invalid --sort key: '%s' is a memory key, for --mem-mode",
			      pulse_sort_key__title(rep->keys[k]));
			return PULSE_EXIT_USAGE;
		}
	}
	err = pulse_report__setup_parent(rep, parent_pattern, msg, sizeof(msg));
	if (err == -E2BIG)
		error("too many --sort keys");
	else if (err == -ENOENT)
		error("Selected --sort parent, but no callchain data. Did you call 'perf record' without -g?");
	else if (err)
		error("invalid --parent regex '%s': %s", parent_pattern, msg);
	if (err)
		return err == -ENOENT ? 1 : PULSE_EXIT_USAGE;
	return 0;
}

/*
 * --header, --header-only, -I: the header before the report (a pipe's
 * features as they come). True when the command ends here, with *@ret.
 */
static bool report__header(struct pulse_report *rep, const char *input, bool header,
			   bool header_only, bool show_info, bool quiet, int *ret)
{
	struct pulse_data *d = rep->d;
	struct stat st;

	/*
	 * perf 6.1 with -q: no file header, --header-only goes on to the
	 * report; a pipe's in-band features are still printed as they come
	 * (with --header-only, they alone)
	 */
	if (quiet && !(pulse_data__is_pipe(d) && header_only)) {
		if (pulse_data__is_pipe(d) && (header || show_info)) {
			rep->header = true;
			rep->hdr_env.full = show_info;
		}
		return false;
	}

	if (!header && !header_only) {
		if (show_info && pulse_data__is_pipe(d)) {
			/* perf's -I alone prints a pipe's features as they come, after its hint */
			fputs(pulse_report__header_hint, stdout);
			rep->header = true;
			rep->hdr_env.full = true;
		}
		return false;
	}
	/* perf's "captured on" is the st_mtime of the file (stdin's for "-") */
	if (strcmp(input, "-") ? stat(input, &st) : fstat(0, &st))
		st.st_mtime = 0;
	rep->header = true;
	rep->hdr_env.full = show_info;
	if (!quiet)
		pulse_header__fprintf(stdout, d, st.st_mtime, show_info);
	if (!header_only)
		return false;
	*ret = 0;
	/* a pipe's features come in-band, at its start */
	if (pulse_data__is_pipe(d) &&
	    pulse_data__for_each_record(d, report__header_record, &rep->hdr_env))
		*ret = 1;
	return true;
}

static int report_main(int argc, const char **argv)
{
	const char *input = NULL, *user_sort = NULL, *user_fields = NULL;
	bool use_stdio = false, show_nr = false, dump_raw = false, show_period = false;
	bool show_stats = false, quiet = false, force = false, inverted = false, demangle = true;
	bool tasks = false, mmaps = false;
	const char *pretty = "normal";
	int verbose = 0, max_stack = PULSE_MAX_STACK;
	bool inline_names = true;	/* perf's symbol_conf.inline_name */
	const char *percentage = "absolute", *time_str = NULL;
	const char *parent_pattern = NULL, *field_sep = NULL;
	char sort_buf[256];
	bool header = false, header_only = false, show_info = false;
	double percent_limit = 0;
	int children = -1, branch_mode = -1, ret = 1, err;
	struct pulse_report rep;
	struct pulse_session *session = NULL;
	struct pulse_data *d;
	struct cc_opt cc_opt = { .p = &rep.cc };
	struct percent_limit_opt pl_opt = { .limit = &percent_limit, .cc = &rep.cc };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	const char *vmlinux = NULL, *kallsyms_file = NULL;
	struct pulse_stdio_opts sopts = { .sz = sizeof(sopts) };
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_BOOLEAN('q', "quiet", &quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_CALLBACK_NOOPT('v', "verbose", &verbose,
				   "be more verbose (show symbol address, etc)", parse_incr),
		OPT_BOOLEAN('\0', "stdio", &use_stdio, "use the stdio interface (the only one)"),
		OPT_CALLBACK_NOOPT('\0', "children", &children,
				   "accumulate callchains of children and show total overhead",
				   parse_children),
		OPT_CALLBACK_OPTARG('g', "call-graph", &cc_opt,
				    "print_type,threshold[,print_limit],order,sort_key,value",
				    "callchains: graph|flat|fractal|folded|none, threshold, limit, caller|callee, function|address, percent|period|count",
				    parse_call_graph),
		OPT_BOOLEAN('G', "inverted", &inverted, "alias for inverted call graph"),
		OPT_INTEGER('\0', "max-stack", &max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: 127"),
		OPT_BOOLEAN('U', "hide-unresolved", &rep.hide_unresolved,
			    "Only display entries resolved to a symbol"),
		OPT_BOOLEAN('\0', "inline", &inline_names, "Show inline function"),
		OPT_STRING('s', "sort", &user_sort, "key[,key2...]",
			   "sort by key(s): comm, pid, tid, dso, sym, cpu, symbol_size, trace, parent, "
			   "mem, symbol_daddr, dso_daddr, snoop, tlb, locked, blocked (--mem-mode), "
			   "local_weight, weight, local_ins_lat, ins_lat, srcline, symoff, overhead, "
			   "overhead_children, sample, period"),
		OPT_STRING('F', "fields", &user_fields, "key[,keys...]",
			   "output field(s): overhead, overhead_children, sample, period and the "
			   "--sort keys; +key[,...] after the default ones"),
		OPT_BOOLEAN('n', "show-nr-samples", &show_nr, "show a column with the sample count"),
		OPT_BOOLEAN('\0', "show-total-period", &show_period,
			    "show a column with the sum of periods"),
		OPT_STRING('c', "comms", &rep.filter.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('\0', "pid", &rep.filter.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING('\0', "tid", &rep.filter.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		/* --pids, --tids: pulse aliases of perf's --pid, --tid */
		OPT_STRING('\0', "pids", &rep.filter.pids, "pid[,pid...]", "same as --pid"),
		OPT_STRING('\0', "tids", &rep.filter.tids, "tid[,tid...]", "same as --tid"),
		OPT_STRING('d', "dsos", &rep.filter.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING('S', "symbols", &rep.filter.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('C', "cpu", &rep.filter.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING('\0', "time", &time_str, "str",
			   "time ranges to analyze: start,end in seconds, or percent slices (10%/2, 0%-10%)"),
		OPT_STRING('p', "parent", &parent_pattern, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		OPT_BOOLEAN('x', "exclude-other", &rep.exclude_other,
			    "only display entries with parent-match"),
		OPT_STRING('\0', "percentage", &percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_CALLBACK('\0', "percent-limit", &pl_opt, "percent",
			     "don't show entries under that percent", parse_percent_limit),
		OPT_BOOLEAN('\0', "mem-mode", &rep.mem_mode, "mem access profile"),
		OPT_BOOLEAN('D', "dump-raw-trace", &dump_raw, "dump raw trace in ASCII"),
		OPT_CALLBACK_NOOPT('\0', "group", &rep.group.want,
				   "Show event group information together", parse_children),
		OPT_CALLBACK_NOOPT('b', "branch-stack", &branch_mode,
				   "use branch records for per branch histogram filling",
				   parse_children),
		OPT_BOOLEAN(0, "stats", &show_stats, "display event stats"),
		OPT_BOOLEAN(0, "tasks", &tasks, "Display recorded tasks"),
		OPT_BOOLEAN(0, "mmaps", &mmaps, "Display recorded tasks memory maps"),
		OPT_BOOLEAN('T', "threads", &rep.threads.on, "Show per-thread event counters"),
		OPT_STRING(0, "pretty", &pretty, "key", "pretty printing style key: normal raw"),
		OPT_BOOLEAN('\0', "header", &header, "show the data header, then the report"),
		OPT_BOOLEAN('\0', "header-only", &header_only, "show only the data header"),
		OPT_BOOLEAN('I', "show-info", &show_info,
			    "Display extended information about perf.data file"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('\0', "kallsyms", &kallsyms_file, "file", "kallsyms pathname"),
		OPT_STRING('t', "field-separator", &field_sep, "separator",
			   "separator for columns, no spaces will be added between columns '.' is reserved."),
		OPT_BOOLEAN('\0', "demangle", &demangle, "Disable symbol demangling (--no-demangle)"),
		OPT_STRING('\0', "symfs", &sym_opts.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_ITRACE(&rep.itrace),
		OPT_END(),
	};

	pulse_report__init(&rep);
	argc = parse_options(argc, argv, options, 0);
	if (argc < 0) {
		usage_with_options(report_usage, options);
		return PULSE_EXIT_USAGE;
	}
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		usage_with_options(report_usage, options);
		return PULSE_EXIT_USAGE;
	}
	/* perf counts frames up to a negative --max-stack: none */
	rep.max_stack = max_stack > 0 ? max_stack : 0;
	rep.no_inline = !inline_names;
	/* perf's -G: caller order, whatever -g said */
	if (inverted) {
		rep.cc.order = PULSE_CC_CALLER;
		rep.cc.order_set = true;
	}
	if (!input)
		input = default_input();
	if (!force && !report__owner_ok(input))
		return 1;
	if (dump_raw) {
		if (!report_dump_raw) {
			error("-D is not available in this build");
			return 1;
		}
		return report_dump_raw(input, stdout, branch_mode);
	}
	if (show_stats)
		return report_stats(input, stdout);
	if (strcmp(percentage, "absolute") && strcmp(percentage, "relative")) {
		error("--percentage must be relative or absolute, not '%s'", percentage);
		return PULSE_EXIT_USAGE;
	}
	/* a bad --sort is a usage error before the file is opened (branch keys wait for it) */
	if (user_sort && !pulse_branch_sort_keys__valid(user_sort)) {
		if (report__parse_sort(&rep, user_sort) < 0)
			return PULSE_EXIT_USAGE;
	}
	sopts.show_nr_samples = show_nr;
	sopts.show_total_period = show_period;
	sopts.percent_limit = percent_limit;
	sopts.quiet = quiet;
	sopts.field_sep = field_sep;
	if (field_sep && !strcmp(field_sep, ".")) {
		/* perf's words; perf then prints no report and exits 0 */
		error("'.' is the only non valid --field-separator argument");
		return PULSE_EXIT_USAGE;
	}
	/* perf's -q wins over -v (perf_quiet_option()) */
	sopts.verbose = verbose > 0 && !quiet;
	/* perf's callchain__fprintf_graph() looks at the --sort text itself, without -F */
	sopts.sort_starts_with_sym = !user_fields && user_sort && !strncmp(user_sort, "sym", 3);

	err = pulse_session__new(&session, input, NULL);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	d = pulse_session__data(session);
	rep.d = d;
	if (time_str) {
		err = parse_time_filter(&rep.filter, session, time_str);
		if (err) {
			ret = err == -ENOMEM ? 1 : PULSE_EXIT_USAGE;
			goto out_close;
		}
		sopts.time_slices = time_str;
	}
	rep.branch.on = pulse_report_branch__is_on(d, branch_mode);
	if (rep.branch.on && !pulse_report_branch__has_data(d)) {
		/* perf's words; perf exits 0, pulse as for any error (as with -g) */
		error("Selected -b but no branch data. Did you call perf record without -b?");
		goto out_close;
	}
	ret = report__setup_keys(&rep, user_sort, parent_pattern, &sopts, sort_buf,
				 sizeof(sort_buf));
	if (ret)
		goto out_close;
	ret = setup_filter(&rep.filter);
	if (ret)
		goto out_close;
	ret = 1;
	rep.relative = !strcmp(percentage, "relative");
	if (report__header(&rep, input, header, header_only, show_info, quiet, &ret))
		goto out_close;
	if (pulse_report__setup_callchains(&rep, children, cc_opt.given)) {
		error("Selected -g but no callchain data. Did you call 'perf record' without -g?");
		goto out_close;
	}
	ret = report_setup_fields(&rep, user_sort, user_fields, show_nr, show_period);
	if (ret)
		goto out_close;
	ret = 1;

	/* symbols: -k and --kallsyms as given; else this kernel's, if it made the file */
	if (kallsyms_file) {
		sym_opts.kallsyms = kallsyms_file;
		sym_opts.kallsyms_given = true;
	}
	sym_opts.vmlinux = vmlinux;
	sym_opts.no_demangle = !demangle;
	sym_opts.demangle_full = sopts.verbose;
	err = pulse_session__init_machine(session, &sym_opts);
	if (!err)
		err = pulse_report__setup(&rep, session);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_close;
	}
	/*
	 * A recorder killed after a periodic header rewrite leaves a data size
	 * short of the records written: perf stops there, pulse reads every
	 * whole record to the end of the file and says so (the damage table).
	 */
	rep.progress_fp = stderr;
	err = pulse_report__process(&rep);
	if (err) {
		data_error("read", input, err);
		goto out_close;
	}
	if (!quiet) {
		data_warn_damage(d);
		data_warn_unordered(pulse_session__nr_unordered(session));
		data_warn_lost(pulse_report__nr_lost(&rep), rep.nr_samples);
		data_warn_aux(&rep.aux);
	}
	/* perf: --mmaps is --tasks with the maps */
	if (tasks || mmaps) {
		err = pulse_report__fprintf_tasks(&rep, stdout, mmaps);
		if (err == -ENOENT)
			error("failed to process tasks: a parent thread is missing");
		else if (err)
			error("cannot write the tasks: %s", strerror(-err));
		ret = err ? 1 : 0;
		goto out_close;
	}
	if (!rep.header && !quiet)
		fputs(pulse_report__header_hint, stdout);
	/*
	 * perf stops here when no sample made an entry (the filters' hidden
	 * ones make entries; --time and --cpu leave none).
	 */
	if (!pulse_report__has_entries(&rep)) {
		if (!quiet)
			fprintf(stderr, "warning: %s has no samples%s\n", input,
				rep.filter.nr_time || rep.filter.cpus ?
					" in the --time or --cpu range" : "");
		err = ferror(stdout) ? -EIO : 0;
	} else {
		err = pulse_report__fprintf(&rep, stdout, &sopts);
		/* perf's -T table follows the tip; any --pretty but "raw" is normal */
		if (!err && rep.threads.on)
			err = pulse_report__fprintf_threads(&rep, stdout, !strcmp(pretty, "raw"));
	}
	if (err) {
		error("cannot write the report: %s", strerror(EIO));
		goto out_close;
	}
	ret = 0;
out_close:
	pulse_report__exit(&rep);
	pulse_session__delete(session);
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	const char **args = calloc(argc + 1, sizeof(*args));
	char *g_arg = NULL;
	int ret;

	if (!args) {
		error("out of memory");
		return 1;
	}
	/* argv[0] is "report" */
	ret = join_call_graph_arg(argc - 1, argv + 1, args, &g_arg);
	if (ret >= 0)
		ret = report_main(ret, args);
	else
		error("out of memory");
	free(g_arg);
	free(args);
	return ret < 0 ? 1 : ret;
}
