// SPDX-License-Identifier: GPL-2.0
/*
 * A process's address space: its maps sorted by start and never
 * overlapping, shared (refcounted) by the process's threads; a new map
 * cuts those it overlaps, as perf's maps__fixup_overlappings() does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/machine.h>
#include "session/machine-internal.h"

uint64_t pulse_maps__next_version(void)
{
	static uint64_t last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

int pulse_maps__new(struct pulse_maps **out)
{
	struct pulse_maps *maps = calloc(1, sizeof(*maps));

	*out = maps;
	if (!maps)
		return -ENOMEM;
	maps->refcnt = 1;
	maps->version = pulse_maps__next_version();
	return 0;
}

struct pulse_maps *pulse_maps__get(struct pulse_maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void pulse_maps__put(struct pulse_maps *maps)
{
	if (maps && --maps->refcnt == 0) {
		free(maps->maps);
		free(maps);
	}
}

/* index of the first map whose end is above addr */
static size_t maps__first_ending_after(const struct pulse_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pulse_maps__insert(struct pulse_maps *maps, const struct pulse_map *map)
{
	struct pulse_map before, after;
	bool has_before = false, has_after = false;
	size_t first, last, add;

	if (map->end <= map->start)
		return 0;
	maps->version = pulse_maps__next_version();
	/* the overlapped maps form one run [first, last) */
	first = maps__first_ending_after(maps, map->start);
	last = first;
	while (last < maps->nr && maps->maps[last].start < map->end)
		last++;
	if (first < last) {
		const struct pulse_map *lo = &maps->maps[first], *hi = &maps->maps[last - 1];

		if (lo->start < map->start) {
			before = *lo;
			before.end = map->start;
			has_before = true;
		}
		if (hi->end > map->end) {
			after = *hi;
			after.pgoff += map->end - hi->start;
			after.start = map->end;
			has_after = true;
		}
	}
	add = 1 + has_before + has_after;
	if (maps->nr - (last - first) + add > maps->alloc) {
		size_t n = maps->alloc ? maps->alloc * 2 : 16;
		struct pulse_map *m;

		while (n < maps->nr - (last - first) + add)
			n *= 2;
		m = realloc(maps->maps, n * sizeof(*m));
		if (!m)
			return -ENOMEM;
		maps->maps = m;
		maps->alloc = n;
	}
	memmove(&maps->maps[first + add], &maps->maps[last],
		(maps->nr - last) * sizeof(*maps->maps));
	maps->nr = maps->nr - (last - first) + add;
	if (has_before)
		maps->maps[first++] = before;
	maps->maps[first++] = *map;
	if (has_after)
		maps->maps[first] = after;
	return 0;
}

const struct pulse_map *pulse_maps__find(const struct pulse_maps *maps, uint64_t addr)
{
	size_t i = maps__first_ending_after(maps, addr);

	if (i < maps->nr && maps->maps[i].start <= addr)
		return &maps->maps[i];
	return NULL;
}

int pulse_maps__clone(struct pulse_maps *dst, const struct pulse_maps *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		int err = pulse_maps__insert(dst, &src->maps[i]);

		if (err)
			return err;
	}
	return 0;
}
