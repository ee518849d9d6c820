/* SPDX-License-Identifier: GPL-2.0 */
/* Inside lib/session: lib/session/maps.c, for machine.c's threads */
#ifndef PULSE_SESSION_MACHINE_INTERNAL_H
#define PULSE_SESSION_MACHINE_INTERNAL_H

#include <stdint.h>
#include <pulse/machine.h>

/* a new maps version, unique process-wide (what the resolve cache keys on) */
uint64_t pulse_maps__next_version(void);

/*
 * an empty maps in @out, one reference (pulse_maps__put() drops it)
 * Return: 0, or -ENOMEM with @out NULL.
 */
int pulse_maps__new(struct pulse_maps **out);

/* another reference to @maps (may be NULL) */
struct pulse_maps *pulse_maps__get(struct pulse_maps *maps);

/* drop a reference, freeing @maps with the last; NULL is a no-op */
void pulse_maps__put(struct pulse_maps *maps);

/* insert @src's maps into @dst. Return: 0 or -ENOMEM. */
int pulse_maps__clone(struct pulse_maps *dst, const struct pulse_maps *src);

/* one frame at @ip in mode @cpumode of thread @t, resolved into @loc */
void pulse_machine__place_frame(struct pulse_machine *m, struct pulse_thread *t, uint8_t cpumode,
				uint64_t ip, struct pulse_cc_loc *loc);

/*
 * perf 6.1's thread__resolve_callchain_sample(): the frames of the raw
 * callchain @ips appended to @cur in @order, max_stack of them at most.
 * Return: 0 or -ENOMEM.
 */
int pulse_machine__chain_sample(struct pulse_machine *m, struct pulse_thread *t, const void *ips,
				uint64_t nr, enum pulse_cc_order order, uint32_t max_stack,
				struct pulse_cc_cursor *cur);

/* the machine's unwinder and inline cache, made on first use. Return: 0 or -ENOMEM. */
int pulse_machine__unwinder(struct pulse_machine *m, struct pulse_unwinder **u);
int pulse_machine__inlines(struct pulse_machine *m, struct pulse_inlines **in);

/* reverse the frames of @cur from index @from on */
void pulse_cc_cursor__reverse_from(struct pulse_cc_cursor *cur, size_t from);

#endif
