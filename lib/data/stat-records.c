// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the records of a `perf stat record` file (THREAD_MAP, CPU_MAP,
 * STAT_CONFIG, STAT, STAT_ROUND; layouts in include/pulse/stat-records.h).
 * Every count read from the record is checked against the record's size
 * before it is followed; fields are read with memcpy (records are not
 * aligned for us).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include <pulse/stat-records.h>
#include "core/internal.h"

struct view {
	const unsigned char *p;
	size_t size;
};

static bool has(const struct view *v, size_t off, size_t len)
{
	return off <= v->size && len <= v->size - off;
}

static __u16 u16_at(const struct view *v, size_t off)
{
	__u16 x;

	memcpy(&x, v->p + off, sizeof(x));
	return x;
}

static __u32 u32_at(const struct view *v, size_t off)
{
	__u32 x;

	memcpy(&x, v->p + off, sizeof(x));
	return x;
}

static __u64 u64_at(const struct view *v, size_t off)
{
	__u64 x;

	memcpy(&x, v->p + off, sizeof(x));
	return x;
}

/* The record's own size, bounded by what the caller has. */
static int record_view(const void *rec, size_t size, size_t min, struct view *v)
{
	struct perf_event_header h;

	if (!rec || size < sizeof(h))
		return -EBADMSG;
	memcpy(&h, rec, sizeof(h));
	if (h.size < min || h.size > size)
		return -EBADMSG;
	v->p = rec;
	v->size = h.size;
	return 0;
}

int pulse_stat_config__parse(const void *rec, size_t size, struct pulse_stat_config *out)
{
	struct view v;
	__u64 nr;

	memset(out, 0, sizeof(*out));
	if (record_view(rec, size, 16, &v))
		return -EBADMSG;
	nr = u64_at(&v, 8);
	if (nr > (v.size - 16) / 16)
		return -EBADMSG;
	for (__u64 i = 0; i < nr; i++) {
		__u64 tag = u64_at(&v, 16 + 16 * i), val = u64_at(&v, 24 + 16 * i);

		switch (tag) {
		case PULSE_STAT_CONFIG_AGGR_MODE:
			out->aggr_mode = val;
			break;
		case PULSE_STAT_CONFIG_INTERVAL:
			out->interval = val;
			break;
		case PULSE_STAT_CONFIG_SCALE:
			out->scale = val != 0;
			break;
		case PULSE_STAT_CONFIG_AGGR_LEVEL:
			out->aggr_level = val;
			break;
		default:	/* a newer perf's tag: perf 6.1 ignores it too */
			continue;
		}
		out->present |= 1u << tag;
	}
	return 0;
}

int pulse_stat_values__parse(const void *rec, size_t size, struct pulse_stat_values *out)
{
	struct view v;

	memset(out, 0, sizeof(*out));
	if (record_view(rec, size, 48, &v))
		return -EBADMSG;
	out->id = u64_at(&v, 8);
	out->cpu = u32_at(&v, 16);
	out->thread = u32_at(&v, 20);
	out->val = u64_at(&v, 24);
	out->ena = u64_at(&v, 32);
	out->run = u64_at(&v, 40);
	return 0;
}

int pulse_stat_round__parse(const void *rec, size_t size, struct pulse_stat_round *out)
{
	struct view v;

	memset(out, 0, sizeof(*out));
	if (record_view(rec, size, 24, &v))
		return -EBADMSG;
	out->type = u64_at(&v, 8);
	out->time = u64_at(&v, 16);
	return 0;
}

int pulse_thread_map__parse(const void *rec, size_t size, struct pulse_thread_map_entry **out,
			    size_t *nr)
{
	struct pulse_thread_map_entry *t;
	struct view v;
	__u64 n;

	*out = NULL;
	*nr = 0;
	if (record_view(rec, size, 16, &v))
		return -EBADMSG;
	n = u64_at(&v, 8);
	if (n > (v.size - 16) / 24)
		return -EBADMSG;
	if (!n)
		return 0;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (__u64 i = 0; i < n; i++) {
		t[i].pid = u64_at(&v, 16 + 24 * i);
		memcpy(t[i].comm, v.p + 24 + 24 * i, 16);
	}
	*out = t;
	*nr = n;
	return 0;
}

