// SPDX-License-Identifier: GPL-2.0
/*
 * AUX area capture, as perf 6.1's record does it (util/auxtrace.c,
 * arch/x86/util/intel-pt.c):
 *  - the AUX event leads the evlist so that it owns each ring, and its
 *    area is mapped on the ring's fd at aux_offset (after the data pages);
 *  - AUXTRACE_INFO first, with the PMU's private words (Intel PT's:
 *    intel_pt_info_fill(): the PMU type, the user page's time_shift,
 *    time_mult, time_zero, the config bits of tsc, noretcomp, mtc, cyc,
 *    mtc_period, caps/tsc_art_ratio, max_nonturbo_ratio, snapshot mode,
 *    per-CPU mmaps);
 *  - full mode: each pass copies [aux_tail, aux_head) of every area after
 *    a PERF_RECORD_AUXTRACE { size (padded to 8), offset, reference, idx,
 *    tid, cpu } and gives the bytes back;
 *  - snapshot mode (-S): read-only areas, read only when asked (SIGUSR2,
 *    --control snapshot, -Se at the end), the PMU's output paused
 *    (PERF_EVENT_IOC_PAUSE_OUTPUT) meanwhile, the newest bytes ending at
 *    aux_head.
 * The source of the areas is the kernel's mapping or, with the hidden
 * PULSE_AUX_MODEL=BYTES[,truncate][,partial][,collision][,slow] hook, the model PMU of aux-model.c: its events are
 * never opened, it writes BYTES of a synthetic Intel PT stream into areas
 * of its own beside normal rings of its own, and the capture reads them
 * with the same code.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <pulse/auxtrace.h>
#include <pulse/perf-abi.h>
#include "record/aux-internal.h"

#define AUX_MODEL_ENV "PULSE_AUX_MODEL"
#define AUX_MODEL_DEFAULT (1 << 20)

/* perf's default AUX area: 4 MiB privileged (full or snapshot), else 128 KiB */
static size_t default_aux_bytes(void)
{
	return geteuid() == 0 ? 4 << 20 : 128 << 10;
}

static __u64 model_bytes(const char *s)
{
	char *end;
	__u64 v = strtoull(s, &end, 10);

	switch (*end) {
	case 'K': case 'k': v <<= 10; break;
	case 'M': case 'm': v <<= 20; break;
	case 'G': case 'g': v <<= 30; break;
	}
	return v ? v : AUX_MODEL_DEFAULT;
}

int rec_aux_prepare(struct rec *r)
{
	const char *env = getenv(AUX_MODEL_ENV);
	struct rec_aux *a;
	int first = -1, n = 0;

	/* (the --switch-output-event triggers, after the list, are no AUX events) */
	for (int i = 0; i < r->trig_first; i++)
		if (pulse_evsel__is_aux(r->evsels[i])) {
			if (first < 0)
				first = i;
			n++;
		}
	if (first < 0)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	r->aux = a;
	a->evsel = r->evsels[first];
	a->kind = pulse_aux_pmu__kind(a->evsel->pmu_name);
	a->size = r->opts->auxtrace_mmap_pages ?
			  r->opts->auxtrace_mmap_pages * (size_t)sysconf(_SC_PAGESIZE) :
			  default_aux_bytes();
	if (env && *env) {
		/* the model: the AUX events leave the list the kernel opens */
		int k = 0;

		a->model = true;
		a->model_bytes = model_bytes(env);
		/* ",truncate": the PMU does not wait for room, as hardware does not */
		a->model_truncate = strstr(env, ",truncate") != NULL;
		/* ",slow": a piece per area every 50 ms, for snapshots while it runs */
		a->model_slow = strstr(env, ",slow") != NULL;
		/* ",partial", ",collision": every 4th piece says so */
		a->model_flags = (strstr(env, ",partial") ? PERF_AUX_FLAG_PARTIAL : 0) |
				 (strstr(env, ",collision") ? PERF_AUX_FLAG_COLLISION : 0);
		r->stats->aux_model = true;
		a->model_evsels = calloc(n, sizeof(*a->model_evsels));
		if (!a->model_evsels)
			return -ENOMEM;
		for (int i = 0; i < r->nr_evsels; i++) {
			if (i < r->trig_first && pulse_evsel__is_aux(r->evsels[i]))
				a->model_evsels[a->nr_model++] = r->evsels[i];
			else
				r->evsels[k++] = r->evsels[i];
		}
		r->nr_evsels = k;
		/* the triggers moved down with the rest */
		r->trig_first -= a->nr_model;
		r->trig_end -= a->nr_model;
		return 0;
	}
	/* perf's evlist__to_front(): the AUX event owns the rings */
	for (int i = first; i > 0; i--)
		r->evsels[i] = r->evsels[i - 1];
	r->evsels[0] = a->evsel;
	return 0;
}

