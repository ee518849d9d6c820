/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report tool (lib/report/): a session's samples placed on a thread,
 * DSO and symbol, filtered and added to one histogram per event, then
 * printed as perf 6.1's `perf report --stdio` does. The caller (cli/
 * cmd-report.c) sets the configuration fields after pulse_report__init(),
 * calls pulse_report__setup() once the file is open, walks the session
 * with pulse_report__process() and prints with pulse_report__fprintf().
 *
 *  lib/report/report.c   the walk: sample -> resolve -> filter -> hist
 *  lib/report/setup.c    perf's choices from the file: sort order, modes
 *  lib/report/print.c    the table, the elided columns, the pipe's features
 *  lib/report/branch.c   branch mode: every branch of a sample an entry
 *  lib/report/tasks.c    --tasks: the threads under their parents
 *  lib/report/threads.c  -T: the per-thread counts of the READ records
 */
#ifndef PULSE_REPORT_H
#define PULSE_REPORT_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/itrace.h>
#include <pulse/callchain.h>
#include <pulse/hist.h>
#include <pulse/hist-branch.h>
#include <pulse/hist-filter.h>
#include <pulse/dump.h>
#include <pulse/output-header.h>
#include <pulse/output-stdio.h>
#include <pulse/progress.h>
#include <pulse/session.h>

/* Branch mode: one branch histogram per event. */
struct pulse_report_branch {
	bool on;				/* entries are branches */
	enum pulse_branch_sort_key keys[PULSE_BSORT_MAX_KEYS];	/* --sort, branch keys */
	size_t nr_keys;				/* keys in use */
	struct pulse_branch_hists *hists;	/* one per attr */
	size_t nr_hists;			/* hists allocated */
	struct pulse_branch_type_stat stat;	/* the branch types, for the summary */
	struct pulse_branch_print_state print_state;	/* across the events' tables */
	__u64 *lbr_chain;			/* call-stack mode callchains, in any mode */
	size_t lbr_alloc;			/* entries allocated */
};

/* -T: one thread's row of READ counts. */
struct pulse_report_thread {
	uint32_t pid;			/* the READ record's pid */
	uint32_t tid;			/* and tid */
	uint64_t *value;		/* a sum per counter (alloc_counters of them) */
};

/* -T: an event that READ records counted. */
struct pulse_report_counter {
	size_t idx;			/* its attr index (perf's raw id) */
	char *name;			/* its name when first read */
};

/* -T: perf's struct perf_read_values, rows and columns in the order first read. */
struct pulse_report_threads {
	bool on;				/* -T given: collect READ records */
	struct pulse_report_thread *threads;	/* the rows */
	size_t nr_threads, alloc_threads;	/* in use, allocated */
	struct pulse_report_counter *counters;	/* the columns */
	size_t nr_counters, alloc_counters;	/* in use, allocated */
};

/* perf's group view: the groups of the file (lib/report/group.c). */
struct pulse_report_group {
	int want;			/* --group (1), --no-group (0), neither (-1) */
	bool on;			/* tables per group */
	bool forced;			/* --group on a file without groups: all one */
	size_t nr;			/* attrs */
	size_t *leader;			/* each attr's leader (itself for a leader) */
	uint32_t *nr_members;		/* a leader's members, itself included */
	char **name;			/* a named group's name; NULL: anon */
};

