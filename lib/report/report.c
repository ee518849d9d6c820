// SPDX-License-Identifier: GPL-2.0
/*
 * The report's walk: a tool over the session (lib/session/session.c) whose
 * samples are placed on a thread, DSO and symbol by the session's machine,
 * filtered (--comms, --cpu, --time, -p ...) and added to their event's
 * histogram; LOST and LOST_SAMPLES records are counted. Merging callchains
 * is most of a report's work: with a pool, other threads do it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/branch.h>
#include <pulse/data.h>
#include <pulse/report.h>
#include <pulse/srcline.h>
#include <pulse/pt-decode.h>
#include <pulse/trace-decode.h>
#include "report/report-int.h"

void pulse_report__init(struct pulse_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	pulse_callchain_param__init(&rep->cc);
	rep->max_stack = PULSE_MAX_STACK;
	rep->group.want = -1;
}

void pulse_report__exit(struct pulse_report *rep)
{
	pulse_hist_pool__delete(rep->pool);
	rep->pool = NULL;
	pulse_pt__delete(rep->pt);
	rep->pt = NULL;
	for (size_t i = 0; i < rep->nr_hists; i++)
		pulse_hists__exit(&rep->hists[i]);
	free(rep->hists);
	rep->hists = NULL;
	rep->nr_hists = 0;
	pulse_srclines__delete(rep->srclines);
	rep->srclines = NULL;
	pulse_cc_cursor__exit(&rep->cursor);
	if (rep->trace_fp)
		fclose(rep->trace_fp);
	rep->trace_fp = NULL;
	free(rep->trace_buf);
	rep->trace_buf = NULL;
	pulse_hist_filter__exit(&rep->filter);
	pulse_report_threads__exit(&rep->threads);
	pulse_report_group__exit(&rep->group);
	pulse_report_branch__exit(&rep->branch);
	if (rep->parent)
		regfree(&rep->parent_re);
	rep->parent = false;
}

static uint64_t get_lost(const struct perf_event_header *rec)
{
	uint64_t v;

	memcpy(&v, (const char *)rec + 8, sizeof(v));
	return v;
}

static struct pulse_hists *report__hists(struct pulse_report *rep, size_t idx)
{
	if (idx >= rep->nr_hists) {
		size_t n = idx + 1;
		struct pulse_hists *h = realloc(rep->hists, n * sizeof(*h));

		if (!h)
			return NULL;
		for (size_t i = rep->nr_hists; i < n; i++) {
			pulse_hists__init(&h[i], rep->keys, rep->nr_keys);
			pulse_hists__set_fields(&h[i], rep->fields, rep->nr_fields, rep->fields_self);
			if (rep->srclines && pulse_hists__set_srclines(&h[i], rep->srclines)) {
				rep->hists = h;
				rep->nr_hists = i + 1;
				return NULL;
			}
			if (rep->chains)
				pulse_hists__set_callchain(&h[i], &rep->cc, rep->cumulate);
		}
		rep->hists = h;
		rep->nr_hists = n;
	}
	return &rep->hists[idx];
}

/*
 * The sample's callchain into rep->cursor; with -U, perf's
 * add_callchain_ip() leaves out the frames without a symbol (after
 * --max-stack counted them).
 */
static int report__resolve_chain(struct pulse_report *rep, const struct perf_event_attr *attr,
				 const struct pulse_sample *s)
{
	struct pulse_cc_cursor *c = &rep->cursor;
	size_t n = 0;
	int err;

	/* a chain made from a PT trace stands for the sample's, whatever the attr */
	if (rep->pt_chain_nr)
		err = pulse_machine__resolve_callchain(rep->machine, s->pid, s->tid, s->callchain,
						       s->callchain_nr, rep->cc.order, c);
	else
		err = pulse_machine__sample_callchain(rep->machine, attr, s, rep->cc.order, c);
	/*
	 * --max-stack 0 on a DWARF sample: perf 6.1 stops with "failed to
	 * process sample"; pulse reports it without a chain
	 */
	if (err == -EINVAL) {
		c->nr = 0;
		err = 0;
	}

	if (err || !rep->hide_unresolved)
		return err;
	for (size_t i = 0; i < c->nr; i++) {
		if (c->locs[i].sym)
			c->locs[n++] = c->locs[i];
	}
	c->nr = n;
	return 0;
}

/*
 * The filters' verdict (1: the sample stops here) and, for --sort trace,
 * the sample's tracepoint text as perf's get_trace_output() prints it
 * (no cpu in its tep_record). A sample the lists hide still makes (or
 * joins) an entry, as in perf: the entry is hidden when its first sample
 * was. The parent needs the callchain, which is then resolved here.
 */
