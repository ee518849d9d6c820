// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data to pprof, the walk (see include/pulse/convert-pprof.h for what
 * the profile holds): a tool over the session whose samples become stacks
 * of location ids, merged by stack and labels in a hash, while the
 * locations, functions, mappings and strings they name are built once
 * each. A callchain asks for the same few thousand addresses millions of
 * times, so a frame is first looked up by (maps version, ip), which the
 * machine changes whenever a process's maps change: a hit costs neither a
 * map nor a symbol search. pprof-write.c then writes the tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/convert-pprof.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "convert/pprof-int.h"
#include "core/hash.h"

/* ---- the (a, b) -> index table ------------------------------------------ */

int pp_map__init(struct pp_map *m, size_t size)
{
	m->slots = calloc(size, sizeof(*m->slots));
	m->size = m->slots ? size : 0;
	m->nr = 0;
	return m->slots ? 0 : -ENOMEM;
}

void pp_map__exit(struct pp_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->size = m->nr = 0;
}

uint32_t pp_map__get(const struct pp_map *m, uint64_t a, uint64_t b)
{
	size_t mask = m->size - 1, i = pp_mix(a, b) & mask;

	for (;; i = (i + 1) & mask) {
		const struct pp_slot *s = &m->slots[i];

		if (!s->val)
			return 0;
		if (s->a == a && s->b == b)
			return s->val;
	}
}

static void pp_map__insert(struct pp_slot *slots, size_t size, const struct pp_slot *e)
{
	size_t mask = size - 1, i = pp_mix(e->a, e->b) & mask;

	while (slots[i].val && !(slots[i].a == e->a && slots[i].b == e->b))
		i = (i + 1) & mask;
	slots[i] = *e;
}

int pp_map__put(struct pp_map *m, uint64_t a, uint64_t b, uint32_t val)
{
	struct pp_slot e = { a, b, val };

	/* at most half full: probes stay short */
	if ((m->nr + 1) * 2 > m->size) {
		size_t size = m->size * 2;
		struct pp_slot *slots = calloc(size, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < m->size; i++)
			if (m->slots[i].val)
				pp_map__insert(slots, size, &m->slots[i]);
		free(m->slots);
		m->slots = slots;
		m->size = size;
	}
	if (!pp_map__get(m, a, b))
		m->nr++;
	pp_map__insert(m->slots, m->size, &e);
	return 0;
}

/* ---- strings ------------------------------------------------------------ */

static uint64_t str_hash(const char *s, size_t *len)
{
	*len = strlen(s);
	return pulse_fnv1a(PULSE_FNV1A_INIT, s, *len);
}

static int strings__append(struct pp_strings *t, const char *s, bool copy)
{
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 256;
		char **strs = realloc(t->strs, n * sizeof(*strs));
		bool *owned;

		if (!strs)
			return -ENOMEM;
		t->strs = strs;
		owned = realloc(t->owned, n * sizeof(*owned));
		if (!owned)
			return -ENOMEM;
		t->owned = owned;
		t->alloc = n;
	}
	t->strs[t->nr] = copy ? strdup(s) : (char *)s;
	if (!t->strs[t->nr])
		return -ENOMEM;
	t->owned[t->nr] = copy;
	return (int)t->nr++;
}

int64_t pp_strings__intern(struct pp_strings *t, const char *s, bool copy)
{
	size_t len;
	uint64_t h = str_hash(s, &len);
	uint32_t v = pp_map__get(&t->index, h, len);
	int i;

	if (v && !strcmp(t->strs[v - 1], s))
		return v - 1;
	i = strings__append(t, s, copy);
	if (i < 0)
		return i;
	/* two strings of one 64-bit hash: the second is simply not indexed */
	if (!v && pp_map__put(&t->index, h, len, i + 1))
		return -ENOMEM;
	return i;
}

static void strings__exit(struct pp_strings *t)
{
	for (size_t i = 0; i < t->nr; i++)
		if (t->owned[i])
			free(t->strs[i]);
	free(t->strs);
	free(t->owned);
	pp_map__exit(&t->index);
}

/* ---- growing arrays ----------------------------------------------------- */

