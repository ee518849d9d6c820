// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader: each input is opened as an
 * in-memory file (file or pipe mode, either byte order), walked twice (a
 * buffer can be walked again and must give the same records), and every
 * record is routed to its attr and parsed as a sample, the way report and
 * script use the library, and the records of a stat file are decoded
 * (the input's own bytes are also decoded as each stat record, so the
 * decoders see every shape, not only those a readable file lets through); each feature section is printed (with -I, as
 * report --header does) and read through the feature accessors. Nothing
 * is printed: the library's messages go to a null sink, the header to
 * /dev/null. Built by `make fuzz`; run by tests/fuzz/run-fuzz.sh.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/core.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include <pulse/stat-records.h>

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

struct tally {
	size_t nr;
	uint64_t sum;
};

/* What report --header -I and the readers above lib/data ask of the features. */
static void features(struct pulse_data *d, struct tally *t)
{
	static FILE *null;
	struct pulse_header_env env = { .full = true };
	struct pulse_build_id_entry e;
	struct pulse_clock_data cd;
	const char *s;
	__u64 first, last;
	size_t len, pos;

	if (!null)
		null = fopen("/dev/null", "w");
	for (int f = 0; null && f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61 + 1; f++)
		pulse_data__fprintf_feat(null, d, f, &env);
	if (!pulse_data__osrelease(d, &s, &len) && len)
		t->sum += (unsigned char)s[len - 1];
	if (!pulse_data__sample_time(d, &first, &last))
		t->sum += first ^ last;
	pulse_data__clock_data(d, &cd);
	t->sum += cd.tod_ns;
	pulse_data__for_each_build_id(d, pos, &e)
		t->sum += e.id[e.size ? e.size - 1 : 0] + (e.filename_len ? e.filename[0] : 0);
}

/* The stat-file decoders on @rec (@size bytes), as pulse stat report reads them. */
static void stat_records(const void *rec, size_t size, struct tally *t)
{
	struct pulse_thread_map_entry *thr;
	struct pulse_stat_config c;
	struct pulse_stat_values v;
	struct pulse_stat_round r;
	int *cpus, layout;
	size_t nr;

	if (!pulse_thread_map__parse(rec, size, &thr, &nr) && nr)
		t->sum += thr[nr - 1].pid + (unsigned char)thr[nr - 1].comm[15];
	free(thr);
	if (!pulse_cpu_map__parse(rec, size, &cpus, &nr, &layout) && nr)
		t->sum += cpus[nr - 1] + layout;
	free(cpus);
	if (size > 8 && !pulse_cpu_map_data__parse((const char *)rec + 8, size - 8, &cpus, &nr,
						   NULL) && nr)
		t->sum += cpus[0];
	free(cpus);
	if (!pulse_stat_config__parse(rec, size, &c))
		t->sum += c.aggr_mode + c.interval + c.present;
	if (!pulse_stat_values__parse(rec, size, &v))
		t->sum += v.val + v.ena + v.run + v.cpu;
	if (!pulse_stat_round__parse(rec, size, &r))
		t->sum += r.time;
}

static int visit(struct pulse_data *d, const struct perf_event_header *rec, __u64 off, void *arg)
{
	struct tally *t = arg;
	int idx = pulse_data__attr_of(d, rec, rec->size);
	struct pulse_sample s;
	size_t nr;

	t->nr++;
	t->sum += rec->type + rec->size + off;
	if (rec->type >= PERF_RECORD_THREAD_MAP && rec->type <= PERF_RECORD_STAT_ROUND)
		stat_records(rec, rec->size, t);
	if (idx >= 0 && pulse_data__attr(d, idx) &&
	    !pulse_sample__parse(rec, rec->size, pulse_data__attr(d, idx), &s)) {
		/* touch what the pointers point at, as a consumer would */
		if (s.callchain_nr)
			t->sum += ((const unsigned char *)s.callchain)[s.callchain_nr * 8 - 1];
		if (s.raw_size)
			t->sum += ((const unsigned char *)s.raw)[s.raw_size - 1];
		if (s.user_stack_size)
			t->sum += ((const unsigned char *)s.user_stack)[s.user_stack_size - 1];
		if (s.branch_nr)
			t->sum += ((const unsigned char *)s.branch)[s.branch_nr * 24 - 1];
		t->sum += s.ip + s.period + s.time;
	}
	pulse_data__attr_ids(d, idx < 0 ? 0 : idx, &nr);
	pulse_data__attr_name(d, idx < 0 ? 0 : idx);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tally a = { 0 }, b = { 0 };
	struct pulse_data *d;
	__u64 x, y;
	size_t len;

	pulse_set_print(quiet);
	stat_records(data, size, &a);
	if (pulse_data__open_mem(&d, data, size)) {
		pulse_data__error(&x);
		return 0;
	}
	for (int f = 0; f < 300; f++) {
		const unsigned char *p = pulse_data__feat(d, f, &len);

		if (p && len)
			a.sum += p[len - 1];
	}
	features(d, &a);
	if (pulse_data__tracing_data(d, &len) && len)
		a.sum += ((const unsigned char *)pulse_data__tracing_data(d, &len))[len - 1];
	if (!pulse_data__for_each_record(d, visit, &a)) {
		pulse_data__unreadable(d, &x, &y);
		pulse_data__recovered(d, &x, &y);
		/* a buffer walks the same way twice */
		if (!pulse_data__for_each_record(d, visit, &b) && (a.nr != b.nr))
			abort();
	}
	pulse_data__close(d);
	return 0;
}
