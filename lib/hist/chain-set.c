// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains kept once each (see chain-set.h). The pool's kept batches
 * held every sample's frames: 26 MB of fresh pages for the 64 K-sample
 * C dwarf benchmark file, and on the machines pulse is measured on a
 * fresh page's first touch costs some 10 us. A chain's hash is made from
 * the hashes its frames already carry.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "hist/chain-set.h"

/* lookups before the set judges whether chains repeat */
#define PROBATION	8192

struct chain_slot {
	uint64_t hash;
	const struct pulse_cc_loc *locs;	/* NULL: empty */
	size_t nr;
};

void pulse_chain_set__exit(struct pulse_chain_set *cs)
{
	free(cs->slots);
	pulse_arena__exit(&cs->arena);
	memset(cs, 0, sizeof(*cs));
}

static uint64_t chain_hash(const struct pulse_cc_loc *c, size_t nr)
{
	uint64_t h = nr;

	for (size_t i = 0; i < nr; i++)
		h = (h ^ c[i].hash ^ c[i].ip) * 0x100000001b3ULL;
	return pulse_mix64(h);
}

static bool loc_eq(const struct pulse_cc_loc *a, const struct pulse_cc_loc *b)
{
	return a->ip == b->ip && a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->level == b->level && a->cpumode == b->cpumode && a->hash == b->hash;
}

static bool chain_eq(const struct pulse_cc_loc *a, const struct pulse_cc_loc *b, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!loc_eq(&a[i], &b[i]))
			return false;
	return true;
}

static int chain_set__grow(struct pulse_chain_set *cs)
{
	size_t n = cs->slots ? (cs->mask + 1) * 2 : 4096;
	struct chain_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; cs->slots && i <= cs->mask; i++) {
		size_t j;

		if (!cs->slots[i].locs)
			continue;
		for (j = cs->slots[i].hash & (n - 1); s[j].locs; j = (j + 1) & (n - 1))
			;
		s[j] = cs->slots[i];
	}
	free(cs->slots);
	cs->slots = s;
	cs->mask = n - 1;
	return 0;
}

const struct pulse_cc_loc *pulse_chain_set__intern(struct pulse_chain_set *cs,
						   const struct pulse_cc_loc *chain, size_t nr)
{
	uint64_t h;
	size_t i;
	struct pulse_cc_loc *copy;

	if (cs->off)
		return NULL;
	if (++cs->lookups == PROBATION && cs->hits < PROBATION / 2) {
		cs->off = true;
		return NULL;
	}
	if ((cs->nr + 1) * 2 > cs->mask + 1 && chain_set__grow(cs))
		return NULL;
	h = chain_hash(chain, nr);
	for (i = h & cs->mask; cs->slots[i].locs; i = (i + 1) & cs->mask) {
		const struct chain_slot *s = &cs->slots[i];

		if (s->hash == h && s->nr == nr && chain_eq(s->locs, chain, nr)) {
			cs->hits++;
			return s->locs;
		}
	}
	copy = pulse_arena__alloc(&cs->arena, nr ? nr * sizeof(*chain) : 1);
	if (!copy)
		return NULL;
	memcpy(copy, chain, nr * sizeof(*chain));
	cs->slots[i] = (struct chain_slot){ h, copy, nr };
	cs->nr++;
	return copy;
}
