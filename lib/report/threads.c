// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -T/--threads: the per-thread counts of the file's READ
 * records (perf record -s, inherit_stat: the kernel writes one as each
 * child exits), as perf 6.1's util/values.c keeps and prints them. A thread
 * is a (pid, tid) row and a counter an event (its attr index), both in the
 * order first read; a row adds up the READs of its thread and event (the
 * first u64 after pid and tid: the value, or nr with PERF_FORMAT_GROUP,
 * which is what perf reads there too). perf prints the table after the
 * tip, "normal" as aligned columns, "raw" (--pretty=raw) as one line per
 * (thread, counter) cell with no newline between them, perf's own quirk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/report.h>

void pulse_report_threads__exit(struct pulse_report_threads *t)
{
	for (size_t i = 0; i < t->nr_threads; i++)
		free(t->threads[i].value);
	free(t->threads);
	for (size_t j = 0; j < t->nr_counters; j++)
		free(t->counters[j].name);
	free(t->counters);
	t->threads = NULL;
	t->counters = NULL;
	t->nr_threads = t->nr_counters = t->alloc_threads = t->alloc_counters = 0;
}

static int threads__findnew_thread(struct pulse_report_threads *t, uint32_t pid, uint32_t tid)
{
	struct pulse_report_thread *th;

	for (size_t i = 0; i < t->nr_threads; i++)
		if (t->threads[i].pid == pid && t->threads[i].tid == tid)
			return (int)i;
	if (t->nr_threads == t->alloc_threads) {
		size_t n = t->alloc_threads ? 2 * t->alloc_threads : 16;

		th = realloc(t->threads, n * sizeof(*th));
		if (!th)
			return -ENOMEM;
		t->threads = th;
		t->alloc_threads = n;
	}
	th = &t->threads[t->nr_threads];
	th->value = calloc(t->alloc_counters ? t->alloc_counters : 1, sizeof(*th->value));
	if (!th->value)
		return -ENOMEM;
	th->pid = pid;
	th->tid = tid;
	return (int)t->nr_threads++;
}

