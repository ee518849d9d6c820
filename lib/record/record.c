// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's engine.
 *
 * Events are opened per CPU (inherited task events cannot be mmapped when
 * opened with cpu == -1) and per target thread; each CPU has one ring
 * buffer, owned by the first fd opened on it, and every other fd of that
 * CPU is redirected into it with PERF_EVENT_IOC_SET_OUTPUT. The pump
 * (pump.c) then copies the rings into the output the caller gave
 * (output-file.c: a file or a pipe), which writes its own features.
 *
 * System-wide recording adds a "dummy" tracking event, enabled at once, so
 * that no MMAP/COMM/FORK is missed while existing tasks are synthesized
 * from /proc; the sampling events are enabled after that, as perf does.
 */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include "record/internal.h"

#define DEFAULT_MMAP_PAGES 128	/* 512 KiB per CPU, perf's default as root */
/*
 * System wide, when locked memory is not limited (root, CAP_IPC_LOCK),
 * 4 MiB per CPU: a 2-million-call getppid storm on 2 CPUs lost 4-23 K
 * events in 3 of 3 runs with 512 KiB and 1 MiB rings, none with 2 or 4 MiB
 * (the reader drains a ring every millisecond in a storm, but a busy
 * machine can keep it off a CPU for tens of milliseconds).
 */
#define WIDE_MMAP_BYTES (4u << 20)
#define TRACK_MMAP_PAGES 32	/* the side-band's own rings: 128 KiB per CPU */

/*
 * Open every evsel, the dummy last, through r->evlist, the view over
 * r->evsels that keeps their cells until rec_cleanup() closes it, with
 * perf record's fallbacks.
 */
static int open_events(struct rec *r)
{
	struct pulse_evlist_open_opts oo = { .sz = sizeof(oo), .cpus = r->cpus,
					     .nr_cpus = r->nr_cpus, .threads = r->threads,
					     .nr_threads = r->nr_threads, .fallback = true };
	struct pulse_evlist_open_result res;
	int ret;

	r->evlist.entries = r->evsels;
	r->evlist.nr = r->nr_evsels;
	ret = pulse_evlist__open(&r->evlist, &oo, &res);

	r->err->fell_back |= res.fell_back;
	r->err->user_only |= res.user_only;
	if (res.paranoid)
		r->err->paranoid = res.paranoid;
	if (ret) {
		r->err->stage = PULSE_REC_OPEN;
		r->err->evsel = res.evsel ? res.evsel->name : NULL;
		if (res.evsel) {
			r->err->type = res.evsel->attr.type;
			r->err->sample_freq = res.evsel->attr.freq ? res.evsel->attr.sample_freq : 0;
		}
		r->err->cpu = res.cpu;
		r->err->tid = res.tid;
		return ret;
	}
	/* --filter: perf's evlist__apply_filters(), before the rings are mapped */
	ret = pulse_evlist__apply_filters(&r->evlist, &res.evsel);
	if (ret) {
		r->err->stage = PULSE_REC_FILTER;
		r->err->evsel = res.evsel->name;
		r->err->filter = res.evsel->filter;
	}
	return ret;
}

/* Map @fd's ring into @m, or point @fd at @owner's; poll it either way. */
static int map_one(struct rec *r, struct pulse_mmap *m, int *owner, int fd, size_t pages,
		   bool overwrite, int c)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (__u64)c };
	int ret;

	if (*owner < 0) {
		*owner = fd;
		ret = pulse_mmap__mmap(m, fd, pages, overwrite);
	} else {
		ret = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *owner) < 0 ? -errno : 0;
	}
	if (ret) {
		r->err->stage = PULSE_REC_MMAP;
		r->err->cpu = r->cpus[c];
		return ret;
	}
	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	r->nr_polled++;
	return 0;
}

/*
 * One ring per CPU for the samples; in a flight recording the tracking
 * dummy gets rings of its own, forward and small, which are read all the
 * time while the samples' may be overwrite rings read only on a snapshot.
 */
/* CAP_IPC_LOCK (root has it): the kernel does not charge our rings to a limit. */
static bool may_lock_memory(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	bool ok = false;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			ok = caps & (1ULL << 14);
			break;
		}
	}
	if (f)
		fclose(f);
	return ok;
}

static size_t default_pages(const struct rec *r)
{
	long page = sysconf(_SC_PAGESIZE);

	if (is_system_wide(r->opts) && page > 0 && may_lock_memory())
		return WIDE_MMAP_BYTES / page;
	return DEFAULT_MMAP_PAGES;
}

