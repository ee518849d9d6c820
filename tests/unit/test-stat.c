// SPDX-License-Identifier: GPL-2.0
/*
 * lib/stat: the running means (perf's update_stats/stddev_stats), the
 * evlist open that leaves unsupported evsels out, and a session that runs
 * /bin/true and prints perf's table and CSV.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <pulse/stat.h>
#include "stat/internal.h"
#include "event-fake.h"
#include "test.h"

static void test_stat__stats(void)
{
	struct pulse_stat_stats s = {};
	double v[] = { 1, 2, 3, 4 };

	ASSERT_EQ(pulse_stat_stats__stddev(&s), 0);
	for (int i = 0; i < 4; i++)
		pulse_stat_stats__update(&s, v[i]);
	ASSERT_EQ(s.n, 4);
	ASSERT_TRUE(fabs(s.mean - 2.5) < 1e-12);
	/* sample variance 5/3, of the mean 5/12 */
	ASSERT_TRUE(fabs(pulse_stat_stats__stddev(&s) - sqrt(5.0 / 12)) < 1e-12);
	ASSERT_TRUE(fabs(pulse_stat_rel_stddev(sqrt(5.0 / 12), 2.5) - 25.819888974716) < 1e-9);
	ASSERT_EQ(pulse_stat_rel_stddev(1, 0), 0);
}

static void test_stat__skip_unsupported(void)
{
	struct pulse_evlist_open_opts o = { .sz = sizeof(o), .skip_unsupported = true };
	struct pulse_evlist l;

	pulse_evlist__init(&l);
	ASSERT_EQ(pulse_evlist__parse(&l, "task-clock,cpu-clock,page-faults", NULL, NULL), 0);
	l.entries[1]->attr.type = 0x7fff;	/* no such PMU */
	ASSERT_EQ(pulse_evlist__open(&l, &o, NULL), 0);
	/* an evsel not open anywhere: its cells are closed (rows <not supported>) */
	ASSERT_TRUE(pulse_evlist__fd(&l, 0, 0, 0) >= 0);
	ASSERT_EQ(pulse_evlist__fd(&l, 1, 0, 0), -EBADF);
	ASSERT_TRUE(pulse_evlist__fd(&l, 2, 0, 0) >= 0);
	pulse_evlist__exit(&l);
}

/* Run /bin/true @runs times counting @spec (entry @bad made unsupported, -1 none). */
static int run_true(struct pulse_evlist *l, struct pulse_stat **st, const char *spec, int bad,
		    int runs)
{
	static char *const argv[] = { "/bin/true", NULL };
	struct pulse_stat_opts o = { .sz = sizeof(o), .argv = argv };
	struct pulse_stat_run res;
	int ret;

	pulse_evlist__init(l);
	ret = pulse_evlist__parse(l, spec, NULL, NULL);
	if (ret)
		return ret;
	if (bad >= 0)	/* no such PMU; no longer a clock either, so no msec unit */
		l->entries[bad]->attr.type = 0x7fff;
	ret = pulse_stat__new(st, l, PULSE_STAT_AGGR_GLOBAL);
	for (int i = 0; !ret && i < runs; i++)
		ret = pulse_stat__run(*st, &o, &res);
	if (!ret && (!res.forked || !WIFEXITED(res.status) || WEXITSTATUS(res.status)))
		ret = -ECHILD;
	return ret;
}

static void test_stat__session(void)
{
	struct pulse_stat_print_opts po = { .sz = sizeof(po), .target = "'/bin/true'",
					    .rusage = true };
	struct pulse_stat_row r;
	struct pulse_evlist l;
	struct pulse_stat *st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(run_true(&l, &st, "task-clock,cpu-clock,page-faults", 1, 1), 0);
	ASSERT_EQ(pulse_stat__nr_runs(st), 1);
	ASSERT_EQ(pulse_stat__row(st, 0, 0, &r), 0);
	ASSERT_TRUE(r.supported && r.val > 0 && r.run > 0 && r.ena >= r.run);
	ASSERT_EQ(pulse_stat__row(st, 1, 0, &r), 0);
	ASSERT_TRUE(!r.supported);
	ASSERT_EQ(pulse_stat__row(st, 2, 0, &r), 0);
	ASSERT_TRUE(r.supported && r.val > 10);	/* an exec faults pages in */
	ASSERT_EQ(pulse_stat__row(st, 3, 0, &r), -ERANGE);

	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_TRUE(!strncmp(buf, "\n Performance counter stats for '/bin/true':\n\n", 46));
	ASSERT_TRUE(strstr(buf, " msec task-clock                       #  ") != NULL);
	ASSERT_TRUE(strstr(buf, " CPUs utilized          \n") != NULL);
	ASSERT_TRUE(strstr(buf, "\n   <not supported>      cpu-clock                "
				"                                   \n") != NULL);
	ASSERT_TRUE(strstr(buf, "      page-faults                      #  ") != NULL);
	ASSERT_TRUE(strstr(buf, " seconds time elapsed\n\n") != NULL);
	ASSERT_TRUE(strstr(buf, " seconds sys\n\n\n") != NULL);
	free(buf);

	po.format = PULSE_STAT_FMT_CSV;
	po.sep = ";";
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "\n<not supported>;;cpu-clock;0;100.00;;\n") != NULL);
	ASSERT_TRUE(strstr(buf, ";msec;task-clock;") != NULL);
	ASSERT_TRUE(strstr(buf, ";CPUs utilized\n") != NULL);
	free(buf);
	pulse_stat__delete(st);
	pulse_evlist__exit(&l);
}

