// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's frames, whatever way its stack was recorded: the callchain the
 * kernel wrote (frame pointers, and the kernel part of a --call-graph dwarf
 * recording), then the user frames unwound from the registers and stack
 * copy the sample carries, as perf 6.1's thread__resolve_callchain() puts
 * them together. See pulse_machine__sample_callchain() in
 * include/pulse/machine.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/machine.h>
#include <pulse/unwind.h>
#include "session/machine-internal.h"

/* the unwinder's find_map over a thread's maps (perf's maps__find()) */
static int thread__find_map(void *arg, uint64_t addr, struct pulse_unwind_map *um)
{
	const struct pulse_thread *t = arg;
	const struct pulse_map *map = t->maps ? pulse_maps__find(t->maps, addr) : NULL;

	if (!map)
		return -ENOENT;
	um->start = map->start;
	um->end = map->end;
	um->pgoff = map->pgoff;
	/* untranslated maps (JIT code, the heap) have no file to read CFI from */
	um->dso = map->identity ? NULL : map->dso;
	return 0;
}

/*
 * perf's thread__resolve_callchain_unwind(): only for an event recording
 * both the user registers and the user stack, and a sample that has them
 * and a stack copy that is not empty.
 */
static bool sample__can_unwind(const struct perf_event_attr *attr, const struct pulse_sample *s)
{
	const uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & both) == both && s->user_abi && s->user_regs &&
	       s->user_stack && s->user_stack_size;
}

/*
 * pulse_machine__unwind_sample() in thread @t, which the caller has found,
 * of a sample that can be unwound (sample__can_unwind(), max_stack > 0)
 */
static int thread__unwind(struct pulse_machine *m, struct pulse_thread *t,
			  const struct perf_event_attr *attr, const struct pulse_sample *s,
			  const uint64_t **ips, size_t *nr)
{
	struct pulse_unwind_sample us = {
		.abi = s->user_abi,
		.regs_mask = attr->sample_regs_user,
		.regs = s->user_regs,
		.stack = s->user_stack,
		.stack_size = s->user_stack_size,
		.find_map = thread__find_map,
	};
	int err;

	us.arg = t;
	err = pulse_machine__unwinder(m, &m->unwinder);
	if (err)
		return err;
	if (m->unwind_alloc < m->max_stack) {
		uint64_t *p = realloc(m->unwind_ips, m->max_stack * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->unwind_ips = p;
		m->unwind_alloc = m->max_stack;
	}
	*ips = m->unwind_ips;
	/* -ENOMEM still leaves @nr good frames: perf shows what it walked */
	pulse_unwinder__unwind(m->unwinder, &us, m->unwind_ips, m->max_stack, nr);
	if (*nr > m->max_stack)
		*nr = m->max_stack;
	return 0;
}

int pulse_machine__unwind_sample(struct pulse_machine *m, const struct perf_event_attr *attr,
				 const struct pulse_sample *s, const uint64_t **ips, size_t *nr)
{
	struct pulse_thread *t;

	*ips = m->unwind_ips;
	*nr = 0;
	if (!m->max_stack || !sample__can_unwind(attr, s))
		return 0;
	t = pulse_machine__findnew_thread(m, s->pid, s->tid);
	if (!t)
		return -ENOMEM;
	return thread__unwind(m, t, attr, s, ips, nr);
}

/*
 * perf's unwind__get_entries(): the unwound frames appended innermost
 * first (callee) or outermost first (caller), each resolved in user mode
 * as its unwind_entry() does; a zero address is skipped. Only these
 * frames get their inline frames: perf 6.1's add_callchain_ip() never
 * expands the recorded callchain's.
 */
static int machine__chain_unwind(struct pulse_machine *m, struct pulse_thread *t,
				 const struct perf_event_attr *attr, const struct pulse_sample *s,
				 enum pulse_cc_order order, struct pulse_cc_cursor *cur)
{
	const uint64_t *ips;
	size_t nr, from = cur->nr;
	int err = thread__unwind(m, t, attr, s, &ips, &nr);

	if (err)
		return err;
	for (size_t i = 0; i < nr; i++) {
		uint64_t ip = ips[order == PULSE_CC_CALLER ? nr - 1 - i : i];
		struct pulse_cc_loc loc;

		if (!ip)
			continue;
		pulse_machine__place_frame(m, t, PERF_RECORD_MISC_USER, ip, &loc);
		err = pulse_cc_cursor__append(cur, &loc);
		if (err)
			return err;
	}
	/* unwind_entry() appends each frame's inlined functions (append_inlines()) */
	return pulse_machine__expand_inlines(m, t, cur, from, cur->nr, order);
}

int pulse_machine__sample_callchain(struct pulse_machine *m, const struct perf_event_attr *attr,
				    const struct pulse_sample *s, enum pulse_cc_order order,
				    struct pulse_cc_cursor *cur)
{
	struct pulse_thread *t = pulse_machine__findnew_thread(m, s->pid, s->tid);
	const void *ips = attr->sample_type & PERF_SAMPLE_CALLCHAIN ? s->callchain : NULL;
	bool unwind = sample__can_unwind(attr, s);
	size_t from;
	int err;

	cur->nr = 0;
	if (!t)
		return -ENOMEM;
	/* perf's unwinders refuse max_stack 0, which fails the whole chain */
	if (unwind && !m->max_stack)
		return -EINVAL;
	/* the kernel's chain is the callee end, the unwound user stack the caller end */
	if (order == PULSE_CC_CALLER && unwind) {
		err = machine__chain_unwind(m, t, attr, s, order, cur);
		if (err)
			return err;
	}
	from = cur->nr;
	err = pulse_machine__chain_sample(m, t, ips, ips ? s->callchain_nr : 0, order,
					  m->max_stack, cur);
	if (!err && m->inline_fp)
		err = pulse_machine__expand_inlines(m, t, cur, from, cur->nr, order);
	if (err || order == PULSE_CC_CALLER || !unwind)
		return err;
	return machine__chain_unwind(m, t, attr, s, order, cur);
}
