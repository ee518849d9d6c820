// SPDX-License-Identifier: GPL-2.0
/*
 * The model PMU behind PULSE_AUX_MODEL=BYTES (a test hook, for machines
 * without Intel PT): for each ring the recorder would have, a normal ring
 * and an AUX area of the model's (lib/ring/model*.c) and a thread that
 * plays the PMU: a PERF_RECORD_ITRACE_START in each ring, then BYTES of a
 * synthetic Intel PT stream (a PSB, a PSBEND, then PAD packets, in 16 KiB
 * pieces, each with its PERF_RECORD_AUX) into each area, waking the
 * recorder through an eventfd as the kernel does at its watermark. In full
 * mode it waits for room rather than truncate, so that a test knows what
 * the file gets, unless PULSE_AUX_MODEL ends in ",truncate": then a piece
 * that does not fit is cut (PERF_AUX_FLAG_TRUNCATED) and the event stays
 * disabled, as the kernel leaves it; in snapshot mode it writes over the
 * oldest bytes. ",partial" and ",collision" flag every 4th piece so;
 * ",slow" writes a piece into each area every 50 ms rather than at once.
 * The records carry the sample_id the model's attr asks for, with the id
 * rec_aux_attrs() gave its ring.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <pulse/perf-abi.h>
#include "record/aux-internal.h"

#define MODEL_RING_BYTES (64 * 1024)
#define MODEL_CHUNK (16 * 1024)
#define MODEL_WAKE_TAG (~4ULL)

static int wake_fd = -1;

int rec_aux_model_new(struct rec *r, struct rec_aux_src *s)
{
	struct rec_aux *a = r->aux;
	int ret;

	ret = pulse_ring_model__new(&s->rm, MODEL_RING_BYTES, false);
	if (!ret)
		ret = pulse_aux_model__new(&s->am, s->rm, a->size, r->opts->auxtrace_snapshot);
	if (!ret)
		ret = pulse_aux__init_mem(&s->aux, pulse_ring_model__base(s->rm),
					  pulse_aux_model__data(s->am), a->size,
					  r->opts->auxtrace_snapshot);
	/* as the Intel PT and BTS drivers run snapshot mode */
	if (!ret && rec_aux_masked_head(r)) {
		pulse_aux_model__set_masked_head(s->am);
		pulse_aux__set_masked_head(&s->aux);
	}
	return ret;
}

void rec_aux_model_delete(struct rec_aux_src *s)
{
	pulse_aux_model__delete(s->am);
	pulse_ring_model__delete(s->rm);
	s->am = NULL;
	s->rm = NULL;
}