static void test_stat__repeat(void)
{
	struct pulse_stat_print_opts po = { .sz = sizeof(po), .target = "'/bin/true'" };
	struct pulse_evlist l;
	struct pulse_stat *st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(run_true(&l, &st, "task-clock", -1, 3), 0);
	ASSERT_EQ(pulse_stat__nr_runs(st), 3);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "for '/bin/true' (3 runs):\n") != NULL);
	ASSERT_TRUE(strstr(buf, " seconds time elapsed  ( +-") != NULL);
	ASSERT_TRUE(strstr(buf, "seconds user") == NULL);
	free(buf);
	pulse_stat__delete(st);
	pulse_evlist__exit(&l);
}

/*
 * Rows made by hand (no PMU multiplexes here): a counter that ran half the
 * time it was enabled gets perf's "  (50.00%)" column, one that never ran
 * is <not counted>, in the table and in CSV.
 */
static void test_stat__running_column(void)
{
	struct pulse_stat_print_opts po = { .sz = sizeof(po), .target = "'x'" };
	struct pulse_evlist l;
	struct pulse_stat *st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	pulse_evlist__init(&l);
	ASSERT_EQ(pulse_evlist__parse(&l, "page-faults,cs", NULL, NULL), 0);
	ASSERT_EQ(pulse_stat__new(&st, &l, PULSE_STAT_AGGR_GLOBAL), 0);
	st->cells = calloc(2, sizeof(*st->cells));
	st->nr_keys = 1;
	st->nr_runs = 1;
	pulse_stat_stats__update(&st->wall, 1e9);
	st->cells[0].supported = st->cells[1].supported = true;
	pulse_stat_stats__update(&st->cells[0].val, 1234);
	pulse_stat_stats__update(&st->cells[0].ena, 2000);
	pulse_stat_stats__update(&st->cells[0].run, 1000);
	pulse_stat_stats__update(&st->cells[1].ena, 2000);	/* enabled, never ran */

	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "\n              1234      page-faults                     "
				"                                     (50.00%)\n") != NULL);
	ASSERT_TRUE(strstr(buf, "\n     <not counted>      cs                       "
				"                                     (0.00%)\n") != NULL);
	free(buf);
	po.format = PULSE_STAT_FMT_CSV;
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_STREQ(buf, "1234,,page-faults,1000,50.00,,\n<not counted>,,cs,0,0.00,,\n");
	free(buf);
	pulse_stat__delete(st);
	pulse_evlist__exit(&l);
}

/*
 * A PMU alias's sysfs unit and scale (no PMU here has one: the fake sysfs
 * tree's fakeuncore/clockticks has MiB and 6.103515625e-5), counted as
 * page-faults: the row shows count * scale with two decimals, the unit in
 * the unit column, which widens to the longest unit as perf's unit_width.
 */
static void test_stat__pmu_unit_scale(void)
{
	static char *const argv[] = { "/bin/true", NULL };
	struct pulse_stat_opts o = { .sz = sizeof(o), .argv = argv };
	struct pulse_stat_print_opts po = { .sz = sizeof(po), .target = "'/bin/true'" };
	struct pulse_stat_run res;
	struct pulse_stat_row r;
	struct pulse_evlist l;
	struct pulse_stat *st;
	char *buf = NULL, want[256];
	size_t len = 0;
	FILE *f;

	pulse_evlist__init(&l);
	ASSERT_EQ(parse(&l, "fakeuncore/clockticks/,page-faults", NULL), 0);
	ASSERT_STREQ(l.entries[0]->unit, "MiB");
	l.entries[0]->attr.type = PERF_TYPE_SOFTWARE;
	l.entries[0]->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	ASSERT_EQ(pulse_stat__new(&st, &l, PULSE_STAT_AGGR_GLOBAL), 0);
	ASSERT_EQ(pulse_stat__run(st, &o, &res), 0);
	ASSERT_EQ(pulse_stat__row(st, 0, 0, &r), 0);
	ASSERT_TRUE(r.supported && r.val > 10);

	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	snprintf(want, sizeof(want), "\n%18.2f MiB  fakeuncore/clockticks/ ", r.val * 6.103515625e-5);
	ASSERT_TRUE(strstr(buf, want) != NULL);
	free(buf);

	po.format = PULSE_STAT_FMT_CSV;
	po.sep = ",";
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	snprintf(want, sizeof(want), "%.2f,MiB,fakeuncore/clockticks/,", r.val * 6.103515625e-5);
	ASSERT_TRUE(!strncmp(buf, want, strlen(want)));
	free(buf);

	/* a longer unit widens the column of every row */
	snprintf(l.entries[0]->unit, sizeof(l.entries[0]->unit), "Joules");
	po.format = PULSE_STAT_FMT_STD;
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_stat__print(st, f, &po), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, " Joules fakeuncore/clockticks/ ") != NULL);
	ASSERT_TRUE(strstr(buf, "        page-faults ") != NULL);
	free(buf);
	pulse_stat__delete(st);
	pulse_evlist__exit(&l);
}

TEST_MAIN(TEST(test_stat__stats),
	  TEST(test_stat__pmu_unit_scale),
	  TEST(test_stat__running_column),
	  TEST(test_stat__skip_unsupported),
	  TEST(test_stat__session),
	  TEST(test_stat__repeat))
