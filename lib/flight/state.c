// SPDX-License-Identifier: GPL-2.0
/*
 * The live side-band state of a flight recording: which tasks exist, what
 * they are called and what they have mapped, kept as the side-band records
 * themselves (COMM, FORK, MMAP, MMAP2, KSYMBOL, ITRACE_START), so that a
 * snapshot can start with them and be read by perf and pulse alike.
 *
 * Memory stays bounded because records die: a COMM when its thread takes
 * another name or exits; a FORK when its thread exits; a map when the same
 * range is mapped again, its process execs or exits. A dead record is still
 * needed by samples older than its death, so it is kept until no sample
 * the recorder holds is that old (pulse_flight_state__age()), or until the
 * dead records pass a cap, oldest death first. Records are written in the
 * order they came; a reader sorts them by time, so an exited process is
 * named up to its exit and a reused pid after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/flight.h>
#include <pulse/perf-abi.h>
#include "core/internal.h"

#define NR_BUCKETS 4096
#define DEFAULT_CAP (8u << 20)
#define MAX_KSYMS 4096
#define MAX_ITRACE 1024	/* ITRACE_START records of one thread (an AUX event per CPU) */

struct fl_rec {
	struct fl_rec *prev, *next;	/* arrival order */
	struct fl_rec *dead_next;	/* death order, once dead */
	__u64 dead_at;			/* time of death; alive while !dead */
	__u64 seq;			/* arrival number, from 1 */
	bool dead;
	__u32 size;
	unsigned char data[];
};

/* One tid's records, and for a process leader (tid == pid) its maps. */
struct fl_task {
	struct fl_task *hnext;
	int id;
	struct fl_rec *comm, *fork;
	struct fl_rec **maps;
	unsigned int nr_maps, alloc_maps;
	struct fl_rec **itrace;		/* ITRACE_START: an AUX PMU traces it (one per CPU) */
	unsigned int nr_itrace, alloc_itrace;
};

struct pulse_flight_state {
	struct fl_rec *first, *last;
	struct fl_rec *dead_first, *dead_last;
	struct fl_task *buckets[NR_BUCKETS];
	struct fl_task kernel;		/* pid -1: the kernel's maps and ksymbols */
	size_t time_back;
	size_t cap;
	size_t nr, bytes;
	size_t dead_bytes;
	__u64 seq;
};

int pulse_flight_state__new(struct pulse_flight_state **out, size_t time_back, size_t cap)
{
	struct pulse_flight_state *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->time_back = time_back;
	s->cap = cap ? cap : DEFAULT_CAP;
	s->kernel.id = -1;
	*out = s;
	return 0;
}

static void free_task(struct fl_task *t)
{
	free(t->itrace);
	free(t->maps);
	free(t);
}

void pulse_flight_state__delete(struct pulse_flight_state *s)
{
	struct fl_rec *r, *n;

	if (!s)
		return;
	for (r = s->first; r; r = n) {
		n = r->next;
		free(r);
	}
	for (int b = 0; b < NR_BUCKETS; b++) {
		struct fl_task *t, *tn;

		for (t = s->buckets[b]; t; t = tn) {
			tn = t->hnext;
			free_task(t);
		}
	}
	free(s->kernel.maps);
	free(s);
}

static unsigned int bucket_of(int id)
{
	return ((unsigned int)id * 2654435761u) >> 20 & (NR_BUCKETS - 1);
}

static struct fl_task *find_task(struct pulse_flight_state *s, int id, bool create)
{
	struct fl_task **pp = &s->buckets[bucket_of(id)], *t;

	if (id == -1)
		return &s->kernel;
	for (t = *pp; t; t = t->hnext)
		if (t->id == id)
			return t;
	if (!create)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = id;
	t->hnext = *pp;
	*pp = t;
	return t;
}

/* Drop @t from the table once nothing alive refers to it. */
static void put_task(struct pulse_flight_state *s, struct fl_task *t)
{
	struct fl_task **pp;

	if (t == &s->kernel || t->comm || t->fork || t->nr_maps || t->nr_itrace)
		return;
	for (pp = &s->buckets[bucket_of(t->id)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == t) {
			*pp = t->hnext;
			free_task(t);
			return;
		}
	}
}

static void unlink_rec(struct pulse_flight_state *s, struct fl_rec *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		s->first = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		s->last = r->prev;
	s->nr--;
	s->bytes -= r->size;
}

/* What a record costs: its bytes, its bookkeeping, malloc's own. */
static size_t cost(const struct fl_rec *r)
{
	return sizeof(*r) + r->size + 16;
}

