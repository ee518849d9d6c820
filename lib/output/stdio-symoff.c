// SPDX-License-Identifier: GPL-2.0
/*
 * The "symoff" column (newer perf's hist_entry__symoff_snprintf(); perf
 * 6.1 has no such key): "[.] sym+0xOFF" of the entry's address, never cut
 * to the column, "[.] 0x..." without a symbol.
 */
#include <stdio.h>
#include <pulse/machine.h>
#include "output/stdio-symoff.h"

/* @addr, a DSO offset, in the map of the entry's DSO holding its address @e->ip */
static uint64_t entry__unmap_at_ip(const struct pulse_hist_entry *e, uint64_t addr)
{
	const struct pulse_maps *maps = e->thread ? e->thread->maps : NULL;

	for (size_t i = 0; maps && i < maps->nr; i++) {
		const struct pulse_map *m = &maps->maps[i];

		if (m->dso == e->dso && !m->identity && e->ip >= m->start && e->ip < m->end)
			return addr + m->start - m->pgoff;
	}
	return addr;
}

int pulse_stdio_symoff__snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
				 int width)
{
	uint64_t start;

	if (!e->sym)
		return snprintf(buf, size, "[%c] %-#.*llx", e->level, width - 4,
				(unsigned long long)e->ip);
	/*
	 * A --children entry made from a callchain frame has the frame's
	 * address: taken back into the DSO (newer perf prints the address
	 * less the symbol's start there, a meaningless number)
	 */
	start = e->sym->start;
	if (e->ip < e->sym->start || e->ip >= e->sym->end)
		start = entry__unmap_at_ip(e, start);
	return snprintf(buf, size, "[%c] %s+0x%llx", e->level, e->sym->name,
			(unsigned long long)(e->ip - start));
}
