// SPDX-License-Identifier: GPL-2.0
/*
 * An output's view of its records for the closing features: each SAMPLE's
 * time widens the time range and its ip marks the DSO it falls in, placed
 * by the session's machine model (lib/session/machine.c) fed with the
 * side-band records stored: MMAP, MMAP2, COMM, FORK and EXIT, with perf's
 * semantics (perf record marks the DSOs hit through its own machine too).
 * The machine loads no symbols: only maps and DSO names are wanted here.
 *
 * This runs on every record pulse record writes, so a SAMPLE is not fully
 * parsed: its event is found by IDENTIFIER (a binary search, only with
 * several events) and ip, pid and time are read at offsets fixed per event
 * (pulse_sample__offsets()). Measured on one core of the machine this was
 * written on, with IDENTIFIER|IP|TID|TIME|CPU|PERIOD|RAW samples:
 * pulse_sample__parse() costs 27-35 ns a sample, the fixed offsets 6-9 ns;
 * for the 2 million samples of bench/record-storm.sh that is ~50 ms more
 * recorder CPU, a fifth of the 0.2-0.25 s pulse record spends there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "record/track.h"

#define MAX_RECORD 65536	/* header.size is a u16 */

int pulse_record_track__init(struct pulse_record_track *t, const struct pulse_data_attr *attrs,
			     size_t nr_attrs)
{
	/* no kallsyms, no debug dirs, no vDSO: nothing to read */
	struct pulse_symbol_opts opts = { .sz = sizeof(opts), .no_vdso = true,
					  .no_symbols = true };
	size_t n = 0;
	int err;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < nr_attrs; i++)
		n += attrs[i].nr_ids;
	pulse_id_index__init(&t->ids);
	t->last_ev = -1;
	t->offs = calloc(nr_attrs ? nr_attrs : 1, sizeof(*t->offs));
	t->bounce = malloc(MAX_RECORD);
	if (pulse_id_index__reserve(&t->ids, n) || !t->offs || !t->bounce)
		return -ENOMEM;
	err = pulse_machine__init(&t->machine, &opts);
	if (err)
		return err;
	t->machine_ok = true;
	t->nr_attrs = nr_attrs;
	for (size_t i = 0; i < nr_attrs; i++) {
		pulse_sample__offsets(attrs[i].attr.sample_type, &t->offs[i]);
		for (size_t k = 0; k < attrs[i].nr_ids; k++)
			pulse_id_index__add(&t->ids, attrs[i].ids[k], i);	/* reserved */
	}
	pulse_id_index__sort(&t->ids);
	return 0;
}

void pulse_record_track__exit(struct pulse_record_track *t)
{
	if (t->machine_ok)
		pulse_machine__exit(&t->machine);
	pulse_id_index__exit(&t->ids);
	free(t->misses);
	free(t->offs);
	free(t->bounce);
	memset(t, 0, sizeof(*t));
}

void pulse_record_track__set_unordered(struct pulse_record_track *t)
{
	t->unordered = true;
}

/* Keep a sample that found no DSO, once per pid and page; never fails. */
static void add_miss(struct pulse_record_track *t, int32_t pid, int32_t tid, uint8_t cpumode,
		     __u64 ip)
{
	/* +1: a zero key means an empty slot */
	__u64 key = ((__u64)(__u32)pid << 40 ^ ip >> 12) + 1;
	size_t slot = (key * 0x9e3779b97f4a7c15ULL) >> 56;

	if (t->miss_cache[slot] == key || t->nr_misses == PULSE_TRACK_MAX_MISSES)
		return;
	if (t->nr_misses == t->cap_misses) {
		size_t cap = t->cap_misses ? 2 * t->cap_misses : 64;
		struct pulse_record_track_miss *m = realloc(t->misses, cap * sizeof(*m));

		if (!m)
			return;
		t->misses = m;
		t->cap_misses = cap;
	}
	t->miss_cache[slot] = key;
	t->misses[t->nr_misses++] = (struct pulse_record_track_miss){ pid, tid, cpumode, ip };
}

