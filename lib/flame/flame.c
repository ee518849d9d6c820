// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph's tree: every stack merged by frame name from the root,
 * as flamegraph.pl merges the folded lines it reads. Names are interned
 * once, so a child is found by (parent, name pointer) in one hash table
 * rather than by comparing text along child lists; the lists themselves
 * are only made in order at the end (pulse_flame__finish()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flame-int.h"
#include "core/hash.h"

static uint64_t hash_text(const char *s, size_t len)
{
	return pulse_fnv1a(PULSE_FNV1A_INIT, s, len);
}

static uint64_t hash_child(uint32_t parent, const char *iname)
{
	uint64_t v = ((uint64_t)(uintptr_t)iname >> 3) * 0x9e3779b97f4a7c15ULL ^
		     (uint64_t)parent * 0xc2b2ae3d27d4eb4fULL;

	v ^= v >> 29;
	return v * 0xbf58476d1ce4e5b9ULL;
}

int pulse_flame__new(struct pulse_flame **out)
{
	struct pulse_flame *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->alloc = 1024;
	f->nodes = calloc(f->alloc, sizeof(*f->nodes));
	f->child_slots = 2048;
	f->child_index = calloc(f->child_slots, sizeof(*f->child_index));
	f->name_slots = 1024;
	f->names = calloc(f->name_slots, sizeof(*f->names));
	if (!f->nodes || !f->child_index || !f->names) {
		pulse_flame__delete(f);
		return -ENOMEM;
	}
	f->nr = 1;
	f->nodes[0].name = "all";
	f->nodes[0].kind = PULSE_FLAME_TASK;
	*out = f;
	return 0;
}

void pulse_flame__delete(struct pulse_flame *f)
{
	if (!f)
		return;
	free(f->nodes);
	free(f->child_index);
	free(f->names);
	pulse_arena__exit(&f->arena);
	free(f);
}

static int grow_names(struct pulse_flame *f)
{
	size_t slots = f->name_slots * 2;
	const char **names = calloc(slots, sizeof(*names));

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < f->name_slots; i++) {
		const char *s = f->names[i];
		size_t j;

		if (!s)
			continue;
		j = hash_text(s, strlen(s)) & (slots - 1);
		while (names[j])
			j = (j + 1) & (slots - 1);
		names[j] = s;
	}
	free(f->names);
	f->names = names;
	f->name_slots = slots;
	return 0;
}

const char *pulse_flame__intern(struct pulse_flame *f, const char *name, size_t len)
{
	size_t j;
	char *copy;

	if (f->nr_names * 2 >= f->name_slots && grow_names(f))
		return NULL;
	j = hash_text(name, len) & (f->name_slots - 1);
	for (; f->names[j]; j = (j + 1) & (f->name_slots - 1)) {
		const char *s = f->names[j];

		if (!strncmp(s, name, len) && !s[len])
			return s;
	}
	copy = pulse_arena__alloc(&f->arena, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, name, len);
	copy[len] = 0;
	f->names[j] = copy;
	f->nr_names++;
	return copy;
}

static int grow_children(struct pulse_flame *f)
{
	size_t slots = f->child_slots * 2;
	uint32_t *idx = calloc(slots, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < f->child_slots; i++) {
		uint32_t n = f->child_index[i];
		size_t j;

		if (!n)
			continue;
		j = hash_child(f->nodes[n - 1].parent, f->nodes[n - 1].name) & (slots - 1);
		while (idx[j])
			j = (j + 1) & (slots - 1);
		idx[j] = n;
	}
	free(f->child_index);
	f->child_index = idx;
	f->child_slots = slots;
	return 0;
}

/* the slot of (@parent, @iname): its node + 1, or the empty slot it would take */
static size_t find_child(const struct pulse_flame *f, uint32_t parent, const char *iname)
{
	size_t j = hash_child(parent, iname) & (f->child_slots - 1);

	for (; f->child_index[j]; j = (j + 1) & (f->child_slots - 1)) {
		const struct pulse_flame_node *n = &f->nodes[f->child_index[j] - 1];

		if (n->parent == parent && n->name == iname)
			break;
	}
	return j;
}

uint32_t pulse_flame__get_child(struct pulse_flame *f, uint32_t parent, const char *iname,
				enum pulse_flame_kind kind)
{
	struct pulse_flame_node *n;
	size_t j = find_child(f, parent, iname);

