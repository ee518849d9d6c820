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
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/branch.h>
#include <pulse/core.h>
#include <pulse/data.h>
#include <pulse/event.h>
#include <pulse/hist.h>
#include <pulse/hist-branch.h>
#include <pulse/machine.h>
#include <pulse/ordering.h>
#include <pulse/output-header.h>
#include <pulse/output-stdio.h>
#include <pulse/progress.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include <pulse/trace-decode.h>
#include "builtin.h"
#include "parse-options.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
/* report__record(): the end of the data section perf reads is reached */

static const char *const report_usage[] = {
	"pulse report [<options>]",
	NULL,
};

struct report {
	struct pulse_data *d;		/* the file */
	struct pulse_progress progress;	/* on stderr, when it is a terminal */
	struct pulse_machine machine;	/* threads, maps, DSOs */
	struct pulse_ordered *oq;	/* time ordering; NULL: file order */
	struct pulse_hists *hists;	/* one per attr */
	size_t nr_hists;		/* hists allocated */
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];	/* --sort */
	size_t nr_keys;			/* keys in use */
	struct pulse_callchain_param cc;	/* -g */
	bool cumulate;			/* --children */
	bool chains;			/* resolve callchains of samples that have them */
	struct pulse_cc_cursor cursor;	/* the current sample's frames */
	struct pulse_hist_pool *pool;	/* aggregation threads; NULL: this thread */
	uint64_t lost_samples;		/* LOST_SAMPLES records */
	bool header;			/* --header: pipe features printed as they come */
	struct pulse_header_env hdr_env;	/* -I, and what the pipe's features said */
	uint64_t lost_events;		/* LOST records' counts */
	uint64_t nr_samples;		/* SAMPLE records */
	struct pulse_hist_filter filter;	/* --comms, --cpu, --time, ... */
	regex_t parent_re;		/* -p; compiled when parent is set */
	bool parent;			/* the parent sort key: resolve every callchain */
	bool exclude_other;		/* -x: hide entries whose parent is [other] */
	bool relative;			/* --percentage relative */
	struct pulse_trace *trace;	/* --sort trace: the decoder; NULL: none */
	FILE *trace_fp;			/* the trace text of the current sample */
	char *trace_buf;
	size_t trace_len;
	int err;			/* first error met while delivering */
	bool mem_mode;			/* --mem-mode: weights as periods */
	bool mem_keys;			/* a memory sort key: samples carry their mem fields */
	struct report_branch branch;	/* branch mode: entries are branches */
};

static uint64_t get_lost(const struct perf_event_header *rec)
{
	uint64_t v;

	memcpy(&v, (const char *)rec + 8, sizeof(v));
	return v;
}

static struct pulse_hists *report__hists(struct report *rep, size_t idx)
{
	if (idx >= rep->nr_hists) {
		size_t n = idx + 1;
		struct pulse_hists *h = realloc(rep->hists, n * sizeof(*h));

		if (!h)
			return NULL;
		for (size_t i = rep->nr_hists; i < n; i++) {
			pulse_hists__init(&h[i], rep->keys, rep->nr_keys);
			if (rep->chains)
				pulse_hists__set_callchain(&h[i], &rep->cc, rep->cumulate);
		}
		rep->hists = h;
		rep->nr_hists = n;
	}
	return &rep->hists[idx];
}

/*
 * The filters' verdict (1: the sample stops here) and, for --sort trace,
 * the sample's tracepoint text as perf's get_trace_output() prints it
 * (no cpu in its tep_record). A sample the lists hide still makes (or
 * joins) an entry, as in perf: the entry is hidden when its first sample
 * was. The parent needs the callchain, which is then resolved here.
 */
