// SPDX-License-Identifier: GPL-2.0
/*
 * pulse diff: perf 6.1's `perf diff [OLD] [NEW...]`. Each file is walked
 * by the report tool (lib/report/) into one histogram per event, keyed by
 * dso,sym unless --sort says otherwise; then each event of the baseline
 * (the first file) is paired with the event of the same type and config
 * in the others and printed by lib/diff/. Without files the baseline is
 * perf.data.old and the new one perf.data; one file is the new one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/diff.h>
#include <pulse/reader.h>
#include <pulse/report.h>
#include <pulse/session.h>
#include "builtin.h"
#include "parse-options.h"
#include "report-opts.h"

static const char *const diff_usage[] = {
	"pulse diff [<options>] [old_file] [new_file]",
	NULL,
};

/* One file: its session and the report tool's hists. */
struct diff_input {
	const char *path;
	struct pulse_session *session;
	struct pulse_report rep;
};

/* The filters as given, copied into each file's report. */
struct diff_filters {
	const char *dsos, *comms, *symbols, *pids, *tids;
};

/* -c: perf's setup_compute(); "wdiff:w1,w2" needs two non-zero weights */
static int parse_compute(const struct option *opt, const char *arg, int unset)
{
	struct pulse_diff_opts *o = opt->value;
	static const struct {
		const char *name;
		enum pulse_diff_compute c;
	} names[] = {
		{ "delta", PULSE_DIFF_DELTA },
		{ "delta-abs", PULSE_DIFF_DELTA_ABS },
		{ "ratio", PULSE_DIFF_RATIO },
		{ "wdiff", PULSE_DIFF_WDIFF },
	};
	const char *colon = arg ? strchr(arg, ':') : NULL;
	size_t len = colon ? (size_t)(colon - arg) : (arg ? strlen(arg) : 0);
	char *end;

	for (size_t i = 0; arg && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) != len || strncmp(arg, names[i].name, len))
			continue;
		o->compute = names[i].c;
		if (o->compute != PULSE_DIFF_WDIFF) {
			if (!colon)
				return 0;
			error("-c %s takes no argument (got '%s')", names[i].name, colon + 1);
			return -1;
		}
		if (colon) {
			o->w1 = strtoll(colon + 1, &end, 10);
			if (*end == ',' && end[1])
				o->w2 = strtoll(end + 1, NULL, 10);
		}
		if (!colon || !o->w1 || !o->w2) {
			error("wrong weights in '-c %s', use 'wdiff:w1,w2' (non-zero integers)", arg);
			return -1;
		}
		return 0;
	}
	error("'%s' is not a computation method (use 'delta', 'delta-abs', 'ratio' or 'wdiff:w1,w2')",
	      arg ? arg : "");
	return -1;
}

static int parse_order(const struct option *opt, const char *arg, int unset)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v < 0 || end == arg) {
		error("-o takes a file number (0: the baseline), not '%s'", arg);
		return -1;
	}
	*(unsigned int *)opt->value = (unsigned int)v;
	return 0;
}

/* Open one file, ready to walk. Return: 0, or the exit status after the error line. */
static int diff_input__load(struct diff_input *in, const enum pulse_sort_key *keys,
			    size_t nr_keys, const struct diff_filters *flt,
			    const struct pulse_symbol_opts *sym_opts, bool force)
{
	int err, ret;

	pulse_report__init(&in->rep);
	memcpy(in->rep.keys, keys, nr_keys * sizeof(*keys));
	in->rep.nr_keys = nr_keys;
	in->rep.filter.dsos = flt->dsos;
	in->rep.filter.comms = flt->comms;
	in->rep.filter.symbols = flt->symbols;
	in->rep.filter.pids = flt->pids;
	in->rep.filter.tids = flt->tids;
	ret = setup_filter(&in->rep.filter);
	if (ret)
		return ret;
	if (data_check_owner(in->path, force))
		return 1;
	err = pulse_session__new(&in->session, in->path, NULL);
	if (err == -ENODATA) {
		/* perf: "zero-sized data (F), nothing to do!" and a failure */
		error("'%s' is empty (zero-sized data), nothing to compare", in->path);
		return 1;
	}
	if (err) {
		data_error("open", in->path, err);
		return 1;
	}
	err = pulse_session__init_machine(in->session, sym_opts);
	if (!err)
		err = pulse_report__setup(&in->rep, in->session);
	if (err) {
		error("cannot set up '%s': %s", in->path, strerror(-err));
		return 1;
	}
	return 0;
}

