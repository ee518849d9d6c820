// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-unwind: unwinds the user stack of every sample of a --call-graph
 * dwarf perf.data file with lib/unwind, for the tests and the benchmark.
 * Maps come from the MMAP/MMAP2 records (per pid, in file order, no
 * ordering by time: enough for files of one run); DSOs from pulse_dsos.
 *
 *   pulse-unwind [-q] [-n] [-r N] [-t THREADS] [-s SYMFS] FILE
 *
 * Prints, per sample with a stack copy, an empty line, its frames as
 * perf script --no-inline -F ip,dso prints a callchain (the DSO address
 * and the DSO's path; the address and "([unknown])" outside any map), then
 * an empty line: `cat -s` of both outputs compare. -q prints
 * nothing but "samples N frames M unwinds/s R" on stderr; -n unwinds each
 * sample a second time (the rows cached), -r N times; -t unwinds on
 * THREADS threads.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pulse/data.h>
#include <pulse/reader.h>
#include <pulse/symbols.h>
#include <pulse/unwind.h>

struct map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	struct pulse_dso *dso;
	size_t replaced_at;	/* the first later map of the pid over it, or SIZE_MAX */
	uint64_t time;		/* its record's (sample_id_all), 0 without */
	size_t idx;		/* file order */
};

struct sample {
	uint64_t time;		/* perf script's order; then file order */
	size_t idx;		/* file order */
	uint32_t pid;
	size_t nmaps;		/* maps (in time order) up to the sample's time */
	uint64_t abi, mask, stack_size;
	void *regs, *stack;
};

static struct map *maps;
static size_t nr_maps, cap_maps;
static struct sample *samples;
static size_t nr_samples, cap_samples;
static struct pulse_dsos dsos;

struct finder {
	uint32_t pid;
	size_t nmaps;
	size_t *cache;		/* 64 map indexes, by address; a thread's own */
};

static bool map_ok(const struct finder *f, size_t i, uint64_t addr)
{
	const struct map *m = &maps[i];

	return i < f->nmaps && m->replaced_at >= f->nmaps && m->pid == f->pid &&
	       addr >= m->start && addr < m->end;
}

/*
 * The last map (in file order, before the sample) of the pid holding @addr;
 * a map found stays good for later samples until a later map replaces it,
 * so a small cache spares the linear search (not the library's cost).
 */
static int find_map(void *arg, uint64_t addr, struct pulse_unwind_map *out)
{
	const struct finder *f = arg;
	size_t *slot = &f->cache[(addr >> 16) % 64], i = *slot;

	if (!map_ok(f, i, addr)) {
		for (i = f->nmaps; i-- > 0;)
			if (maps[i].pid == f->pid && addr >= maps[i].start && addr < maps[i].end)
				break;
		if (i == (size_t)-1)
			return -ENOENT;
		*slot = i;
	}
	out->start = maps[i].start;
	out->end = maps[i].end;
	out->pgoff = maps[i].pgoff;
	out->dso = maps[i].dso;
	return 0;
}

static int add_map(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *name,
		   uint64_t time)
{
	enum pulse_dso_kind kind = name[0] == '/' ? PULSE_DSO_USER :
				   !strcmp(name, "[vdso]") ? PULSE_DSO_VDSO : PULSE_DSO_NOSYMS;

	if (nr_maps == cap_maps) {
		cap_maps = cap_maps ? cap_maps * 2 : 64;
		maps = realloc(maps, cap_maps * sizeof(*maps));
		if (!maps)
			return -ENOMEM;
	}
	maps[nr_maps] = (struct map){ pid, start, start + len, pgoff,
				      pulse_dsos__findnew(&dsos, name, kind), SIZE_MAX, time, nr_maps };
	nr_maps++;
	return 0;
}

static void *dup_mem(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (q)
		memcpy(q, p, n);
	return q;
}

