// SPDX-License-Identifier: GPL-2.0
/*
 * What perf's cmd_report() decides from the file before it reads a sample:
 * the sort order (get_default_sort_order(), the --mem-mode order, the
 * ipc_null perf appends), whether callchains are merged and cumulated
 * (--children by default on files with callchains), the parent regex, the
 * --sort trace decoder and the aggregation threads.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pulse/data.h>
#include <pulse/report.h>
#include <pulse/srcline.h>

static bool tracepoints_only(struct pulse_data *d)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++) {
		const struct perf_event_attr *attr = pulse_data__attr(d, i);

		if (!attr || attr->type != PERF_TYPE_TRACEPOINT)
			return false;
	}
	return pulse_data__nr_attrs(d) > 0;
}

const char *pulse_report__sort_order(const struct pulse_report *rep, const char *user_sort,
				     char *buf, size_t size)
{
	const char *sort = "comm,dso,sym";

	if (rep->branch.on)
		sort = "comm";	/* the branch keys are the branch hists' */
	else if (user_sort)
		sort = user_sort;
	else if (rep->mem_mode)
		sort = PULSE_REPORT_MEM_SORT;
	else if (!pulse_data__is_pipe(rep->d) && tracepoints_only(rep->d))
		sort = "trace";	/* a pipe's attrs come after perf chose */
	/* perf's cmd_report(): any --sort naming "symbol" gets ipc_null appended */
	if (user_sort && strstr(sort, "symbol")) {
		snprintf(buf, size, "%s,ipc_null", sort);
		sort = buf;
	}
	return sort;
}

/*
 * An instruction trace decoded with --itrace=g (perf report's default) gives
 * its samples callchains: perf turns callchains on for them (intel-pt.c sets
 * symbol_conf.use_callchain when it reads AUXTRACE_INFO).
 */
static bool itrace_callchains(const struct pulse_report *rep)
{
	if (pulse_data__is_pipe(rep->d) || !pulse_data__has_feat(rep->d, PULSE_FEAT_AUXTRACE))
		return false;
	if (rep->itrace.set)
		return !rep->itrace.dont_decode &&
		       (rep->itrace.callchain || rep->itrace.add_callchain);
	return true;
}

bool pulse_report__has_callchains(const struct pulse_report *rep)
{
	if (itrace_callchains(rep))
		return true;
	for (size_t i = 0; i < pulse_data__nr_attrs(rep->d); i++) {
		const struct perf_event_attr *attr = pulse_data__attr(rep->d, i);

		if (attr && (attr->sample_type & PERF_SAMPLE_CALLCHAIN))
			return true;
	}
	return false;
}

/* perf's report__setup_sample_type(): --mem-mode needs DATA_SRC in some event */
int pulse_report__check_mem_mode(const struct pulse_report *rep)
{
	size_t nr = pulse_data__nr_attrs(rep->d);
	__u64 st = 0;

	for (size_t i = 0; i < nr; i++)
		st |= pulse_data__attr(rep->d, i)->sample_type;
	/* a pipe's attrs come later */
	return nr && !(st & PERF_SAMPLE_DATA_SRC) ? -ENOENT : 0;
}

int pulse_report__setup_parent(struct pulse_report *rep, const char *pattern, char *msg,
			       size_t size)
{
	bool has = false;
	int err;

	for (size_t k = 0; k < rep->nr_keys; k++)
		has |= rep->keys[k] == PULSE_SORT_PARENT;
	if (pattern && !has) {
		if (rep->nr_keys == PULSE_SORT_MAX_KEYS)
			return -E2BIG;
		rep->keys[rep->nr_keys++] = PULSE_SORT_PARENT;
		has = true;
	}
	if (!has)
		return 0;
	if (!pulse_data__is_pipe(rep->d) && !pulse_report__has_callchains(rep))
		return -ENOENT;
	if (!pattern)
		pattern = "^sys_|^do_page_fault";
	err = regcomp(&rep->parent_re, pattern, REG_EXTENDED);
	if (err) {
		regerror(err, &rep->parent_re, msg, size);
		return -EINVAL;
	}
	rep->parent = true;
	return 0;
}

int pulse_report__setup_callchains(struct pulse_report *rep, int children, bool cc_given)
{
	bool has = pulse_report__has_callchains(rep);

	/* branch mode's entries are branches: no callchains */
	if (!rep->branch.on && has) {
		/* perf defaults to --children on files with callchains */
		rep->cumulate = children != 0;
		if (rep->cumulate && !rep->cc.order_set)
			rep->cc.order = PULSE_CC_CALLER;
		/*
		 * perf decides on --children before a pipe's attrs arrive and
		 * then finds no callchains in them: caller order, no Children.
		 */
		if (pulse_data__is_pipe(rep->d))
			rep->cumulate = false;
		/* perf's --mem-mode turns --children off */
		if (rep->mem_mode)
			rep->cumulate = false;
		rep->chains = rep->cc.enabled || rep->cumulate;
	} else if (cc_given && rep->cc.enabled && !has) {
		return -ENOENT;
	}
	/* perf_hpp__cancel_cumulate(): --children asked, no callchains */
	rep->cumulate_cancelled = !rep->branch.on && children != 0 && !rep->cumulate &&
				  !rep->mem_mode;
	return 0;
}

/* --sort trace: a decoder of the file's tracing data (none: "N/A" text) */
static int report__open_trace(struct pulse_report *rep)
{
	if (pulse_session__trace(rep->session, &rep->trace))
		return 0;
	rep->trace_fp = open_memstream(&rep->trace_buf, &rep->trace_len);
	return rep->trace_fp ? 0 : -ENOMEM;
}

int pulse_report__setup(struct pulse_report *rep, struct pulse_session *s)
{
	int err;

	rep->session = s;
	rep->d = pulse_session__data(s);
	rep->machine = pulse_session__machine(s);
	rep->machine->max_stack = rep->max_stack;
	rep->machine->no_inline = rep->no_inline;
	for (size_t k = 0; k < rep->nr_keys; k++) {
		rep->mem_keys |= pulse_sort_key__is_mem(rep->keys[k]);
		if (rep->keys[k] == PULSE_SORT_SRCLINE && !rep->srclines) {
			err = pulse_srclines__new(&rep->srclines, rep->machine->dsos.opts.symfs);
			if (err)
				return err;
		}
		if (rep->keys[k] == PULSE_SORT_TRACE && !rep->trace_fp) {
			err = report__open_trace(rep);
			if (err)
				return err;
		}
	}
	/*
	 * Merging callchains is most of a report's work: spread it over the
	 * CPUs (this thread keeps reading and resolving). Without threads,
	 * the same result on this thread. The pool's threads are not given
	 * the samples' memory fields.
	 */
	/* the srcline key's texts are looked up and interned on this thread */
	if (rep->chains && !rep->mem_keys && !rep->srclines && !rep->sink) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		if (ncpu > 1 && pulse_hist_pool__new(&rep->pool, ncpu > 8 ? 8 : ncpu))
			rep->pool = NULL;
	}
	return 0;
}