static int report__filter_trace(struct pulse_report *rep, struct pulse_hists *h,
				const struct perf_event_attr *attr, const struct pulse_sample *s,
				const struct pulse_addr_loc *al)
{
	uint64_t time = attr->sample_type & PERF_SAMPLE_TIME ? s->time : ~0ULL;
	int cpu = attr->sample_type & PERF_SAMPLE_CPU ? (int)s->cpu : -1;
	const struct pulse_symbol *parent = NULL;
	const char *trace = NULL;
	bool hidden = false;
	int err;

	switch (pulse_hist_filter__match(&rep->filter, al, al->thread->comm, s->ip, cpu, time)) {
	case PULSE_FILTER_SKIP:
		return 1;
	case PULSE_FILTER_HIDE:
		hidden = true;
		break;
	case PULSE_FILTER_KEEP:
		break;
	}
	if (rep->parent && (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		err = report__resolve_chain(rep, attr, s);
		if (err)
			return err;
		parent = pulse_hist_filter__parent(&rep->parent_re, rep->cursor.locs,
						   rep->cursor.nr);
	}
	/* perf's symbol__parent_filter() */
	pulse_hists__set_parent(h, parent, hidden || (rep->exclude_other && !parent));
	if (rep->trace_fp && attr->type == PERF_TYPE_TRACEPOINT && s->raw) {
		struct tep_event *ev = pulse_trace__event(rep->trace, attr->config);

		rewind(rep->trace_fp);
		if (ev)
			pulse_trace__fprintf(rep->trace, ev, 0, s->raw, s->raw_size, rep->trace_fp);
		fputc('\0', rep->trace_fp);
		if (fflush(rep->trace_fp))
			return -ENOMEM;
		trace = rep->trace_buf;
	}
	pulse_hists__set_sample(h, cpu, trace);
	return 0;
}

static int report__add(struct pulse_report *rep, struct pulse_hists *h,
		       const struct perf_event_attr *attr, const struct pulse_sample *s,
		       const struct pulse_addr_loc *al)
{
	int err = 0;

	if (rep->chains && ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) || rep->pt_chain_nr)) {
		/* report__filter_trace() resolved it for the parent */
		if (!rep->parent)
			err = report__resolve_chain(rep, attr, s);
		if (err)
			return err;
		if (rep->pool)
			return pulse_hist_pool__add(rep->pool, h, al, al->thread->comm, s->period,
						    rep->cursor.locs, rep->cursor.nr);
		return pulse_hists__add_chain(h, al, al->thread->comm, s->period, rep->cursor.locs,
					      rep->cursor.nr);
	}
	if (rep->pool)
		return pulse_hist_pool__add(rep->pool, h, al, al->thread->comm, s->period, NULL, 0);
	return pulse_hists__add(h, al, al->thread->comm, s->period);
}

/* rep->sink's sample: resolved as report__add() would, no entry made */
static int report__sink(struct pulse_report *rep, struct pulse_hists *h, size_t idx,
			const struct perf_event_attr *attr, const struct pulse_sample *s,
			const struct pulse_addr_loc *al)
{
	bool chained = rep->chains && ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) ||
				       rep->pt_chain_nr);
	int err = 0;

	if (h->cur_filtered)
		return 0;
	/* report__filter_trace() resolved it for the parent */
	if (chained && !rep->parent)
		err = report__resolve_chain(rep, attr, s);
	if (err)
		return err;
	return rep->sink(rep->sink_arg, idx, al, chained ? rep->cursor.locs : NULL,
			 chained ? rep->cursor.nr : 0, chained);
}

static int report__sample(struct pulse_report *rep, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct pulse_hist_mem mem;
	struct pulse_sample s;
	struct pulse_addr_loc al;
	struct pulse_sample_value v;
	struct pulse_hists *h;
	int idx, err;

	idx = pulse_data__attr_of(rep->d, rec, rec->size);
	if (idx < 0)
		return 0;
	attr = pulse_data__attr(rep->d, idx);
	if (!attr || pulse_sample__parse(rec, rec->size, attr, &s))
		return 0;
	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		s.period = attr->sample_period;
	if (rep->pt_chain_nr) {
		s.callchain = rep->pt_chain;
		s.callchain_nr = rep->pt_chain_nr;
	}
	/* one value of a PERF_SAMPLE_READ sample: its event, its growth (perf's) */
	if (pulse_session__sample_value(rep->session, &v)) {
		idx = (int)v.idx;
		s.period = v.period;
		s.id = v.id;
	}
	h = report__hists(rep, idx);
	if (!h)
		return -ENOMEM;
	/* call-stack mode: perf makes the user part of the chain from the branches */
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK &&
	    attr->sample_type & PERF_SAMPLE_BRANCH_STACK &&
	    pulse_branch__lbr_callchain(&s, &rep->branch.lbr_chain, &rep->branch.lbr_alloc) < 0)
		return -ENOMEM;
	err = pulse_machine__resolve(rep->machine, s.pid, s.tid,
				     rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, s.ip, &al);
	if (err)
		return err;
	/* perf's -U: a sample without a symbol is not counted */
	if (rep->hide_unresolved && !al.sym)
		return 0;
	err = report__filter_trace(rep, h, attr, &s, &al);
	if (err)
		return err > 0 ? 0 : err;
	if (al.dso)
		al.dso->hit = true;
	if (rep->branch.on)
		return pulse_report_branch__sample(&rep->branch, rep->machine, idx, &s, &al,
						   h->cur_filtered);
	if (rep->sink)
		return report__sink(rep, h, idx, attr, &s, &al);
	if (rep->mem_keys) {
		err = pulse_hist_mem__init(&mem, attr, &s, rep->machine,
					   rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, rep->mem_mode);
		if (err)
			return err;
		/* perf's iter_add_single_mem_entry(): the weight, or 1, is the period */
		if (rep->mem_mode)
			s.period = mem.weight ? mem.weight : 1;
		pulse_hists__set_mem(h, &mem);
	}
	return report__add(rep, h, attr, &s, &al);
}

