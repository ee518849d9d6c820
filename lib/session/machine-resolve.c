// SPDX-License-Identifier: GPL-2.0
/*
 * Sample addresses placed on the machine's maps: the thread's or the
 * kernel's by cpumode, then the DSO and symbol there; a callchain frame by
 * frame as perf 6.1's thread__resolve_callchain_sample() walks it. See
 * include/pulse/machine.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/machine.h>
#include "session/machine-internal.h"

/*
 * Placing an address is a map search and a symbol search; callchains ask
 * for the same few thousand addresses millions of times. A direct-mapped
 * cache keyed by the maps' version (new for every change and every maps
 * object) and the address remembers the answers.
 */
#define RCACHE_SIZE 8192

struct pulse_resolve_slot {
	uint64_t version;		/* 0: empty */
	uint64_t ip;
	struct pulse_dso *dso;
	const struct pulse_symbol *sym;
	uint64_t addr;
	uint32_t hash;			/* pulse_cc_loc__hash() at @ip */
};

/*
 * Behind it, (DSO, address in the DSO) -> symbol. The maps' version changes
 * with every mmap, fork and exec (a system-wide recording of a busy machine
 * changed it 365,000 times in 1.5 M samples), which empties the first cache
 * for that thread, but the same libraries are mapped again: their
 * addresses still find their symbols here without a symbol-table search.
 * A loaded DSO's symbols never change and DSOs live as long as the machine.
 */
#define SCACHE_SIZE 16384

struct pulse_sym_slot {
	const struct pulse_dso *dso;	/* NULL: empty */
	uint64_t addr;
	const struct pulse_symbol *sym;
};

static const struct pulse_symbol *machine__find_symbol(struct pulse_machine *m,
						       struct pulse_dso *dso, uint64_t addr)
{
	struct pulse_sym_slot *slot = NULL;
	const struct pulse_symbol *sym;

	if (!m->scache)
		m->scache = calloc(SCACHE_SIZE, sizeof(*m->scache));
	if (m->scache) {
		uint64_t h = (addr ^ ((uintptr_t)dso * 0x9e3779b97f4a7c15ULL)) *
			     0xff51afd7ed558ccdULL;

		slot = &m->scache[(h >> 40) & (SCACHE_SIZE - 1)];
		if (slot->dso == dso && slot->addr == addr)
			return slot->sym;
	}
	sym = pulse_dso__find_symbol(&m->dsos, dso, addr);
	if (slot)
		*slot = (struct pulse_sym_slot){ dso, addr, sym };
	return sym;
}

/*
 * perf's reach into the kernel beyond the recorded kernel MMAP: it maps the
 * kernel from /proc/kcore or kallsyms, which cover .init.text
 * (start_kernel, x86_64_start_kernel in the idle task's chain), while the
 * MMAP record ends at _etext. An address above the kernel's start that a
 * kernel symbol covers is placed there, as perf report and script do.
 */
static void machine__place_kernel_beyond(struct pulse_machine *m, uint64_t ip,
					 struct pulse_addr_loc *al)
{
	const struct pulse_symbol *sym;

	if (!m->kernel_dso)
		return;
	for (size_t i = 0; i < m->kmaps.nr; i++) {
		if (m->kmaps.maps[i].dso != m->kernel_dso)
			continue;
		if (ip < m->kmaps.maps[i].start)
			return;
		break;
	}
	sym = pulse_dso__find_symbol(&m->dsos, m->kernel_dso, ip);
	if (sym) {
		al->dso = m->kernel_dso;
		al->sym = sym;
		al->addr = ip;
	}
}

/* @hash (may be NULL): pulse_cc_loc__hash() of the frame at @ip */
static void machine__place(struct pulse_machine *m, const struct pulse_maps *maps, uint64_t ip,
			   struct pulse_addr_loc *al, uint32_t *hash)
{
	struct pulse_resolve_slot *slot = NULL;
	const struct pulse_map *map;
	uint32_t h;