static void kill_rec(struct pulse_flight_state *s, struct fl_rec *r, __u64 time)
{
	if (!r || r->dead)
		return;
	r->dead = true;
	r->dead_at = time;
	r->dead_next = NULL;
	if (s->dead_last)
		s->dead_last->dead_next = r;
	else
		s->dead_first = r;
	s->dead_last = r;
	s->dead_bytes += cost(r);
}

/* Free dead records from the oldest death while @keep says so. */
static void reap(struct pulse_flight_state *s, __u64 before)
{
	while (s->dead_first && (s->dead_first->dead_at < before || s->dead_bytes > s->cap)) {
		struct fl_rec *r = s->dead_first;

		s->dead_first = r->dead_next;
		if (!s->dead_first)
			s->dead_last = NULL;
		s->dead_bytes -= cost(r);
		unlink_rec(s, r);
		free(r);
	}
}

void pulse_flight_state__age(struct pulse_flight_state *s, __u64 time)
{
	reap(s, time);
}

static int add_to(struct fl_rec ***arr, unsigned int *nr, unsigned int *alloc, struct fl_rec *r)
{
	if (*nr == *alloc) {
		unsigned int n = *alloc ? 2 * *alloc : 16;
		struct fl_rec **m = realloc(*arr, n * sizeof(*m));

		if (!m)
			return -ENOMEM;
		*arr = m;
		*alloc = n;
	}
	(*arr)[(*nr)++] = r;
	return 0;
}

static int add_map(struct fl_task *t, struct fl_rec *r)
{
	return add_to(&t->maps, &t->nr_maps, &t->alloc_maps, r);
}

static void kill_maps(struct pulse_flight_state *s, struct fl_task *t, __u64 time)
{
	for (unsigned int i = 0; i < t->nr_maps; i++)
		kill_rec(s, t->maps[i], time);
	t->nr_maps = 0;
}

/* start and len of an MMAP/MMAP2 record (both have pid, tid, addr, len first) */
static void map_range(const struct fl_rec *r, __u64 *start, __u64 *len)
{
	*start = get_u64(r->data + 16);
	*len = get_u64(r->data + 24);
}

/* A map of the same range, mapped again, is gone. */
static void replace_map(struct pulse_flight_state *s, struct fl_task *t, struct fl_rec *r,
			__u64 time)
{
	__u64 start, len;

	map_range(r, &start, &len);
	for (unsigned int i = 0; i < t->nr_maps;) {
		__u64 os, ol;

		map_range(t->maps[i], &os, &ol);
		if (os >= start && os + ol <= start + len) {
			kill_rec(s, t->maps[i], time);
			t->maps[i] = t->maps[--t->nr_maps];
			continue;
		}
		i++;
	}
}

static __u64 rec_time(const struct pulse_flight_state *s, const unsigned char *p, size_t size,
		      size_t min_body)
{
	if (!s->time_back || size < min_body + s->time_back)
		return 0;
	return get_u64(p + size - s->time_back);
}

static struct fl_rec *store(struct pulse_flight_state *s, const void *rec, size_t size)
{
	struct fl_rec *r = malloc(sizeof(*r) + size);

	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->size = size;
	r->seq = ++s->seq;
	memcpy(r->data, rec, size);
	r->prev = s->last;
	if (s->last)
		s->last->next = r;
	else
		s->first = r;
	s->last = r;
	s->nr++;
	s->bytes += size;
	return r;
}

static int fold_comm(struct pulse_flight_state *s, const unsigned char *p, size_t size,
		     __u16 misc)
{
	int pid = (int)get_u32(p + 8), tid = (int)get_u32(p + 12);
	__u64 time = rec_time(s, p, size, 16);
	struct fl_task *t = find_task(s, tid, true);
	struct fl_rec *r;

	if (!t)
		return -ENOMEM;
	if (misc & PERF_RECORD_MISC_COMM_EXEC) {
		struct fl_task *leader = find_task(s, pid, false);

		/* the new image maps itself again: the old maps are gone */
		if (leader)
			kill_maps(s, leader, time);
	}
	r = store(s, p, size);
	if (!r)
		return -ENOMEM;
	kill_rec(s, t->comm, time);
	t->comm = r;
	return 0;
}

static int fold_fork(struct pulse_flight_state *s, const unsigned char *p, size_t size)
{
	int tid = (int)get_u32(p + 16);
	struct fl_task *t;
	struct fl_rec *r;

	if (size < 32)
		return 0;
	t = find_task(s, tid, true);
	if (!t)
		return -ENOMEM;
	r = store(s, p, size);
	if (!r)
		return -ENOMEM;
	/* a reused tid: what the old thread left is dead from now on */
	kill_rec(s, t->comm, get_u64(p + 24));
	t->comm = NULL;
	kill_rec(s, t->fork, get_u64(p + 24));
	t->fork = r;
	return 0;
}