static int cpus_list(const struct view *v, int **cpus, size_t *nr)
{
	__u16 n;
	int *c;

	if (!has(v, 2, 2))
		return -EBADMSG;
	n = u16_at(v, 2);
	if (!has(v, 4, 2 * (size_t)n))
		return -EBADMSG;
	if (!n)
		return 0;
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		__u16 x = u16_at(v, 4 + 2 * i);

		c[i] = x == (__u16)-1 ? -1 : x;
	}
	*cpus = c;
	*nr = n;
	return 0;
}

static int cpus_mask(const struct view *v, int **cpus, size_t *nr, int *layout)
{
	__u16 n, lsz;
	size_t base, cnt = 0;
	int *c;

	if (!has(v, 2, 4))
		return -EBADMSG;
	n = u16_at(v, 2);
	lsz = u16_at(v, 4);
	if (lsz != 4 && lsz != 8)
		return -EBADMSG;
	base = lsz == 8 ? 10 : 6;	/* mask64 has a u32 pad before the longs */
	if (!has(v, base, (size_t)n * lsz))
		return -EBADMSG;
	*layout = lsz == 8 ? PULSE_CPU_MAP_MASK : PULSE_CPU_MAP_MASK32;
	for (size_t i = 0; i < n; i++)
		cnt += __builtin_popcountll(lsz == 8 ? u64_at(v, base + 8 * i)
						     : u32_at(v, base + 4 * i));
	if (!cnt)
		return 0;
	c = calloc(cnt, sizeof(*c));
	if (!c)
		return -ENOMEM;
	cnt = 0;
	for (size_t i = 0; i < n; i++) {
		__u64 m = lsz == 8 ? u64_at(v, base + 8 * i) : u32_at(v, base + 4 * i);

		for (unsigned int b = 0; b < lsz * 8u; b++)
			if (m & (1ULL << b))
				c[cnt++] = (int)(i * lsz * 8 + b);
	}
	*cpus = c;
	*nr = cnt;
	return 0;
}

static int cpus_range(const struct view *v, int **cpus, size_t *nr)
{
	__u16 start, end;
	bool any;
	size_t n = 0;
	int *c;

	if (!has(v, 2, 6))
		return -EBADMSG;
	any = v->p[2] != 0;
	start = u16_at(v, 4);
	end = u16_at(v, 6);
	if (end < start)
		return -EBADMSG;
	c = calloc((size_t)(end - start) + 2, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (any)
		c[n++] = -1;
	for (unsigned int x = start; x <= end; x++)
		c[n++] = (int)x;
	*cpus = c;
	*nr = n;
	return 0;
}

int pulse_cpu_map_data__parse(const void *data, size_t size, int **cpus, size_t *nr,
			      int *layout)
{
	struct view v = { data, size };
	int dummy, err;
	__u16 type;

	*cpus = NULL;
	*nr = 0;
	if (!layout)
		layout = &dummy;
	if (!data || !has(&v, 0, 2))
		return -EBADMSG;
	type = u16_at(&v, 0);
	*layout = type;
	switch (type) {
	case PULSE_CPU_MAP_CPUS:
		err = cpus_list(&v, cpus, nr);
		break;
	case PULSE_CPU_MAP_MASK:
		err = cpus_mask(&v, cpus, nr, layout);
		break;
	case PULSE_CPU_MAP_RANGE:
		err = cpus_range(&v, cpus, nr);
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	return err;
}

int pulse_cpu_map__parse(const void *rec, size_t size, int **cpus, size_t *nr, int *layout)
{
	struct view v;

	*cpus = NULL;
	*nr = 0;
	if (record_view(rec, size, 10, &v))
		return -EBADMSG;
	return pulse_cpu_map_data__parse(v.p + 8, v.size - 8, cpus, nr, layout);
}

bool pulse_data__is_stat(const struct pulse_data *d)
{
	return pulse_data__has_feat(d, PULSE_FEAT_STAT);
}
