/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs (lib/flame/): the stacks of a profile merged into one caller
 * tree by frame name, laid out and written as one self-contained
 * interactive SVG in the manner of Brendan Gregg's flamegraph.pl.
 *
 *  lib/flame/flame.c    the tree: nodes by (parent, name), stacks added,
 *                       a second tree's totals on the first's paths (--diff)
 *  lib/flame/report.c   the stacks of a report's hist entries and their
 *                       callchain trees (what `report -g folded` prints)
 *  lib/flame/stacks.c   the same stacks straight from report's walk
 *  lib/flame/svg.c      layout, minimum width, colours, the SVG itself
 *  lib/flame/svg-js.c   the script inside it: zoom, search, tooltips
 *
 * Usage: pulse_flame__new(), stacks added (pulse_flame__add_stack() or
 * pulse_flame__add_report()), optionally pulse_flame__diff() against an
 * older tree, then pulse_flame__write_svg().
 */
#ifndef PULSE_FLAME_H
#define PULSE_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a frame is, for its palette (flamegraph.pl's --color=java idea). */
enum pulse_flame_kind {
	PULSE_FLAME_USER,	/* a user-space function: reds */
	PULSE_FLAME_KERNEL,	/* a kernel function: oranges */
	PULSE_FLAME_UNKNOWN,	/* "[unknown]", no symbol: greys */
	PULSE_FLAME_TASK,	/* a --sort prefix (comm, pid, dso): aquas */
};

/* One frame of the merged tree. Node 0 is the root ("all"). */
struct pulse_flame_node {
	const char *name;		/* interned: equal names, equal pointers */
	uint32_t parent;		/* node index; the root's is 0 */
	uint32_t first_child;		/* 0: none (the root is nobody's child) */
	uint32_t next_sibling;		/* 0: the last */
	uint32_t depth;			/* the root's is 0 */
	uint64_t self;			/* samples whose stack ends here */
	uint64_t total;			/* self and every descendant's */
	uint64_t old_total;		/* after pulse_flame__diff(): the same path's in OLD */
	enum pulse_flame_kind kind;	/* of the first frame that made the node */
};

struct pulse_flame;

/* Return: 0 or -ENOMEM; *@out is NULL on failure. */
int pulse_flame__new(struct pulse_flame **out);
void pulse_flame__delete(struct pulse_flame *f);

/**
 * pulse_flame__add_stack - merge one stack, outermost caller first
 * @names: @nr frame names (copied); @kinds: each one's kind, NULL: user
 * @count: samples of that stack (0 adds the frames only)
 * Return: 0, -ENOMEM, -E2BIG past 2^32 nodes.
 */
int pulse_flame__add_stack(struct pulse_flame *f, const char *const *names,
			   const enum pulse_flame_kind *kinds, size_t nr, uint64_t count);

/* The nodes, in the order they were made (node 0 the root); totals after __finish(). */
size_t pulse_flame__nr_nodes(const struct pulse_flame *f);
const struct pulse_flame_node *pulse_flame__node(const struct pulse_flame *f, size_t idx);

/*
 * pulse_flame__child - the child of @parent named @name (compared as text)
 * Return: its index, 0 when it has none.
 */
uint32_t pulse_flame__child(const struct pulse_flame *f, uint32_t parent, const char *name);

/* Sum the totals bottom up and sort each node's children by name (as flamegraph.pl). */
void pulse_flame__finish(struct pulse_flame *f);

/**
 * pulse_flame__diff - differential mode: each node of @f gets the total of
 * the same path (frame names from the root) in @old; both finished
 * Return: 0 or -ENOMEM.
 */
int pulse_flame__diff(struct pulse_flame *f, const struct pulse_flame *old);

struct pulse_report;

/* How pulse_flame__add_report() makes stacks of a report's entries. */
struct pulse_flame_report_opts {
	size_t sz;		/* sizeof(struct pulse_flame_report_opts) */
	/*
	 * The sort keys that become frames above each stack (comm, pid, tid,
	 * dso: as stackcollapse-perf.pl puts the process name first); the
	 * others (sym, ...) split nothing a flame graph shows
	 */
	bool prefix;
};

