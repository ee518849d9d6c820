// SPDX-License-Identifier: GPL-2.0
/*
 * The header features pulse record writes: the machine's at the start
 * (TRACING_DATA first, so that in file mode it lands in the gap reserved
 * before the data), BUILD_ID of the DSOs an output's samples hit and
 * SAMPLE_TIME at its end. TRACING_DATA is read from tracefs once per run
 * and handed to every output.
 */
#include <time.h>
#include <sys/time.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record/internal.h"
#include "record/record-features.h"

/*
 * -k: CLOCKID (the clock's resolution in ns) and CLOCK_DATA (version 1,
 * the clockid, the wall clock and that clock read together), as perf's
 * record__init_clock().
 */
static int clock_features(struct pulse_data_writer *w, int clockid)
{
	struct { __u32 version, clockid; __u64 tod_ns, clockid_ns; } cd = { 1, (__u32)clockid };
	struct timespec res, now;
	struct timeval tod;
	__u64 res_ns;
	int ret;

	if (clock_getres(clockid, &res) || gettimeofday(&tod, NULL) ||
	    clock_gettime(clockid, &now))
		return -errno;
	res_ns = res.tv_sec * 1000000000ULL + res.tv_nsec;
	cd.tod_ns = tod.tv_sec * 1000000000ULL + tod.tv_usec * 1000ULL;
	cd.clockid_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	ret = pulse_data_writer__add_feature(w, PULSE_FEAT_CLOCKID, &res_ns, sizeof(res_ns));
	return ret ? ret : pulse_data_writer__add_feature(w, PULSE_FEAT_CLOCK_DATA, &cd, sizeof(cd));
}

int pulse_record_features__write_start(struct pulse_data_writer *w,
					const struct pulse_record_output_info *info)
{
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_OSRELEASE, PULSE_FEAT_VERSION, PULSE_FEAT_ARCH,
		PULSE_FEAT_NRCPUS, PULSE_FEAT_CPUDESC, PULSE_FEAT_CPUID, PULSE_FEAT_TOTAL_MEM,
		PULSE_FEAT_CMDLINE, PULSE_FEAT_EVENT_DESC, PULSE_FEAT_GROUP_DESC,
	};
	struct pulse_feat_ctx ctx = { 0 };
	int ret = 0;

	/* First: in file mode it then lands in the gap reserved before the data. */
	if (info->tracing_data) {
		ret = pulse_data_writer__add_feature(w, PULSE_FEAT_TRACING_DATA, info->tracing_data,
						     info->tracing_data_size);
		if (ret)
			return ret;
	}
	if (info->dir_format) {
		static const __u64 version = 1;

		ret = pulse_data_writer__add_feature(w, PULSE_FEAT_DIR_FORMAT, &version,
						     sizeof(version));
		if (ret)
			return ret;
	}
	ctx.argc = info->argc;
	ctx.argv = info->argv;
	ctx.attrs = info->attrs;
	ctx.nr_attrs = info->nr_attrs;
	for (size_t i = 0; i < ARRAY_SIZE(feats) && !ret; i++) {
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(feats[i], &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(w, feats[i], b.p, b.len);
		else if (ret == -ENOENT || ret == -EOPNOTSUPP)
			ret = 0; /* this machine cannot say (e.g. no cpuinfo field) */
		pulse_buf__release(&b);
	}
	if (!ret && info->use_clockid)
		ret = clock_features(w, info->clockid);
	return ret;
}