static int report__filter_trace(struct report *rep, struct pulse_hists *h,
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
		err = pulse_machine__resolve_callchain(&rep->machine, s->pid, s->tid, s->callchain,
						       s->callchain_nr, rep->cc.order, &rep->cursor);
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

static int report__sample(struct report *rep, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct pulse_hist_mem mem;
	struct pulse_sample s;
	struct pulse_addr_loc al;
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
	h = report__hists(rep, idx);
	if (!h)
		return -ENOMEM;
	/* call-stack mode: perf makes the user part of the chain from the branches */
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK &&
	    attr->sample_type & PERF_SAMPLE_BRANCH_STACK &&
	    pulse_branch__lbr_callchain(&s, &rep->branch.lbr_chain, &rep->branch.lbr_alloc) < 0)
		return -ENOMEM;
	err = pulse_machine__resolve(&rep->machine, s.pid, s.tid,
				     rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, s.ip, &al);
	if (err)
		return err;
	err = report__filter_trace(rep, h, attr, &s, &al);
	if (err)
		return err > 0 ? 0 : err;
	if (al.dso)
		al.dso->hit = true;
	if (rep->branch.on)
		return report_branch__sample(&rep->branch, &rep->machine, idx, &s, &al,
					     h->cur_filtered);
	if (rep->mem_keys) {
		err = pulse_hist_mem__init(&mem, attr, &s, &rep->machine,
					   rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, rep->mem_mode);
		if (err)
			return err;
		/* perf's iter_add_single_mem_entry(): the weight, or 1, is the period */
		if (rep->mem_mode)
			s.period = mem.weight ? mem.weight : 1;
		pulse_hists__set_mem(h, &mem);
	}
	if (rep->chains && (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		/* report__filter_trace() resolved it for the parent */
		if (!rep->parent)
			err = pulse_machine__resolve_callchain(&rep->machine, s.pid, s.tid,
							       s.callchain, s.callchain_nr,
							       rep->cc.order, &rep->cursor);
		if (err)
			return err;
		if (rep->pool)
			return pulse_hist_pool__add(rep->pool, h, &al, al.thread->comm, s.period,
						    rep->cursor.locs, rep->cursor.nr);
		return pulse_hists__add_chain(h, &al, al.thread->comm, s.period, rep->cursor.locs,
					      rep->cursor.nr);
	}
	if (rep->pool)
		return pulse_hist_pool__add(rep->pool, h, &al, al.thread->comm, s.period,
					    NULL, 0);
	return pulse_hists__add(h, &al, al.thread->comm, s.period);
}

static int report__deliver(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct report *rep = arg;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		rep->nr_samples++;
		return report__sample(rep, rec);
	case PERF_RECORD_LOST:
		if (rec->size >= 24)
			rep->lost_events += get_lost((const struct perf_event_header *)
						     ((const char *)rec + 8));
		return pulse_machine__process(&rep->machine, rec);
	case PERF_RECORD_LOST_SAMPLES:
		if (rec->size >= 16)
			rep->lost_samples += get_lost(rec);
		return 0;
	default:
		return pulse_machine__process(&rep->machine, rec);
	}
}

static const char header_hint[] =
	"# To display the perf.data header info, please use --header/--header-only options.\n#\n";

/* A pipe's HEADER_FEATURE record (u64 feature; payload) as perf prints it. */
static void report__print_feature(struct pulse_header_env *env,
				  const struct perf_event_header *rec)
{
	uint64_t feat;

	if (rec->size < 16)
		return;
	memcpy(&feat, (const char *)rec + 8, sizeof(feat));
	if (feat < PULSE_FEAT_MAX)
		pulse_header__fprintf_feat(stdout, (int)feat, (const char *)rec + 16,
					   rec->size - 16, env);
}

/* --header-only on a pipe: its features only */
static int report__header_record(struct pulse_data *d, const struct perf_event_header *rec,
				 __u64 file_offset, void *arg)
{
	if (rec->type == PERF_RECORD_HEADER_FEATURE)
		report__print_feature(arg, rec);
	return 0;
}

static int report__record(struct pulse_data *d, const struct perf_event_header *rec,
			  __u64 file_offset, void *arg)
{
	struct report *rep = arg;
	int err;

	pulse_progress__update(&rep->progress, file_offset);
	if (rec->type == PERF_RECORD_HEADER_FEATURE && rep->header)
		report__print_feature(&rep->hdr_env, rec);
	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		if (rec->type == PERF_RECORD_FINISHED_ROUND && rep->oq)
			return pulse_ordered__flush_round(rep->oq);
		return 0;
	}
	if (rep->oq) {
		err = pulse_ordered__queue(rep->oq, rec, pulse_session__record_time(rep->d, rec),
					    file_offset);
		if (err != -ETIME)
			return err;
	}
	return report__deliver(rec, file_offset, rep);
}