int pp_grow(void **arr, size_t *alloc, size_t need, size_t elem)
{
	size_t n;
	void *p;

	if (need <= *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 1024;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

#define GROW(arr, alloc, need) pp_grow((void **)&(arr), &(alloc), (need), sizeof(*(arr)))

/* ---- mappings, functions, locations ------------------------------------- */

static int64_t intern(struct pprof *p, const char *s)
{
	return pp_strings__intern(&p->strs, s ? s : "", true);
}

/* The map of @dso that @ip fell in, for the mapping's range (NULL: none found). */
static const struct pulse_map *find_map(struct pprof *p, const struct pulse_maps *maps,
					const struct pulse_dso *dso, uint64_t ip)
{
	const struct pulse_map *map = maps ? pulse_maps__find(maps, ip) : NULL;

	if (map && map->dso == dso)
		return map;
	/* the kernel beyond its MMAP (.init.text): its recorded map */
	for (size_t i = 0; i < p->machine->kmaps.nr; i++)
		if (p->machine->kmaps.maps[i].dso == dso)
			return &p->machine->kmaps.maps[i];
	return NULL;
}

static int mapping_of(struct pprof *p, struct pulse_dso *dso, const struct pulse_map *map,
		      uint32_t *id)
{
	struct pp_mapping *mp;
	char hex[PULSE_BUILD_ID_SIZE * 2 + 1];
	int64_t fn, bid = 0;

	*id = pp_map__get(&p->map_index, (uintptr_t)dso, 0);
	if (*id)
		return 0;
	if (GROW(p->mappings, p->alloc_mappings, p->nr_mappings + 1))
		return -ENOMEM;
	fn = intern(p, dso->long_name);
	if (dso->has_build_id && dso->build_id_size <= PULSE_BUILD_ID_SIZE) {
		for (size_t i = 0; i < dso->build_id_size; i++)
			snprintf(hex + 2 * i, 3, "%02x", dso->build_id[i]);
		hex[2 * dso->build_id_size] = 0;
		bid = intern(p, hex);
	}
	if (fn < 0 || bid < 0)
		return -ENOMEM;
	mp = &p->mappings[p->nr_mappings++];
	*mp = (struct pp_mapping){ .dso = dso, .filename = fn, .build_id = bid };
	if (map) {
		mp->start = map->start;
		mp->limit = map->end;
		mp->offset = map->pgoff;
	}
	*id = p->nr_mappings;
	return pp_map__put(&p->map_index, (uintptr_t)dso, 0, *id);
}

/* A frame not met before in this address space: its location, made if new. */
static int location_of(struct pprof *p, struct pulse_thread *t, uint8_t cpumode, uint64_t ip,
		       uint32_t *id)
{
	const struct pulse_maps *maps = cpumode == PERF_RECORD_MISC_KERNEL ? &p->machine->kmaps :
					cpumode == PERF_RECORD_MISC_USER ? t->maps : NULL;
	struct pulse_addr_loc al;
	struct pp_location loc = { 0 };
	uint32_t mapping = 0;
	int err;

	pulse_machine__resolve_thread(p->machine, t, cpumode, ip, &al);
	*id = pp_map__get(&p->loc_index, (uintptr_t)al.dso, al.dso ? al.addr : ip);
	if (*id)
		return 0;
	if (al.dso) {
		const struct pulse_map *map = find_map(p, maps, al.dso, ip);

		err = mapping_of(p, al.dso, map, &mapping);
		if (err)
			return err;
		if (map && !map->identity)
			ip = p->mappings[mapping - 1].start + al.addr - p->mappings[mapping - 1].offset;
	}
	loc.address = ip;
	loc.mapping = mapping;
	if (GROW(p->locations, p->alloc_locations, p->nr_locations + 1))
		return -ENOMEM;
	p->locations[p->nr_locations++] = loc;
	*id = p->nr_locations;
	/* its lines are looked up by another thread; a symbol has a dso, so a mapping */
	if (al.sym && mapping) {
		err = pp_lines__ask(p, *id, al.dso, al.addr, al.sym);
		if (err)
			return err;
	}
	return pp_map__put(&p->loc_index, (uintptr_t)al.dso, al.dso ? al.addr : ip, *id);
}

/*
 * The location id of a frame met before in another address space (the
 * same DSO and address, another process or load address): a map search but
 * no symbol search. A module's address is placed from its .text: the full
 * resolution does it. Return: the id, 0 when not known yet.
 */
static uint32_t frame_by_map(struct pprof *p, const struct pulse_maps *maps, uint64_t ip)
{
	const struct pulse_map *map = maps ? pulse_maps__find(maps, ip) : NULL;

	if (!map || map->dso->kind == PULSE_DSO_MODULE)
		return 0;
	return pp_map__get(&p->loc_index, (uintptr_t)map->dso, pulse_map__map_ip(map, ip));
}

/* The location id of a frame, through the (maps version, ip) cache. */
static int frame(struct pprof *p, struct pulse_thread *t, uint8_t cpumode, uint64_t ip,
		 uint32_t *id)
{
	const struct pulse_maps *maps = cpumode == PERF_RECORD_MISC_KERNEL ? &p->machine->kmaps :
					cpumode == PERF_RECORD_MISC_USER ? t->maps : NULL;
	uint64_t version = maps ? maps->version : 0;
	struct pp_slot *hot;
	int err;

	/* no maps (hypervisor, guests): keyed by the mode, never a version */
	if (!version)
		version = ~0ULL - cpumode;
	/* one multiply (Fibonacci hashing): this runs for every frame of every sample */
	hot = &p->hot[((ip ^ version << 40) * 0x9e3779b97f4a7c15ULL) >> (64 - PP_HOT_BITS)];
	if (hot->val && hot->a == version && hot->b == ip) {
		*id = hot->val;
		return 0;
	}
	*id = frame_by_map(p, maps, ip);
	if (!*id) {
		err = location_of(p, t, cpumode, ip, id);
		if (err)
			return err;
	}
	*hot = (struct pp_slot){ version, ip, *id };
	return 0;
}

/* ---- samples ------------------------------------------------------------ */

static int pprof__columns(struct pprof *p);

/*
 * The sample's location ids into @ids (room for callchain_nr + 1 + @unw_nr),
 * leaf first; their number. The callchain's addresses in their markers'
 * modes, then the DWARF-unwound user addresses @unw (user mode), as
 * pulse_machine__sample_callchain() orders them.
 */
static int sample_stack(struct pprof *p, struct pulse_thread *t, const struct pulse_sample *s,
			uint8_t cpumode, const uint64_t *unw, size_t unw_nr, uint32_t *ids,
			size_t *nr)
{
	struct pulse_cc_iter it;
	bool first = true;
	uint64_t ip;
	int err, ret;

	*nr = 0;
	pulse_cc_iter__init(&it, s->callchain, s->callchain_nr);
	while ((ret = pulse_cc_iter__next(&it, &ip)) != 0) {
		/*
		 * pprof keeps the frames around a marker perf does not know,
		 * in no map's mode
		 */
		if (ret < 0) {
			it.cpumode = PERF_RECORD_MISC_HYPERVISOR;
			continue;
		}
		/* the leaf is the sample's ip: a chain that does not start there gets it */
		if (first && ip != s->ip) {
			err = frame(p, t, cpumode, s->ip, &ids[(*nr)++]);
			if (err)
				return err;
		}
		first = false;
		err = frame(p, t, it.cpumode, ip, &ids[(*nr)++]);
		if (err)
			return err;
	}
	/* an unwound user stack starts at the sampled user ip, the leaf without a chain */
	if (first && !unw_nr)
		return frame(p, t, cpumode, s->ip, &ids[(*nr)++]);
	for (size_t i = 0; i < unw_nr; i++) {
		if (!unw[i])
			continue;
		err = frame(p, t, PERF_RECORD_MISC_USER, unw[i], &ids[(*nr)++]);
		if (err)
			return err;
	}
	return 0;
}

static int pprof__sample(struct pulse_session *s, const struct perf_event_header *rec,
			 uint64_t file_offset, void *arg)
{
	struct pprof *p = arg;
	struct pulse_data *d = pulse_session__data(s);
	const struct perf_event_attr *attr;
	struct pulse_sample smp;
	struct pulse_thread *t;
	struct pp_sample k = { .count = 1 };
	uint32_t *ids;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	size_t nr, unw_nr;
	const uint64_t *unw;
	int64_t comm;
	int idx, err;

	idx = pulse_data__attr_of(d, rec, rec->size);
	if (idx < 0)
		return 0;
	/* a pipe's attrs come during the walk: the columns are made again */
	if ((size_t)idx >= p->nr_attrs) {
		err = pprof__columns(p);
		if (err)
			return err;
		if ((size_t)idx >= p->nr_attrs)
			return 0;
	}
	attr = pulse_data__attr(d, idx);
	if (!attr || pulse_sample__parse(rec, rec->size, attr, &smp))
		return 0;
	p->st.nr_samples++;
	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		smp.period = attr->sample_period;
	if (attr->sample_type & PERF_SAMPLE_TIME) {
		if (!p->first_time || smp.time < p->first_time)
			p->first_time = smp.time;
		if (smp.time > p->last_time)
			p->last_time = smp.time;
	}
	t = pulse_machine__findnew_thread(p->machine, smp.pid, smp.tid);
	if (!t)
		return -ENOMEM;
	err = pulse_machine__unwind_sample(p->machine, attr, &smp, &unw, &unw_nr);
	if (err)
		return err;
	/* the ids go straight into the record handed to the merging thread */
	ids = pp_merge__begin(p, smp.callchain_nr + 1 + unw_nr, &err);
	if (!ids)
		return err;
	err = sample_stack(p, t, &smp, cpumode, unw, unw_nr, ids, &nr);
	if (err)
		return err;
	/* a run of samples of one thread: its comm as the last time */
	comm = t->comm == p->last_comm ? p->last_comm_idx :
	       pp_map__get(&p->comm_index, (uintptr_t)t->comm, 0);
	if (!comm) {
		comm = intern(p, t->comm);
		if (comm < 0 || pp_map__put(&p->comm_index, (uintptr_t)t->comm, 0, comm))
			return -ENOMEM;
	}
	k.nr_locs = nr;
	k.pid = t->pid >= 0 ? t->pid : (int32_t)smp.pid;
	k.tid = smp.tid;
	p->last_comm = t->comm;
	p->last_comm_idx = comm;
	k.comm = comm;
	k.column = p->attr_column[idx];
	k.value = smp.period;
	pp_merge__end(p, &k, ids);
	return 0;
}

/* ---- value columns ------------------------------------------------------ */

static bool is_cpu_clock(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE && (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
						    attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* One column per event name; cpu-clock and task-clock are pprof's "cpu" in ns. */
static int pprof__columns(struct pprof *p)
{
	struct pulse_data *d = pulse_session__data(p->session);
	size_t nr = pulse_data__nr_attrs(d);
	char buf[256];

	free(p->attr_column);
	free(p->columns);
	p->nr_attrs = nr;
	p->attr_column = calloc(nr ? nr : 1, sizeof(*p->attr_column));
	p->columns = calloc(nr + 1, sizeof(*p->columns));
	if (!p->attr_column || !p->columns)
		return -ENOMEM;
	p->columns[0] = (struct pp_column){ intern(p, "samples"), intern(p, "count"), 0 };
	p->nr_columns = 1;
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *attr = pulse_data__attr(d, i);
		const char *name = pulse_session__event_name(p->session, i, buf, sizeof(buf));
		bool cpu = attr && is_cpu_clock(attr);
		int64_t type = intern(p, cpu ? "cpu" : name), ev = intern(p, name);
		int64_t unit = intern(p, cpu ? "nanoseconds" : "count");
		size_t c;

		if (type < 0 || ev < 0 || unit < 0)
			return -ENOMEM;
		/* an event met before under its name; else a type name taken: the event's */
		for (c = 1; c < p->nr_columns; c++) {
			if (p->columns[c].type == ev)
				break;
			if (p->columns[c].type == type)
				type = ev;
		}
		if (c < p->nr_columns && p->columns[c].type == ev) {
			p->attr_column[i] = c;
			continue;
		}
		p->columns[c] = (struct pp_column){ type, unit, 0 };
		if (attr && !attr->freq)
			p->columns[c].period = attr->sample_period;
		else if (attr && cpu && attr->sample_freq)
			p->columns[c].period = 1000000000ULL / attr->sample_freq;
		p->attr_column[i] = c;
		p->nr_columns++;
	}
	return 0;
}

/* ---- the conversion ----------------------------------------------------- */

static void pprof__exit(struct pprof *p)
{
	pp_lines__exit(p);
	strings__exit(&p->strs);
	pp_map__exit(&p->loc_index);
	pp_map__exit(&p->func_index);
	pp_map__exit(&p->map_index);
	pp_map__exit(&p->comm_index);
	pp_merge__exit(p);
	free(p->mappings);
	free(p->functions);
	free(p->lines);
	free(p->locations);
	free(p->samples);
	free(p->stack);
	free(p->columns);
	free(p->attr_column);
}

static int pprof__init(struct pprof *p, struct pulse_session *s)
{
	memset(p, 0, sizeof(*p));
	p->session = s;
	p->machine = pulse_session__machine(s);
	if (!p->machine)
		return -EINVAL;
	if (pp_lines__new(p, p->machine->dsos.opts.symfs) ||
	    pp_map__init(&p->strs.index, 1024) || pp_map__init(&p->loc_index, 1 << 14) || pp_map__init(&p->func_index, 1024) ||
	    pp_map__init(&p->map_index, 64) || pp_map__init(&p->comm_index, 256) ||
	    pp_merge__new(p) || intern(p, "") < 0)
		return -ENOMEM;
	return 0;
}

int pulse_pprof__convert(struct pulse_session *s, FILE *out, const struct pulse_pprof_opts *opts,
			 struct pulse_pprof_stats *st)
{
	struct pulse_tool tool = { .sample = pprof__sample };
	/* the frame cache makes it too big for a stack */
	struct pprof *p = malloc(sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	err = pprof__init(p, s);
	if (!err)
		err = pprof__columns(p);
	if (!err)
		err = pulse_session__process(s, &tool, p);
	/* the threads done, even after an error: nothing reads on while they run */
	if (p->merge) {
		int merged = pp_merge__finish(p);

		err = err ? err : merged;
	}
	if (p->lines_pipe) {
		int lines = pp_lines__finish(p);

		err = err ? err : lines;
	}
	if (!err && !p->nr_attrs)
		err = -ENODATA;
	if (!err)
		err = pprof__write(p, out, opts);
	if (st)
		*st = p->st;
	pprof__exit(p);
	free(p);
	return err;
}
