/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A red-black tree whose nodes are array slots (uint32_t indexes), with
 * the Linux kernel's lib/rbtree.c insert and erase, step for step. perf
 * keeps symbols and report entries in such trees, and where its
 * comparisons tie or its contents overlap, what it prints depends on the
 * tree's shape: pulse reproduces perf's output by building the same tree.
 * The caller walks down and links a node (pulse_rbt__link()), then
 * rebalances (pulse_rbt__insert_color()).
 */
#ifndef PULSE_RBTREE_H
#define PULSE_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PULSE_RBT_NIL UINT32_MAX

struct pulse_rbt_node {
	uint32_t left, right, parent;
	bool red;
	bool in_tree;
};

struct pulse_rbt {
	struct pulse_rbt_node *n;	/* indexed like the caller's objects */
	size_t alloc;
	uint32_t root;
};

/* An empty tree. */
void pulse_rbt__init(struct pulse_rbt *t);

/* Room for nodes 0..@nr-1. Return: 0, -E2BIG or -ENOMEM. */
int pulse_rbt__reserve(struct pulse_rbt *t, size_t nr);

void pulse_rbt__exit(struct pulse_rbt *t);

/* Node @idx (reserved) becomes a red leaf under @parent, on its left or right. */
void pulse_rbt__link(struct pulse_rbt *t, uint32_t idx, uint32_t parent, bool left);

/* __rb_insert(): rebalance after pulse_rbt__link(). */
void pulse_rbt__insert_color(struct pulse_rbt *t, uint32_t node);

/* rb_erase() */
void pulse_rbt__erase(struct pulse_rbt *t, uint32_t node);

/* In-order walk; PULSE_RBT_NIL at the end. */
uint32_t pulse_rbt__first(const struct pulse_rbt *t);
uint32_t pulse_rbt__next(const struct pulse_rbt *t, uint32_t x);

#endif