/* ---- event names ----------------------------------------------------------
 *
 * A file without EVENT_DESC (pipe mode without it, a recorder killed before
 * its features were written) names its events as perf 6.1's evsel__name()
 * does: a tracepoint "system:name" from the tracing data formats, by config
 * id; other types from the attr, with evsel__add_modifiers()'s suffix.
 */

/* The tracing data blob, read in the byte order its header announces. */
struct tdata {
	const unsigned char *p;
	size_t len, off;
	bool swap;
	bool bad;
};

static const unsigned char *tdata__take(struct tdata *t, size_t n)
{
	const unsigned char *p = t->p + t->off;

	if (t->bad || n > t->len - t->off) {
		t->bad = true;
		return NULL;
	}
	t->off += n;
	return p;
}

static uint64_t tdata__u64(struct tdata *t)
{
	const unsigned char *p = tdata__take(t, 8);
	uint64_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return t->swap ? __builtin_bswap64(v) : v;
}

static uint32_t tdata__u32(struct tdata *t)
{
	const unsigned char *p = tdata__take(t, 4);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return t->swap ? __builtin_bswap32(v) : v;
}

/* A NUL-terminated string; NULL when there is none. */
static const char *tdata__str(struct tdata *t)
{
	const unsigned char *p = t->p + t->off;
	const unsigned char *nul;

	if (t->bad || t->off >= t->len)
		goto bad;
	nul = memchr(p, '\0', t->len - t->off);
	if (!nul)
		goto bad;
	t->off += nul - p + 1;
	return (const char *)p;
bad:
	t->bad = true;
	return NULL;
}

/* Skip "u64 size, then size bytes"; the bytes, or NULL. */
static const char *tdata__blob(struct tdata *t, uint64_t *size)
{
	*size = tdata__u64(t);
	if (*size > t->len)
		t->bad = true;
	return (const char *)tdata__take(t, *size);
}

/* "field: value\n" of a format file, copied into @buf. */
static bool format_field(const char *fmt, size_t len, const char *field, char *buf, size_t size)
{
	size_t flen = strlen(field);

	for (const char *line = fmt; line && line < fmt + len;) {
		const char *eol = memchr(line, '\n', fmt + len - line);
		size_t n = (eol ? eol : fmt + len) - line;

		if (n > flen + 1 && !strncmp(line, field, flen) && line[flen] == ':') {
			const char *v = line + flen + 1;

			while (v < line + n && (*v == ' ' || *v == '\t'))
				v++;
			n = line + n - v;
			if (n >= size)
				n = size - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return true;
		}
		line = eol ? eol + 1 : NULL;
	}
	return false;
}

/*
 * "system:name" of the tracepoint whose format has "ID: @id" in the tracing
 * data (trace-cmd 0.6 layout, see include/pulse/trace.h); false when the
 * data is absent, malformed or does not have it.
 */
static bool tracepoint_name(struct pulse_data *d, uint64_t id, char *buf, size_t size)
{
	static const char magic[] = "\x17\x08\x44tracing";
	struct tdata t = { 0 };
	const unsigned char *big_endian;
	uint32_t nr_sys;
	uint64_t sz;

	t.p = pulse_data__tracing_data(d, &t.len);
	if (!t.p || t.len < sizeof(magic) - 1 || memcmp(t.p, magic, sizeof(magic) - 1))
		return false;
	t.off = sizeof(magic) - 1;
	tdata__str(&t);				/* version */
	big_endian = tdata__take(&t, 1);
	if (!big_endian)
		return false;
	t.swap = !!*big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tdata__take(&t, 1);			/* sizeof(long) */
	tdata__u32(&t);				/* page size */
	if (!tdata__str(&t))			/* "header_page" */
		return false;
	tdata__blob(&t, &sz);
	if (!tdata__str(&t))			/* "header_event" */
		return false;
	tdata__blob(&t, &sz);
	for (uint32_t n = tdata__u32(&t); n && !t.bad; n--)	/* ftrace formats */
		tdata__blob(&t, &sz);
	nr_sys = tdata__u32(&t);
	for (uint32_t i = 0; i < nr_sys && !t.bad; i++) {
		const char *sys = tdata__str(&t);

		for (uint32_t n = tdata__u32(&t); n && !t.bad; n--) {
			const char *fmt = tdata__blob(&t, &sz);
			char v[256];

			if (!fmt || !format_field(fmt, sz, "ID", v, sizeof(v)) ||
			    strtoull(v, NULL, 10) != id)
				continue;
			if (!format_field(fmt, sz, "name", v, sizeof(v)))
				return false;
			snprintf(buf, size, "%s:%s", sys, v);
			return true;
		}
	}
	return false;
}

