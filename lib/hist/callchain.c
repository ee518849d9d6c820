// SPDX-License-Identifier: GPL-2.0
/*
 * Callchain trees for perf report, with perf 6.1's semantics
 * (util/callchain.c): a sample's frames are merged into the entry's tree
 * from the first frame on; a node whose run of frames only partly matches
 * is split, the old tail becoming a child that inherits the node's
 * children. Children sit in an array in the order of perf's insertion
 * rbtree (a new frame sorting above an existing one goes to its left), so
 * that ties in the output keep perf's order. The output order is built
 * once, after all samples (pulse_cc_root__sort()).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/callchain.h>
#include "core/arena.h"
#include "core/internal.h"

enum match { MATCH_LT = -1, MATCH_EQ = 0, MATCH_GT = 1 };

void pulse_callchain_param__init(struct pulse_callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = PULSE_CC_GRAPH_ABS;
	p->order = PULSE_CC_CALLEE;
	p->value = PULSE_CC_PERCENT;
	p->min_percent = 0.5;
	p->enabled = true;
}

/* perf's strncmp(value, "name", strlen(value)): any prefix, first wins */
static bool is_prefix(const char *tok, const char *name)
{
	return !strncmp(tok, name, strlen(tok));
}

int pulse_callchain_param__parse(struct pulse_callchain_param *p, const char *arg)
{
	char *copy, *tok, *save = NULL;
	bool min_set = false;
	int err = 0;

	p->enabled = true;
	if (!arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (is_prefix(tok, "none")) {
			p->mode = PULSE_CC_NONE;
			p->enabled = false;
			break;
		}
		if (is_prefix(tok, "graph")) {
			p->mode = PULSE_CC_GRAPH_ABS;
		} else if (is_prefix(tok, "flat")) {
			p->mode = PULSE_CC_FLAT;
		} else if (is_prefix(tok, "fractal")) {
			p->mode = PULSE_CC_GRAPH_REL;
		} else if (is_prefix(tok, "folded")) {
			p->mode = PULSE_CC_FOLDED;
		} else if (is_prefix(tok, "callee")) {
			p->order = PULSE_CC_CALLEE;
			p->order_set = true;
		} else if (is_prefix(tok, "caller")) {
			p->order = PULSE_CC_CALLER;
			p->order_set = true;
		} else if (is_prefix(tok, "function")) {
			p->address_key = false;
		} else if (is_prefix(tok, "address")) {
			p->address_key = true;
		} else if (is_prefix(tok, "percent")) {
			p->value = PULSE_CC_PERCENT;
		} else if (is_prefix(tok, "period")) {
			p->value = PULSE_CC_PERIOD;
		} else if (is_prefix(tok, "count")) {
			p->value = PULSE_CC_COUNT;
		} else if (!min_set) {
			p->min_percent = strtod(tok, &end);
			if (end == tok) {
				err = -EINVAL;
				break;
			}
			min_set = true;
		} else {
			p->print_limit = strtoul(tok, &end, 0);
			if (end == tok) {
				err = -EINVAL;
				break;
			}
		}
	}
	free(copy);
	return err;
}

/*
 * perf's match_chain(): @have (in the tree) against @want (the sample).
 * Functions are equal by DSO and start address, but an inlined frame on
 * either side (pulse_machine__expand_inlines()) by name alone: inlined
 * frames have the start of the symbol they are in. DSOs compare by their
 * address in memory, as in perf, where earlier DSOs are usually lower.
 * Without a symbol on either side, the addresses are compared.
 */
static enum match match_frame(const struct pulse_cc_loc *have, const struct pulse_cc_loc *want,
			      bool key_address)
{
	uint64_t a = have->ip, b = want->ip;

	if (!key_address && have->sym && want->sym && (have->sym->inlined || want->sym->inlined)) {
		int c;

		/* one fake symbol per inlined function and place (inline.c) */
		if (have->sym == want->sym)
			return MATCH_EQ;
		c = strcmp(have->sym->name, want->sym->name);

		return c ? (c < 0 ? MATCH_LT : MATCH_GT) : MATCH_EQ;
	}

	if (have->dso != want->dso)
		return (uintptr_t)have->dso < (uintptr_t)want->dso ? MATCH_LT : MATCH_GT;
	if (!key_address && have->sym && want->sym) {
		a = have->sym->start;
		b = want->sym->start;
	}
	if (a != b)
		return a < b ? MATCH_LT : MATCH_GT;
	return MATCH_EQ;
}

/*
 * Nodes, runs and child arrays come from the root's arena and are never
 * freed one by one: a grown child array leaves its old copy behind (at
 * most as much again as the arrays in use).
 */
