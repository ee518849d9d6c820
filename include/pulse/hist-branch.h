/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's branch mode (lib/hist/hist-branch.c): every branch stack
 * entry of a sample is a histogram entry of period 1, keyed by where the
 * branch came from and went to. perf 6.1's branch sort keys compare in
 * ways that are not orders (mispredict, in_tx and abort say only "equal"
 * or "not equal"), so which entries merge and the order of the rows
 * depend on the shape of perf's red-black trees: pulse builds the same
 * trees (entries, collapsed, output) with the same comparisons.
 */
#ifndef PULSE_HIST_BRANCH_H
#define PULSE_HIST_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/branch.h>
#include <pulse/machine.h>

enum pulse_branch_sort_key {
	PULSE_BSORT_COMM,	/* "comm" */
	PULSE_BSORT_DSO_FROM,	/* "dso_from" */
	PULSE_BSORT_DSO_TO,	/* "dso_to" */
	PULSE_BSORT_SYM_FROM,	/* "symbol_from" */
	PULSE_BSORT_SYM_TO,	/* "symbol_to" */
	PULSE_BSORT_MISPREDICT,	/* "mispredict" */
	PULSE_BSORT_IN_TX,	/* "in_tx" */
	PULSE_BSORT_ABORT,	/* "abort" */
	PULSE_BSORT_CYCLES,	/* "cycles" */
	/*
	 * "ipc_lbr": perf appends it to a --sort that names a symbol key;
	 * compares the target's symbol. pulse prints perf's IPC as it shows
	 * without annotation data: 0.00, 0.0% coverage.
	 */
	PULSE_BSORT_IPC_LBR,
	/*
	 * perf's common keys, on the entry's own place: the branch target,
	 * with the level of the sample's ip
	 */
	PULSE_BSORT_DSO,	/* "dso" */
	PULSE_BSORT_SYM,	/* "sym", "symbol" */
	PULSE_BSORT_PID,	/* "pid": the thread, "tid:comm" */
};

#define PULSE_BSORT_MAX_KEYS 16

/* perf 6.1's default --sort in branch mode */
#define PULSE_BRANCH_DEFAULT_SORT "comm,dso_from,symbol_from,symbol_to,cycles"

/* One end of a branch, placed as perf's ip__resolve_ams() places it. */
struct pulse_branch_end {
	uint64_t addr;				/* as recorded */
	uint64_t al_addr;			/* in its DSO's space; @addr without a map */
	struct pulse_dso *dso;			/* NULL: no map */
	const struct pulse_symbol *sym;		/* NULL: unresolved */
	char level;				/* '.', 'k', 'H' */
};

struct pulse_branch_hist_entry {
	const char *comm;			/* at the first branch (interned) */
	struct pulse_thread *thread;
	struct pulse_branch_end from, to;	/* of the first branch */
	struct pulse_branch_flags flags;	/* of the first branch */
	char level;				/* the sample's (its ip's) */
	uint64_t period;
	uint64_t nr_samples;
	bool filtered;				/* its first branch's sample was hidden */
};