static const char *event_name(struct pulse_data *d, size_t idx, char *buf, size_t size)
{
	const struct perf_event_attr *attr = pulse_data__attr(d, idx);
	const char *name = pulse_data__attr_name(d, idx);

	if (name)
		return name;
	if (!attr)
		return "unknown";
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return pulse_attr__name(attr, buf, size);
	if (!tracepoint_name(d, attr->config, buf, size))
		snprintf(buf, size, "unknown tracepoint");
	return buf;
}

static bool has_callchains(struct pulse_data *d)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++) {
		const struct perf_event_attr *attr = pulse_data__attr(d, i);

		if (attr && (attr->sample_type & PERF_SAMPLE_CALLCHAIN))
			return true;
	}
	return false;
}

/* perf 6.1's default_mem_sort_order */
#define MEM_SORT_ORDER \
	"local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat," \
	"local_p_stage_cyc"

/* perf's report__setup_sample_type(): --mem-mode needs DATA_SRC in some event */
static int report__check_mem_mode(struct report *rep)
{
	size_t nr = pulse_data__nr_attrs(rep->d);
	__u64 st = 0;

	for (size_t i = 0; i < nr; i++)
		st |= pulse_data__attr(rep->d, i)->sample_type;
	/* a pipe's attrs come later */
	if (nr && !(st & PERF_SAMPLE_DATA_SRC)) {
		error("Selected --mem-mode but no mem data. Did you call perf record without -d?");
		return 1;
	}
	return 0;
}

static bool tracepoints_only(struct pulse_data *d)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++) {
		const struct perf_event_attr *attr = pulse_data__attr(d, i);

		if (!attr || attr->type != PERF_TYPE_TRACEPOINT)
			return false;
	}
	return pulse_data__nr_attrs(d) > 0;
}

/* --sort trace: a decoder of the file's tracing data (none: "N/A" text) */
static int report__open_trace(struct report *rep)
{
	size_t len;
	const void *blob = pulse_data__tracing_data(rep->d, &len);

	if (!blob || pulse_trace__parse(&rep->trace, blob, len))
		return 0;
	rep->trace_fp = open_memstream(&rep->trace_buf, &rep->trace_len);
	return rep->trace_fp ? 0 : -ENOMEM;
}

/*
 * perf's sort__setup_elide(): a --comms, --dsos or --symbols list of one
 * value is said once ("# comm: x") and its column left out, unless that
 * would leave no column.
 */
static void report__elide(struct report *rep, FILE *fp)
{
	/* in --sort order, as perf walks its columns */
	for (size_t k = 0; k < rep->nr_keys; k++) {
		const char *name, *val;

		switch (rep->keys[k]) {
		case PULSE_SORT_SYM:
			/* the names: perf moved the addresses out of its list */
			name = "symbol", val = rep->filter.sym_names;
			break;
		case PULSE_SORT_DSO:
			name = "dso", val = rep->filter.dsos;
			break;
		case PULSE_SORT_COMM:
			name = "comm", val = rep->filter.comms;
			break;
		default:
			continue;
		}
		if (!val || !*val || strchr(val, ','))
			continue;
		fprintf(fp, "# %s: %s\n", name, val);
		for (size_t j = 0; j < rep->nr_hists; j++)
			pulse_hists__hide_key(&rep->hists[j], rep->keys[k]);
	}
}

/*
 * More than 1% of the events lost (perf warns from 5%): LOST_SAMPLES
 * counts when there are any (they count what LOST records count too).
 */
static void report__warn_lost(const struct report *rep)
{
	uint64_t lost = rep->lost_samples ? rep->lost_samples : rep->lost_events;
	uint64_t all = rep->nr_samples + lost;

	if (lost && lost * 100 > all)
		fprintf(stderr, "warning: %" PRIu64 " of %" PRIu64 " events lost (%.2f%%)\n", lost,
			all, 100.0 * lost / all);
}