static int threads__findnew_counter(struct pulse_report_threads *t, size_t idx, const char *name)
{
	struct pulse_report_counter *c;

	for (size_t j = 0; j < t->nr_counters; j++)
		if (t->counters[j].idx == idx)
			return (int)j;
	if (t->nr_counters == t->alloc_counters) {
		size_t n = t->alloc_counters ? 2 * t->alloc_counters : 16;

		c = realloc(t->counters, n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		t->counters = c;
		for (size_t i = 0; i < t->nr_threads; i++) {
			uint64_t *v = realloc(t->threads[i].value, n * sizeof(*v));

			if (!v)
				return -ENOMEM;
			memset(v + t->alloc_counters, 0, (n - t->alloc_counters) * sizeof(*v));
			t->threads[i].value = v;
		}
		t->alloc_counters = n;
	}
	c = &t->counters[t->nr_counters];
	c->idx = idx;
	c->name = strdup(name ? name : "");
	if (!c->name)
		return -ENOMEM;
	return (int)t->nr_counters++;
}

int pulse_report__add_read(struct pulse_report *rep, const struct perf_event_header *rec)
{
	struct pulse_report_threads *t = &rep->threads;
	uint32_t pid, tid;
	uint64_t value;
	char buf[256];
	int idx, ti, ci;

	/* header (8), pid (4), tid (4), the first u64 of the read_format values */
	if (rec->size < 24)
		return 0;
	idx = pulse_data__attr_of(rep->d, rec, rec->size);
	if (idx < 0)
		return 0;
	memcpy(&pid, (const char *)rec + 8, sizeof(pid));
	memcpy(&tid, (const char *)rec + 12, sizeof(tid));
	memcpy(&value, (const char *)rec + 16, sizeof(value));
	ti = threads__findnew_thread(t, pid, tid);
	if (ti < 0)
		return ti;
	ci = threads__findnew_counter(t, (size_t)idx,
				      pulse_session__event_name(rep->session, (size_t)idx, buf,
								sizeof(buf)));
	if (ci < 0)
		return ci;
	t->threads[ti].value[ci] += value;
	return 0;
}

static int width_of_u64(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

static int width_of_int(uint32_t v)
{
	return snprintf(NULL, 0, "%d", (int)v);
}

static int threads__fprintf_pretty(const struct pulse_report_threads *t, FILE *fp)
{
	int pidw = 3, tidw = 3, w, *cw;

	cw = calloc(t->nr_counters ? t->nr_counters : 1, sizeof(*cw));
	if (!cw)
		return -ENOMEM;
	for (size_t j = 0; j < t->nr_counters; j++)
		cw[j] = (int)strlen(t->counters[j].name);
	for (size_t i = 0; i < t->nr_threads; i++) {
		w = width_of_int(t->threads[i].pid);
		if (w > pidw)
			pidw = w;
		w = width_of_int(t->threads[i].tid);
		if (w > tidw)
			tidw = w;
		for (size_t j = 0; j < t->nr_counters; j++) {
			w = width_of_u64(t->threads[i].value[j]);
			if (w > cw[j])
				cw[j] = w;
		}
	}
	fprintf(fp, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t j = 0; j < t->nr_counters; j++)
		fprintf(fp, "  %*s", cw[j], t->counters[j].name);
	fputc('\n', fp);
	for (size_t i = 0; i < t->nr_threads; i++) {
		fprintf(fp, "  %*d  %*d", pidw, (int)t->threads[i].pid, tidw,
			(int)t->threads[i].tid);
		for (size_t j = 0; j < t->nr_counters; j++)
			fprintf(fp, "  %*" PRIu64, cw[j], t->threads[i].value[j]);
		fputc('\n', fp);
	}
	free(cw);
	return 0;
}

static void threads__fprintf_raw(const struct pulse_report_threads *t, FILE *fp)
{
	int pidw = 3, tidw = 3, namew = 4, raww = 3, countw = 5, w;

	for (size_t i = 0; i < t->nr_threads; i++) {
		w = width_of_int(t->threads[i].pid);
		if (w > pidw)
			pidw = w;
		w = width_of_int(t->threads[i].tid);
		if (w > tidw)
			tidw = w;
	}
	for (size_t j = 0; j < t->nr_counters; j++) {
		w = (int)strlen(t->counters[j].name);
		if (w > namew)
			namew = w;
		w = snprintf(NULL, 0, "%zx", t->counters[j].idx);
		if (w > raww)
			raww = w;
	}
	for (size_t i = 0; i < t->nr_threads; i++)
		for (size_t j = 0; j < t->nr_counters; j++) {
			w = width_of_u64(t->threads[i].value[j]);
			if (w > countw)
				countw = w;
		}
	fprintf(fp, "# %*s  %*s  %*s  %*s  %*s\n", pidw, "PID", tidw, "TID", namew, "Name",
		raww, "Raw", countw, "Count");
	for (size_t i = 0; i < t->nr_threads; i++)
		for (size_t j = 0; j < t->nr_counters; j++)
			fprintf(fp, "  %*d  %*d  %*s  %*zx  %*" PRIu64, pidw,
				(int)t->threads[i].pid, tidw, (int)t->threads[i].tid, namew,
				t->counters[j].name, raww, t->counters[j].idx, countw,
				t->threads[i].value[j]);
}

int pulse_report__fprintf_threads(const struct pulse_report *rep, FILE *fp, bool raw)
{
	int err = 0;

	if (raw)
		threads__fprintf_raw(&rep->threads, fp);
	else
		err = threads__fprintf_pretty(&rep->threads, fp);
	if (err)
		return err;
	return ferror(fp) ? -EIO : 0;
}