static void fold_exit(struct pulse_flight_state *s, const unsigned char *p, size_t size)
{
	int pid = (int)get_u32(p + 8), tid = (int)get_u32(p + 16);
	__u64 time;
	struct fl_task *t;

	if (size < 32)
		return;
	time = get_u64(p + 24);
	t = find_task(s, tid, false);
	if (t) {
		kill_rec(s, t->comm, time);
		kill_rec(s, t->fork, time);
		t->comm = t->fork = NULL;
		for (unsigned int i = 0; i < t->nr_itrace; i++)
			kill_rec(s, t->itrace[i], time);
		t->nr_itrace = 0;
		if (pid == tid)
			kill_maps(s, t, time);
		put_task(s, t);
	}
}

static int fold_mmap(struct pulse_flight_state *s, const unsigned char *p, size_t size,
		     size_t body)
{
	int pid = (int)get_u32(p + 8);
	struct fl_task *t;
	struct fl_rec *r;

	if (size < body)
		return 0;
	t = find_task(s, pid, true);
	if (!t)
		return -ENOMEM;
	r = store(s, p, size);
	if (!r)
		return -ENOMEM;
	replace_map(s, t, r, rec_time(s, p, size, body));
	if (add_map(t, r)) {
		unlink_rec(s, r);
		free(r);
		return -ENOMEM;
	}
	return 0;
}

static int fold_ksymbol(struct pulse_flight_state *s, const unsigned char *p, size_t size)
{
	struct fl_task *k = &s->kernel;
	struct fl_rec *r;

	if (size < 24)
		return 0;
	/* BPF programs come and go; keep the newest ones */
	if (k->nr_maps >= MAX_KSYMS) {
		kill_rec(s, k->maps[0], 0);
		memmove(k->maps, k->maps + 1, --k->nr_maps * sizeof(*k->maps));
	}
	r = store(s, p, size);
	if (!r)
		return -ENOMEM;
	if (add_map(k, r)) {
		unlink_rec(s, r);
		free(r);
		return -ENOMEM;
	}
	return 0;
}

/*
 * ITRACE_START: an AUX PMU began tracing a thread (once per event, so once
 * per CPU); a decoder takes the thread from it. Kept until the thread exits.
 */
static int fold_itrace(struct pulse_flight_state *s, const unsigned char *p, size_t size)
{
	struct fl_task *t;
	struct fl_rec *r;

	if (size < 16)
		return 0;
	t = find_task(s, (int)get_u32(p + 12), true);
	if (!t)
		return -ENOMEM;
	if (t->nr_itrace >= MAX_ITRACE) {
		kill_rec(s, t->itrace[0], rec_time(s, p, size, 16));
		memmove(t->itrace, t->itrace + 1, --t->nr_itrace * sizeof(*t->itrace));
	}
	r = store(s, p, size);
	if (!r)
		return -ENOMEM;
	if (add_to(&t->itrace, &t->nr_itrace, &t->alloc_itrace, r)) {
		unlink_rec(s, r);
		free(r);
		return -ENOMEM;
	}
	return 0;
}

int pulse_flight_state__fold(struct pulse_flight_state *s, const void *rec, size_t size)
{
	const unsigned char *p = rec;
	struct perf_event_header h;
	int ret = 0;

	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	if (h.size != size)
		return -EINVAL;
	switch (h.type) {
	case PERF_RECORD_COMM:
		if (size >= 24)
			ret = fold_comm(s, p, size, h.misc);
		break;
	case PERF_RECORD_FORK:
		ret = fold_fork(s, p, size);
		break;
	case PERF_RECORD_EXIT:
		fold_exit(s, p, size);
		break;
	case PERF_RECORD_MMAP:
		ret = fold_mmap(s, p, size, 40);
		break;
	case PERF_RECORD_MMAP2:
		ret = fold_mmap(s, p, size, 72);
		break;
	case PERF_RECORD_KSYMBOL:
		ret = fold_ksymbol(s, p, size);
		break;
	case PERF_RECORD_ITRACE_START:
		ret = fold_itrace(s, p, size);
		break;
	default:
		break;
	}
	reap(s, 0);
	return ret;
}

int pulse_flight_state__emit(const struct pulse_flight_state *s, __u64 *since,
			     int (*fn)(const void *rec, size_t size, void *arg), void *arg)
{
	for (const struct fl_rec *r = s->first; r; r = r->next) {
		int ret;

		if (since && r->seq <= *since)
			continue;
		ret = fn(r->data, r->size, arg);
		if (ret)
			return ret;
	}
	if (since)
		*since = s->seq;
	return 0;
}

void pulse_flight_state__usage(const struct pulse_flight_state *s, size_t *records,
			       size_t *bytes)
{
	*records = s->nr;
	*bytes = s->bytes;
}