static int report__print(struct report *rep, const struct pulse_stdio_opts *sopts,
			 const char *input)
{
	FILE *fp = stdout;
	char buf[512];
	bool any = false;

	if (!rep->header)
		fputs(header_hint, fp);
	/*
	 * perf stops here when no sample made an entry (the filters' hidden
	 * ones make entries; --time and --cpu leave none).
	 */
	for (size_t i = 0; i < rep->nr_hists; i++)
		any |= rep->hists[i].nr_samples > 0;
	if (rep->branch.on)
		any = report_branch__has_samples(&rep->branch);
	if (!any) {
		fprintf(stderr, "warning: %s has no samples%s\n", input,
			rep->filter.nr_time || rep->filter.cpus ? " in the --time or --cpu range" : "");
		return ferror(fp) ? -EIO : 0;
	}
	if (rep->branch.on)
		report_branch__elide(&rep->branch, fp, rep->filter.comms, rep->filter.dsos,
				     rep->filter.sym_names);
	else
		report__elide(rep, fp);
	fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", rep->lost_samples);
	for (size_t i = 0; rep->branch.on && i < rep->branch.nr_hists; i++) {
		if (report_branch__print_event(&rep->branch, i, fp,
					       event_name(rep->d, i, buf, sizeof(buf)), sopts,
					       rep->relative))
			return -ENOMEM;
	}
	for (size_t i = 0; !rep->branch.on && i < rep->nr_hists; i++) {
		struct pulse_hists *h = &rep->hists[i];

		if (!h->nr_samples)
			continue;
		if (rep->relative)
			pulse_hists__use_relative(h);
		if (pulse_hists__sort(h) || pulse_hists__sort_chains(h))
			return -ENOMEM;
		pulse_stdio__event_header(fp, event_name(rep->d, i, buf, sizeof(buf)), h->nr_samples,
					  h->total_period, sopts);
		pulse_hists__fprintf(h, fp, sopts);
		fputs("\n\n", fp);
	}
	fputs("#\n# (Tip: For a higher level overview, try: pulse report --sort comm,dso)\n#\n", fp);
	if (rep->branch.on)
		pulse_branch_type_stat__fprintf(&rep->branch.stat, fp);
	return ferror(fp) ? -EIO : 0;
}

/*
 * perf's parent sort key: -p adds it after the others; the default regex
 * is perf's, which on kernels since 4.17 (__x64_sys_*) matches little.
 */
static int report__setup_parent(struct report *rep, const char *pattern)
{
	char msg[256];
	bool has = false;
	int err;

	for (size_t k = 0; k < rep->nr_keys; k++)
		has |= rep->keys[k] == PULSE_SORT_PARENT;
	if (pattern && !has) {
		if (rep->nr_keys == PULSE_SORT_MAX_KEYS) {
			error("too many --sort keys");
			return -EINVAL;
		}
		rep->keys[rep->nr_keys++] = PULSE_SORT_PARENT;
		has = true;
	}
	if (!has)
		return 0;
	if (!pulse_data__is_pipe(rep->d) && !has_callchains(rep->d)) {
		error("Selected --sort parent, but no callchain data. Did you call 'perf record' without -g?");
		return -ENOENT;
	}
	if (!pattern)
		pattern = "^sys_|^do_page_fault";
	err = regcomp(&rep->parent_re, pattern, REG_EXTENDED);
	if (err) {
		regerror(err, &rep->parent_re, msg, sizeof(msg));
		error("invalid --parent regex '%s': %s", pattern, msg);
		return -EINVAL;
	}
	rep->parent = true;
	return 0;
}

static int parse_percent_limit(const struct option *opt, const char *arg, int unset)
{
	char *end;
	double v;

	if (unset) {
		*(double *)opt->value = 0;
		return 0;
	}
	v = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%"))) {
		error("invalid --percent-limit '%s'", arg);
		return -1;
	}
	*(double *)opt->value = v;
	return 0;
}

/* an int option that is 1 when given, 0 when negated, left alone otherwise */
static int parse_children(const struct option *opt, const char *arg, int unset)
{
	*(int *)opt->value = !unset;
	return 0;
}

/*
 * perf's -g takes the next argument when it does not start with '-'
 * (PARSE_OPT_LASTARG_DEFAULT), which the option parser does not do:
 * "-g x" and "--call-graph x" become "--call-graph=x" in @out.
 */
