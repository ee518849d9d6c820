// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/rbtree.h"

void pulse_rbt__init(struct pulse_rbt *t)
{
	memset(t, 0, sizeof(*t));
	t->root = PULSE_RBT_NIL;
}

int pulse_rbt__reserve(struct pulse_rbt *t, size_t nr)
{
	struct pulse_rbt_node *n;
	size_t alloc;

	if (nr <= t->alloc)
		return 0;
	if (nr >= PULSE_RBT_NIL)
		return -E2BIG;
	alloc = t->alloc ? t->alloc : 256;
	while (alloc < nr)
		alloc *= 2;
	n = realloc(t->n, alloc * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->n = n;
	t->alloc = alloc;
	return 0;
}

void pulse_rbt__exit(struct pulse_rbt *t)
{
	free(t->n);
	memset(t, 0, sizeof(*t));
}

static void rbt__change_child(struct pulse_rbt *t, uint32_t old, uint32_t new, uint32_t parent)
{
	if (parent == PULSE_RBT_NIL)
		t->root = new;
	else if (t->n[parent].left == old)
		t->n[parent].left = new;
	else
		t->n[parent].right = new;
}

/* __rb_rotate_set_parents(): @new takes @old's place and color. */
static void rbt__rotate_set_parents(struct pulse_rbt *t, uint32_t old, uint32_t new, bool red)
{
	uint32_t parent = t->n[old].parent;

	t->n[new].parent = parent;
	t->n[new].red = t->n[old].red;
	t->n[old].parent = new;
	t->n[old].red = red;
	rbt__change_child(t, old, new, parent);
}

static void set_parent_black(struct pulse_rbt_node *n, uint32_t node, uint32_t parent)
{
	n[node].parent = parent;
	n[node].red = false;
}

/* __rb_insert() */
void pulse_rbt__insert_color(struct pulse_rbt *t, uint32_t node)
{
	struct pulse_rbt_node *n = t->n;
	uint32_t parent = n[node].parent, gparent, tmp;

	for (;;) {
		if (parent == PULSE_RBT_NIL) {
			set_parent_black(n, node, PULSE_RBT_NIL);
			break;
		}
		if (!n[parent].red)
			break;
		gparent = n[parent].parent;
		tmp = n[gparent].right;
		if (parent != tmp) {
			if (tmp != PULSE_RBT_NIL && n[tmp].red) {
				set_parent_black(n, tmp, gparent);
				set_parent_black(n, parent, gparent);
				node = gparent;
				parent = n[node].parent;
				n[node].red = true;
				continue;
			}
			tmp = n[parent].right;
			if (node == tmp) {
				tmp = n[node].left;
				n[parent].right = tmp;
				n[node].left = parent;
				if (tmp != PULSE_RBT_NIL)
					set_parent_black(n, tmp, parent);
				n[parent].parent = node;
				n[parent].red = true;
				parent = node;
				tmp = n[node].right;
			}
			n[gparent].left = tmp;
			n[parent].right = gparent;
			if (tmp != PULSE_RBT_NIL)
				set_parent_black(n, tmp, gparent);
			rbt__rotate_set_parents(t, gparent, parent, true);
			break;
		}
		tmp = n[gparent].left;
		if (tmp != PULSE_RBT_NIL && n[tmp].red) {
			set_parent_black(n, tmp, gparent);
			set_parent_black(n, parent, gparent);
			node = gparent;
			parent = n[node].parent;
			n[node].red = true;
			continue;
		}
		tmp = n[parent].left;
		if (node == tmp) {
			tmp = n[node].right;
			n[parent].left = tmp;
			n[node].right = parent;
			if (tmp != PULSE_RBT_NIL)
				set_parent_black(n, tmp, parent);
			n[parent].parent = node;
			n[parent].red = true;
			parent = node;
			tmp = n[node].left;
		}
		n[gparent].right = tmp;
		n[parent].left = gparent;
		if (tmp != PULSE_RBT_NIL)
			set_parent_black(n, tmp, gparent);
		rbt__rotate_set_parents(t, gparent, parent, true);
		break;
	}
}

/* ____rb_erase_color() */
static void rbt__erase_color(struct pulse_rbt *t, uint32_t parent)
{
	struct pulse_rbt_node *n = t->n;
	uint32_t node = PULSE_RBT_NIL, sibling, tmp1, tmp2;

	for (;;) {
		sibling = n[parent].right;
		if (node != sibling) {
			if (n[sibling].red) {
				tmp1 = n[sibling].left;
				n[parent].right = tmp1;
				n[sibling].left = parent;
				set_parent_black(n, tmp1, parent);
				rbt__rotate_set_parents(t, parent, sibling, true);
				sibling = tmp1;
			}
			tmp1 = n[sibling].right;
			if (tmp1 == PULSE_RBT_NIL || !n[tmp1].red) {
				tmp2 = n[sibling].left;
				if (tmp2 == PULSE_RBT_NIL || !n[tmp2].red) {
					n[sibling].red = true;
					if (n[parent].red) {
						n[parent].red = false;
					} else {
						node = parent;
						parent = n[node].parent;
						if (parent != PULSE_RBT_NIL)
							continue;
					}
					break;
				}
				tmp1 = n[tmp2].right;
				n[sibling].left = tmp1;
				n[tmp2].right = sibling;
				n[parent].right = tmp2;
				if (tmp1 != PULSE_RBT_NIL)
					set_parent_black(n, tmp1, sibling);
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = n[sibling].left;
			n[parent].right = tmp2;
			n[sibling].left = parent;
			set_parent_black(n, tmp1, sibling);
			if (tmp2 != PULSE_RBT_NIL)
				n[tmp2].parent = parent;
			rbt__rotate_set_parents(t, parent, sibling, false);
			break;
		}
		sibling = n[parent].left;
		if (n[sibling].red) {
			tmp1 = n[sibling].right;
			n[parent].left = tmp1;
			n[sibling].right = parent;
			set_parent_black(n, tmp1, parent);
			rbt__rotate_set_parents(t, parent, sibling, true);
			sibling = tmp1;
		}
		tmp1 = n[sibling].left;
		if (tmp1 == PULSE_RBT_NIL || !n[tmp1].red) {
			tmp2 = n[sibling].right;
			if (tmp2 == PULSE_RBT_NIL || !n[tmp2].red) {
				n[sibling].red = true;
				if (n[parent].red) {
					n[parent].red = false;
				} else {
					node = parent;
					parent = n[node].parent;
					if (parent != PULSE_RBT_NIL)
						continue;
				}
				break;
			}
			tmp1 = n[tmp2].left;
			n[sibling].right = tmp1;
			n[tmp2].left = sibling;
			n[parent].left = tmp2;
			if (tmp1 != PULSE_RBT_NIL)
				set_parent_black(n, tmp1, sibling);
			tmp1 = sibling;
			sibling = tmp2;
		}
		tmp2 = n[sibling].right;
		n[parent].left = tmp2;
		n[sibling].right = parent;
		set_parent_black(n, tmp1, sibling);
		if (tmp2 != PULSE_RBT_NIL)
			n[tmp2].parent = parent;
		rbt__rotate_set_parents(t, parent, sibling, false);
		break;
	}
}

/* rb_erase(): the successor of a node with two children takes its place. */
void pulse_rbt__erase(struct pulse_rbt *t, uint32_t node)
{
	struct pulse_rbt_node *n = t->n;
	uint32_t child = n[node].right, tmp = n[node].left, parent, rebalance, pc_parent;
	bool pc_red;

	if (tmp == PULSE_RBT_NIL) {
		pc_parent = n[node].parent;
		pc_red = n[node].red;
		parent = pc_parent;
		rbt__change_child(t, node, child, parent);
		if (child != PULSE_RBT_NIL) {
			n[child].parent = pc_parent;
			n[child].red = pc_red;
			rebalance = PULSE_RBT_NIL;
		} else {
			rebalance = pc_red ? PULSE_RBT_NIL : parent;
		}
	} else if (child == PULSE_RBT_NIL) {
		n[tmp].parent = n[node].parent;
		n[tmp].red = n[node].red;
		parent = n[node].parent;
		rbt__change_child(t, node, tmp, parent);
		rebalance = PULSE_RBT_NIL;
	} else {
		uint32_t successor = child, child2;

		tmp = n[child].left;
		if (tmp == PULSE_RBT_NIL) {
			parent = successor;
			child2 = n[successor].right;
		} else {
			do {
				parent = successor;
				successor = tmp;
				tmp = n[tmp].left;
			} while (tmp != PULSE_RBT_NIL);
			child2 = n[successor].right;
			n[parent].left = child2;
			n[successor].right = child;
			n[child].parent = successor;
		}
		tmp = n[node].left;
		n[successor].left = tmp;
		n[tmp].parent = successor;
		pc_parent = n[node].parent;
		pc_red = n[node].red;
		rbt__change_child(t, node, successor, pc_parent);
		if (child2 != PULSE_RBT_NIL) {
			set_parent_black(n, child2, parent);
			rebalance = PULSE_RBT_NIL;
		} else {
			rebalance = n[successor].red ? PULSE_RBT_NIL : parent;
		}
		n[successor].parent = pc_parent;
		n[successor].red = pc_red;
	}
	n[node].in_tree = false;
	if (rebalance != PULSE_RBT_NIL)
		rbt__erase_color(t, rebalance);
}

uint32_t pulse_rbt__first(const struct pulse_rbt *t)
{
	uint32_t x = t->root;

	if (x == PULSE_RBT_NIL)
		return PULSE_RBT_NIL;
	while (t->n[x].left != PULSE_RBT_NIL)
		x = t->n[x].left;
	return x;
}

uint32_t pulse_rbt__next(const struct pulse_rbt *t, uint32_t x)
{
	uint32_t p;

	if (t->n[x].right != PULSE_RBT_NIL) {
		x = t->n[x].right;
		while (t->n[x].left != PULSE_RBT_NIL)
			x = t->n[x].left;
		return x;
	}
	while ((p = t->n[x].parent) != PULSE_RBT_NIL && x == t->n[p].right)
		x = p;
	return p;
}

void pulse_rbt__link(struct pulse_rbt *t, uint32_t idx, uint32_t parent, bool left)
{
	t->n[idx] = (struct pulse_rbt_node){ PULSE_RBT_NIL, PULSE_RBT_NIL, parent, true, true };
	if (parent == PULSE_RBT_NIL)
		t->root = idx;
	else if (left)
		t->n[parent].left = idx;
	else
		t->n[parent].right = idx;
}
