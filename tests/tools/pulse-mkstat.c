// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkstat: writes a `perf stat record` file with the numbers given,
 * through the library's data writer and stat record builders, for the
 * tests that `perf stat report` (and pulse) read it. A machine without a
 * PMU never multiplexes; here a counter can say it ran for less time than
 * it was enabled, and perf stat report then scales it and prints the
 * (xx.xx%) column.
 *
 *   pulse-mkstat [options] OUT EVENT=VAL/ENA/RUN ...
 *     -I MS:N       interval mode: N rounds MS apart (STAT_CONFIG interval),
 *                   counts growing by VAL/ENA/RUN each round (perf writes
 *                   running totals), and no FINAL round (as perf -I)
 *     -c CPUS       the CPU_MAP, a comma list ("-1" the default; "0,1")
 *     -m LAYOUT     its encoding: auto, cpus, mask, mask32, range
 *     -a MODE       STAT_CONFIG aggr_mode (default 1, AGGR_GLOBAL)
 *     -t TIME       the FINAL round's time in ns (default 1000000)
 *     -p            pipe mode
 *   EVENT is one of task-clock, context-switches, cpu-migrations,
 *   page-faults, cycles, instructions; a counter is written once per cpu
 *   of the map (STAT cpu is the cpu itself, thread index 0). "-" for VAL/ENA/RUN writes no
 *   STAT record for the event (perf prints <not counted>/<not supported>).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/features.h>
#include <pulse/stat-records.h>

static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} known[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
};

#define MAX_EV 16
#define MAX_CPU 256

static void die(const char *what, int err)
{
	fprintf(stderr, "pulse-mkstat: %s%s%s\n", what, err ? ": " : "", err ? strerror(-err) : "");
	exit(1);
}

static int layout_of(const char *s)
{
	static const char *const names[] = { "auto", "cpus", "mask", "mask32", "range" };
	static const int vals[] = { PULSE_CPU_MAP_AUTO, PULSE_CPU_MAP_CPUS, PULSE_CPU_MAP_MASK,
				    PULSE_CPU_MAP_MASK32, PULSE_CPU_MAP_RANGE };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return vals[i];
	die("unknown cpu map layout", 0);
	return 0;
}

struct ev {
	struct pulse_data_attr a;
	__u64 id;
	bool counted;
	__u64 val, ena, run;
};

static void parse_event(const char *arg, struct ev *e, __u64 id)
{
	const char *eq = strchr(arg, '=');
	size_t i;

	if (!eq)
		die("an event is NAME=VAL/ENA/RUN", 0);
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, known[i].name, eq - arg))
			break;
	if (i == sizeof(known) / sizeof(known[0]))
		die("unknown event", 0);
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->a.attr.type = known[i].type;
	e->a.attr.config = known[i].config;
	e->a.attr.size = PULSE_FILE_ATTR_SIZE;
	e->a.attr.sample_type = PERF_SAMPLE_IDENTIFIER;
	e->a.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->a.attr.disabled = 1;
	e->a.attr.inherit = 1;
	e->a.attr.enable_on_exec = 1;
	e->a.attr.exclude_guest = 1;
	e->a.name = known[i].name;
	e->a.ids = &e->id;
	e->a.nr_ids = 1;
	if (strcmp(eq + 1, "-")) {
		e->counted = true;
		if (sscanf(eq + 1, "%llu/%llu/%llu", (unsigned long long *)&e->val,
			   (unsigned long long *)&e->ena, (unsigned long long *)&e->run) != 3)
			die("an event is NAME=VAL/ENA/RUN", 0);
	}
}

static void emit(struct pulse_data_writer *w, struct pulse_buf *b)
{
	int err = pulse_data_writer__write(w, b->p, b->len);

	if (err)
		die("cannot write", err);
	b->len = 0;
}

static void round_of(struct pulse_data_writer *w, struct pulse_buf *b, const struct ev *ev,
		     size_t nr_ev, const int *cpus, size_t nr_cpus, __u64 type, __u64 time,
		     __u64 times)
{
	struct pulse_stat_round r = { type, time };
	int err = 0;

	for (size_t i = 0; i < nr_ev && !err; i++) {
		for (size_t c = 0; ev[i].counted && c < nr_cpus && !err; c++) {
			struct pulse_stat_values v = {
				.id = ev[i].id, .cpu = (__u32)cpus[c], .thread = 0,
				.val = ev[i].val * times, .ena = ev[i].ena * times,
				.run = ev[i].run * times,
			};

			err = pulse_stat_values__build(b, &v);
		}
	}
	if (!err)
		err = pulse_stat_round__build(b, &r);
	if (err)
		die("cannot build a round", err);
	emit(w, b);
}