static int join_call_graph_arg(int argc, const char **argv, const char **out, char **owned)
{
	int n = 0;

	*owned = NULL;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool is_g = !strcmp(a, "-g") ||
			    (strlen(a) > 3 && !strncmp("--call-graph", a, strlen(a)));

		if (!strcmp(a, "--"))
			is_g = false;
		if (is_g && !*owned && i + 1 < argc && argv[i + 1][0] != '-') {
			if (asprintf(owned, "--call-graph=%s", argv[i + 1]) < 0)
				return -ENOMEM;
			out[n++] = *owned;
			i++;
			continue;
		}
		out[n++] = a;
	}
	out[n] = NULL;
	return n;
}

/* -g/--call-graph: perf's report_parse_callchain_opt() */
struct cc_opt {
	struct pulse_callchain_param *p;
	bool given;		/* -g (with or without an argument) */
};

static int parse_call_graph(const struct option *opt, const char *arg, int unset)
{
	struct cc_opt *o = opt->value;

	if (unset) {
		o->p->enabled = false;
		o->given = false;
		return 0;
	}
	o->given = true;
	/* a bare -g is perf's callchain_default_opt */
	if (pulse_callchain_param__parse(o->p, arg ? arg : "graph,0.5,caller,function,percent")) {
		error("invalid --call-graph argument '%s'", arg);
		return -1;
	}
	return 0;
}

