// SPDX-License-Identifier: GPL-2.0
/*
 * pulse flamegraph: a perf.data file as one interactive SVG flame graph.
 * The file goes through report's pipeline (session -> resolve -> filters
 * -> hist entries with --no-children callchain trees, caller order, no
 * threshold): the stacks are those `pulse report -g folded` prints. With
 * --diff OLD NEW, NEW's graph coloured by each frame's change of share.
 * The SVG is written through output_file: a temporary file renamed over
 * the output at the end, so a failure leaves no partial file; a device or
 * FIFO is written in place; "-" is stdout.
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
#include <pulse/flame.h>
#include <pulse/reader.h>
#include <pulse/report.h>
#include <pulse/session.h>
#include "builtin.h"
#include "parse-options.h"

static const char *const flamegraph_usage[] = {
	"pulse flamegraph [<options>]",
	"pulse flamegraph --diff [<options>] OLD.data NEW.data",
	NULL,
};

struct fg {
	const char *sort;		/* --sort; NULL: sym (no frames above the stacks) */
	const char *comms, *pids, *tids, *dsos, *symbols, *cpus;	/* report's filters */
	const char *time_str;		/* --time */
	const char *event;		/* -e: the event to draw */
	const char *vmlinux, *kallsyms;	/* -k, --kallsyms */
	bool force, quiet;
	int max_stack;
	const struct fg_input *like;	/* --diff's OLD: draw NEW's event */
};

/* one file's graph */
struct fg_input {
	struct pulse_flame *flame;
	const char *path;
	uint64_t lost;			/* lost samples perf would report */
	char event[256];		/* the event drawn */
	uint32_t type;			/* its attr's */
	uint64_t config;
};

/* -e cpu-clock names cpu-clock:ppp too */
static bool event_is(const char *name, const char *want)
{
	size_t len = strlen(want);

	return !strncmp(name, want, len) && (!name[len] || name[len] == ':');
}

/*
 * --diff's OLD: NEW's event, by name, else by type and config (the same
 * event under other modifiers); -1 after the error line when OLD has none
 */
static int pick_like(const struct fg *o, struct pulse_report *rep,
		     const struct pulse_flame_stacks *st, const char *input, char *name,
		     size_t size)
{
	int by_attr = -1;

	for (size_t i = 0; i < rep->nr_hists; i++) {
		const struct perf_event_attr *attr = pulse_data__attr(rep->d, i);
		char buf[256];
		const char *ev = pulse_session__event_name(rep->session, i, buf, sizeof(buf));

		if (!(st ? pulse_flame_stacks__nr_samples(st, i) : rep->hists[i].nr_samples))
			continue;
		if (!strcmp(ev, o->like->event)) {
			snprintf(name, size, "%s", ev);
			return i;
		}
		if (by_attr < 0 && attr && attr->type == o->like->type &&
		    attr->config == o->like->config) {
			by_attr = i;
			snprintf(name, size, "%s", ev);
		}
	}
	if (by_attr < 0)
		error("'%s' has no samples of '%s', the event drawn from '%s': nothing to compare",
		      input, o->like->event, o->like->path);
	return by_attr;
}

/* the event to draw: -e's, else the first with samples (warned when there are more) */
static int pick_event(const struct fg *o, struct pulse_report *rep,
		      const struct pulse_flame_stacks *st, const char *input, char *name,
		      size_t size)
{
	int found = -1, with_samples = 0;

	if (o->like)
		return pick_like(o, rep, st, input, name, size);
	for (size_t i = 0; i < rep->nr_hists; i++) {
		char buf[256];
		const char *ev = pulse_session__event_name(rep->session, i, buf, sizeof(buf));

		if (!(st ? pulse_flame_stacks__nr_samples(st, i) : rep->hists[i].nr_samples))
			continue;
		with_samples++;
		if (found < 0 && (!o->event || event_is(ev, o->event))) {
			found = i;
			snprintf(name, size, "%s", ev);
		}
	}
	if (found < 0) {
		if (o->event)
			error("no samples of event '%s' in '%s'", o->event, input);
		else
			error("'%s' has no samples%s", input,
			      o->time_str || o->cpus ? " in the --time or --cpu range" : "");
		return -1;
	}
	if (!o->event && with_samples > 1 && !o->quiet)
		warning("'%s' has samples of %d events: drawing '%s' (choose with -e)", input,
			with_samples, name);
	return found;
}