/**
 * pulse_flame__add_report - the stacks of event @idx's hist entries after
 * pulse_report__process() (--no-children, caller order): each callchain
 * tree node's samples on its path, the frames as `report -g folded` names
 * them (an unresolved one "[unknown]"); an entry of an event without
 * callchains one frame, its symbol (an entry whose chains were all empty
 * none, as folded prints none). Entries a filter hid are left out.
 * Return: 0, -ENOMEM, -E2BIG, -EINVAL for a bad @opts.
 */
int pulse_flame__add_report(struct pulse_flame *f, struct pulse_report *rep, size_t idx,
			    const struct pulse_flame_report_opts *opts);

/*
 * The stacks straight from report's walk (lib/flame/stacks.c), the same
 * ones pulse_flame__add_report() finds in the hist entries, without the
 * entries and their callchain trees: pulse_flame_stacks__new() after
 * pulse_report__setup_callchains() sets the report's sink; after
 * pulse_report__process(), pulse_flame__add_stacks() makes an event's
 * stacks a tree of names. Only when pulse_flame_stacks__usable().
 */
struct pulse_flame_stacks;
struct pulse_addr_loc;
struct pulse_cc_loc;

/* Return: 0, -ENOMEM, -EINVAL for a bad @opts; *@out is NULL on failure. */
int pulse_flame_stacks__new(struct pulse_flame_stacks **out, struct pulse_report *rep,
			    const struct pulse_flame_report_opts *opts);
void pulse_flame_stacks__delete(struct pulse_flame_stacks *st);

/*
 * Are @rep's stacks the sink's? Not with the filters that hide entries
 * (an entry hidden by its first sample hides the later ones), -U, the
 * parent key, nor the pid and tid keys (their frame is the entry's comm).
 */
bool pulse_flame_stacks__usable(const struct pulse_report *rep);

/* The report's sink (struct pulse_report's @sink): one sample of event @idx. */
int pulse_flame_stacks__sample(void *arg, size_t idx, const struct pulse_addr_loc *al,
			       const struct pulse_cc_loc *chain, size_t nr, bool chained);

/* Samples of event @idx given to the sink (entries' nr_samples). */
uint64_t pulse_flame_stacks__nr_samples(const struct pulse_flame_stacks *st, size_t idx);

/**
 * pulse_flame__add_stacks - event @idx's stacks into @f, frames named as
 * pulse_flame__add_report() names them
 * Return: 0, -ENOMEM, -E2BIG.
 */
int pulse_flame__add_stacks(struct pulse_flame *f, const struct pulse_flame_stacks *st,
			    size_t idx);

struct pulse_flame_svg_opts {
	size_t sz;		/* sizeof(struct pulse_flame_svg_opts) */
	const char *title;	/* NULL: "Flame Graph" ("Icicle Graph" inverted) */
	const char *subtitle;	/* shown under the title; NULL: none */
	unsigned int width;	/* pixels; 0: 1200 */
	bool inverted;		/* icicle: the roots at the top */
	double minwidth;	/* per mille of the samples; a narrower frame is merged */
	uint64_t lost;		/* lost samples, said in the subtitle when not 0 */
	bool diff;		/* colours by the change of share (pulse_flame__diff()) */
	uint64_t old_samples;	/* diff: OLD's total samples */
	const char *count_name;	/* "samples" when NULL */
};

/**
 * pulse_flame__write_svg - the finished tree as an SVG document on @fp
 * @nr_merged: set to the frames left out for --minwidth (may be NULL)
 * Return: 0, -ENOMEM, -EIO when writing to @fp failed, -ENODATA for a tree
 * without samples.
 */
int pulse_flame__write_svg(struct pulse_flame *f, FILE *fp,
			   const struct pulse_flame_svg_opts *opts, size_t *nr_merged);

/* lib/flame/svg-js.c: the script the SVG carries (zoom, search, details). */
extern const char pulse_flame__script[];

#endif