static const char *default_input(void)
{
	struct stat st;

	/* perf reads a pipe on stdin when no file is named */
	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

/* @argv: the options, without "report" */
/* --sort into rep->keys: the number of keys, or -1 after the error line */
static int report__parse_sort(struct report *rep, const char *spec)
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

static int report_main(int argc, const char **argv)
{
	const char *input = NULL, *sort = "comm,dso,sym", *user_sort = NULL;
	bool use_stdio = false, show_nr = false, dump_raw = false, show_period = false;
	bool show_stats = false;
	const char *percentage = "absolute", *time_str = NULL;
	const char *parent_pattern = NULL;
	char sort_buf[256];
	bool header = false, header_only = false, show_info = false;
	double percent_limit = 0;
	int children = -1, branch_mode = -1, ret = 1, err;
	struct report rep = { 0 };
	struct cc_opt cc_opt = { .p = &rep.cc };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	const char *vmlinux = NULL, *kallsyms_file = NULL;
	struct pulse_stdio_opts sopts = { .sz = sizeof(sopts) };
	char buildid_dir[4096];
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_BOOLEAN('\0', "stdio", &use_stdio, "use the stdio interface (the only one)"),
		OPT_CALLBACK_NOOPT('\0', "children", &children,
				   "accumulate callchains of children and show total overhead",
				   parse_children),
		OPT_CALLBACK_OPTARG('g', "call-graph", &cc_opt,
				    "print_type,threshold[,print_limit],order,sort_key,value",
				    "callchains: graph|flat|fractal|folded|none, threshold, limit, caller|callee, function|address, percent|period|count",
				    parse_call_graph),
		OPT_STRING('s', "sort", &user_sort, "key[,key2...]",
			   "sort by key(s): comm, pid, tid, dso, sym, cpu, symbol_size, trace, parent, "
			   "mem, symbol_daddr, dso_daddr, snoop, tlb, locked, blocked (--mem-mode), "
			   "local_weight, weight, local_ins_lat, ins_lat"),
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
		OPT_CALLBACK('\0', "percent-limit", &percent_limit, "percent",
			     "don't show entries under that percent", parse_percent_limit),
		OPT_BOOLEAN('\0', "mem-mode", &rep.mem_mode, "mem access profile"),
		OPT_BOOLEAN('D', "dump-raw-trace", &dump_raw, "dump raw trace in ASCII"),
		OPT_CALLBACK_NOOPT('b', "branch-stack", &branch_mode,
				   "use branch records for per branch histogram filling",
				   parse_children),
		OPT_BOOLEAN(0, "stats", &show_stats, "display event stats"),
		OPT_BOOLEAN('\0', "header", &header, "show the data header, then the report"),
		OPT_BOOLEAN('\0', "header-only", &header_only, "show only the data header"),
		OPT_BOOLEAN('I', "show-info", &show_info,
			    "Display extended information about perf.data file"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('\0', "kallsyms", &kallsyms_file, "file", "kallsyms pathname"),
		OPT_STRING('\0', "symfs", &sym_opts.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_END(),
	};

	pulse_callchain_param__init(&rep.cc);
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
	if (!input)
		input = default_input();
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
	/* perf's callchain__fprintf_graph() looks at the --sort text itself */
	sopts.sort_starts_with_sym = user_sort && !strncmp(user_sort, "sym", 3);

	err = pulse_data__open(&rep.d, input);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	if (time_str) {
		err = parse_time_filter(&rep.filter, rep.d, time_str);
		if (err) {
			ret = err == -ENOMEM ? 1 : PULSE_EXIT_USAGE;
			goto out_close;
		}
		sopts.time_slices = time_str;
	}
	rep.branch.on = report_branch_mode(rep.d, branch_mode);
	if (rep.branch.on && report_branch__no_data(rep.d))
		goto out_close;
	if (rep.branch.on) {
		ret = report_branch__setup(&rep.branch, user_sort);
		if (ret)
			goto out_close;
		ret = 1;
	}
	/* perf's get_default_sort_order(): "trace" when every event is a tracepoint */
	if (rep.branch.on)
		sort = "comm";	/* the branch keys are the branch hists' */
	else if (user_sort)
		sort = user_sort;
	else if (rep.mem_mode)
		sort = MEM_SORT_ORDER;
	else if (!pulse_data__is_pipe(rep.d) && tracepoints_only(rep.d))
		sort = "trace";	/* a pipe's attrs come after perf chose */
	/* perf's cmd_report(): any --sort naming "symbol" gets ipc_null appended */
	if (user_sort && strstr(sort, "symbol")) {
		snprintf(sort_buf, sizeof(sort_buf), "%s,ipc_null", sort);
		sort = sort_buf;
	}
	if (rep.mem_mode) {
		sopts.mem_sort_order = sort;
		ret = report__check_mem_mode(&rep);
		if (ret)
			goto out_close;
	}
	err = report__parse_sort(&rep, sort);
	if (err < 0) {
		ret = PULSE_EXIT_USAGE;
		goto out_close;
	}
	rep.nr_keys = err;
	for (size_t k = 0; k < rep.nr_keys; k++) {
		rep.mem_keys |= pulse_sort_key__is_mem(rep.keys[k]);
		if (!rep.mem_mode && pulse_sort_key__needs_mem_mode(rep.keys[k])) {
			/* perf's sort_dimension__add() refuses them outside memory mode */
			error("invalid --sort key: '%s' is a memory key, for --mem-mode",
			      pulse_sort_key__title(rep.keys[k]));
			ret = PULSE_EXIT_USAGE;
			goto out_close;
		}
	}
	err = report__setup_parent(&rep, parent_pattern);
	if (err) {
		ret = err == -EINVAL ? PULSE_EXIT_USAGE : 1;
		goto out_close;
	}
	ret = setup_filter(&rep.filter);
	if (ret)
		goto out_close;
	ret = 1;
	for (size_t k = 0; k < rep.nr_keys; k++) {
		if (rep.keys[k] == PULSE_SORT_TRACE && report__open_trace(&rep)) {
			error("out of memory");
			goto out_close;
		}
	}
	rep.relative = !strcmp(percentage, "relative");
	if (header || header_only) {
		struct stat st;

		/* perf's "captured on" is the st_mtime of the file (stdin's for "-") */
		if (strcmp(input, "-") ? stat(input, &st) : fstat(0, &st))
			st.st_mtime = 0;
		rep.header = true;
		rep.hdr_env.full = show_info;
		pulse_header__fprintf(stdout, rep.d, st.st_mtime, show_info);
		if (header_only) {
			ret = 0;
			/* a pipe's features come in-band, at its start */
			if (pulse_data__is_pipe(rep.d) &&
			    pulse_data__for_each_record(rep.d, report__header_record,
							&rep.hdr_env))
				ret = 1;
			goto out_close;
		}
	} else if (show_info && pulse_data__is_pipe(rep.d)) {
		/* perf's -I alone prints a pipe's features as they come, after its hint */
		fputs(header_hint, stdout);
		rep.header = true;
		rep.hdr_env.full = true;
	}
	/* branch mode's entries are branches: no callchains */
	if (!rep.branch.on && has_callchains(rep.d)) {
		/* perf defaults to --children on files with callchains */
		rep.cumulate = children != 0;
		if (rep.cumulate && !rep.cc.order_set)
			rep.cc.order = PULSE_CC_CALLER;
		/*
		 * perf decides on --children before a pipe's attrs arrive and
		 * then finds no callchains in them: caller order, no Children.
		 */
		if (pulse_data__is_pipe(rep.d))
			rep.cumulate = false;
		/* perf's --mem-mode turns --children off */
		if (rep.mem_mode)
			rep.cumulate = false;
		rep.chains = rep.cc.enabled || rep.cumulate;
	} else if (cc_opt.given && rep.cc.enabled && !has_callchains(rep.d)) {
		error("Selected -g but no callchain data. Did you call 'perf record' without -g?");
		goto out_close;
	}

	/* symbols: -k and --kallsyms as given; else this kernel's, if it made the file */
	if (kallsyms_file) {
		sym_opts.kallsyms = kallsyms_file;
		sym_opts.kallsyms_given = true;
	}
	sym_opts.vmlinux = vmlinux;
	pulse_session__symbol_defaults(rep.d, &sym_opts, buildid_dir, sizeof(buildid_dir));
	err = pulse_machine__init(&rep.machine, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_close;
	}
	pulse_session__load_build_ids(rep.d, &rep.machine.dsos);
	/*
	 * Merging callchains is most of a report's work: spread it over the
	 * CPUs (this thread keeps reading and resolving). Without threads,
	 * the same result on this thread.
	 */
	/* the pool's threads are not given the samples' memory fields */
	if (rep.chains && !rep.mem_keys) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		if (ncpu > 1 && pulse_hist_pool__new(&rep.pool, ncpu > 8 ? 8 : ncpu))
			rep.pool = NULL;
	}

	/* perf orders by time only when every record can say when it happened */
	if (pulse_data__nr_attrs(rep.d) == 0 || pulse_data__attr(rep.d, 0)->sample_id_all ||
	    pulse_data__is_pipe(rep.d)) {
		rep.oq = pulse_ordered__new(report__deliver, &rep);
		if (!rep.oq) {
			error("out of memory");
			goto out_machine;
		}
	}
	/*
	 * A recorder killed after a periodic header rewrite leaves a data size
	 * short of the records written: perf stops there, pulse reads every
	 * whole record to the end of the file and says so (the damage table).
	 */
	pulse_progress__init(&rep.progress, stderr,
			     pulse_data__is_pipe(rep.d) ? 0 : pulse_data__file_size(rep.d),
			     "Processing events...");
	err = pulse_data__for_each_record(rep.d, report__record, &rep);
	pulse_progress__finish(&rep.progress);
	if (!err && rep.oq)
		err = pulse_ordered__flush(rep.oq);
	if (rep.pool) {
		int perr = pulse_hist_pool__finish(rep.pool, rep.hists, rep.nr_hists);

		for (size_t i = 0; i < rep.nr_hists && !perr; i++)
			perr = pulse_hists__merge_shards(&rep.hists[i]);
		if (!err)
			err = perr;
	}
	if (err) {
		data_error("read", input, err);
		goto out_ordered;
	}
	data_warn_damage(rep.d);
	data_warn_unordered(rep.oq);
	report__warn_lost(&rep);

	if (report__print(&rep, &sopts, input)) {
		error("cannot write the report: %s", strerror(EIO));
		goto out_ordered;
	}
	ret = 0;
out_ordered:
	pulse_hist_pool__delete(rep.pool);
	pulse_ordered__delete(rep.oq);
	for (size_t i = 0; i < rep.nr_hists; i++)
		pulse_hists__exit(&rep.hists[i]);
	free(rep.hists);
	pulse_cc_cursor__exit(&rep.cursor);
out_machine:
	pulse_machine__exit(&rep.machine);
out_close:
	pulse_data__close(rep.d);
	if (rep.trace_fp)
		fclose(rep.trace_fp);
	free(rep.trace_buf);
	pulse_trace__delete(rep.trace);
	pulse_hist_filter__exit(&rep.filter);
	report_branch__exit(&rep.branch);
	if (rep.parent)
		regfree(&rep.parent_re);
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