static int load(const struct fg *o, const char *input, struct fg_input *in)
{
	struct pulse_flame_report_opts ropts = { .sz = sizeof(ropts), .prefix = true };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	struct pulse_session *session = NULL;
	struct pulse_flame_stacks *st = NULL;
	const char *bad = NULL;
	size_t bad_len = 0;
	struct pulse_report rep;
	int err, idx, ret = 1, n;

	if (data_check_owner(input, o->force))
		return 1;
	pulse_report__init(&rep);
	rep.filter.comms = o->comms;
	rep.filter.pids = o->pids;
	rep.filter.tids = o->tids;
	rep.filter.dsos = o->dsos;
	rep.filter.symbols = o->symbols;
	rep.filter.cpus = o->cpus;
	rep.max_stack = o->max_stack > 0 ? o->max_stack : 0;
	/* every chain of every entry, callers first, counted in samples */
	rep.cc.mode = PULSE_CC_FOLDED;
	rep.cc.order = PULSE_CC_CALLER;
	rep.cc.order_set = true;
	rep.cc.value = PULSE_CC_COUNT;
	rep.cc.min_percent = 0;
	n = pulse_sort_keys__parse(o->sort ? o->sort : "sym", rep.keys, PULSE_SORT_MAX_KEYS, &bad,
				   &bad_len);
	if (n <= 0) {
		error("unknown --sort key '%.*s' (known: %s)", (int)bad_len, bad ? bad : "",
		      pulse_sort_keys__known());
		pulse_report__exit(&rep);
		return PULSE_EXIT_USAGE;
	}
	rep.nr_keys = n;

	err = pulse_session__new(&session, input, NULL);
	if (err == -ENODATA) {
		error("'%s' is empty: no samples to draw", input);
		goto out;
	}
	if (err) {
		data_error("open", input, err);
		goto out;
	}
	rep.d = pulse_session__data(session);
	if (o->time_str) {
		err = parse_time_filter(&rep.filter, session, o->time_str);
		if (err) {
			ret = err == -ENOMEM ? 1 : PULSE_EXIT_USAGE;
			goto out;
		}
	}
	ret = setup_filter(&rep.filter);
	if (ret)
		goto out;
	ret = 1;
	pulse_report__setup_callchains(&rep, 0, false);
	/* the stacks without report's entries and trees, when they are the same */
	if (pulse_flame_stacks__usable(&rep) && pulse_flame_stacks__new(&st, &rep, &ropts)) {
		error("out of memory");
		goto out;
	}
	if (o->kallsyms) {
		sym_opts.kallsyms = o->kallsyms;
		sym_opts.kallsyms_given = true;
	}
	sym_opts.vmlinux = o->vmlinux;
	err = pulse_session__init_machine(session, &sym_opts);
	if (!err)
		err = pulse_report__setup(&rep, session);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out;
	}
	err = pulse_report__process(&rep);
	if (err) {
		data_error("read", input, err);
		goto out;
	}
	if (!o->quiet) {
		data_warn_damage(rep.d);
		data_warn_lost(pulse_report__nr_lost(&rep), rep.nr_samples);
	}
	idx = pick_event(o, &rep, st, input, in->event, sizeof(in->event));
	if (idx < 0)
		goto out;
	in->path = input;
	in->type = pulse_data__attr(rep.d, idx)->type;
	in->config = pulse_data__attr(rep.d, idx)->config;
	err = pulse_flame__new(&in->flame);
	if (!err)
		err = st ? pulse_flame__add_stacks(in->flame, st, idx) :
			   pulse_flame__add_report(in->flame, &rep, idx, &ropts);
	if (err) {
		error("cannot make the flame graph of '%s': %s", input, strerror(-err));
		goto out;
	}
	pulse_flame__finish(in->flame);
	if (!pulse_flame__node(in->flame, 0)->total) {
		error("'%s' has no samples left to draw after the filters", input);
		goto out;
	}
	in->lost = pulse_report__nr_lost(&rep);
	ret = 0;
out:
	pulse_report__exit(&rep);
	pulse_flame_stacks__delete(st);
	pulse_session__delete(session);
	return ret;
}

/* whole or not at all (output_file); "-" is stdout */
static int write_svg(struct pulse_flame *flame, const char *output,
		     const struct pulse_flame_svg_opts *sopts, size_t *merged)
{
	struct output_file of;
	int ret = output_file__open(&of, output, OUTPUT_STDOUT);

	if (ret)
		return ret;
	return output_file__close(&of, pulse_flame__write_svg(flame, of.fp, sopts, merged));
}

static int parse_minwidth(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || *out < 0 || *out > 1000) {
		error("--minwidth takes per mille of the samples (0 to 1000), not '%s'", arg);
		return -1;
	}
	return 0;
}