static int mmap_events(struct rec *r)
{
	size_t pages = r->opts->mmap_pages ? r->opts->mmap_pages : default_pages(r);
	bool split = r->opts->tracking_output != NULL;

	r->maps = calloc(r->nr_cpus, sizeof(*r->maps));
	r->ring_fd = calloc(r->nr_cpus, sizeof(*r->ring_fd));
	if (split)
		r->track_maps = calloc(r->nr_cpus, sizeof(*r->track_maps));
	if (!r->maps || !r->ring_fd || (split && !r->track_maps))
		return -ENOMEM;
	for (int c = 0; c < r->nr_cpus; c++) {
		int owner = -1, track_owner = -1;

		for (int i = 0; i < r->nr_evsels; i++) {
			/* (an AUX event's ring carries side-band: ITRACE_START, AUX) */
			bool side = split && (r->evsels[i] == r->dummy || is_trigger(r, i) ||
					      pulse_evsel__is_aux(r->evsels[i]));

			for (int t = 0; t < r->nr_threads; t++) {
				int fd = pulse_evlist__fd(&r->evlist, i, c, t);
				int ret;

				if (fd < 0)
					continue;
				if (side)
					ret = map_one(r, &r->track_maps[c], &track_owner, fd,
						      TRACK_MMAP_PAGES, false, c);
				else
					ret = map_one(r, &r->maps[c], &owner, fd, pages,
						      r->opts->overwrite, c);
				if (ret)
					return ret;
			}
		}
		r->ring_fd[c] = owner;
	}
	return 0;
}

static void rec_cleanup(struct rec *r)
{
	rec_readers_cleanup(r);
	rec_aux_cleanup(r);
	rec_offcpu_cleanup(r);
	for (int c = 0; r->maps && c < r->nr_cpus; c++)
		pulse_mmap__munmap(&r->maps[c]);
	for (int c = 0; r->track_maps && c < r->nr_cpus; c++)
		pulse_mmap__munmap(&r->track_maps[c]);
	free(r->maps);
	free(r->track_maps);
	free(r->ring_fd);
	pulse_record_pump__delete(r->track_pump);
	pulse_record_stats__exit(&r->track_stats);
	pulse_evlist__close(&r->evlist);
	if (r->dummy)
		pulse_evsel__delete(r->dummy);
	free(r->evsels);
	free(r->threads);
	free(r->cpus);
	free(r->attrs);
	pulse_buf__release(&r->tracing_data);
	pulse_record_pump__delete(r->pump);
	for (int i = 0; i < 2; i++) {
		if (r->go_pipe[i] >= 0)
			close(r->go_pipe[i]);
		if (r->exec_pipe[i] >= 0)
			close(r->exec_pipe[i]);
	}
	if (r->pidfd >= 0)
		close(r->pidfd);
	if (r->epfd >= 0)
		close(r->epfd);
}

static struct pulse_evsel *new_dummy(void)
{
	struct pulse_evsel *d;

	return pulse_evsel__new(&d, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "dummy:HG") ? NULL : d;
}

int pulse_record__run(const struct pulse_record_opts *o, struct pulse_record_stats *stats,
		      struct pulse_record_error *err)
{
	struct rec r = { .opts = o, .stats = stats, .err = err, .pidfd = -1, .epfd = -1, .size_fd = -1,
			 .go_pipe = { -1, -1 }, .exec_pipe = { -1, -1 } };
	struct pulse_record_output_info info = { .sz = sizeof(info) };
	bool killed = false;
	int ret, nr_attrs;

	memset(stats, 0, sizeof(*stats));
	memset(err, 0, sizeof(*err));
	r.out = o->output;
	r.epfd = epoll_create1(EPOLL_CLOEXEC);
	r.evsels = calloc(o->evlist->nr + 1 + (o->trigger_events ? o->trigger_events->nr : 0),
			  sizeof(*r.evsels));
	if (r.epfd < 0 || !r.evsels) {
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < o->evlist->nr; i++)
		r.evsels[r.nr_evsels++] = o->evlist->entries[i];
	r.trig_first = r.trig_end = r.nr_evsels;
	for (int i = 0; o->trigger_events && i < o->trigger_events->nr; i++)
		r.evsels[r.nr_evsels++] = o->trigger_events->entries[i];
	r.trig_end = r.nr_evsels;
	ret = rec_aux_prepare(&r);
	if (ret)
		goto out;
	if (r.aux && !r.out->ops->write_aux) {
		/* a flight recording keeps no AUX data */
		err->stage = PULSE_REC_WRITE;
		ret = -EOPNOTSUPP;
		goto out;
	}
	r.tracking = r.evsels[0];
	/* with an AUX event, a dummy tracks the side-band, as perf's intel_pt does */
	if (is_system_wide(o) || o->delay_ms || o->tracking_output || r.aux) {
		r.dummy = new_dummy();
		if (!r.dummy) {
			ret = -ENOMEM;
			goto out;
		}
		r.evsels[r.nr_evsels++] = r.dummy;
		r.tracking = r.dummy;
	}
	ret = rec_setup_target(&r);
	if (ret)
		goto out;
	pulse_record__config_attrs(o, r.evsels, r.nr_evsels, r.dummy, r.tracking);
	ret = rec_aux_config(&r);
	if (ret)
		goto out;
	for (int i = r.trig_first; i < r.trig_end; i++) {
		/* a trigger is read at once, from the forward side-band rings */
		r.evsels[i]->attr.write_backward = 0;
		r.evsels[i]->attr.wakeup_events = 1;
	}
	for (int i = 0; o->tracking_output && i < r.nr_evsels; i++)
		/* an AUX event's own ring is read all the time, beside the side-band */
		if (pulse_evsel__is_aux(r.evsels[i]))
			r.evsels[i]->attr.write_backward = 0;
	r.id_size = pulse_sample__id_size(&r.evsels[0]->attr);