/* the model's events get the attrs they would have had in the list */
int rec_aux_config(struct rec *r)
{
	struct rec_aux *a = r->aux;
	struct pulse_evsel **all;
	int n = r->nr_evsels + (a ? a->nr_model : 0);

	if (!a || !a->model)
		return 0;
	all = calloc(n, sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, r->evsels, r->nr_evsels * sizeof(*all));
	memcpy(all + r->nr_evsels, a->model_evsels, a->nr_model * sizeof(*all));
	pulse_record__config_attrs(r->opts, all, n, r->dummy, r->tracking);
	free(all);
	return 0;
}

bool rec_aux_masked_head(const struct rec *r)
{
	return r->opts->auxtrace_snapshot && (r->aux->kind == PULSE_AUX_PMU_INTEL_PT ||
					      r->aux->kind == PULSE_AUX_PMU_INTEL_BTS);
}

int rec_aux_map(struct rec *r, size_t data_pages)
{
	struct rec_aux *a = r->aux;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	if (!a)
		return 0;
	a->src = calloc(r->nr_cpus, sizeof(*a->src));
	a->written = calloc(r->nr_cpus, sizeof(*a->written));
	if (!a->src || !a->written)
		return -ENOMEM;
	/* the pumps count what each PMU said it wrote, for masked snapshots */
	r->stats->aux_written = a->written;
	r->track_stats.aux_written = a->written;
	for (int c = 0; c < r->nr_cpus; c++) {
		struct rec_aux_src *s = &a->src[a->nr];

		s->idx = c;
		s->cpu = r->cpus[c];
		s->tid = s->cpu < 0 ? r->threads[0] : -1;
		s->fd = -1;
		if (a->model) {
			ret = rec_aux_model_new(r, s);
		} else {
			/*
			 * the ring's owner is the AUX event when it is open on this
			 * CPU; in a flight recording its ring is the side-band's
			 * (forward, read all the time: ITRACE_START, AUX records)
			 */
			int fd = pulse_evlist__fd(&r->evlist, 0, c, 0);
			struct pulse_mmap *m = r->track_maps ? &r->track_maps[c] : &r->maps[c];

			if (fd < 0 || (!r->track_maps && fd != r->ring_fd[c]) || !m->base)
				continue;
			s->fd = fd;
			ret = pulse_aux__mmap(&s->aux, m->base, fd,
					      (data_pages + 1) * (__u64)page, a->size,
					      r->opts->auxtrace_snapshot);
			if (!ret && rec_aux_masked_head(r))
				pulse_aux__set_masked_head(&s->aux);
		}
		if (ret) {
			r->err->stage = PULSE_REC_MMAP;
			r->err->cpu = s->cpu;
			return ret;
		}
		a->nr++;
	}
	if (a->model) {
		a->model_maps = calloc(a->nr, sizeof(*a->model_maps));
		if (!a->model_maps)
			return -ENOMEM;
		for (int i = 0; i < a->nr; i++) {
			ret = pulse_mmap__init_mem(&a->model_maps[i],
						   pulse_ring_model__base(a->src[i].rm),
						   PULSE_RING_MODEL_PAGE,
						   a->src[i].aux.pc->data_size, false);
			if (ret)
				return ret;
		}
		ret = pulse_record_pump__new(&a->pump, a->model_maps, a->nr, r->stats);
		if (ret)
			return ret;
		/* a flight recording: the model's ring is side-band, as the kernel's would be */
		pulse_record_pump__set_output(a->pump, r->opts->tracking_output ?
							       r->opts->tracking_output : r->out);
	}
	return 0;
}