int cmd_flamegraph(int argc, const char **argv)
{
	const char *input = NULL, *output = "flamegraph.svg", *title = NULL;
	const char *minwidth_str = "0.1";
	bool inverted = false, diff = false;
	int width = 1200, ret;
	struct fg o = { .max_stack = PULSE_MAX_STACK };
	struct fg_input in = { 0 }, old = { 0 };
	struct pulse_flame_svg_opts sopts = { .sz = sizeof(sopts) };
	char subtitle[600];
	size_t merged = 0;
	const char **args;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file name (default perf.data, or the pipe on stdin)"),
		OPT_STRING('o', "output", &output, "file", "the SVG to write (default flamegraph.svg; - for stdout)"),
		OPT_BOOLEAN('\0', "diff", &diff,
			    "differential flame graph of two files: OLD.data NEW.data"),
		OPT_STRING('e', "event", &o.event, "event", "the event to draw (a file of several)"),
		OPT_STRING('s', "sort", &o.sort, "key[,key2...]",
			   "comm, pid, tid, dso: frames above each stack, in that order; sym (the default): none"),
		OPT_STRING('c', "comms", &o.comms, "comm[,comm...]", "only these comms"),
		OPT_STRING('\0', "pid", &o.pids, "pid[,pid...]", "only these pids"),
		OPT_STRING('\0', "tid", &o.tids, "tid[,tid...]", "only these tids"),
		OPT_STRING('d', "dsos", &o.dsos, "dso[,dso...]", "only samples in these dsos"),
		OPT_STRING('S', "symbols", &o.symbols, "symbol[,symbol...]", "only these sampled symbols"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "only samples of these cpus"),
		OPT_STRING('\0', "time", &o.time_str, "str",
			   "time ranges: start,end in seconds, or percent slices (10%/2, 0%-10%)"),
		OPT_STRING('\0', "title", &title, "text", "the title (default \"Flame Graph\")"),
		OPT_INTEGER('\0', "width", &width, "the image's width in pixels (default 1200)"),
		OPT_STRING('\0', "minwidth", &minwidth_str, "permille",
			   "merge frames under this share of the samples, per mille (default 0.1)"),
		OPT_BOOLEAN('\0', "inverted", &inverted, "icicle graph: the roots at the top"),
		OPT_INTEGER('\0', "max-stack", &o.max_stack, "frames kept of each callchain (default 127)"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('\0', "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "no warnings"),
		OPT_END(),
	};

	/* argv[0] is "flamegraph"; the files of --diff are left in args[] */
	args = argv + 1;
	argc = parse_options(argc - 1, args, options, 0);
	if (argc < 0)
		goto usage;
	if (diff != (argc == 2) || (!diff && argc)) {
		if (argc && !diff)
			error("unexpected argument '%s'", args[0]);
		else
			error("--diff takes two files: OLD.data NEW.data");
		goto usage;
	}
	if (width < 120 || width > 1000000) {
		error("--width must be 120 to 1000000 pixels, not %d", width);
		return PULSE_EXIT_USAGE;
	}
	if (parse_minwidth(minwidth_str, &sopts.minwidth))
		return PULSE_EXIT_USAGE;
	if (diff)
		input = args[1];
	if (!input)
		input = default_input();
	ret = load(&o, input, &in);
	if (ret)
		goto out;
	if (diff) {
		/* OLD's graph of NEW's event: a diff of two events means nothing */
		o.like = &in;
		ret = load(&o, args[0], &old);
		if (ret)
			goto out;
	}
	ret = 1;
	if (diff && pulse_flame__diff(in.flame, old.flame)) {
		error("out of memory");
		goto out;
	}
	sopts.title = title;
	sopts.width = width;
	sopts.inverted = inverted;
	sopts.lost = in.lost;
	sopts.diff = diff;
	if (diff) {
		sopts.old_samples = pulse_flame__node(old.flame, 0)->total;
		snprintf(subtitle, sizeof(subtitle), "%s against %s: red grew, blue shrank", input,
			 args[0]);
	} else {
		snprintf(subtitle, sizeof(subtitle), "%s", in.event);
	}
	sopts.subtitle = subtitle;
	ret = write_svg(in.flame, output, &sopts, &merged);
	if (!ret && !o.quiet)
		fprintf(stderr, "[ pulse flamegraph: wrote %s (%zu frames, %zu merged) ]\n", output,
			pulse_flame__nr_nodes(in.flame) - merged, merged);
out:
	pulse_flame__delete(in.flame);
	pulse_flame__delete(old.flame);
	return ret;
usage:
	usage_with_options(flamegraph_usage, options);
	return PULSE_EXIT_USAGE;
}