/* The files' walks, at the same time. Return: 0, or 1 after the error line. */
static int diff_inputs__process(struct diff_input *in, size_t nr)
{
	struct pulse_report **reps = calloc(nr, sizeof(*reps));
	int *errs = calloc(nr, sizeof(*errs));
	int ret = 1;

	if (!reps || !errs) {
		error("out of memory");
		goto out;
	}
	for (size_t f = 0; f < nr; f++)
		reps[f] = &in[f].rep;
	if (pulse_diff__process(reps, nr, errs) == -ENOMEM && !errs[0]) {
		error("out of memory");
		goto out;
	}
	ret = 0;
	for (size_t f = 0; f < nr && !ret; f++) {
		if (errs[f]) {
			data_error("read", in[f].path, errs[f]);
			ret = 1;
		}
	}
out:
	free(errs);
	free(reps);
	return ret;
}

static void diff_input__exit(struct diff_input *in)
{
	pulse_report__exit(&in->rep);
	pulse_session__delete(in->session);
}

/* An empty hists for an event of the baseline without samples. */
static struct pulse_hists *event_hists(struct diff_input *in, int idx, struct pulse_hists *empty)
{
	if (idx < 0)
		return NULL;
	if ((size_t)idx < in->rep.nr_hists)
		return &in->rep.hists[idx];
	return empty;
}

/*
 * A later file that has none of the baseline's events has nothing to
 * compare: perf 6.1 prints the baseline with an empty column and exits 0;
 * pulse says so and fails (some events pairing is perf's behaviour).
 * Return: 0, or 1 after the error line.
 */
static int diff_check_events(struct diff_input *in, size_t nr)
{
	struct pulse_data *base = pulse_session__data(in[0].session);
	size_t nr_attrs = pulse_data__nr_attrs(base);

	for (size_t f = 1; f < nr; f++) {
		struct pulse_data *other = pulse_session__data(in[f].session);
		char names[256] = "", name[128];
		size_t len = 0;
		bool any = false;

		for (size_t i = 0; i < nr_attrs && !any; i++)
			any = pulse_diff__match_event(base, i, other) >= 0;
		if (any || !nr_attrs)
			continue;
		for (size_t i = 0; i < nr_attrs && len < sizeof(names); i++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						i ? ", " : "",
						pulse_session__event_name(in[0].session, i, name,
									  sizeof(name)));
		error("'%s' has none of the events of '%s' (%s)", in[f].path, in[0].path, names);
		return 1;
	}
	return 0;
}

/* Each event of the baseline, paired with the others' (perf's data_process()). */
static int diff_print(struct diff_input *in, size_t nr, const enum pulse_sort_key *keys,
		      size_t nr_keys, const struct pulse_diff_opts *opts, const char **paths)
{
	struct pulse_data *base = pulse_session__data(in[0].session);
	struct pulse_hists **hists = calloc(nr, sizeof(*hists));
	struct pulse_hists *empty = calloc(nr, sizeof(*empty));
	int ret = 1, err = 0;
	char name[512];

	if (!hists || !empty) {
		error("out of memory");
		goto out;
	}
	for (size_t f = 0; f < nr; f++)
		pulse_hists__init(&empty[f], keys, nr_keys);
	for (size_t i = 0; !err && i < pulse_data__nr_attrs(base); i++) {
		struct pulse_diff *diff;

		hists[0] = event_hists(&in[0], (int)i, &empty[0]);
		for (size_t f = 1; f < nr; f++)
			hists[f] = event_hists(&in[f], pulse_diff__match_event(
				base, i, pulse_session__data(in[f].session)), &empty[f]);
		err = pulse_diff__new(&diff, hists, nr, keys, nr_keys, opts);
		if (!err) {
			err = pulse_diff__fprintf(diff, stdout,
						  pulse_session__event_name(in[0].session, i, name,
									    sizeof(name)),
						  i == 0, paths);
			pulse_diff__delete(diff);
		}
	}
	/* -EIO: stdout failed, which the dispatcher says in its one line */
	if (err && err != -EIO)
		error("cannot print the diff: %s", strerror(-err));
	else if (!err)
		ret = 0;
out:
	for (size_t f = 0; empty && f < nr; f++)
		pulse_hists__exit(&empty[f]);
	free(empty);
	free(hists);
	return ret;
}

/* --sort: the keys that pair across files. Return: their number, or -1 after the error. */
static int diff_keys(const char *sort, enum pulse_sort_key *keys)
{
	const char *bad = NULL;
	size_t bad_len = 0;
	int n = pulse_sort_keys__parse(sort, keys, PULSE_SORT_MAX_KEYS, &bad, &bad_len);

	if (n == 0)
		error("empty --sort list");
	if (n < 0)
		error("unknown --sort key '%.*s' (known: %s)", (int)bad_len, bad,
		      pulse_sort_keys__known());
	for (int k = 0; k < n; k++) {
		if (!pulse_diff__key_ok(keys[k])) {
			error("--sort key '%s' is not supported by pulse diff (comm, pid, dso, sym, cpu are)",
			      pulse_sort_key__title(keys[k]));
			return -1;
		}
	}
	return n > 0 ? n : -1;
}