struct pulse_report {
	/* ---- configuration: set before pulse_report__setup() ---- */
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];	/* --sort */
	size_t nr_keys;			/* keys in use */
	/*
	 * perf's output fields (pulse_report__setup_fields()), keys[] then
	 * being perf's whole sort list; 0: the default columns
	 */
	enum pulse_sort_key fields[PULSE_SORT_MAX_KEYS];
	size_t nr_fields;
	bool fields_self;		/* perf's default columns: Overhead titled Self */
	struct pulse_callchain_param cc;	/* -g */
	uint32_t max_stack;		/* --max-stack: frames kept of each callchain */
	bool no_inline;			/* --no-inline: no inline frames in callchains */
	bool inline_fp;			/* --inline given: frame-pointer chains get them too */
	bool hide_unresolved;		/* -U: no samples or frames without a symbol */
	struct pulse_hist_filter filter;	/* --comms, --cpu, --time, ... */
	bool exclude_other;		/* -x: hide entries whose parent is [other] */
	bool relative;			/* --percentage relative */
	bool mem_mode;			/* --mem-mode: weights as periods */
	bool header;			/* --header or -I: a pipe's features printed as they come */
	struct pulse_header_env hdr_env;	/* -I, and what the pipe's features said */
	struct pulse_report_threads threads;	/* -T: set .on; the walk fills the rest */
	struct pulse_report_group group;	/* set .want; pulse_report__fprintf() the rest */
	FILE *progress_fp;		/* where the progress bar goes (a terminal), or NULL */
	/*
	 * Instead of the hists: each sample that passed the filters, resolved,
	 * given to @sink (lib/flame builds one tree straight from them, far
	 * cheaper than an entry and a callchain tree each). @chain is the
	 * callchain in rep->cc's order when the sample takes the chain path
	 * (@chained, perhaps with no frames), else NULL. No entries are made
	 * and no pool is started: the filters that hide entries (--comms,
	 * --pid, --tid, --dsos, --symbols) need entries, and their samples
	 * are not given. Non-zero from @sink stops the walk.
	 */
	int (*sink)(void *arg, size_t idx, const struct pulse_addr_loc *al,
		    const struct pulse_cc_loc *chain, size_t nr, bool chained);
	void *sink_arg;
	struct pulse_itrace_opts itrace;	/* --itrace (default_no_sample false: report's) */

	/* ---- set up from the file: pulse_report__setup() and its helpers ---- */
	struct pulse_session *session;	/* the input (borrowed) */
	struct pulse_data *d;		/* its reader */
	bool cumulate;			/* --children */
	bool cumulate_cancelled;	/* --children (the default) but no callchains */
	bool chains;			/* resolve callchains of samples that have them */
	bool unwinds;			/* ... and unwinds their user stacks (DWARF) */
	bool parent;			/* the parent sort key: resolve every callchain */
	regex_t parent_re;		/* -p; compiled when parent is set */
	bool mem_keys;			/* a memory sort key: samples carry their mem fields */
	struct pulse_srclines *srclines;	/* --sort srcline: the DSOs' line tables */
	struct pulse_trace *trace;	/* --sort trace: the decoder (borrowed); NULL: none */
	struct pulse_report_branch branch;	/* branch mode */

	/* ---- the walk's state and results ---- */
	struct pulse_progress progress;	/* "Processing events..." */
	struct pulse_machine *machine;	/* the session's */
	struct pulse_hists *hists;	/* one per attr */
	size_t nr_hists;		/* hists allocated */
	struct pulse_cc_cursor cursor;	/* the current sample's frames */
	struct pulse_hist_pool *pool;	/* aggregation threads; NULL: this thread */
	FILE *trace_fp;			/* the trace text of the current sample */
	char *trace_buf;		/* its buffer */
	size_t trace_len;		/* its length */
	uint64_t lost_samples;		/* LOST_SAMPLES records' counts */
	uint64_t lost_events;		/* LOST records' counts */
	struct pulse_aux_stats aux;	/* AUX records and their flags */
	uint64_t nr_samples;		/* SAMPLE records */
	struct pulse_pt *pt;		/* the AUX trace decoder; NULL: none */
	const uint64_t *pt_chain;	/* its callchain for the current sample (--itrace=G) */
	size_t pt_chain_nr;		/* 0: none */
};

/**
 * pulse_report__setup_fields - perf's sort and output lists from -F and
 * --sort (util/sort.c setup_sorting()), after the keys and the callchain
 * setup: without -F, or with "+...", the default columns (Children with
 * --children, Overhead, -n's Samples, --show-total-period's Period) and
 * "overhead" (and "overhead_children") before a --sort text that does
 * not name them; -F's fields; then each sort key not yet a column is
 * one, each column not yet a sort key one. Nothing changes when neither
 * -F nor an hpp key was given.
 * @user_sort: --sort as given, NULL: none; @user_fields: -F, or NULL
 * @bad: on -EINVAL or -ESRCH, the field -F did not take (into @user_fields)
 * Return: 0; -EINVAL: "+" alone, a key perf takes in --sort only (memory,
 * parent); -ESRCH: an unknown field; -E2BIG: too many.
 */
