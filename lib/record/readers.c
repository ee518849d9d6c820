// SPDX-License-Identifier: GPL-2.0
/*
 * --threads: reader threads (perf's parallel streaming). Each takes the
 * rings of its CPUs out of the main thread's set, sleeps in its own epoll
 * on their fds and drains them with its own pump into its output: a
 * data.N file of perf's directory layout, or a flight recorder's ring. The
 * main thread keeps the side-band rings of a flight recording, the
 * workload and the triggers. Overwrite rings stay with the main thread: they are read
 * only on a snapshot.
 */
#include <errno.h>
#include <time.h>
#include <sys/eventfd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "record/internal.h"

static int reader_of(const struct rec *r, int c)
{
	const struct pulse_record_opts *o = r->opts;
	int cpu = r->cpus[c];

	if (cpu < 0 || (size_t)cpu >= o->nr_reader_cpus)
		return -1;
	return o->reader_of_cpu[cpu] < o->nr_readers ? o->reader_of_cpu[cpu] : -1;
}

int rec_readers_setup(struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	bool split = o->tracking_output != NULL;

	if (o->nr_readers <= 0 || o->overwrite)
		return 0;
	r->readers = calloc(o->nr_readers, sizeof(*r->readers));
	if (!r->readers)
		return -ENOMEM;
	for (int k = 0; k < o->nr_readers; k++)
		r->readers[k].epfd = r->readers[k].wake_fd = -1;
	/* perf stops at --max-size as soon as a reader's write passes it */
	if (o->max_size) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = REC_SIZE_WAKE };

		r->size_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (r->size_fd < 0 || epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->size_fd, &ev) < 0)
			return -errno;
	}
	for (int k = 0; k < o->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];

		rd->r = r;
		rd->epfd = epoll_create1(EPOLL_CLOEXEC);
		rd->maps = calloc(r->nr_cpus, sizeof(*rd->maps));
		rd->cpu_idx = calloc(r->nr_cpus, sizeof(*rd->cpu_idx));
		rd->stats.lost_per_cpu = calloc(r->nr_cpus, sizeof(__u64));
		rd->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (rd->epfd < 0 || rd->wake_fd < 0 || !rd->maps || !rd->cpu_idx ||
		    !rd->stats.lost_per_cpu)
			return -ENOMEM;
		{
			struct epoll_event ev = { .events = EPOLLIN, .data.fd = rd->wake_fd };

			if (epoll_ctl(rd->epfd, EPOLL_CTL_ADD, rd->wake_fd, &ev) < 0)
				return -errno;
		}
	}
	for (int c = 0; c < r->nr_cpus; c++) {
		int k = reader_of(r, c);
		struct rec_reader *rd;

		if (k < 0 || !r->maps[c].base)
			continue;
		rd = &r->readers[k];
		/* the ring moves: the main pump skips a map with no base */
		rd->cpu_idx[rd->nr_maps] = c;
		rd->maps[rd->nr_maps++] = r->maps[c];
		memset(&r->maps[c], 0, sizeof(r->maps[c]));
		for (int i = 0; i < r->nr_evsels; i++) {
			if (split && (r->evsels[i] == r->dummy || is_trigger(r, i)))
				continue;
			for (int t = 0; t < r->nr_threads; t++) {
				int fd = pulse_evlist__fd(&r->evlist, i, c, t);
				struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

				if (fd < 0)
					continue;
				/*
				 * Out of the main epoll: perf_poll() hands a ring's
				 * readiness to the first poller only, and it must be
				 * the reader; hang-ups are the reader's to count too.
				 */
				if (epoll_ctl(rd->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ||
				    epoll_ctl(r->epfd, EPOLL_CTL_DEL, fd, NULL) < 0)
					return -errno;
			}
		}
	}
	for (int k = 0; k < o->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];
		int ret = pulse_record_pump__new(&rd->pump, rd->maps, rd->nr_maps, &rd->stats);

		if (ret)
			return ret;
		pulse_record_pump__set_output(rd->pump, o->reader_outputs[k]);
	}
	return 0;
}