void rec_aux_model_pause(struct rec_aux_src *s, bool on)
{
	pulse_aux_model__pause(s->am, on);
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* perf_event__id_header: the sample_id fields @attr asks for, in the kernel's order */
static size_t id_trailer(const struct perf_event_attr *attr, const struct rec_aux_src *s,
			 pid_t pid, unsigned char *buf)
{
	__u64 t = attr->sample_type, v;
	size_t n = 0;
	__u32 w[2];

	if (!attr->sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID) {
		w[0] = w[1] = (__u32)pid;
		memcpy(buf + n, w, 8);
		n += 8;
	}
	if (t & PERF_SAMPLE_TIME) {
		v = now_ns();
		memcpy(buf + n, &v, 8);
		n += 8;
	}
	if (t & PERF_SAMPLE_ID) {
		memcpy(buf + n, &s->id, 8);
		n += 8;
	}
	if (t & PERF_SAMPLE_STREAM_ID) {
		memcpy(buf + n, &s->id, 8);
		n += 8;
	}
	if (t & PERF_SAMPLE_CPU) {
		w[0] = s->cpu < 0 ? 0 : (__u32)s->cpu;
		w[1] = 0;
		memcpy(buf + n, w, 8);
		n += 8;
	}
	if (t & PERF_SAMPLE_IDENTIFIER) {
		memcpy(buf + n, &s->id, 8);
		n += 8;
	}
	return n;
}

static pid_t traced_pid(const struct rec *r)
{
	return r->child > 0 ? r->child : 0;
}

/* PERF_RECORD_ITRACE_START { u32 pid, tid } when the PMU starts tracing a task */
static void itrace_start(struct rec *r, struct rec_aux_src *s)
{
	struct {
		struct perf_event_header h;
		__u32 pid, tid;
		unsigned char id[64];
	} ev = { { PERF_RECORD_ITRACE_START, 0, 0 } };
	struct pulse_ring_handle h;
	size_t n = id_trailer(&r->aux->model_evsels[0]->attr, s, traced_pid(r), ev.id);

	ev.pid = ev.tid = (__u32)traced_pid(r);
	ev.h.size = 16 + n;
	if (pulse_ring_model__output_begin(s->rm, &h, ev.h.size))
		return;
	pulse_ring_model__output_copy(&h, &ev, ev.h.size);
	pulse_ring_model__output_end(&h);
}

/* a PSB+ that any reader can sync on, then PADs */
static void pt_stream(unsigned char *p, size_t len)
{
	memset(p, 0, len);
	for (int i = 0; i < 16; i += 2) {
		p[i] = 0x02;
		p[i + 1] = 0x82;
	}
	p[16] = 0x02;	/* PSBEND */
	p[17] = 0x23;
}

static void *model_pmu(void *arg)
{
	struct rec *r = arg;
	struct rec_aux *a = r->aux;
	const struct perf_event_attr *attr = &a->model_evsels[0]->attr;
	static unsigned char chunk[MODEL_CHUNK];
	__u64 *done = calloc(a->nr, sizeof(*done));
	__u64 one = 1;

	pt_stream(chunk, sizeof(chunk));
	for (int i = 0; i < a->nr; i++)
		itrace_start(r, &a->src[i]);
	while (done && !__atomic_load_n(&a->pmu_stop, __ATOMIC_ACQUIRE)) {
		bool left = false, wrote = false;

		for (int i = 0; i < a->nr; i++) {
			struct rec_aux_src *s = &a->src[i];
			__u64 n = a->model_bytes - done[i];
			unsigned char id[64];

			if (!n)
				continue;
			left = true;
			if (n > MODEL_CHUNK)
				n = MODEL_CHUNK;
			/* full mode: wait for the recorder to make room (unless told not to) */
			if (pulse_aux_model__stopped(s->am)) {
				/* TRUNCATED disabled the event; nothing re-enables it */
				done[i] = a->model_bytes;
				continue;
			}
			if (!r->opts->auxtrace_snapshot && !a->model_truncate &&
			    a->size - (pulse_aux__read_head(&s->aux) -
				       __atomic_load_n(&s->aux.pc->aux_tail, __ATOMIC_ACQUIRE)) <= n)
				continue;
			pulse_aux_model__set_sample_id(s->am, id,
						       id_trailer(attr, s, traced_pid(r), id));
			done[i] += pulse_aux_model__write(s->am, chunk, n,
							  (done[i] / MODEL_CHUNK) % 4 == 3 ?
								  a->model_flags : 0);
			wrote = true;
		}
		if (wrote && wake_fd >= 0 && write(wake_fd, &one, sizeof(one)) < 0)
			break;
		if (!left)
			break;
		if (!wrote || a->model_slow)
			usleep(a->model_slow ? 50000 : 100);
	}
	free(done);
	__atomic_store_n(&a->pmu_done, 1, __ATOMIC_RELEASE);
	if (wake_fd >= 0 && write(wake_fd, &one, sizeof(one)) < 0)
		return NULL;
	return NULL;
}

int rec_aux_model_start(struct rec *r)
{
	struct rec_aux *a = r->aux;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = MODEL_WAKE_TAG };
	int ret;

	wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wake_fd < 0 || epoll_ctl(r->epfd, EPOLL_CTL_ADD, wake_fd, &ev) < 0)
		return -errno;
	ret = -pthread_create(&a->pmu, NULL, model_pmu, r);
	if (!ret)
		a->pmu_started = true;
	return ret;
}

/* @now: stop the PMU at once; else let it write what it has left, draining meanwhile */
void rec_aux_model_stop(struct rec *r, bool now)
{
	struct rec_aux *a = r->aux;

	if (!a->pmu_started)
		return;
	if (now)
		__atomic_store_n(&a->pmu_stop, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&a->pmu_done, __ATOMIC_ACQUIRE)) {
		if (rec_aux_drain(r))
			__atomic_store_n(&a->pmu_stop, 1, __ATOMIC_RELEASE);
		usleep(200);
	}
	pthread_join(a->pmu, NULL);
	a->pmu_started = false;
	if (wake_fd >= 0) {
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, wake_fd, NULL);
		close(wake_fd);
		wake_fd = -1;
	}
}
