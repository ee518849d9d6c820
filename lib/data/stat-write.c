// SPDX-License-Identifier: GPL-2.0
/*
 * Building the records of a stat file (THREAD_MAP, CPU_MAP, STAT_CONFIG,
 * STAT, STAT_ROUND) byte for byte as perf 6.1 writes them, and the header
 * features `perf stat record` sets, so that `perf stat report` reads a file
 * the data writer made as one of its own. Each builder appends one whole
 * record to a buffer; the caller hands the buffer to the data writer.
 */
#include <errno.h>
#include <string.h>
#include <pulse/features.h>
#include <pulse/stat-records.h>
#include "core/internal.h"

static int put_header(struct pulse_buf *b, __u32 type, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = (__u16)size };

	if (size > UINT16_MAX)
		return -EINVAL;
	return pulse_buf__add(b, &h, sizeof(h));
}

static int put(struct pulse_buf *b, const void *p, size_t len)
{
	return pulse_buf__add(b, p, len);
}

static int put64(struct pulse_buf *b, __u64 v)
{
	return put(b, &v, sizeof(v));
}

int pulse_thread_map__build(struct pulse_buf *b, const struct pulse_thread_map_entry *t,
			    size_t nr)
{
	size_t size = 16 + 24 * nr;
	int err;

	if (nr > (UINT16_MAX - 16) / 24)
		return -EINVAL;
	err = put_header(b, PERF_RECORD_THREAD_MAP, size);
	if (!err)
		err = put64(b, nr);
	for (size_t i = 0; !err && i < nr; i++) {
		char comm[16] = { 0 };

		memcpy(comm, t[i].comm, strnlen(t[i].comm, sizeof(comm)));
		err = put64(b, t[i].pid);
		if (!err)
			err = put(b, comm, sizeof(comm));
	}
	return err;
}

static bool cpus_valid(const int *cpus, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (cpus[i] < -1 || cpus[i] >= UINT16_MAX || (cpus[i] == -1 && i))
			return false;
		if (i && cpus[i] <= cpus[i - 1])
			return false;
	}
	return true;
}

/* perf 6.1's cpu_map_data__alloc(): a range when it can, else the smaller. */
static int auto_layout(const int *cpus, size_t nr)
{
	bool any = nr && cpus[0] == -1;
	size_t n = nr - any;

	if (n && cpus[nr - 1] - cpus[any] + 1 == (int)n)
		return PULSE_CPU_MAP_RANGE;
	if (!n)
		return PULSE_CPU_MAP_CPUS;
	/* CPUS: 2 + 2 * nr bytes; MASK (64-bit longs): 8 + 8 per long */
	return 2 + 2 * nr < 8 + 8 * ((size_t)cpus[nr - 1] / 64 + 1) ? PULSE_CPU_MAP_CPUS
								      : PULSE_CPU_MAP_MASK;
}

static int cpu_map_body(struct pulse_buf *b, const int *cpus, size_t nr, int layout)
{
	unsigned int lsz = layout == PULSE_CPU_MAP_MASK32 ? 4 : 8;
	__u16 v[4] = { 0 };
	int err = 0;

	switch (layout) {
	case PULSE_CPU_MAP_CPUS:
		v[0] = PULSE_CPU_MAP_CPUS;
		v[1] = (__u16)nr;
		err = put(b, v, 4);
		for (size_t i = 0; !err && i < nr; i++) {
			__u16 c = (__u16)cpus[i];

			err = put(b, &c, 2);
		}
		return err;
	case PULSE_CPU_MAP_RANGE: {
		bool any = nr && cpus[0] == -1;
		unsigned char a[2] = { any, 0 };

		if (nr == (size_t)any)
			return -EINVAL;		/* a range holds at least one cpu */
		v[0] = PULSE_CPU_MAP_RANGE;
		v[1] = (__u16)cpus[any];
		v[2] = (__u16)cpus[nr - 1];
		err = put(b, v, 2);
		if (!err)
			err = put(b, a, 2);
		return err ? err : put(b, v + 1, 4);
	}
	case PULSE_CPU_MAP_MASK:
	case PULSE_CPU_MAP_MASK32: {
		size_t nlongs = nr ? (size_t)cpus[nr - 1] / (lsz * 8) + 1 : 0;
		static const __u32 pad;

		if (nr && cpus[0] == -1)
			return -EINVAL;		/* a mask cannot say "any cpu" */
		v[0] = PULSE_CPU_MAP_MASK;
		v[1] = (__u16)nlongs;
		v[2] = (__u16)lsz;
		err = put(b, v, 6);
		if (!err && lsz == 8)
			err = put(b, &pad, 4);
		for (size_t l = 0; !err && l < nlongs; l++) {
			__u64 m = 0;

			for (size_t i = 0; i < nr; i++)
				if ((size_t)cpus[i] / (lsz * 8) == l)
					m |= 1ULL << (cpus[i] % (lsz * 8));
			if (lsz == 8) {
				err = put(b, &m, 8);
			} else {
				__u32 m32 = (__u32)m;

				err = put(b, &m32, 4);
			}
		}
		return err;
	}
	}
	return -EINVAL;
}