/* perf's struct branch_type_stat: report's "Branch Statistics" */
struct pulse_branch_type_stat {
	uint64_t counts[16];		/* by PERF_BR_* type */
	uint64_t new_counts[8];		/* by PERF_BR_NEW_* type */
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

struct pulse_rbt;
struct pulse_sample;
struct pulse_stdio_opts;

struct pulse_branch_hists {
	enum pulse_branch_sort_key keys[PULSE_BSORT_MAX_KEYS];
	size_t nr_keys;
	struct pulse_branch_hist_entry *entries;	/* in creation order */
	size_t nr_entries, alloc;
	struct pulse_rbt *in;		/* perf's entries_in tree */
	uint32_t *order;		/* output order, after __sort() */
	size_t nr_order;
	uint64_t nr_samples;		/* branches added */
	uint64_t total_period;
	uint64_t nr_non_filtered_samples;	/* to entries not hidden */
	uint64_t total_non_filtered_period;	/* of entries not hidden, after __sort() */
	bool hidden[PULSE_BSORT_MAX_KEYS];	/* keys[i] not printed, not in the output order */
	/*
	 * perf's symbol_conf.dso_list (--dsos): DSO columns then do not widen
	 * to an unresolved address's 16 digits
	 */
	bool dso_list;
};

/**
 * pulse_branch_sort_keys__parse - a --sort list of branch mode
 * @bad, @bad_len: the first key it does not know, on -EINVAL
 * Return: the number of keys, or -EINVAL.
 */
int pulse_branch_sort_keys__parse(const char *spec, enum pulse_branch_sort_key *keys, size_t max,
				  const char **bad, size_t *bad_len);

/* Does @spec parse as branch mode keys? */
bool pulse_branch_sort_keys__valid(const char *spec);

/* The key names it knows, for messages. */
const char *pulse_branch_sort_keys__known(void);

int pulse_branch_hists__init(struct pulse_branch_hists *h, const enum pulse_branch_sort_key *keys,
			     size_t nr_keys);
void pulse_branch_hists__exit(struct pulse_branch_hists *h);

/*
 * perf's ip__resolve_ams(): @addr placed in @t, trying the user, then the
 * kernel address space; level 'H' when neither maps it.
 */
void pulse_branch_end__resolve(struct pulse_machine *m, struct pulse_thread *t, uint64_t addr,
			       struct pulse_branch_end *end);

/**
 * pulse_branch_hists__add - account one branch of @period
 * @he: set to the entry it went to (its first branch's flags are what
 *      perf's branch statistics count)
 * Return: 0 or -ENOMEM.
 */
int pulse_branch_hists__add(struct pulse_branch_hists *h, const char *comm,
			    struct pulse_thread *t, char level, const struct pulse_branch_end *from,
			    const struct pulse_branch_end *to, const struct pulse_branch_flags *flags,
			    uint64_t period, bool filtered, const struct pulse_branch_hist_entry **he);

/**
 * pulse_branch_hists__add_sample - every branch of a sample, in its thread
 * (@al, pulse_machine__resolve() of the sample), counted in @st as perf's
 * branch statistics count them
 * @filtered: a filter (--comms ...) hides the sample: its branches count in
 *            the totals, an entry they make is not printed
 * Return: 0 or -ENOMEM.
 */
int pulse_branch_hists__add_sample(struct pulse_branch_hists *h, struct pulse_machine *m,
				   const struct pulse_addr_loc *al, const struct pulse_sample *s,
				   bool filtered, struct pulse_branch_type_stat *st);

/*
 * perf's sort__setup_elide(): @key is not printed (a filter has one value)
 * and not in the output order; @hide false shows it again
 */
void pulse_branch_hists__hide_key(struct pulse_branch_hists *h, enum pulse_branch_sort_key key,
				  bool hide);

/* --percentage relative: the totals of the entries not hidden (after __sort()) */
void pulse_branch_hists__use_relative(struct pulse_branch_hists *h);

/* Collapse and order the entries for output. Return: 0 or -ENOMEM. */
int pulse_branch_hists__sort(struct pulse_branch_hists *h);

/* perf's branch_type_count() of one branch. */
void pulse_branch_type_stat__count(struct pulse_branch_type_stat *st,
				   const struct pulse_branch_flags *flags, uint64_t from, uint64_t to);

/* perf's branch_type_stat_display(): nothing without typed branches; no final newline. */
void pulse_branch_type_stat__fprintf(const struct pulse_branch_type_stat *st, FILE *fp);

/*
 * What perf keeps in static variables from row to row, over every event's
 * table (the mispredict column repeats its last answer for a branch with
 * neither flag): start it at zero.
 */
struct pulse_branch_print_state {
	const char *mispredict;
};

/**
 * pulse_branch_hists__fprintf - the column titles and rows of sorted hists
 * (pulse_branch_hists__sort()) as perf 6.1's --stdio prints them
 * Return: 0 or -EIO.
 */
int pulse_branch_hists__fprintf(const struct pulse_branch_hists *h, FILE *fp,
				const struct pulse_stdio_opts *opts,
				struct pulse_branch_print_state *state);

#endif