	if (o->argv) {
		ret = rec_start_workload(&r);
		if (ret) {
			err->stage = PULSE_REC_WORKLOAD;
			goto out;
		}
		if (!is_system_wide(o) && !has_task_target(o))
			r.threads[0] = r.child;
	}
	ret = open_events(&r);
	if (ret)
		goto out_kill;
	stats->nr_cpus = r.nr_cpus;
	stats->lost_per_cpu = calloc(r.nr_cpus, sizeof(__u64));
	stats->cpu_of = calloc(r.nr_cpus, sizeof(int));
	if (!stats->lost_per_cpu || !stats->cpu_of) {
		ret = -ENOMEM;
		goto out_kill;
	}
	memcpy(stats->cpu_of, r.cpus, r.nr_cpus * sizeof(int));
	ret = mmap_events(&r);
	if (!ret)
		ret = rec_offcpu_open(&r);
	if (!ret)
		ret = rec_aux_map(&r, o->tracking_output ? TRACK_MMAP_PAGES :
					  o->mmap_pages ? o->mmap_pages : default_pages(&r));
	if (ret)
		goto out_kill;
	ret = pulse_record_pump__new(&r.pump, r.maps, r.nr_cpus, stats);
	if (ret)
		goto out_kill;
	pulse_record_pump__set_output(r.pump, r.out);
	if (r.track_maps) {
		ret = pulse_record_pump__new(&r.track_pump, r.track_maps, r.nr_cpus,
					     &r.track_stats);
		if (ret)
			goto out_kill;
		pulse_record_pump__set_output(r.track_pump, o->tracking_output);
	}
	pulse_record_pump__set_flush(r.pump, o->mmap_flush);

	ret = rec_readers_setup(&r);
	if (ret)
		goto out_kill;

	r.attrs = calloc(r.nr_evsels + rec_aux_nr_model(&r), sizeof(*r.attrs));
	if (!r.attrs) {
		ret = -ENOMEM;
		goto out_kill;
	}
	for (int i = 0; i < r.nr_evsels; i++) {
		r.attrs[i].attr = r.evsels[i]->attr;
		r.attrs[i].name = r.evsels[i]->name;
		r.attrs[i].ids = pulse_evlist__ids(&r.evlist, i, &r.attrs[i].nr_ids);
		if (r.evsels[i]->leader == r.evsels[i])
			r.attrs[i].nr_members = r.evsels[i]->nr_members;
	}
	nr_attrs = r.nr_evsels;
	ret = rec_aux_attrs(&r, r.attrs, &nr_attrs);
	if (ret)
		goto out_kill;
	/* Read once: every output of the run starts with the same formats. */
	ret = rec_tracing_data(&r, &r.tracing_data);
	if (ret)
		goto out_kill;
	info.attrs = r.attrs;
	info.nr_attrs = nr_attrs;
	info.argc = o->argc_self;
	info.argv = o->argv_self;
	info.tracing_data = r.tracing_data.p;
	info.tracing_data_size = r.tracing_data.len;
	/*
	 * BUILD_ID takes 100-200 bytes a DSO hit: a command hits a few, a
	 * system-wide recording hundreds. 128 KiB for all made a 5 KB
	 * recording 136 KB.
	 */
	info.feature_reserve = is_system_wide(o) ? 128 * 1024 : 2 * 1024;
	info.no_buildid = o->no_buildid;
	info.dir_format = o->nr_readers > 0 && !o->tracking_output;
	info.use_clockid = o->use_clockid;
	info.clockid = o->clockid;
	info.comp_level = o->comp_level;
	/* perf's evlist mmap_len: the data pages and the header page */
	info.mmap_len = ((o->mmap_pages ? o->mmap_pages : default_pages(&r)) + 1) *
			(size_t)sysconf(_SC_PAGESIZE);
	ret = pulse_record_output__start(r.out, &info);
	if (!ret && o->tracking_output)
		ret = pulse_record_output__start(o->tracking_output, &info);
	if (ret) {
		ret = rec_write_err(&r, ret);
		goto out_kill;
	}
	ret = rec_aux_info(&r);
	if (!ret)
		ret = rec_synthesize(&r);
	if (ret)
		goto out_kill;
	ret = pulse_record_output__sync(r.out);
	if (ret) {
		ret = rec_write_err(&r, ret);
		goto out_kill;
	}
	ret = rec_readers_start(&r);
	if (!ret)
		ret = rec_aux_start(&r);
	if (ret)
		goto out_kill;
	if (r.pidfd >= 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = ~0ULL };