static int on_record(struct pulse_data *d, const struct perf_event_header *rec, __u64 off, void *arg)
{
	const uint8_t *p = (const uint8_t *)(rec + 1);
	size_t size = rec->size;
	struct pulse_sample s;
	uint32_t pid;
	uint64_t start, len, pgoff;
	int idx;

	if ((rec->type == PERF_RECORD_MMAP && size > 8 + 32) ||
	    (rec->type == PERF_RECORD_MMAP2 && size > 8 + 64)) {
		const char *name = (const char *)p + (rec->type == PERF_RECORD_MMAP ? 32 : 64);
		size_t room = size - 8 - (rec->type == PERF_RECORD_MMAP ? 32 : 64);

		if (!memchr(name, 0, room))
			return 0;
		memcpy(&pid, p, 4);
		memcpy(&start, p + 8, 8);
		memcpy(&len, p + 16, 8);
		memcpy(&pgoff, p + 24, 8);
		idx = pulse_data__attr_of(d, rec, size);
		memset(&s, 0, sizeof(s));
		if (idx >= 0)
			pulse_sample__parse(rec, size, pulse_data__attr(d, idx), &s);
		return add_map(pid, start, len, pgoff, name, s.time);
	}
	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	idx = pulse_data__attr_of(d, rec, size);
	if (idx < 0 || pulse_sample__parse(rec, size, pulse_data__attr(d, idx), &s))
		return 0;
	if (!s.user_abi || !s.user_stack_size)
		return 0;
	if (nr_samples == cap_samples) {
		cap_samples = cap_samples ? cap_samples * 2 : 1024;
		samples = realloc(samples, cap_samples * sizeof(*samples));
		if (!samples)
			return -ENOMEM;
	}
	samples[nr_samples] = (struct sample){
		.time = s.time, .idx = nr_samples, .pid = s.pid, .abi = s.user_abi,
		.mask = pulse_data__attr(d, idx)->sample_regs_user,
		.stack_size = s.user_stack_size,
		.regs = dup_mem(s.user_regs, 8 * __builtin_popcountll(pulse_data__attr(d, idx)->sample_regs_user)),
		.stack = dup_mem(s.user_stack, s.user_stack_size),
	};
	nr_samples++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int map_by_time(const void *a, const void *b)
{
	const struct map *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static struct pulse_unwinder *unw;
static int repeat = 1;

static size_t unwind_one(size_t i, uint64_t *ips, size_t max, size_t *cache)
{
	const struct sample *sm = &samples[i];
	struct finder f = { sm->pid, sm->nmaps, cache };
	struct pulse_unwind_sample s = {
		.abi = sm->abi, .regs_mask = sm->mask, .regs = sm->regs, .stack = sm->stack,
		.stack_size = sm->stack_size, .find_map = find_map, .arg = &f,
	};
	size_t nr = 0;

	pulse_unwinder__unwind(unw, &s, ips, max, &nr);
	return nr;
}

struct worker {
	pthread_t th;
	size_t from, to, frames;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t ips[127];
	size_t cache[64] = { 0 };

	for (int r = 0; r < repeat; r++)
		for (size_t i = w->from; i < w->to; i++)
			w->frames += unwind_one(i, ips, 127, cache);
	return NULL;
}

/* as perf script -F ip,dso prints a callchain entry: the DSO address */
static void print_frame(const struct sample *sm, uint64_t ip, size_t *cache)
{
	struct finder f = { sm->pid, sm->nmaps, cache };
	struct pulse_unwind_map m;

	if (find_map(&f, ip, &m) || !m.dso)
		printf("\t%16" PRIx64 " ([unknown])\n", ip);
	else
		printf("\t%16" PRIx64 " (%s)\n", ip - m.start + m.pgoff, m.dso->long_name);
}

int main(int argc, char **argv)
{
	struct pulse_symbol_opts so = { .sz = sizeof(so), .debug_dir = "/usr/lib/debug" };
	struct pulse_unwind_opts uo = { 0 };
	struct pulse_data *d;
	bool quiet = false;
	int opt, threads = 0;

	while ((opt = getopt(argc, argv, "qnr:t:s:")) != -1) {
		if (opt == 'q')
			quiet = true;
		else if (opt == 'n')
			repeat = 2;
		else if (opt == 'r')
			repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
		else if (opt == 't')
			threads = atoi(optarg);
		else if (opt == 's')
			uo.symfs = so.symfs = optarg;
		else
			return 129;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: pulse-unwind [-q] [-n] [-r N] [-t N] [-s SYMFS] FILE\n");
		return 129;
	}
	if (pulse_dsos__init(&dsos, &so) || pulse_unwinder__new(&unw, &uo))
		return 1;
	if (pulse_data__open(&d, argv[optind])) {
		fprintf(stderr, "error: cannot open '%s'\n", argv[optind]);
		return 1;
	}
	if (pulse_data__for_each_record(d, on_record, NULL)) {
		fprintf(stderr, "error: cannot read '%s'\n", argv[optind]);
		return 1;
	}
	{
		__u64 bytes, at;

		if (pulse_data__unreadable(d, &bytes, &at))
			fprintf(stderr, "warning: %llu bytes unreadable at %#llx\n",
				(unsigned long long)bytes, (unsigned long long)at);
	}
	/*
	 * perf script's order: by time (the rings of several CPUs interleave
	 * in the file); maps likewise, each sample seeing the maps up to its time
	 */
	qsort(samples, nr_samples, sizeof(*samples), by_time);
	qsort(maps, nr_maps, sizeof(*maps), map_by_time);
	for (size_t i = 0; i < nr_maps; i++)
		for (size_t j = i + 1; j < nr_maps && maps[i].replaced_at == SIZE_MAX; j++)
			if (maps[j].pid == maps[i].pid && maps[j].start < maps[i].end &&
			    maps[i].start < maps[j].end)
				maps[i].replaced_at = j;
	for (size_t i = 0, m = 0; i < nr_samples; i++) {
		while (m < nr_maps && maps[m].time <= samples[i].time)
			m++;
		samples[i].nmaps = m;
	}
	if (quiet) {
		struct timespec a, b;
		size_t frames = 0;
		int n = threads > 0 ? threads : 1;
		struct worker *w = calloc(n, sizeof(*w));
		double secs;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < n; i++) {
			w[i].from = nr_samples * i / n;
			w[i].to = nr_samples * (i + 1) / n;
			if (threads > 0)
				pthread_create(&w[i].th, NULL, work, &w[i]);
			else
				work(&w[i]);
		}
		for (int i = 0; i < n; i++) {
			if (threads > 0)
				pthread_join(w[i].th, NULL);
			frames += w[i].frames;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
		fprintf(stderr, "samples %zu frames %zu seconds %.3f unwinds/s %.0f\n", nr_samples,
			frames / repeat, secs, nr_samples * repeat / (secs > 0 ? secs : 1e-9));
		free(w);
	} else {
		uint64_t ips[127];
		size_t cache[64] = { 0 };

		for (size_t i = 0; i < nr_samples; i++) {
			size_t nr = unwind_one(i, ips, 127, cache);

			printf("\n");
			for (size_t j = 0; j < nr; j++)
				print_frame(&samples[i], ips[j], cache);
			printf("\n");
		}
	}
	for (size_t i = 0; i < nr_samples; i++) {
		free(samples[i].regs);
		free(samples[i].stack);
	}
	free(samples);
	free(maps);
	pulse_data__close(d);
	pulse_unwinder__delete(unw);
	pulse_dsos__exit(&dsos);
	return 0;
}