static int node__insert_child(struct pulse_arena *a, struct pulse_cc_node *parent, uint32_t pos,
			      struct pulse_cc_node *child)
{
	if (parent->nr_children == parent->alloc_children) {
		uint32_t n = parent->alloc_children ? parent->alloc_children * 2 : 2;
		struct pulse_cc_node **c = pulse_arena__alloc(a, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		if (parent->nr_children)
			memcpy(c, parent->children, parent->nr_children * sizeof(*c));
		parent->children = c;
		parent->alloc_children = n;
	}
	memmove(parent->children + pos + 1, parent->children + pos,
		(parent->nr_children - pos) * sizeof(*parent->children));
	parent->children[pos] = child;
	parent->nr_children++;
	child->parent = parent;
	return 0;
}

/* perf's add_child(): a new leaf holding the rest of the chain */
static struct pulse_cc_node *node__new_leaf(struct pulse_arena *a,
					    const struct pulse_cc_loc *locs, size_t nr,
					    uint64_t period)
{
	struct pulse_cc_node *n = pulse_arena__alloc(a, sizeof(*n) + nr * sizeof(*locs));

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->val = (struct pulse_cc_loc *)(n + 1);
	memcpy(n->val, locs, nr * sizeof(*locs));
	n->val_nr = nr;
	n->hit = period;
	n->count = 1;
	return n;
}

/*
 * The kernel's lib/rbtree.c rb_insert_color() on the children's tree: the
 * lookup walks perf's rbtree, whose shape matters where match_frame() is
 * no total order (names for inlined frames, DSO and address otherwise).
 */
static void rb_change_child(struct pulse_cc_node *parent, struct pulse_cc_node *old,
			    struct pulse_cc_node *new, struct pulse_cc_node *rbparent)
{
	if (rbparent) {
		rbparent->rb_child[rbparent->rb_child[1] == old] = new;
	} else {
		parent->rb_root = new;
	}
}

/* __rb_rotate_set_parents(): @new takes @old's place, @old gets @color */
static void rb_rotate_set_parents(struct pulse_cc_node *parent, struct pulse_cc_node *old,
				  struct pulse_cc_node *new, bool red)
{
	struct pulse_cc_node *rbparent = old->rb_parent;

	new->rb_parent = old->rb_parent;
	new->rb_red = old->rb_red;
	old->rb_parent = new;
	old->rb_red = red;
	rb_change_child(parent, old, new, rbparent);
}

static void rb_insert_color(struct pulse_cc_node *parent, struct pulse_cc_node *node)
{
	struct pulse_cc_node *rbparent = node->rb_parent, *gparent, *tmp;
	int d;

	for (;;) {
		if (!rbparent) {
			node->rb_red = false;
			break;
		}
		if (!rbparent->rb_red)
			break;
		gparent = rbparent->rb_parent;
		/*
		 * d: the side of gparent rbparent hangs on; the kernel writes the
		 * two sides out as mirror images, rb_child[d] and rb_child[!d]
		 * stand for its left and right
		 */
		d = gparent->rb_child[1] == rbparent;
		tmp = gparent->rb_child[!d];
		if (tmp && tmp->rb_red) {
			tmp->rb_red = false;
			rbparent->rb_red = false;
			node = gparent;
			rbparent = node->rb_parent;
			node->rb_red = true;
			continue;
		}
		tmp = rbparent->rb_child[!d];
		if (node == tmp) {
			tmp = node->rb_child[d];
			rbparent->rb_child[!d] = tmp;
			node->rb_child[d] = rbparent;
			if (tmp) {
				tmp->rb_parent = rbparent;
				tmp->rb_red = false;
			}
			rbparent->rb_parent = node;
			rbparent->rb_red = true;
			rbparent = node;
			tmp = node->rb_child[!d];
		}
		gparent->rb_child[d] = tmp;
		rbparent->rb_child[!d] = gparent;
		if (tmp) {
			tmp->rb_parent = gparent;
			tmp->rb_red = false;
		}
		rb_rotate_set_parents(parent, gparent, rbparent, true);
		break;
	}
}

/*
 * rb_link_node() + rb_insert_color() of @child under @rbparent (NULL: the
 * root), and @child into the in-order array: just before a parent it is
 * the left child of, just after one it is the right child of.
 */
static int node__link_child(struct pulse_arena *a, struct pulse_cc_node *parent,
			    struct pulse_cc_node *rbparent, bool left, struct pulse_cc_node *child)
{
	uint32_t pos = 0;