		epoll_ctl(r.epfd, EPOLL_CTL_ADD, r.pidfd, &ev);
	}
	if ((is_system_wide(o) || has_task_target(o)) && !o->delay_ms) {
		ret = pulse_evlist__enable(&r.evlist);
		if (ret) {
			err->stage = PULSE_REC_OPEN;
			goto out_kill;
		}
	}
	if (o->on_start)
		o->on_start(o->arg);
	if (r.child > 0) {
		ret = rec_go_workload(&r);
		if (ret) {
			err->stage = PULSE_REC_WORKLOAD;
			goto out_finish;
		}
	}
	{
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		r.t0_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		r.next_toggle = 1;
	}
	if (o->delay_ms > 0) {
		/* perf sleeps too: the rings hold what the dummy sees meanwhile */
		usleep(o->delay_ms * 1000ULL);
		if (!want_stop(&r)) {
			ret = pulse_evlist__enable(&r.evlist);
			if (ret) {
				err->stage = PULSE_REC_OPEN;
				goto out_finish;
			}
			if (o->on_enable)
				o->on_enable(o->arg);
		}
	}
	ret = rec_main_loop(&r);

out_finish:
	pulse_evlist__disable(&r.evlist);
	{
		/* the readers drain what their rings still hold, then stop */
		int ret2 = rec_readers_stop(&r);

		if (ret2 && !ret)
			ret = rec_write_err(&r, ret2);
	}
	if (r.child > 0 && !r.child_done && (want_stop(&r) || ret)) {
		kill(r.child, SIGTERM);
		killed = true;
	}
	rec_reap_child(&r, true);
	{
		/* the model PMU writes what it has left; -Se's snapshot */
		int ret2 = stats->disk_full ? 0 : rec_aux_stop(&r);

		if (ret2 && !ret)
			ret = ret2;
	}
	/* the last pass takes everything, as perf's synchronous flush */
	pulse_record_pump__set_flush(r.pump, 0);
	{
		int ret2 = 0;

		if (!stats->disk_full && (ret2 = rec_drain_all(&r)) == 0)
			ret2 = rec_write_lost_samples(&r);
		if (!ret2 && !stats->disk_full)
			ret2 = rec_offcpu_write(&r);
		if (!ret)
			ret = ret2;
	}
	/*
	 * a trigger that came as the command ended is still owed its snapshot;
	 * in a flight recording -Se's is one too
	 */
	if (!ret && ((o->snapshot && *o->snapshot) ||
		     (r.aux && o->auxtrace_snapshot_on_exit && pulse_record_output__can_snapshot(r.out)))) {
		if (o->snapshot)
			*o->snapshot = 0;
		ret = rec_snapshot(&r);
	}
	/* a command that failed or died leaves its last moments behind */
	if (!ret && o->snapshot_on_crash && r.child > 0 && r.child_done && !killed &&
	    stats->workload_ran && stats->workload_status) {
		ret = rec_snapshot(&r);
		stats->crash_snapshot = !ret;
	}
	stats->bytes = pulse_record_output__data_size(r.out);
	{
		int ret2 = pulse_record_output__finish(r.out);

		if (ret2 && !ret)
			ret = rec_write_err(&r, ret2);
	}
	stats->bytes = pulse_record_output__data_size(r.out) + rec_readers_bytes(&r);
	pulse_record_output__comp_stats(r.out, &stats->bytes_transferred,
					&stats->bytes_compressed);
	goto out;

out_kill:
	if (r.child > 0 && !r.child_done) {
		kill(r.child, SIGKILL);
		rec_reap_child(&r, true);
	}
out:
	rec_cleanup(&r);
	return ret;
}

void pulse_record_stats__exit(struct pulse_record_stats *stats)
{
	free(stats->lost_per_cpu);
	free(stats->cpu_of);
	stats->lost_per_cpu = NULL;
	stats->cpu_of = NULL;
}
