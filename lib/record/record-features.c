// SPDX-License-Identifier: GPL-2.0
/*
 * The header features pulse record writes: the machine's at the start
 * (TRACING_DATA first, so that in file mode it lands in the gap reserved
 * before the data), BUILD_ID of the DSOs an output's samples hit and
 * SAMPLE_TIME at its end. TRACING_DATA is read from tracefs once per run
 * and handed to every output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record/internal.h"
#include "record/record-features.h"

int pulse_record_features__write_start(struct pulse_data_writer *w,
					const struct pulse_record_output_info *info)
{
	static const int feats[] = {
		PULSE_FEAT_HOSTNAME, PULSE_FEAT_OSRELEASE, PULSE_FEAT_VERSION, PULSE_FEAT_ARCH,
		PULSE_FEAT_NRCPUS, PULSE_FEAT_CPUDESC, PULSE_FEAT_CPUID, PULSE_FEAT_TOTAL_MEM,
		PULSE_FEAT_CMDLINE, PULSE_FEAT_EVENT_DESC,
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

static int build_ids(struct pulse_data_writer *w, struct dso_hits *hits)
{
	struct pulse_build_id_entry *ents;
	struct dso_hit *d;
	size_t nr, n = 0;
	int ret;

	d = dso_hits__dsos(hits, &nr);
	ents = calloc(nr ? nr : 1, sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct pulse_build_id_entry *e = &ents[n];
		size_t len = 0;

		if (!d[i].hit)
			continue;
		if (d[i].has_build_id) {
			memcpy(e->id, d[i].build_id, d[i].build_id_size);
			len = d[i].build_id_size;
		} else if (d[i].kernel) {
			if (pulse_build_id__read_kernel(e->id, &len))
				continue;
		} else if (d[i].name[0] == '/') {
			if (pulse_build_id__read_file(d[i].name, e->id, &len))
				continue;
		} else {
			continue; /* [vdso], //anon: nothing on disk to identify */
		}
		e->size = len;
		e->pid = -1;
		e->misc = d[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		e->filename = d[i].kernel ? "[kernel.kallsyms]" : d[i].name;
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
					 const struct pulse_record_track *t)
{
	int ret = build_ids(w, t->hits);

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