int pulse_cpu_map__build(struct pulse_buf *b, const int *cpus, size_t nr, int layout)
{
	struct pulse_buf body = { 0 };
	static const __u64 zero;
	size_t size;
	int err;

	if (!cpus_valid(cpus, nr))
		return -EINVAL;
	if (layout == PULSE_CPU_MAP_AUTO)
		layout = auto_layout(cpus, nr);
	err = cpu_map_body(&body, cpus, nr, layout);
	if (err)
		goto out_release;
	size = PULSE_ALIGN(8 + body.len, 8);
	err = put_header(b, PERF_RECORD_CPU_MAP, size);
	if (!err)
		err = put(b, body.p, body.len);
	if (!err)
		err = put(b, &zero, size - 8 - body.len);
out_release:
	pulse_buf__release(&body);
	return err;
}

int pulse_stat_config__build(struct pulse_buf *b, const struct pulse_stat_config *c)
{
	/* perf 6.1's order: aggr_mode, interval, scale */
	__u64 e[7] = {
		3,
		PULSE_STAT_CONFIG_AGGR_MODE, c->aggr_mode,
		PULSE_STAT_CONFIG_INTERVAL, c->interval,
		PULSE_STAT_CONFIG_SCALE, c->scale,
	};
	int err = put_header(b, PERF_RECORD_STAT_CONFIG, 8 + sizeof(e));

	return err ? err : put(b, e, sizeof(e));
}

int pulse_stat_values__build(struct pulse_buf *b, const struct pulse_stat_values *v)
{
	__u32 ct[2] = { v->cpu, v->thread };
	int err = put_header(b, PERF_RECORD_STAT, 48);

	if (!err)
		err = put64(b, v->id);
	if (!err)
		err = put(b, ct, sizeof(ct));
	if (!err)
		err = put64(b, v->val);
	if (!err)
		err = put64(b, v->ena);
	return err ? err : put64(b, v->run);
}

int pulse_stat_round__build(struct pulse_buf *b, const struct pulse_stat_round *r)
{
	int err = put_header(b, PERF_RECORD_STAT_ROUND, 24);

	if (!err)
		err = put64(b, r->type);
	return err ? err : put64(b, r->time);
}

int pulse_data_writer__add_stat_features(struct pulse_data_writer *w,
					 const struct pulse_feat_ctx *ctx)
{
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_OSRELEASE, PULSE_FEAT_VERSION, PULSE_FEAT_ARCH,
		PULSE_FEAT_NRCPUS, PULSE_FEAT_CPUDESC, PULSE_FEAT_CPUID, PULSE_FEAT_TOTAL_MEM,
		PULSE_FEAT_CMDLINE, PULSE_FEAT_EVENT_DESC,
	};
	static const char none;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(feats) && !err; i++) {
		struct pulse_buf b = { 0 };

		err = pulse_feat__build(feats[i], &b, ctx);
		if (!err)
			err = pulse_data_writer__add_feature(w, feats[i], b.p, b.len);
		else if (err == -ENOENT || err == -EOPNOTSUPP)
			err = 0;	/* this machine cannot say */
		pulse_buf__release(&b);
	}
	/* STAT has no payload: the bit alone says "stat data" */
	return err ? err : pulse_data_writer__add_feature(w, PULSE_FEAT_STAT, &none, 0);
}