int pulse_report__setup_fields(struct pulse_report *rep, const char *user_sort,
			       const char *user_fields, bool show_nr, bool show_period,
			       const char **bad, size_t *bad_len);

/* An empty report: no keys, perf's -g defaults. */
void pulse_report__init(struct pulse_report *rep);
/* Free what the report holds (not the session); a report never set up is fine. */
void pulse_report__exit(struct pulse_report *rep);

/* ---- lib/report/setup.c: perf's choices from the file ------------------------ */

/* perf 6.1's default_mem_sort_order */
#define PULSE_REPORT_MEM_SORT \
	"local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat," \
	"local_p_stage_cyc"

/*
 * pulse_report__sort_order - the --sort perf uses on this file: the user's
 * (with ipc_null appended when it names "symbol"), else --mem-mode's,
 * "trace" when every event is a tracepoint (not a pipe: its attrs come after
 * perf chose), else "comm,dso,sym"; "comm" in branch mode (its keys are the
 * branch hists'). @buf holds the result when it is built.
 */
const char *pulse_report__sort_order(const struct pulse_report *rep, const char *user_sort,
				     char *buf, size_t size);

/* Does any event sample callchains? */
bool pulse_report__has_callchains(const struct pulse_report *rep);

/*
 * pulse_report__check_mem_mode - --mem-mode needs DATA_SRC in some event
 * Return: 0, -ENOENT when no event has it (a pipe's attrs come later: 0).
 */
int pulse_report__check_mem_mode(const struct pulse_report *rep);

/**
 * pulse_report__setup_parent - perf's parent sort key: -p adds it after the
 * others; the default regex is perf's, which on kernels since 4.17
 * (__x64_sys_*) matches little
 * @msg: set to regerror()'s text for a bad @pattern
 * Return: 0; -E2BIG for a key too many; -ENOENT when the file has no
 * callchains; -EINVAL for a bad regex.
 */
int pulse_report__setup_parent(struct pulse_report *rep, const char *pattern, char *msg,
			       size_t size);

/*
 * pulse_report__setup_callchains - perf's --children and -g on this file
 * @children: --children (1), --no-children (0) or neither (-1)
 * Return: 0; -ENOENT when -g was given (@cc_given) and the file has no
 * callchains.
 */
int pulse_report__setup_callchains(struct pulse_report *rep, int children, bool cc_given);

/**
 * pulse_report__setup - ready the walk of @s (after the keys and options)
 * Opens the --sort trace decoder, the aggregation threads and the hists'
 * parameters; the session's machine must be set up.
 * Return: 0 or -ENOMEM.
 */
int pulse_report__setup(struct pulse_report *rep, struct pulse_session *s);

/* ---- lib/report/report.c: the walk ----------------------------------------- */

/**
 * pulse_report__process - walk the session into the hists
 * Return: 0 or what pulse_session__process() returns.
 */
int pulse_report__process(struct pulse_report *rep);

/* The lost count perf reports: LOST_SAMPLES when there are any, else LOST records'. */
uint64_t pulse_report__nr_lost(const struct pulse_report *rep);

/* Did any sample make an entry (hidden ones included)? */
bool pulse_report__has_entries(const struct pulse_report *rep);

/* ---- lib/report/print.c ---------------------------------------------------- */

/* perf's line pointing at --header, printed when the header is not */
extern const char pulse_report__header_hint[];

/**
 * pulse_report__fprintf - the tables, one per event with samples, as perf
 * prints them: the elided columns, "Total Lost Samples", each event's
 * header and rows, the tip (and in branch mode the branch type summary)
 * Return: 0, -ENOMEM, -EIO when writing to @fp failed.
 */
int pulse_report__fprintf(struct pulse_report *rep, FILE *fp,
			  const struct pulse_stdio_opts *sopts);

/* A pipe's HEADER_FEATURE record (u64 feature; payload) as perf prints it. */
void pulse_report__fprintf_feature(FILE *fp, struct pulse_header_env *env,
				   const struct perf_event_header *rec);