int rec_tracing_data(struct rec *r, struct pulse_buf *b)
{
	const char **sys, **ev;
	size_t n = 0;
	const char *dir;
	int ret;

	for (int i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i]->attr.type == PERF_TYPE_TRACEPOINT && r->evsels[i]->tp_system)
			n++;
	if (!n)
		return 0;
	dir = pulse_tracefs_dir(NULL);
	if (!dir) {
		r->err->stage = PULSE_REC_TRACEFS;
		return -errno;
	}
	sys = calloc(n, sizeof(*sys));
	ev = calloc(n, sizeof(*ev));
	if (!sys || !ev) {
		free(sys);
		free(ev);
		return -ENOMEM;
	}
	n = 0;
	for (int i = 0; i < r->nr_evsels; i++) {
		if (r->evsels[i]->attr.type != PERF_TYPE_TRACEPOINT || !r->evsels[i]->tp_system)
			continue;
		sys[n] = r->evsels[i]->tp_system;
		ev[n++] = r->evsels[i]->tp_name;
	}
	ret = pulse_tracing_data__build(b, dir, sys, ev, n);
	if (ret)
		r->err->stage = PULSE_REC_TRACEFS;
	free(sys);
	free(ev);
	return ret;
}

/*
 * One entry for each DSO a sample hit, in the order the DSOs were first
 * mapped: the build-id an MMAP2 carried, else the running kernel's for the
 * kernel, else the file's for a path on disk. Other DSOs ([vdso] without
 * one, JIT maps, anonymous memory) have nothing on disk to identify.
 */
static int build_ids(struct pulse_data_writer *w, const struct pulse_dsos *dsos)
{
	struct pulse_build_id_entry *ents;
	struct pulse_dso *d;
	size_t n = 0;
	int ret;

	ents = calloc(dsos->nr ? dsos->nr : 1, sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	pulse_dsos__for_each(d, dsos) {
		struct pulse_build_id_entry *e = &ents[n];
		bool kernel = d->kind == PULSE_DSO_KERNEL || d->kind == PULSE_DSO_MODULE;
		size_t len = 0;

		if (!d->hit)
			continue;
		if (d->has_build_id) {
			memcpy(e->id, d->build_id, d->build_id_size);
			len = d->build_id_size;
		} else if (d->kind == PULSE_DSO_KERNEL) {
			if (pulse_build_id__read_kernel(e->id, &len))
				continue;
		} else if (d->long_name[0] == '/' && d->kind != PULSE_DSO_PERF_MAP) {
			if (pulse_build_id__read_file(d->long_name, e->id, &len))
				continue;
		} else {
			continue;
		}
		e->size = len;
		e->pid = -1;
		e->misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		e->filename = d->long_name;	/* the kernel's: "[kernel.kallsyms]" */
		n++;
	}
	if (n) {
		struct pulse_feat_ctx ctx = { .build_ids = ents, .nr_build_ids = n };
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(PULSE_FEAT_BUILD_ID, &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(w, PULSE_FEAT_BUILD_ID, b.p, b.len);
		pulse_buf__release(&b);
	} else {
		ret = 0;
	}
	free(ents);
	return ret;
}

int pulse_record_features__write_finish(struct pulse_data_writer *w,
					 const struct pulse_record_track *t, bool build_id)
{
	int ret = build_id ? build_ids(w, &t->machine.dsos) : 0;

	if (!ret && t->first_time) {
		struct pulse_feat_ctx ctx = { .first_time = t->first_time,
					      .last_time = t->last_time };
		struct pulse_buf b = { 0 };

		ret = pulse_feat__build(PULSE_FEAT_SAMPLE_TIME, &b, &ctx);
		if (!ret)
			ret = pulse_data_writer__add_feature(w, PULSE_FEAT_SAMPLE_TIME, b.p, b.len);
		pulse_buf__release(&b);
	}
	return ret;
}

int pulse_record_features__write_compressed(struct pulse_data_writer *w, int level, __u32 ratio,
					    size_t mmap_len)
{
	struct pulse_feat_ctx ctx = { .comp_level = (__u32)level, .comp_ratio = ratio,
				      .comp_mmap_len = (__u32)mmap_len };
	struct pulse_buf b = { 0 };
	int ret = pulse_feat__build(PULSE_FEAT_COMPRESSED, &b, &ctx);

	if (!ret)
		ret = pulse_data_writer__add_feature(w, PULSE_FEAT_COMPRESSED, b.p, b.len);
	pulse_buf__release(&b);
	return ret;
}
