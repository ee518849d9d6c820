// SPDX-License-Identifier: GPL-2.0
/*
 * Records pulse record makes itself rather than copies from a ring: the
 * side-band of tasks that exist already (from /proc), FINISHED_INIT, and
 * LOST_SAMPLES from the read_format LOST counts at the end.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "record/internal.h"

/* Synthesized records go to the output as side-band (its DSO tracking sees them). */
static int write_synth(const void *rec, size_t len, void *arg)
{
	struct rec *r = arg;

	return pulse_record_output__write_sideband(r->out, rec, len);
}

int rec_synthesize(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	struct pulse_synth_opts so = { .sz = sizeof(so), .id_size = r->id_size,
				       .kallsyms_cache = o->kallsyms_cache,
				       /* with mmap_data, data maps too (perf: an unwinder needs the ELF's first map) */
				       .mmap_data = o->sample_address };
	int ret;

	ret = pulse_synthesize__kernel_mmap(&so, write_synth, r);
	if (ret && ret != -ENOENT && ret != -EACCES)
		return ret;
	if (is_system_wide(o)) {
		ret = pulse_synthesize__all(&so, write_synth, r);
	} else {
		ret = 0;
		for (size_t i = 0; i < o->nr_pids && !ret; i++)
			ret = pulse_synthesize__task(o->pids[i], &so, write_synth, r);
		for (size_t i = 0; i < o->nr_tids && !ret; i++)
			ret = pulse_synthesize__thread(o->tids[i], &so, write_synth, r);
	}
	if (ret == -ENOSPC)
		return rec_write_err(r, ret);
	if (ret && ret != -ENOENT && ret != -ESRCH)
		return ret;
	static const struct perf_event_header init = { PERF_RECORD_FINISHED_INIT, 0, 8 };

	ret = pulse_record_output__write_sideband(r->out, &init, sizeof(init));
	return ret ? rec_write_err(r, ret) : 0;
}

/* read_format LOST: samples the kernel dropped, synthesized as LOST_SAMPLES as perf 6.x. */
int rec_write_lost_samples(struct rec *r)
{
	for (int i = 0; i < r->nr_evsels; i++) {
		struct pulse_evsel *e = r->evsels[i];
		__u64 lost = 0, v[8];
		size_t nr_ids;
		const __u64 *ids = pulse_evlist__ids(&r->evlist, i, &nr_ids);

		for (int c = 0; c < r->nr_cpus; c++) {
			for (int t = 0; t < r->nr_threads; t++) {
				int fd = pulse_evlist__fd(&r->evlist, i, c, t);

				ssize_t n = fd >= 0 ? read(fd, v, sizeof(v)) : -1;

				/* value, [enabled, running,] id, lost: LOST comes last */
				if (n >= 24 && n % 8 == 0)
					lost += v[n / 8 - 1];
			}
		}
		if (!lost)
			continue;
		unsigned char rec[16 + 64] = { 0 };
		size_t size = 16 + r->id_size;
		struct perf_event_header h = { PERF_RECORD_LOST_SAMPLES, 0, (__u16)size };

		if (size > sizeof(rec))
			continue;
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &lost, 8);
		if (e->attr.sample_type & PERF_SAMPLE_IDENTIFIER)
			memcpy(rec + size - 8, &ids[0], 8);
		r->stats->lost_samples += lost;
		struct iovec iov = { .iov_base = rec, .iov_len = size };
		size_t kept;
		int ret = pulse_record_output__write(r->out, &iov, 1, &kept);

		if (ret)
			return rec_write_err(r, ret);
	}
	return 0;
}