	if (f->child_index[j])
		return f->child_index[j] - 1;
	if (f->nr >= UINT32_MAX - 1)
		return 0;
	if ((f->nr + 1) * 2 >= f->child_slots) {
		if (grow_children(f))
			return 0;
		j = find_child(f, parent, iname);
	}
	if (f->nr == f->alloc) {
		struct pulse_flame_node *nodes = realloc(f->nodes, f->alloc * 2 * sizeof(*nodes));

		if (!nodes)
			return 0;
		f->nodes = nodes;
		f->alloc *= 2;
	}
	n = &f->nodes[f->nr];
	memset(n, 0, sizeof(*n));
	n->name = iname;
	n->parent = parent;
	n->depth = f->nodes[parent].depth + 1;
	n->kind = kind;
	f->child_index[j] = ++f->nr;
	f->finished = false;
	return f->nr - 1;
}

int pulse_flame__add_stack(struct pulse_flame *f, const char *const *names,
			   const enum pulse_flame_kind *kinds, size_t nr, uint64_t count)
{
	uint32_t cur = 0;

	for (size_t i = 0; i < nr; i++) {
		const char *iname = pulse_flame__intern(f, names[i], strlen(names[i]));

		if (!iname)
			return -ENOMEM;
		cur = pulse_flame__get_child(f, cur, iname, kinds ? kinds[i] : PULSE_FLAME_USER);
		if (!cur)
			return f->nr >= UINT32_MAX - 1 ? -E2BIG : -ENOMEM;
	}
	f->nodes[cur].self += count;
	f->finished = false;
	return 0;
}

size_t pulse_flame__nr_nodes(const struct pulse_flame *f)
{
	return f->nr;
}

const struct pulse_flame_node *pulse_flame__node(const struct pulse_flame *f, size_t idx)
{
	return idx < f->nr ? &f->nodes[idx] : NULL;
}

uint32_t pulse_flame__child(const struct pulse_flame *f, uint32_t parent, const char *name)
{
	size_t len = strlen(name), j = hash_text(name, len) & (f->name_slots - 1);
	const char *iname = NULL;

	for (; f->names[j]; j = (j + 1) & (f->name_slots - 1)) {
		if (!strcmp(f->names[j], name)) {
			iname = f->names[j];
			break;
		}
	}
	if (!iname)
		return 0;
	j = find_child(f, parent, iname);
	return f->child_index[j] ? f->child_index[j] - 1 : 0;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct pulse_flame *f = arg;
	const struct pulse_flame_node *x = &f->nodes[*(const uint32_t *)a];
	const struct pulse_flame_node *y = &f->nodes[*(const uint32_t *)b];

	return strcmp(x->name, y->name);
}

void pulse_flame__finish(struct pulse_flame *f)
{
	uint32_t *order;

	if (f->finished)
		return;
	/* a child is always made after its parent: one backward pass sums */
	for (size_t i = 0; i < f->nr; i++)
		f->nodes[i].total = f->nodes[i].self;
	for (size_t i = f->nr - 1; i > 0; i--)
		f->nodes[f->nodes[i].parent].total += f->nodes[i].total;
	for (size_t i = 0; i < f->nr; i++)
		f->nodes[i].first_child = f->nodes[i].next_sibling = 0;
	/*
	 * children by name, as flamegraph.pl sorts its stacks: all nodes by
	 * name, then linked in reverse so each list comes out ascending
	 */
	order = malloc(f->nr * sizeof(*order));
	if (order) {
		for (size_t i = 0; i < f->nr; i++)
			order[i] = i;
		qsort_r(order + 1, f->nr - 1, sizeof(*order), by_name, f);
		for (size_t i = f->nr - 1; i > 0; i--) {
			struct pulse_flame_node *n = &f->nodes[order[i]];

			n->next_sibling = f->nodes[n->parent].first_child;
			f->nodes[n->parent].first_child = order[i];
		}
		free(order);
	} else {
		/* short of memory: creation order, which is still a layout */
		for (size_t i = f->nr - 1; i > 0; i--) {
			struct pulse_flame_node *n = &f->nodes[i];

			n->next_sibling = f->nodes[n->parent].first_child;
			f->nodes[n->parent].first_child = i;
		}
	}
	f->finished = true;
}

int pulse_flame__diff(struct pulse_flame *f, const struct pulse_flame *old)
{
	/* each node's counterpart in @old (0: none); parents come first */
	uint32_t *map = calloc(f->nr, sizeof(*map));

	if (!map)
		return -ENOMEM;
	f->nodes[0].old_total = old->nodes[0].total;
	for (size_t i = 1; i < f->nr; i++) {
		struct pulse_flame_node *n = &f->nodes[i];
		uint32_t o = 0;

		/* a parent missing in OLD has no children there either */
		if (!n->parent || map[n->parent])
			o = pulse_flame__child(old, map[n->parent], n->name);
		map[i] = o;
		n->old_total = o ? old->nodes[o].total : 0;
	}
	free(map);
	return 0;
}