	if (!m->rcache)
		m->rcache = calloc(RCACHE_SIZE, sizeof(*m->rcache));
	if (m->rcache) {
		uint64_t h = (ip ^ (maps->version * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

		slot = &m->rcache[(h >> 40) & (RCACHE_SIZE - 1)];
		if (slot->version == maps->version && slot->ip == ip) {
			al->dso = slot->dso;
			al->sym = slot->sym;
			al->addr = slot->addr;
			if (hash)
				*hash = slot->hash;
			return;
		}
	}
	map = pulse_maps__find(maps, ip);
	if (map) {
		al->dso = map->dso;
		al->addr = pulse_map__map_ip(map, ip);
		if (map->dso->kind == PULSE_DSO_MODULE) {
			/* from its .ko, a module's addresses start at .text */
			pulse_dso__load(&m->dsos, map->dso);
			al->addr += map->dso->kmod_text_off;
		}
		al->sym = machine__find_symbol(m, map->dso, al->addr);
	} else if (maps == &m->kmaps) {
		machine__place_kernel_beyond(m, ip, al);
	}
	h = pulse_cc_loc__hash(al->dso, al->sym, ip);
	if (hash)
		*hash = h;
	if (slot)
		*slot = (struct pulse_resolve_slot){ maps->version, ip, al->dso, al->sym, al->addr, h };
}

static void machine__resolve_in(struct pulse_machine *m, struct pulse_thread *t, uint8_t cpumode,
				uint64_t ip, struct pulse_addr_loc *al, uint32_t *hash)
{
	memset(al, 0, sizeof(*al));
	al->thread = t;
	al->addr = ip;
	al->cpumode = cpumode;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		al->level = 'k';
		machine__place(m, &m->kmaps, ip, al, hash);
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		al->level = '.';
		machine__place(m, t->maps, ip, al, hash);
	} else {
		/* hypervisor, guests (perf reports host only by default), unknown */
		al->level = 'H';
	}
}

void pulse_machine__resolve_thread(struct pulse_machine *m, struct pulse_thread *t,
				   uint8_t cpumode, uint64_t ip, struct pulse_addr_loc *al)
{
	machine__resolve_in(m, t, cpumode, ip, al, NULL);
}

int pulse_machine__resolve(struct pulse_machine *m, int32_t pid, int32_t tid, uint8_t cpumode,
			   uint64_t ip, struct pulse_addr_loc *al)
{
	struct pulse_thread *t = pulse_machine__findnew_thread(m, pid, tid);

	if (!t) {
		memset(al, 0, sizeof(*al));
		return -ENOMEM;
	}
	machine__resolve_in(m, t, cpumode, ip, al, NULL);
	return 0;
}

void pulse_machine__place_frame(struct pulse_machine *m, struct pulse_thread *t, uint8_t cpumode,
				uint64_t ip, struct pulse_cc_loc *loc)
{
	struct pulse_addr_loc al;

	loc->hash = 0;
	machine__resolve_in(m, t, cpumode, ip, &al, &loc->hash);
	loc->ip = ip;
	loc->addr = al.addr;
	loc->dso = al.dso;
	loc->sym = al.sym;
	loc->level = al.dso ? al.level : 0;
	loc->cpumode = cpumode;
}

static int cursor__reserve(struct pulse_cc_cursor *cur, size_t n)
{
	struct pulse_cc_loc *l;

	if (cur->alloc >= cur->nr + n)
		return 0;
	l = realloc(cur->locs, (cur->nr + n) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	cur->locs = l;
	cur->alloc = cur->nr + n;
	return 0;
}

void pulse_cc_cursor__reverse_from(struct pulse_cc_cursor *cur, size_t from)
{
	for (size_t i = from, j = cur->nr ? cur->nr - 1 : 0; i < j; i++, j--) {
		struct pulse_cc_loc t = cur->locs[i];

		cur->locs[i] = cur->locs[j];
		cur->locs[j] = t;
	}
}

int pulse_machine__chain_sample(struct pulse_machine *m, struct pulse_thread *t, const void *ips,
				uint64_t nr, enum pulse_cc_order order, uint32_t max_stack,
				struct pulse_cc_cursor *cur)
{
	uint64_t frames = 0, skip = 0, ip;
	size_t from = cur->nr;
	struct pulse_cc_iter it;
	int ret;

	/*
	 * perf keeps the first max_stack frames in the order it walks: the
	 * innermost for callee order, the outermost for caller order. A
	 * marker it does not know, met on the way, drops the chain: any
	 * marker walking from the end, only those before the last frame kept
	 * walking from the start.
	 */
	pulse_cc_iter__init(&it, ips, nr);
	while ((ret = pulse_cc_iter__next(&it, &ip)) > 0 &&
	       (order == PULSE_CC_CALLER || frames < max_stack))
		frames++;
	if (ret < 0)
		return 0;
	if (frames > max_stack) {
		skip = frames - max_stack;
		frames = max_stack;
	}
	if (cursor__reserve(cur, frames))
		return -ENOMEM;
	pulse_cc_iter__init(&it, ips, nr);
	while (frames && pulse_cc_iter__next(&it, &ip) > 0) {
		if (skip) {
			skip--;
			continue;
		}
		pulse_machine__place_frame(m, t, it.cpumode, ip, &cur->locs[cur->nr++]);
		frames--;
	}
	if (order == PULSE_CC_CALLER)
		pulse_cc_cursor__reverse_from(cur, from);
	return 0;
}

int pulse_machine__resolve_callchain(struct pulse_machine *m, int32_t pid, int32_t tid,
				     const void *ips, uint64_t nr, enum pulse_cc_order order,
				     struct pulse_cc_cursor *cur)
{
	struct pulse_thread *t = pulse_machine__findnew_thread(m, pid, tid);

	cur->nr = 0;
	if (!t)
		return -ENOMEM;
	return pulse_machine__chain_sample(m, t, ips, nr, order, m->max_stack, cur);
}
