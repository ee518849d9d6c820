// SPDX-License-Identifier: GPL-2.0
/*
 * Inline frames in a resolved callchain (see pulse_machine__expand_inlines()
 * in pulse/machine.h): perf 6.1's append_inlines(), which unwind_entry()
 * calls for each frame a DWARF unwinder finds. The frames come from the
 * DSO's DWARF (lib/symbols/inline.c), asked once per (DSO, address) for the
 * whole machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/inline.h>
#include <pulse/machine.h>
#include "session/machine-internal.h"

static int scratch__reserve(struct pulse_cc_cursor *c, size_t need)
{
	struct pulse_cc_loc *l;
	size_t n = c->alloc ? c->alloc : 64;

	if (need <= c->alloc)
		return 0;
	while (n < need)
		n *= 2;
	l = realloc(c->locs, n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	c->locs = l;
	c->alloc = n;
	return 0;
}

/* @loc's frames onto the scratch cursor, in @order */
static int expand_one(struct pulse_machine *m, struct pulse_thread *t,
		      const struct pulse_cc_loc *loc, struct pulse_cc_cursor *out,
		      enum pulse_cc_order order)
{
	const struct pulse_symbol *const *frames;
	struct pulse_addr_loc al;
	size_t n = 0;

	if (loc->dso && loc->sym && loc->dso->kind == PULSE_DSO_USER && loc->level == '.') {
		pulse_machine__resolve_thread(m, t, PERF_RECORD_MISC_USER, loc->ip, &al);
		if (al.dso == loc->dso)
			n = pulse_inlines__find(m->inlines, loc->dso, loc->sym, al.addr, &frames);
	}
	if (scratch__reserve(out, out->nr + (n ? n : 1)))
		return -ENOMEM;
	if (!n) {
		out->locs[out->nr++] = *loc;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		/* callee order: innermost first, as addr2line lists them */
		const struct pulse_symbol *sym = frames[order == PULSE_CC_CALLEE ? i : n - 1 - i];
		struct pulse_cc_loc *l = &out->locs[out->nr++];

		*l = *loc;
		l->sym = sym;
		l->hash = pulse_cc_loc__hash(loc->dso, sym, loc->ip);
	}
	return 0;
}

int pulse_machine__expand_inlines(struct pulse_machine *m, struct pulse_thread *t,
				  struct pulse_cc_cursor *cur, size_t from, size_t to,
				  enum pulse_cc_order order)
{
	struct pulse_cc_cursor *out = &m->inline_scratch;
	size_t tail, nr;
	int err;

	if (to > cur->nr)
		to = cur->nr;
	if (m->no_inline || from >= to || !t)
		return 0;
	err = pulse_machine__inlines(m, &m->inlines);
	if (err)
		return err;
	out->nr = 0;
	for (size_t i = from; i < to; i++) {
		err = expand_one(m, t, &cur->locs[i], out, order);
		if (err)
			return err;
	}
	tail = cur->nr - to;
	nr = from + out->nr + tail;
	if (nr > cur->alloc) {
		struct pulse_cc_loc *l = realloc(cur->locs, nr * sizeof(*l));

		if (!l)
			return -ENOMEM;
		cur->locs = l;
		cur->alloc = nr;
	}
	memmove(cur->locs + from + out->nr, cur->locs + to, tail * sizeof(*cur->locs));
	memcpy(cur->locs + from, out->locs, out->nr * sizeof(*cur->locs));
	cur->nr = nr;
	return 0;
}