/*
 * The DSO a sample's ip falls in is hit. A kernel address outside the
 * kernel's text (a module, BPF: pulse record maps no module) is the
 * kernel's, as pulse report places it and dso-hits.c did before.
 */
static void mark_hit(struct pulse_record_track *t, int32_t pid, int32_t tid, uint8_t cpumode,
		     __u64 ip)
{
	struct pulse_dso *k = t->machine.kernel_dso;
	struct pulse_addr_loc al;

	/*
	 * Most kernel samples land in the kernel's text, once marked: that
	 * is the kernel's map, whatever the thread (tracepoint storms).
	 */
	if (cpumode == PERF_RECORD_MISC_KERNEL && k && k->hit && ip >= k->text_start &&
	    ip < k->text_end)
		return;
	/* the previous sample's place, nothing changed since: marked already */
	if (t->last.valid && ip == t->last.ip && tid == t->last.tid && pid == t->last.pid &&
	    cpumode == t->last.cpumode)
		return;
	if (pulse_machine__resolve(&t->machine, pid, tid, cpumode, ip, &al))
		return;
	t->last = (struct pulse_record_track_last){ true, cpumode, pid, tid, ip };
	if (al.dso)
		al.dso->hit = true;
	else if (cpumode == PERF_RECORD_MISC_KERNEL && t->machine.kernel_dso)
		t->machine.kernel_dso->hit = true;
	else if (t->unordered)
		add_miss(t, pid, tid, cpumode, ip);
}

void pulse_record_track__retry_misses(struct pulse_record_track *t)
{
	for (size_t i = 0; i < t->nr_misses; i++) {
		const struct pulse_record_track_miss *m = &t->misses[i];
		struct pulse_addr_loc al;

		if (!pulse_machine__resolve(&t->machine, m->pid, m->tid, m->cpumode, m->ip, &al) &&
		    al.dso)
			al.dso->hit = true;
	}
	t->nr_misses = 0;
}

static void note_sample(struct pulse_record_track *t, const unsigned char *p, size_t size,
			__u16 misc)
{
	const struct pulse_sample_offsets *so;
	int ev = 0;

	/* an id nobody was given goes to the first event, as the reader routes it */
	if (t->nr_attrs > 1 && size >= 16) {
		__u64 id = get_u64(p + 8);

		if (id != t->last_id || t->last_ev < 0) {
			ev = pulse_id_index__find(&t->ids, id);
			t->last_id = id;
			t->last_ev = ev < 0 ? 0 : ev;
		}
		ev = t->last_ev;
	}
	so = &t->offs[ev];
	if (size < (size_t)so->min_size)
		return;
	if (so->time >= 0) {
		__u64 tm = get_u64(p + so->time);

		if (!t->first_time || tm < t->first_time)
			t->first_time = tm;
		if (tm > t->last_time)
			t->last_time = tm;
	}
	if (so->ip >= 0)
		mark_hit(t, so->pid >= 0 ? (int32_t)get_u32(p + so->pid) : -1,
			 so->pid >= 0 ? (int32_t)get_u32(p + so->pid + 4) : -1,
			 misc & PERF_RECORD_MISC_CPUMODE_MASK, get_u64(p + so->ip));
}

void pulse_record_track__note(struct pulse_record_track *t, const void *rec, size_t size)
{
	const unsigned char *p = rec;
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		note_sample(t, p, size, h.misc);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/*
		 * A record too short for its type, or no memory: the machine
		 * misses a map, a DSO may go unlisted; the recording goes on.
		 */
		if (size >= sizeof(h) && h.size == size)
			pulse_machine__process(&t->machine, rec);
		t->last.valid = false;
		break;
	}
}

void pulse_record_track__note_iov(struct pulse_record_track *t, const struct iovec *iov, int cnt,
				  size_t len)
{
	struct pulse_iov_walk w;
	struct perf_event_header h;

	pulse_iov_walk__init(&w, iov, cnt, len);
	while (pulse_iov_walk__peek(&w, &h) > 0)
		pulse_record_track__note(t, pulse_iov_walk__take(&w, h.size, t->bounce), h.size);
}