	if (rbparent) {
		while (parent->children[pos] != rbparent)
			pos++;
		pos += !left;
	}
	if (node__insert_child(a, parent, pos, child))
		return -ENOMEM;
	child->rb_child[0] = child->rb_child[1] = NULL;
	child->rb_parent = rbparent;
	child->rb_red = true;
	if (!rbparent)
		parent->rb_root = child;
	else
		rbparent->rb_child[!left] = child;
	rb_insert_color(parent, child);
	return 0;
}

/*
 * perf's append_chain_children() lookup: the child whose first frame
 * matches @want, or NULL with where a new one links in *@rbparent, *@left.
 */
static struct pulse_cc_node *find_child(const struct pulse_cc_node *node,
					const struct pulse_cc_loc *want, bool key_address,
					struct pulse_cc_node **rbparent, bool *left)
{
	struct pulse_cc_node *x = node->rb_root;

	*rbparent = NULL;
	*left = false;
	while (x) {
		enum match m = match_frame(&x->val[0], want, key_address);

		if (m == MATCH_EQ)
			return x;
		*rbparent = x;
		/* in the tree, smaller frames are to the right */
		*left = m == MATCH_LT;
		x = x->rb_child[!*left];
	}
	return NULL;
}

struct cc_append {
	struct pulse_arena *arena;
	uint64_t period;
	bool key_address;
};

/* perf's split_add_child(): @node matched its first @matched frames only */
static int node__split(const struct cc_append *ap, struct pulse_cc_node *node, uint32_t matched,
		       const struct pulse_cc_loc *rest, size_t nr_rest)
{
	/* the tail's run stays where it is, in the node's run */
	struct pulse_cc_node *tail = pulse_arena__alloc(ap->arena, sizeof(*tail));

	if (!tail)
		return -ENOMEM;
	memset(tail, 0, sizeof(*tail));
	tail->val_nr = node->val_nr - matched;
	tail->val = node->val + matched;
	node->val_nr = matched;
	/* the tail takes the node's children and hits */
	tail->children = node->children;
	tail->nr_children = node->nr_children;
	tail->alloc_children = node->alloc_children;
	tail->rb_root = node->rb_root;
	node->rb_root = NULL;
	for (uint32_t i = 0; i < tail->nr_children; i++)
		tail->children[i]->parent = tail;
	node->children = NULL;
	node->nr_children = node->alloc_children = 0;
	tail->hit = node->hit;
	tail->children_hit = node->children_hit;
	tail->count = node->count;
	tail->children_count = node->children_count;
	node->children_hit = pulse_cc_node__cumul_hits(tail);
	node->children_count = pulse_cc_node__cumul_count(tail);
	if (node__link_child(ap->arena, node, NULL, false, tail))
		return -ENOMEM;
	if (nr_rest) {
		struct pulse_cc_node *leaf = node__new_leaf(ap->arena, rest, nr_rest, ap->period);
		bool left;

		if (!leaf)
			return -ENOMEM;
		node->hit = 0;
		node->children_hit += ap->period;
		node->count = 0;
		node->children_count += 1;
		left = match_frame(&tail->val[0], &rest[0], ap->key_address) == MATCH_LT;
		return node__link_child(ap->arena, node, tail, left, leaf);
	}
	node->hit = ap->period;
	node->count = 1;
	return 0;
}

/*
 * Iterative down the tree where the chain follows existing nodes (the
 * common case, and deep): each level adds the period below it, as perf's
 * recursion does on its way back.
 */
static int append_children(const struct cc_append *ap, struct pulse_cc_node *node,
			   const struct pulse_cc_loc *locs, size_t nr)
{
	for (;;) {
		struct pulse_cc_node *child, *leaf, *rbparent;
		uint32_t matched;
		bool left;

		node->children_hit += ap->period;
		node->children_count++;
		child = find_child(node, &locs[0], ap->key_address, &rbparent, &left);
		if (!child) {
			leaf = node__new_leaf(ap->arena, locs, nr, ap->period);
			if (!leaf)
				return -ENOMEM;
			return node__link_child(ap->arena, node, rbparent, left, leaf);
		}
		/* perf's append_chain(), its first frame known to match */
		for (matched = 1; matched < child->val_nr && matched < nr; matched++)
			if (match_frame(&child->val[matched], &locs[matched], ap->key_address) !=
			    MATCH_EQ)
				break;
		if (matched < child->val_nr)
			return node__split(ap, child, matched, locs + matched, nr - matched);
		if (matched == nr) {
			child->hit += ap->period;
			child->count++;
			return 0;
		}
		node = child;
		locs += matched;
		nr -= matched;
	}
}

int pulse_cc_root__append(struct pulse_cc_root *root, const struct pulse_cc_loc *locs,
			  size_t nr, uint64_t period, bool key_address)
{
	struct cc_append ap = { .period = period, .key_address = key_address };
	int err;

	if (!nr)
		return 0;
	if (!root->arena) {
		root->arena = calloc(1, sizeof(*root->arena));
		if (!root->arena)
			return -ENOMEM;
		root->own_arena = true;
	}
	ap.arena = root->arena;
	err = append_children(&ap, &root->node, locs, nr);
	if (!err && nr > root->max_depth)
		root->max_depth = nr;
	return err;
}

/*
 * perf's rb_insert_callchain(): larger first, an equal one after those
 * already there; @key(n) is the value sorted on.
 */
static void insert_sorted(struct pulse_cc_node **arr, size_t *nr, struct pulse_cc_node *n,
			  uint64_t (*key)(const struct pulse_cc_node *))
{
	size_t lo = 0, hi = *nr;
	uint64_t v = key(n);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key(arr[mid]) < v)
			hi = mid;
		else
			lo = mid + 1;
	}
	memmove(arr + lo + 1, arr + lo, (*nr - lo) * sizeof(*arr));
	arr[lo] = n;
	(*nr)++;
}