int main(int argc, char **argv)
{
	struct pulse_stat_config cfg = { .aggr_mode = 1, .scale = true };
	struct pulse_data_writer_opts o = { .sz = sizeof(o) };
	struct pulse_thread_map_entry thr = { .pid = 0 };
	struct pulse_data_attr attrs[MAX_EV];
	struct ev ev[MAX_EV];
	int cpus[MAX_CPU] = { -1 };
	size_t nr_cpus = 1, nr_ev = 0;
	unsigned long rounds = 0;
	struct pulse_buf b = { 0 };
	struct pulse_data_writer *w;
	__u64 time = 1000000;
	int layout = PULSE_CPU_MAP_AUTO, opt, fd, err;
	char *tok, *save;

	while ((opt = getopt(argc, argv, "I:c:m:a:t:p")) != -1) {
		switch (opt) {
		case 'I':
			if (sscanf(optarg, "%llu:%lu", (unsigned long long *)&cfg.interval,
				   &rounds) != 2)
				die("-I MS:N", 0);
			break;
		case 'c':
			nr_cpus = 0;
			for (tok = strtok_r(optarg, ",", &save); tok && nr_cpus < MAX_CPU;
			     tok = strtok_r(NULL, ",", &save))
				cpus[nr_cpus++] = atoi(tok);
			break;
		case 'm':
			layout = layout_of(optarg);
			break;
		case 'a':
			cfg.aggr_mode = strtoull(optarg, NULL, 0);
			break;
		case 't':
			time = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			o.pipe = true;
			break;
		default:
			die("usage: pulse-mkstat [-I MS:N] [-c CPUS] [-m LAYOUT] [-a MODE] "
			    "[-t NS] [-p] OUT EVENT=VAL/ENA/RUN...", 0);
		}
	}
	if (optind + 1 >= argc || argc - optind - 1 > MAX_EV)
		die("usage: pulse-mkstat [options] OUT EVENT=VAL/ENA/RUN...", 0);
	for (int i = optind + 1; i < argc; i++, nr_ev++) {
		parse_event(argv[i], &ev[nr_ev], 1000 + nr_ev);
		attrs[nr_ev] = ev[nr_ev].a;
	}
	thr.pid = getpid();
	strcpy(thr.comm, "pulse-mkstat");

	fd = strcmp(argv[optind], "-") ? open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC, 0644)
				       : STDOUT_FILENO;
	if (fd < 0)
		die("cannot open the output", -errno);
	err = pulse_data_writer__new(&w, fd, attrs, nr_ev, &o);
	if (err)
		die("cannot start the file", err);

	const char *const args[] = { "stat", "record", "--", "true" };
	struct pulse_feat_ctx ctx = { .argc = 4, .argv = args, .attrs = attrs,
				      .nr_attrs = nr_ev };

	err = pulse_data_writer__add_stat_features(w, &ctx);
	if (err)
		die("cannot add the features", err);
	err = pulse_thread_map__build(&b, &thr, 1);
	if (!err)
		err = pulse_cpu_map__build(&b, cpus, nr_cpus, layout);
	if (!err)
		err = pulse_stat_config__build(&b, &cfg);
	if (err)
		die("cannot build the maps", err);
	emit(w, &b);
	for (unsigned long r = 1; r <= rounds; r++)
		round_of(w, &b, ev, nr_ev, cpus, nr_cpus, PULSE_STAT_ROUND_INTERVAL,
			 r * cfg.interval * 1000000ULL, r);
	if (!rounds)
		round_of(w, &b, ev, nr_ev, cpus, nr_cpus, PULSE_STAT_ROUND_FINAL, time, 1);
	err = pulse_data_writer__finish(w);
	if (err)
		die("cannot finish the file", err);
	pulse_data_writer__delete(w);
	pulse_buf__release(&b);
	return close(fd) ? 1 : 0;
}