/* perf's sort__setup_elide(): a one-value filter's column is not printed */
static uint32_t hidden_keys(const enum pulse_sort_key *keys, size_t nr,
			    const struct diff_filters *flt)
{
	uint32_t hidden = 0;

	for (size_t k = 0; k < nr; k++) {
		const char *v = keys[k] == PULSE_SORT_DSO ? flt->dsos :
				keys[k] == PULSE_SORT_COMM ? flt->comms :
				keys[k] == PULSE_SORT_SYM ? flt->symbols : NULL;

		if (v && *v && !strchr(v, ','))
			hidden |= 1u << k;
	}
	/* never all of them */
	return hidden == (1u << nr) - 1 ? 0 : hidden;
}

int cmd_diff(int argc, const char **argv)
{
	struct pulse_diff_opts opts = { .sz = sizeof(opts), .compute = PULSE_DIFF_DELTA_ABS,
					.order = 1 };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	struct diff_filters flt = { 0 };
	const char *sort = "dso,sym", *percentage = "absolute";
	const char *defaults[] = { "perf.data.old", "perf.data" };
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];
	struct diff_input *in = NULL;
	const char **paths;
	bool force = false;
	int verbose = 0, nr_keys, ret = 1;
	size_t nr;
	const struct option options[] = {
		OPT_CALLBACK_NOOPT('v', "verbose", &verbose,
				   "be more verbose (the data files are listed)", parse_incr),
		OPT_BOOLEAN('q', "quiet", &opts.quiet, "Do not show any message"),
		OPT_BOOLEAN('b', "baseline-only", &opts.baseline_only,
			    "Show only items with match in baseline"),
		OPT_CALLBACK('c', "compute", &opts, "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs)",
			     "Entries differential computation selection", parse_compute),
		OPT_BOOLEAN('p', "period", &opts.show_period, "Show period values."),
		OPT_BOOLEAN('F', "formula", &opts.show_formula, "Show formula."),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_STRING(0, "kallsyms", &sym_opts.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('d', "dsos", &flt.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &flt.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &flt.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('s', "sort", &sort, "key[,key2...]",
			   "sort by key(s): comm, pid, dso, sym, cpu (default dso,sym)"),
		OPT_STRING(0, "symfs", &sym_opts.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_CALLBACK('o', "order", &opts.order, "n", "Specify compute sorting.",
			     parse_order),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute",
			   "How to display percentage of filtered entries"),
		OPT_STRING(0, "pid", &flt.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &flt.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_END(),
	};

	/* argv[0] is "diff"; the files are left at the start of the rest */
	argv++;
	argc = parse_options(argc - 1, argv, options, 0);
	if (argc < 0) {
		usage_with_options(diff_usage, options);
		return PULSE_EXIT_USAGE;
	}
	if (strcmp(percentage, "absolute") && strcmp(percentage, "relative")) {
		error("--percentage must be relative or absolute, not '%s'", percentage);
		return PULSE_EXIT_USAGE;
	}
	opts.relative = !strcmp(percentage, "relative");
	opts.list_files = verbose > 0;
	sym_opts.kallsyms_given = sym_opts.kallsyms != NULL;
	nr_keys = diff_keys(sort, keys);
	if (nr_keys < 0)
		return PULSE_EXIT_USAGE;
	opts.hidden_keys = hidden_keys(keys, nr_keys, &flt);
	/* perf's data_init(): one file is the new one, against perf.data.old */
	if (argc == 1)
		defaults[1] = argv[0];
	nr = argc > 1 ? (size_t)argc : 2;
	paths = argc > 1 ? argv : defaults;
	if (opts.order >= nr) {
		error("-o %u: there are only %zu files (0 is the baseline)", opts.order, nr);
		return PULSE_EXIT_USAGE;
	}
	in = calloc(nr, sizeof(*in));
	if (!in) {
		error("out of memory");
		return 1;
	}
	for (size_t f = 0; f < nr; f++) {
		in[f].path = paths[f];
		ret = diff_input__load(&in[f], keys, nr_keys, &flt, &sym_opts, force);
		if (ret)
			goto out;
	}
	/* before the walks: nothing to walk for */
	ret = diff_check_events(in, nr);
	if (!ret)
		ret = diff_inputs__process(in, nr);
	if (ret)
		goto out;
	if (!opts.quiet) {
		for (size_t f = 0; f < nr; f++)
			data_warn_damage(pulse_session__data(in[f].session));
	}
	/* a write that fails at the final flush is the dispatcher's error line */
	ret = diff_print(in, nr, keys, nr_keys, &opts, paths);
out:
	for (size_t f = 0; f < nr; f++)
		diff_input__exit(&in[f]);
	free(in);
	return ret;
}