/* the model's events, which have attrs but no place in the opened list */
int rec_aux_nr_model(const struct rec *r)
{
	return r->aux ? r->aux->nr_model : 0;
}

/* the model's attrs, with ids of its own (its events have no kernel ids) */
int rec_aux_attrs(struct rec *r, struct pulse_data_attr *attrs, int *nr)
{
	struct rec_aux *a = r->aux;

	if (!a || !a->model)
		return 0;
	a->model_ids = calloc((size_t)a->nr_model * a->nr + 1, sizeof(*a->model_ids));
	if (!a->model_ids)
		return -ENOMEM;
	for (int k = 0; k < a->nr_model; k++) {
		struct pulse_data_attr *d = &attrs[(*nr)++];
		__u64 *ids = a->model_ids + (size_t)k * a->nr;

		for (int i = 0; i < a->nr; i++)
			ids[i] = (0xa0ULL << 32) + (__u64)k * a->nr + i;
		d->attr = a->model_evsels[k]->attr;
		d->name = a->model_evsels[k]->name;
		d->ids = ids;
		d->nr_ids = a->nr;
		if (k == 0)
			for (int i = 0; i < a->nr; i++)
				a->src[i].id = ids[i];
	}
	return 0;
}

/* perf_read_tsc_conversion(): the user page's time fields under its seqlock */
static void read_time_conv(const struct perf_event_mmap_page *pc, __u64 *shift, __u64 *mult,
			   __u64 *zero, __u64 *cap_zero)
{
	for (int tries = 0; tries < 1000; tries++) {
		__u32 seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);

		*shift = pc->time_shift;
		*mult = pc->time_mult;
		*zero = pc->time_zero;
		*cap_zero = pc->cap_user_time_zero;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (seq == __atomic_load_n(&pc->lock, __ATOMIC_RELAXED) && !(seq & 1))
			return;
	}
}

/* perf's intel_pt_info_fill(), 17 private words and no filter */
static int pt_info(struct rec *r, struct pulse_buf *b)
{
	struct rec_aux *a = r->aux;
	const char *pmu = a->evsel->pmu_name;
	__u64 priv[PULSE_PT_PRIV_MAX] = { 0 };
	struct { struct perf_event_header h; __u32 type, reserved; } hdr = {
		{ PERF_RECORD_AUXTRACE_INFO, 0, sizeof(hdr) + sizeof(priv) },
		PULSE_AUXTRACE_INTEL_PT, 0,
	};
	const struct perf_event_mmap_page *pc = NULL;
	__u32 n = 0, d = 0;
	int ret;

	for (int c = 0; c < r->nr_cpus && !pc; c++)
		pc = r->maps[c].base ? r->maps[c].base :
				       r->track_maps ? r->track_maps[c].base : NULL;
	if (pc)
		read_time_conv(pc, &priv[PULSE_PT_TIME_SHIFT], &priv[PULSE_PT_TIME_MULT],
			       &priv[PULSE_PT_TIME_ZERO], &priv[PULSE_PT_CAP_USER_TIME_ZERO]);
	priv[PULSE_PT_PMU_TYPE] = a->evsel->attr.type;
	pulse_aux_pmu__format_bits(NULL, pmu, "tsc", &priv[PULSE_PT_TSC_BIT]);
	pulse_aux_pmu__format_bits(NULL, pmu, "noretcomp", &priv[PULSE_PT_NORETCOMP_BIT]);
	priv[PULSE_PT_SNAPSHOT_MODE] = r->opts->auxtrace_snapshot;
	priv[PULSE_PT_PER_CPU_MMAPS] = r->nr_cpus && r->cpus[0] >= 0;
	pulse_aux_pmu__format_bits(NULL, pmu, "mtc", &priv[PULSE_PT_MTC_BIT]);
	pulse_aux_pmu__format_bits(NULL, pmu, "mtc_period", &priv[PULSE_PT_MTC_FREQ_BITS]);
	pulse_aux_pmu__tsc_art_ratio(NULL, &n, &d);
	priv[PULSE_PT_TSC_CTC_N] = n;
	priv[PULSE_PT_TSC_CTC_D] = d;
	pulse_aux_pmu__format_bits(NULL, pmu, "cyc", &priv[PULSE_PT_CYC_BIT]);
	pulse_aux_pmu__read_u64(NULL, pmu, "max_nonturbo_ratio", 10,
				&priv[PULSE_PT_MAX_NONTURBO_RATIO]);
	ret = pulse_buf__add(b, &hdr, sizeof(hdr));
	return ret ? ret : pulse_buf__add(b, priv, sizeof(priv));
}