int report__tool_sample(struct pulse_session *s, const struct perf_event_header *rec,
			     uint64_t file_offset, void *arg)
{
	return report__sample(arg, rec);
}

int report__tool_event(struct pulse_session *s, const struct perf_event_header *rec,
			    uint64_t file_offset, void *arg)
{
	struct pulse_report *rep = arg;

	switch (rec->type) {
	case PERF_RECORD_LOST:
		/* id (8), lost (8) */
		if (rec->size >= 24)
			rep->lost_events += get_lost((const struct perf_event_header *)
						     ((const char *)rec + 8));
		break;
	case PERF_RECORD_READ:
		if (rep->threads.on) {
			int err = pulse_report__add_read(rep, rec);

			if (err)
				return err;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (rec->size >= 16)
			rep->lost_samples += get_lost(rec);
		return 0;
	default:
		break;
	}
	return pulse_session__apply(s, rec);
}

static int report__on_read(struct pulse_session *s, const struct perf_event_header *rec,
			   uint64_t file_offset, void *arg)
{
	struct pulse_report *rep = arg;

	pulse_progress__update(&rep->progress, file_offset);
	/* records, not the values of PERF_SAMPLE_READ delivered one by one */
	if (rec->type == PERF_RECORD_SAMPLE)
		rep->nr_samples++;
	pulse_aux_stats__add(&rep->aux, rec);	/* AUX flags, AUXTRACE_ERRORs */
	if (rec->type == PERF_RECORD_HEADER_FEATURE && rep->header)
		pulse_report__fprintf_feature(stdout, &rep->hdr_env, rec);
	return 0;
}

/* the stacks are unwound from the samples' registers and stack copies */
static bool report__unwinds(const struct pulse_report *rep)
{
	const uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	for (size_t i = 0; rep->chains && i < pulse_data__nr_attrs(rep->d); i++) {
		const struct perf_event_attr *attr = pulse_data__attr(rep->d, i);

		if (attr && (attr->sample_type & both) == both)
			return true;
	}
	return false;
}

/* the walk would wait for kallsyms: the recording's DSOs, loaded meanwhile */
static int report__idle(void *arg)
{
	struct pulse_report *rep = arg;

	return pulse_machine__preload_next(rep->machine, rep->unwinds);
}

int pulse_report__process(struct pulse_report *rep)
{
	struct pulse_tool tool = {
		.read = report__on_read,
		.sample = report__tool_sample,
		.event = report__tool_event,
		.read_values = true,
	};
	int err, perr;

	err = report__itrace_setup(rep, &tool);
	if (err)
		return err;

	pulse_progress__init(&rep->progress, rep->progress_fp,
			     pulse_data__is_pipe(rep->d) ? 0 : pulse_data__file_size(rep->d),
			     "Processing events...");
	rep->unwinds = report__unwinds(rep);
	if (rep->machine)
		pulse_dsos__set_idle(&rep->machine->dsos, report__idle, rep);
	err = pulse_session__process(rep->session, &tool, rep);
	if (rep->machine)
		pulse_dsos__set_idle(&rep->machine->dsos, NULL, NULL);
	pulse_progress__finish(&rep->progress);
	if (rep->pool) {
		perr = pulse_hist_pool__finish(rep->pool, rep->hists, rep->nr_hists);
		for (size_t i = 0; i < rep->nr_hists && !perr; i++)
			perr = pulse_hists__merge_shards(&rep->hists[i]);
		if (!err)
			err = perr;
	}
	return err;
}

uint64_t pulse_report__nr_lost(const struct pulse_report *rep)
{
	return rep->lost_samples ? rep->lost_samples : rep->lost_events;
}

bool pulse_report__has_entries(const struct pulse_report *rep)
{
	bool any = false;

	for (size_t i = 0; i < rep->nr_hists; i++)
		any |= rep->hists[i].nr_samples > 0;
	if (rep->branch.on)
		any = pulse_report_branch__has_samples(&rep->branch);
	return any;
}
