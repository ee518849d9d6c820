/* SPDX-License-Identifier: GPL-2.0 */
/* lib/flame/: what the tree's files share (not public) */
#ifndef PULSE_FLAME_INT_H
#define PULSE_FLAME_INT_H

#include <pulse/flame.h>
#include "core/arena.h"

struct pulse_flame {
	struct pulse_flame_node *nodes;	/* node 0 the root */
	size_t nr, alloc;		/* nodes in use, allocated */
	/* (parent, interned name) -> node index + 1; 0 empty; power of two */
	uint32_t *child_index;
	size_t child_slots;
	/* interned names: their pointers, open addressing; NULL empty */
	const char **names;
	size_t name_slots, nr_names;
	struct pulse_arena arena;	/* the names' text */
	bool finished;			/* totals summed, children sorted */
};

/* The interned copy of @name (@len bytes): NULL on -ENOMEM. */
const char *pulse_flame__intern(struct pulse_flame *f, const char *name, size_t len);

/*
 * The child of @parent named @iname (interned), made with @kind if new.
 * Return: its index, 0 on -ENOMEM or past 2^32 nodes.
 */
uint32_t pulse_flame__get_child(struct pulse_flame *f, uint32_t parent, const char *iname,
				enum pulse_flame_kind kind);

#endif