static uint64_t key_cumul(const struct pulse_cc_node *n)
{
	return pulse_cc_node__cumul_hits(n);
}

static uint64_t key_hit(const struct pulse_cc_node *n)
{
	return n->hit;
}

/* perf's __sort_chain_graph_abs/rel: children at or above the minimum */
static int sort_graph(struct pulse_arena *a, struct pulse_cc_node *node,
		      const struct pulse_callchain_param *p, uint64_t min_hit)
{
	size_t nr = 0;

	/* fractal: a share of what goes on below this node, rounded up */
	if (p->mode == PULSE_CC_GRAPH_REL)
		min_hit = ceil(node->children_hit * (p->min_percent / 100.0));
	node->sorted = NULL;
	node->nr_sorted = 0;
	if (!node->nr_children)
		return 0;
	node->sorted = pulse_arena__alloc(a, node->nr_children * sizeof(*node->sorted));
	if (!node->sorted)
		return -ENOMEM;
	for (uint32_t i = 0; i < node->nr_children; i++) {
		struct pulse_cc_node *c = node->children[i];
		int err = sort_graph(a, c, p, min_hit);

		if (err)
			return err;
		if (pulse_cc_node__cumul_hits(c) >= min_hit)
			insert_sorted(node->sorted, &nr, c, key_cumul);
	}
	node->nr_sorted = nr;
	return 0;
}

static size_t count_nodes(const struct pulse_cc_node *node)
{
	size_t n = 1;

	for (uint32_t i = 0; i < node->nr_children; i++)
		n += count_nodes(node->children[i]);
	return n;
}

/* perf's __sort_chain_flat(): every node where chains end, children first */
static void sort_flat(struct pulse_cc_root *root, struct pulse_cc_node *node, uint64_t min_hit)
{
	for (uint32_t i = 0; i < node->nr_children; i++)
		sort_flat(root, node->children[i], min_hit);
	if (node->hit && node->hit >= min_hit)
		insert_sorted(root->flat, &root->nr_flat, node, key_hit);
}

int pulse_cc_root__sort(struct pulse_cc_root *root, const struct pulse_callchain_param *p,
			uint64_t min_hit)
{
	return pulse_cc_root__sort_in(root, p, min_hit, root->arena);
}

int pulse_cc_root__sort_in(struct pulse_cc_root *root, const struct pulse_callchain_param *p,
			   uint64_t min_hit, struct pulse_arena *arena)
{
	if (!root->arena)	/* nothing appended */
		return 0;
	switch (p->mode) {
	case PULSE_CC_GRAPH_ABS:
	case PULSE_CC_GRAPH_REL:
		return sort_graph(arena, &root->node, p, min_hit);
	case PULSE_CC_FLAT:
	case PULSE_CC_FOLDED:
		root->nr_flat = 0;
		root->flat = pulse_arena__alloc(arena, count_nodes(&root->node) * sizeof(*root->flat));
		if (!root->flat)
			return -ENOMEM;
		sort_flat(root, &root->node, min_hit);
		return 0;
	case PULSE_CC_NONE:
		break;
	}
	return 0;
}

void pulse_cc_root__exit(struct pulse_cc_root *root)
{
	if (root->own_arena) {
		pulse_arena__exit(root->arena);
		free(root->arena);
	}
	memset(root, 0, sizeof(*root));
}