int rec_aux_info(struct rec *r)
{
	struct pulse_buf b = { 0 };
	int ret;

	if (!r->aux)
		return 0;
	if (r->aux->kind == PULSE_AUX_PMU_INTEL_PT) {
		ret = pt_info(r, &b);
	} else {
		/* the others' private words are not written yet: the type alone */
		struct { struct perf_event_header h; __u32 type, reserved; } hdr = {
			{ PERF_RECORD_AUXTRACE_INFO, 0, sizeof(hdr) }, (__u32)r->aux->kind, 0,
		};

		ret = pulse_buf__add(&b, &hdr, sizeof(hdr));
	}
	if (!ret)
		ret = pulse_record_output__write_sideband(r->out, b.p, b.len);
	pulse_buf__release(&b);
	return ret ? rec_write_err(r, ret) : 0;
}

/* perf's intel_pt_reference(): a TSC read; a monotonic clock does as well */
static __u64 reference(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One PERF_RECORD_AUXTRACE and the chunk's bytes, padded to 8, into the output. */
static int write_chunk(struct rec *r, struct rec_aux_src *s, const struct pulse_aux_chunk *c)
{
	static const unsigned char zeros[8];
	struct {
		struct perf_event_header h;
		__u64 size, offset, reference;
		__u32 idx, tid, cpu, reserved;
	} ev = { { PERF_RECORD_AUXTRACE, 0, sizeof(ev) } };
	struct iovec iov[3];
	size_t pad = (8 - (c->size & 7)) & 7;
	int cnt = c->cnt, ret;

	memcpy(iov, c->iov, cnt * sizeof(*iov));
	if (pad) {
		iov[cnt].iov_base = (void *)zeros;
		iov[cnt++].iov_len = pad;
	}
	ev.size = c->size + pad;
	ev.offset = c->offset;
	ev.reference = reference();
	ev.idx = s->idx;
	ev.tid = (__u32)s->tid;
	ev.cpu = (__u32)s->cpu;
	ret = pulse_record_output__write_aux(r->out, &ev, sizeof(ev), iov, cnt);
	if (ret)
		return rec_write_err(r, ret);
	r->stats->aux_bytes += c->size;
	r->stats->aux_chunks++;
	return 0;
}

/* full mode: what each area holds, then the bytes go back to the PMU */
static int drain_areas(struct rec *r)
{
	struct rec_aux *a = r->aux;

	for (int i = 0; i < a->nr; i++) {
		struct rec_aux_src *s = &a->src[i];
		struct pulse_aux_chunk c;
		int ret = pulse_aux__read(&s->aux, &c);

		if (ret == -EAGAIN || ret == -EBADMSG)
			continue;
		if (ret)
			return ret;
		ret = write_chunk(r, s, &c);
		if (ret)
			return ret;
		pulse_aux__consume(&s->aux, &c);
	}
	return 0;
}

static int pause_output(struct rec_aux_src *s, bool on)
{
	if (s->am) {
		rec_aux_model_pause(s, on);
		return 0;
	}
	return ioctl(s->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, on ? 1 : 0) < 0 ? -errno : 0;
}

/* the ring that carries the PMU's AUX records, drained so that they are counted */
static int drain_aux_records(struct rec *r)
{
	struct pulse_record_pump *p = r->aux->pump ? r->aux->pump :
				      r->track_pump ? r->track_pump : r->pump;
	int ret = pulse_record_pump__drain(p);

	return ret ? rec_write_err(r, ret) : 0;
}

/*
 * One snapshot of every area: all paused first, then the AUX records they
 * wrote up to the pause counted (a masked area takes what came since the
 * last snapshot by them), each area copied, and all resumed.
 */
int rec_aux_snapshot(struct rec *r)
{
	struct rec_aux *a = r->aux;
	int ret = 0, paused = 0;

	if (!rec_aux_snapshot_mode(r))
		return 0;
	for (; paused < a->nr && !ret; paused++)
		ret = pause_output(&a->src[paused], true);
	if (!ret && rec_aux_masked_head(r)) {
		ret = drain_aux_records(r);
		for (int i = 0; i < a->nr && !ret; i++)
			pulse_aux__set_written(&a->src[i].aux, a->written[a->src[i].idx]);
	}
	for (int i = 0; i < a->nr && !ret; i++) {
		struct rec_aux_src *s = &a->src[i];
		struct pulse_aux_chunk c;
		__u64 torn;

		if (pulse_aux__snapshot(&s->aux, r->opts->auxtrace_snapshot_size, &c))
			continue;
		/* paused, nothing moved; should the pause have failed, drop what did */
		torn = pulse_aux__snapshot_check(&s->aux, &c);
		if (torn) {
			c.offset += torn;
			c.size -= torn;
			c.overwritten += torn;
			pulse_aux__snapshot_check(&s->aux, &c);
		}
		ret = write_chunk(r, s, &c);
		if (!ret) {
			pulse_aux__snapshot_done(&s->aux, &c);
			r->stats->aux_overwritten += c.overwritten;
		}
	}
	while (paused-- > 0)
		pause_output(&a->src[paused], false);
	if (!ret)
		r->stats->aux_snapshots++;
	return ret;
}

int rec_aux_drain(struct rec *r)
{
	struct rec_aux *a = r->aux;
	int ret;

	if (!a)
		return 0;
	if (a->pump) {
		ret = pulse_record_pump__drain(a->pump);
		if (ret)
			return rec_write_err(r, ret);
	}
	if (!r->opts->auxtrace_snapshot)
		return drain_areas(r);
	if (r->opts->aux_snapshot && *r->opts->aux_snapshot) {
		*r->opts->aux_snapshot = 0;
		return rec_aux_snapshot(r);
	}
	return 0;
}

int rec_aux_start(struct rec *r)
{
	return r->aux && r->aux->model ? rec_aux_model_start(r) : 0;
}

/* The end: the model PMU writes what it has left (unless told to stop), -Se's snapshot. */
int rec_aux_stop(struct rec *r)
{
	struct rec_aux *a = r->aux;
	int ret = 0;

	if (!a)
		return 0;
	if (a->model)
		rec_aux_model_stop(r, want_stop(r));
	ret = rec_aux_drain(r);
	/* (a flight recording's is a snapshot of its own, taken by the recorder) */
	if (!ret && r->opts->auxtrace_snapshot_on_exit && !pulse_record_output__can_snapshot(r->out))
		ret = rec_aux_snapshot(r);
	return ret;
}

void rec_aux_cleanup(struct rec *r)
{
	struct rec_aux *a = r->aux;

	if (!a)
		return;
	if (a->model)
		rec_aux_model_stop(r, true);
	for (int i = 0; i < a->nr; i++) {
		if (a->src[i].am)
			rec_aux_model_delete(&a->src[i]);
		else
			pulse_aux__munmap(&a->src[i].aux);
	}
	pulse_record_pump__delete(a->pump);
	r->stats->aux_written = NULL;
	r->track_stats.aux_written = NULL;
	free(a->written);
	/* the model's rings are its memory: this frees their bounce buffers */
	for (int i = 0; a->model_maps && i < a->nr; i++)
		pulse_mmap__munmap(&a->model_maps[i]);
	free(a->model_maps);
	free(a->model_evsels);
	free(a->model_ids);
	free(a->src);
	free(a);
	r->aux = NULL;
}
