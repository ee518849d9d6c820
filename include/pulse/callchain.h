/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Callchain trees (lib/hist/callchain.c) as perf 6.1 builds them for
 * perf report: each histogram entry owns a tree into which the resolved
 * callchain of every sample that lands on it is merged. A node holds a
 * run of frames; frames are equal when they are in the same function (DSO
 * and start address), or, when a side is unresolved, at the same DSO and
 * address. Children of a node are kept in perf's insertion-tree order
 * (descending), which is the tie order of the sorted output.
 */
#ifndef PULSE_CALLCHAIN_H
#define PULSE_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pulse/cc-cursor.h>
#include <pulse/symbols.h>

enum pulse_cc_mode {
	PULSE_CC_GRAPH_ABS,	/* "graph": percentages of the whole event */
	PULSE_CC_GRAPH_REL,	/* "fractal": percentages of the parent */
	PULSE_CC_FLAT,		/* "flat" */
	PULSE_CC_FOLDED,	/* "folded": one line a chain, ';' between frames */
	PULSE_CC_NONE,		/* "none": no chains printed */
};

enum pulse_cc_value {
	PULSE_CC_PERCENT,
	PULSE_CC_PERIOD,
	PULSE_CC_COUNT,
};

/* perf report -g: "graph,0.5,caller,function,percent" and the like. */
struct pulse_callchain_param {
	enum pulse_cc_mode mode;
	enum pulse_cc_order order;
	enum pulse_cc_value value;
	bool order_set;		/* caller/callee given: children mode does not change it */
	bool address_key;	/* "address": frames equal by address, not function */
	bool enabled;		/* callchains are used (not "none", not --no-call-graph) */
	double min_percent;	/* threshold, percent */
	uint32_t print_limit;	/* chains printed per level; 0: all */
};

/**
 * pulse_callchain_param__init - perf report's defaults: graph, 0.5%,
 * callee order (caller in children mode unless set), function, percent
 */
void pulse_callchain_param__init(struct pulse_callchain_param *p);

/**
 * pulse_callchain_param__parse - apply a -g/--call-graph argument
 * @arg: comma-separated tokens, each a unique prefix as perf matches them
 * Return: 0, or -EINVAL for a token that is no mode, order, key, value or
 * number.
 */
int pulse_callchain_param__parse(struct pulse_callchain_param *p, const char *arg);

struct pulse_cc_node {
	struct pulse_cc_node *parent;
	struct pulse_cc_loc *val;		/* the run of frames of this node */
	uint32_t val_nr;
	uint32_t count;				/* samples ending here */
	uint32_t children_count;		/* samples going on below */
	uint64_t hit;				/* period ending here */
	uint64_t children_hit;			/* period going on below */
	struct pulse_cc_node **children;	/* insertion-tree order */
	uint32_t nr_children;
	uint32_t alloc_children;
	struct pulse_cc_node **sorted;		/* output order (graph modes) */
	uint32_t nr_sorted;
	/* perf's rb_root_in / rb_node_in: the children's insertion rbtree */
	struct pulse_cc_node *rb_root;
	struct pulse_cc_node *rb_child[2], *rb_parent;	/* [0] left, [1] right */
	bool rb_red;
};

struct pulse_arena;

struct pulse_cc_root {
	struct pulse_cc_node node;		/* empty run; the chains below */
	/*
	 * Where the tree's memory comes from: set before the first append
	 * to share one arena among many roots (freed by its owner), else
	 * the root makes its own, freed by pulse_cc_root__exit().
	 */
	struct pulse_arena *arena;
	bool own_arena;
	uint64_t max_depth;			/* longest chain appended */
	struct pulse_cc_node **flat;		/* flat/folded output order */
	size_t nr_flat;
};

static inline uint64_t pulse_cc_node__cumul_hits(const struct pulse_cc_node *n)
{
	return n->hit + n->children_hit;
}

static inline uint32_t pulse_cc_node__cumul_count(const struct pulse_cc_node *n)
{
	return n->count + n->children_count;
}

/**
 * pulse_cc_root__append - merge one chain (perf's callchain_append())
 * @key_address: compare frames by DSO and address only
 * Return: 0 or -ENOMEM.
 */
int pulse_cc_root__append(struct pulse_cc_root *root, const struct pulse_cc_loc *locs,
			  size_t nr, uint64_t period, bool key_address);

/**
 * pulse_cc_root__sort - put the tree in output order for @p's mode,
 * leaving out chains under @min_hit (perf's sort_chain_*)
 * Return: 0 or -ENOMEM.
 */
int pulse_cc_root__sort(struct pulse_cc_root *root, const struct pulse_callchain_param *p,
			uint64_t min_hit);

/*
 * pulse_cc_root__sort() with the output order's memory from @arena, which
 * must live as long as the tree: to sort trees on several threads
 */
int pulse_cc_root__sort_in(struct pulse_cc_root *root, const struct pulse_callchain_param *p,
			   uint64_t min_hit, struct pulse_arena *arena);

void pulse_cc_root__exit(struct pulse_cc_root *root);

#endif