/* ---- lib/report/group.c ---------------------------------------------------- */

/*
 * pulse_report__setup_groups - the file's groups (GROUP_DESC; a pipe's as
 * read so far) and whether tables are per group (.want, else perf's
 * default: when the file has groups). Return: 0 or -ENOMEM.
 */
int pulse_report__setup_groups(struct pulse_report *rep);
void pulse_report_group__exit(struct pulse_report_group *g);
/* A leader of more than one event (perf says "of events" for it) */
bool pulse_report__is_group_leader(const struct pulse_report *rep, size_t idx);
bool pulse_report__is_group_member(const struct pulse_report *rep, size_t idx);
/* perf's evsel__group_desc(): "anon group { a, b }" ("a, b" when forced) */
const char *pulse_report__group_name(struct pulse_report *rep, size_t idx, char *buf,
				     size_t size);
/* Link leader @idx's members into its hists. Return: 0 or -ENOMEM. */
int pulse_report__link_group(struct pulse_report *rep, size_t idx);

/* ---- lib/report/tasks.c ---------------------------------------------------- */

/**
 * pulse_report__fprintf_tasks - perf's --tasks: "# pid tid ppid comm",
 * then every thread of the walked session under its parent; with @mmaps
 * (--mmaps) each followed by its maps
 * Return: 0, -ENOMEM, -ENOENT for a parent that is no thread (perf: "failed
 * to process tasks"), -EIO when writing to @fp failed.
 */
int pulse_report__fprintf_tasks(struct pulse_report *rep, FILE *fp, bool mmaps);

/* ---- lib/report/threads.c -------------------------------------------------- */

/*
 * pulse_report__add_read - -T: add a READ record's count to its thread and
 * event (a record too short or of no known event is skipped)
 * Return: 0 or -ENOMEM.
 */
int pulse_report__add_read(struct pulse_report *rep, const struct perf_event_header *rec);

/**
 * pulse_report__fprintf_threads - perf's -T table of the READ counts
 * ("# PID  TID  event..."), or with @raw (--pretty=raw) perf's raw cells
 * Return: 0, -ENOMEM, -EIO when writing to @fp failed.
 */
int pulse_report__fprintf_threads(const struct pulse_report *rep, FILE *fp, bool raw);

/* Free what -T collected. */
void pulse_report_threads__exit(struct pulse_report_threads *t);

/* ---- lib/report/branch.c --------------------------------------------------- */

/*
 * Does report run in branch mode? @forced is --branch-stack (1),
 * --no-branch-stack (0) or neither (-1).
 */
bool pulse_report_branch__is_on(struct pulse_data *d, int forced);

/* Does some event sample branch stacks (a pipe: true, its attrs come later)? */
bool pulse_report_branch__has_data(struct pulse_data *d);

/**
 * pulse_report_branch__setup - branch mode with perf's keys, or --sort's
 * @bad, @bad_len: set to an unknown key
 * Return: 0, -EINVAL for an unknown key.
 */
int pulse_report_branch__setup(struct pulse_report_branch *rb, const char *user_sort,
			       const char **bad, size_t *bad_len);
void pulse_report_branch__exit(struct pulse_report_branch *rb);

/* @hidden: a filter hides the sample (its branches count in the totals only) */
int pulse_report_branch__sample(struct pulse_report_branch *rb, struct pulse_machine *m,
				size_t idx, const struct pulse_sample *s,
				const struct pulse_addr_loc *al, bool hidden);
bool pulse_report_branch__has_samples(const struct pulse_report_branch *rb);
/* "# comm: NAME" and the comm column hidden, for a --comms of one name (dso, symbol too) */
void pulse_report_branch__elide(struct pulse_report_branch *rb, FILE *fp, const char *comms,
				const char *dsos, const char *symbols);
/* event @idx's table, if it has branches: header, rows, two newlines */
int pulse_report_branch__fprintf_event(struct pulse_report_branch *rb, size_t idx, FILE *fp,
				       const char *evname, const struct pulse_stdio_opts *sopts,
				       bool relative);

#endif