static void *reader_main(void *arg)
{
	struct rec_reader *rd = arg;
	struct epoll_event evs[64];
	int err;

	while (!__atomic_load_n(&rd->r->readers_stop, __ATOMIC_ACQUIRE)) {
		bool storm = pulse_record_pump__pass_bytes(rd->pump) >= STORM_BYTES;

		int n = epoll_wait(rd->epfd, evs, 64, storm ? 1 : 100);

		if (n > 0)
			rd->stats.wakeups++;

		/* a task target's fds hang up when it exits: the main loop counts them */
		for (int i = 0; i < n; i++) {
			if (evs[i].data.fd == rd->wake_fd) {
				__u64 v;

				if (read(rd->wake_fd, &v, sizeof(v)) < 0)
					continue;
				continue;
			}
			if (!(evs[i].events & (EPOLLHUP | EPOLLERR)))
				continue;
			if (epoll_ctl(rd->epfd, EPOLL_CTL_DEL, evs[i].data.fd, NULL) == 0)
				__atomic_sub_fetch(&rd->r->nr_polled, 1, __ATOMIC_RELEASE);
		}
		/* a pass that starts now covers what a sync asked for so far */
		int gen = __atomic_load_n(&rd->r->drain_gen, __ATOMIC_ACQUIRE);

		err = pulse_record_pump__drain(rd->pump);
		if (err) {
			__atomic_store_n(&rd->err, err, __ATOMIC_RELEASE);
			return NULL;
		}
		__atomic_store_n(&rd->done_gen, gen, __ATOMIC_RELEASE);
		if (rd->r->size_fd >= 0 && !rd->size_told &&
		    rec_readers_bytes(rd->r) >= rd->r->opts->max_size) {
			__u64 one = 1;

			rd->size_told = write(rd->r->size_fd, &one, sizeof(one)) == sizeof(one);
		}
	}
	/* the events are disabled by now: what is left */
	__atomic_store_n(&rd->err, pulse_record_pump__drain(rd->pump), __ATOMIC_RELEASE);
	return NULL;
}

int rec_readers_start(struct rec *r)
{
	for (int k = 0; r->readers && k < r->opts->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];
		int ret = pthread_create(&rd->thread, NULL, reader_main, rd);

		if (ret)
			return -ret;
		rd->started = true;
	}
	return 0;
}

/*
 * Before a snapshot: have every reader make a pass that starts after this
 * call, so that what the rings held at the trigger is in the flight
 * recorder. Return: 0, or -ETIMEDOUT after a second.
 */
int rec_readers_sync(struct rec *r)
{
	int gen;

	if (!r->readers)
		return 0;
	gen = __atomic_add_fetch(&r->drain_gen, 1, __ATOMIC_ACQ_REL);
	for (int k = 0; k < r->opts->nr_readers; k++) {
		__u64 one = 1;

		if (write(r->readers[k].wake_fd, &one, sizeof(one)) < 0)
			return -errno;
	}
	for (int k = 0; k < r->opts->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];
		struct timespec ts = { 0, 100 * 1000 };

		for (int n = 0; rd->started &&
		     __atomic_load_n(&rd->done_gen, __ATOMIC_ACQUIRE) - gen < 0; n++) {
			int err = __atomic_load_n(&rd->err, __ATOMIC_ACQUIRE);

			if (n == 10000 || err)
				return err ? err : -ETIMEDOUT;
			nanosleep(&ts, NULL);
		}
	}
	return 0;
}

/* Stop and join the readers, and add up what they counted. */
int rec_readers_stop(struct rec *r)
{
	struct pulse_record_stats *st = r->stats;
	int err = 0;

	if (!r->readers)
		return 0;
	__atomic_store_n(&r->readers_stop, 1, __ATOMIC_RELEASE);
	for (int k = 0; k < r->opts->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];

		if (!rd->started)
			continue;
		pthread_join(rd->thread, NULL);
		rd->started = false;
		if (rd->err && !err)
			err = rd->err;
		st->samples += rd->stats.samples;
		st->wakeups += rd->stats.wakeups;
		st->lost_events += rd->stats.lost_events;
		st->lost_chunks += rd->stats.lost_chunks;
		st->lost_samples += rd->stats.lost_samples;
		st->disk_full |= rd->stats.disk_full;
		for (int m = 0; m < rd->nr_maps && st->lost_per_cpu; m++)
			st->lost_per_cpu[rd->cpu_idx[m]] += rd->stats.lost_per_cpu[m];
		rd->stats.samples = rd->stats.lost_events = rd->stats.lost_chunks = 0;
		rd->stats.wakeups = 0;
		rd->stats.lost_samples = 0;
	}
	return err;
}

/* Bytes the readers' own outputs hold (a data.N each; 0 when they share the main one). */
__u64 rec_readers_bytes(const struct rec *r)
{
	const struct pulse_record_opts *o = r->opts;
	__u64 bytes = 0;

	for (int k = 0; r->readers && k < o->nr_readers; k++)
		if (o->reader_outputs[k] != r->out)
			bytes += pulse_record_output__data_size(o->reader_outputs[k]);
	return bytes;
}

void rec_readers_cleanup(struct rec *r)
{
	if (!r->readers)
		return;
	rec_readers_stop(r);
	for (int k = 0; k < r->opts->nr_readers; k++) {
		struct rec_reader *rd = &r->readers[k];

		for (int m = 0; m < rd->nr_maps; m++)
			pulse_mmap__munmap(&rd->maps[m]);
		pulse_record_pump__delete(rd->pump);
		if (rd->epfd >= 0)
			close(rd->epfd);
		if (rd->wake_fd >= 0)
			close(rd->wake_fd);
		free(rd->maps);
		free(rd->cpu_idx);
		free(rd->stats.lost_per_cpu);
	}
	free(r->readers);
	r->readers = NULL;
	if (r->size_fd >= 0)
		close(r->size_fd);
	r->size_fd = -1;
}
