// SPDX-License-Identifier: GPL-2.0
/*
 * An output's view of its records for the closing features: each SAMPLE's
 * time widens the time range and its ip marks the DSO it falls in (through
 * dso-hits.c's per-process maps, fed by MMAP, FORK and COMM exec records).
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

static int cmp_id(const void *a, const void *b)
{
	const struct pulse_record_track_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int pulse_record_track__init(struct pulse_record_track *t, const struct pulse_data_attr *attrs,
			     size_t nr_attrs)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < nr_attrs; i++)
		n += attrs[i].nr_ids;
	t->hits = dso_hits__new();
	t->ids = calloc(n ? n : 1, sizeof(*t->ids));
	t->offs = calloc(nr_attrs ? nr_attrs : 1, sizeof(*t->offs));
	t->bounce = malloc(MAX_RECORD);
	if (!t->hits || !t->ids || !t->offs || !t->bounce)
		return -ENOMEM;
	t->nr_attrs = nr_attrs;
	for (size_t i = 0; i < nr_attrs; i++) {
		pulse_sample__offsets(attrs[i].attr.sample_type, &t->offs[i]);
		for (size_t k = 0; k < attrs[i].nr_ids; k++)
			t->ids[t->nr_ids++] = (struct pulse_record_track_id){ attrs[i].ids[k], (int)i };
	}
	qsort(t->ids, t->nr_ids, sizeof(*t->ids), cmp_id);
	return 0;
}

void pulse_record_track__exit(struct pulse_record_track *t)
{
	dso_hits__delete(t->hits);
	free(t->ids);
	free(t->offs);
	free(t->bounce);
	memset(t, 0, sizeof(*t));
}

static int attr_of_id(const struct pulse_record_track *t, __u64 id)
{
	size_t lo = 0, hi = t->nr_ids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->ids[mid].id == id)
			return t->ids[mid].attr;
		if (t->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void note_sample(struct pulse_record_track *t, const unsigned char *p, size_t size,
			__u16 misc)
{
	const struct pulse_sample_offsets *so;
	int ev = 0;

	if (t->nr_attrs > 1 && size >= 16)
		ev = attr_of_id(t, get_u64(p + 8));
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
		dso_hits__sample(t->hits, so->pid >= 0 ? (pid_t)get_u32(p + so->pid) : -1,
				 get_u64(p + so->ip),
				 (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
}

static void note_mmap(struct pulse_record_track *t, const unsigned char *p, size_t size,
		      const struct perf_event_header *h)
{
	size_t name_off = h->type == PERF_RECORD_MMAP ? 40 : 72;
	const __u8 *bid = NULL;
	__u8 bid_size = 0;
	char name[4096];
	size_t n;

	if (size <= name_off || (h->misc & PERF_RECORD_MISC_MMAP_DATA))
		return;
	n = strnlen((const char *)p + name_off, size - name_off);
	if (n >= sizeof(name))
		return;
	memcpy(name, p + name_off, n);
	name[n] = 0;
	if (h->type == PERF_RECORD_MMAP2 && (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		bid_size = p[40];
		bid = p + 44;
	}
	dso_hits__mmap(t->hits, (pid_t)get_u32(p + 8), get_u64(p + 16), get_u64(p + 24), name,
		       (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL, bid,
		       bid_size);
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
		note_mmap(t, p, size, &h);
		break;
	case PERF_RECORD_FORK:
		if (size >= 16)
			dso_hits__fork(t->hits, (pid_t)get_u32(p + 8), (pid_t)get_u32(p + 12));
		break;
	case PERF_RECORD_COMM:
		if ((h.misc & PERF_RECORD_MISC_COMM_EXEC) && size >= 16)
			dso_hits__exec(t->hits, (pid_t)get_u32(p + 8));
		break;
	}
}

/* @n bytes at @pos of the iovecs laid end to end: in place, or copied to @buf. */
static const void *iov_at(const struct iovec *iov, int cnt, size_t pos, size_t n, void *buf)
{
	size_t got = 0;
	int i = 0;

	while (i < cnt && pos >= iov[i].iov_len)
		pos -= iov[i++].iov_len;
	if (i == cnt)
		return NULL;
	if (pos + n <= iov[i].iov_len)
		return (const char *)iov[i].iov_base + pos;
	for (; i < cnt && got < n; i++, pos = 0) {
		size_t k = iov[i].iov_len - pos;

		if (k > n - got)
			k = n - got;
		memcpy((char *)buf + got, (const char *)iov[i].iov_base + pos, k);
		got += k;
	}
	return got == n ? buf : NULL;
}

void pulse_record_track__note_iov(struct pulse_record_track *t, const struct iovec *iov, int cnt,
				  size_t len)
{
	struct perf_event_header h;
	unsigned char hb[sizeof(h)];

	for (size_t pos = 0; pos + sizeof(h) <= len; pos += h.size) {
		const void *rec = iov_at(iov, cnt, pos, sizeof(h), hb);

		if (!rec)
			return;
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || pos + h.size > len)
			return;
		rec = iov_at(iov, cnt, pos, h.size, t->bounce);
		if (!rec)
			return;
		pulse_record_track__note(t, rec, h.size);
	}
}
