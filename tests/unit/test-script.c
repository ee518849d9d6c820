// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for perf script's lines (lib/output/script.c) on the golden
 * files in tests/data: the exact first lines perf 6.1 prints for them, and
 * -F parsing (perf's +/- rules, unknown fields, a field the samples lack).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "test.h"

struct run {
	struct pulse_data *d;
	struct pulse_machine m;
	struct pulse_trace *t;
	struct pulse_script *s;
	FILE *fp;
	char *out;
	size_t len;
	int err;
};

static int run_record(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		      void *arg)
{
	struct run *r = arg;

	if (rec->type >= PERF_RECORD_USER_TYPE_START && rec->type != PERF_RECORD_FINISHED_ROUND)
		return 0;
	return pulse_script__record(r->s, rec);
}

/* Print a golden file in file order (they are time-ordered already). */
static int run_file_opts(struct run *r, const char *name, const char *fields,
			 const struct pulse_script_opts *opts)
{
	const char *top = getenv("PULSE_TOP");
	const void *blob;
	char path[4096];
	size_t len;
	int err;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", name);
	err = pulse_data__open(&r->d, path);
	if (err)
		return err;
	pulse_machine__init(&r->m, NULL);
	blob = pulse_data__tracing_data(r->d, &len);
	if (blob)
		pulse_trace__parse(&r->t, blob, len);
	r->fp = open_memstream(&r->out, &r->len);
	pulse_script__new(&r->s, r->d, &r->m, r->t, opts, r->fp);
	if (fields && (err = pulse_script__set_fields(r->s, fields)))
		return err;
	err = pulse_data__for_each_record(r->d, run_record, r);
	fflush(r->fp);
	return err;
}

static int run_file(struct run *r, const char *name, const char *fields)
{
	return run_file_opts(r, name, fields, NULL);
}

static void run_done(struct run *r)
{
	pulse_script__delete(r->s);
	if (r->fp)
		fclose(r->fp);
	free(r->out);
	pulse_trace__delete(r->t);
	pulse_machine__exit(&r->m);
	pulse_data__close(r->d);
}

static char *first_line(const char *s, char *buf, size_t size)
{
	size_t n = strcspn(s, "\n");

	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static void test_script__tracepoint_line(void)
{
	struct run r;
	char buf[256];

	ASSERT_EQ(run_file(&r, "perf-tp.data", NULL), 0);
	/* perf script -i tests/data/perf-tp.data | head -1 */
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)),
		     "         getppid  6988 [000]   481.125358: syscalls:sys_enter_getppid: ");
	ASSERT_EQ(pulse_script__nr_samples(r.s), 20);
	run_done(&r);
}

static void test_script__fields(void)
{
	struct run r;
	char buf[256];

	ASSERT_EQ(run_file(&r, "perf-tp.data", "comm,pid,tid,time"), 0);
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)), "         getppid  6988/6988    481.125358: ");
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-tp.data", "-cpu,-comm"), 0);
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)),
		     " 6988   481.125358: syscalls:sys_enter_getppid: ");
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-tp.data", "trace:event,cpu"), 0);
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)), "[000] syscalls:sys_enter_getppid: ");
	run_done(&r);
}

static void test_script__field_errors(void)
{
	struct run r;

	ASSERT_EQ(run_file(&r, "perf-tp.data", "bogus"), -EINVAL);
	ASSERT_TRUE(strstr(pulse_script__error(r.s), "invalid field") != NULL);
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-tp.data", "comm,+tid"), -EINVAL);
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-tp.data", "nosuchtype:comm"), -EINVAL);
	run_done(&r);
	/* perf-cpuclock.data has no PERF_SAMPLE_CPU: asking for it is an error */
	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "comm,cpu"), -EINVAL);
	ASSERT_STREQ(pulse_script__error(r.s),
		     "Samples for 'cpu-clock:ppp' event do not have CPU attribute set. "
		     "Cannot print 'cpu' field.");
	run_done(&r);
}

/* perf script -i tests/data/perf-cpuclock.data --show-task-events --show-mmap-events */
static void test_script__side_band(void)
{
	struct pulse_script_opts opts = { .sz = sizeof(opts), .show_task_events = true,
					  .show_mmap_events = true };
	struct run r;
	char buf[256];
	const char *p;

	ASSERT_EQ(run_file_opts(&r, "perf-cpuclock.data", NULL, &opts), 0);
	/* the synthesized kernel map: pid -1, tid 0 of the trailer, the idle thread */
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)),
		     "         swapper     0     0.000000: PERF_RECORD_MMAP -1/0: "
		     "[0xffffffff81000000(0x120bb08) @ 0xffffffff81000000]: x [kernel.kallsyms]_text");
	p = strchr(r.out, '\n') + 1;
	ASSERT_STREQ(first_line(p, buf, sizeof(buf)),
		     "       perf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:6923/6923");
	p = strchr(p, '\n') + 1;
	/* the new comm: COMM is applied before it is printed */
	ASSERT_STREQ(first_line(p, buf, sizeof(buf)),
		     "            spin  6923   478.886501: PERF_RECORD_COMM exec: spin:6923/6923");
	run_done(&r);

	/* misc: E for an exec COMM, U for user samples, six columns */
	ASSERT_EQ(run_file_opts(&r, "perf-cpuclock.data", "comm,tid,misc,time", &opts), 0);
	p = strchr(strchr(r.out, '\n') + 1, '\n') + 1;
	ASSERT_STREQ(first_line(p, buf, sizeof(buf)),
		     "            spin  6923 E       478.886501: PERF_RECORD_COMM exec: spin:6923/6923");
	run_done(&r);

	opts.show_task_events = opts.show_mmap_events = false;
	opts.show_round_events = true;
	ASSERT_EQ(run_file_opts(&r, "perf-cpuclock.data", NULL, &opts), 0);
	ASSERT_TRUE(strstr(r.out, "\nPERF_RECORD_FINISHED_ROUND\n") != NULL);
	run_done(&r);
}

/* A field named with its type is dropped quietly when the samples lack it. */
static void test_script__typed_fields(void)
{
	struct run r;
	char buf[256];

	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "sw:comm,cpu"), 0);
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)), "            spin ");
	run_done(&r);
	/* +/- with a type keep that type's defaults */
	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "sw:-ip,-period"), 0);
	ASSERT_STREQ(first_line(r.out, buf, sizeof(buf)),
		     "            spin  6923   478.888561: cpu-clock:ppp: ");
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "sw:trace"), -EINVAL);
	ASSERT_STREQ(pulse_script__error(r.s), "'trace' not valid for software events");
	run_done(&r);
	/* "type:" alone needs events of that type */
	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "hw:"), -EINVAL);
	ASSERT_STREQ(pulse_script__error(r.s),
		     "hardware events do not exist. Remove corresponding -F option to proceed.");
	run_done(&r);
	ASSERT_EQ(run_file(&r, "perf-cpuclock.data", "comm,addr"), -EINVAL);
	ASSERT_STREQ(pulse_script__error(r.s),
		     "Samples for 'cpu-clock:ppp' event do not have ADDR attribute set. "
		     "Cannot print 'addr' field.");
	run_done(&r);
}

TEST_MAIN(TEST(test_script__tracepoint_line),
	  TEST(test_script__fields),
	  TEST(test_script__field_errors),
	  TEST(test_script__side_band),
	  TEST(test_script__typed_fields))
