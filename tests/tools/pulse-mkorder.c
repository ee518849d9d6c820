// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkorder: writes a perf.data whose records come in a chosen file
 * order with chosen timestamps, to put perf's and pulse's time ordering
 * through cases a recording hits only under load.
 *
 *   pulse-mkorder OUT TOKEN...
 *     C<tid>@<time>=<name>   COMM of thread tid (pid = tid)
 *     S<tid>@<time>          a cpu-clock SAMPLE of tid (user ip 0x1000,
 *                            period 1000)
 *     R                      FINISHED_ROUND
 *
 * One cpu-clock event, sample_type IP|TID|TIME|PERIOD, sample_id_all, so
 * every record carries its time.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pulse/data.h>

static void die(const char *what)
{
	fprintf(stderr, "pulse-mkorder: %s\n", what);
	exit(1);
}

static void put(struct pulse_data_writer *w, const void *rec, size_t len)
{
	if (pulse_data_writer__write(w, rec, len))
		die("cannot write a record");
}

static void write_comm(struct pulse_data_writer *w, __u32 tid, __u64 time, const char *name)
{
	unsigned char buf[128] = { 0 };
	struct perf_event_header *h = (void *)buf;
	size_t n = strlen(name), len;

	if (n > 15)
		die("comm too long");
	len = 8 + 8 + ((n + 8) & ~7UL);
	h->type = PERF_RECORD_COMM;
	h->size = len + 16;
	memcpy(buf + 8, &tid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, name, n);
	/* sample_id_all: pid, tid, time */
	memcpy(buf + len, &tid, 4);
	memcpy(buf + len + 4, &tid, 4);
	memcpy(buf + len + 8, &time, 8);
	put(w, buf, h->size);
}

static void write_sample(struct pulse_data_writer *w, __u32 tid, __u64 time)
{
	unsigned char buf[40];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(buf) };
	__u64 ip = 0x1000, period = 1000;

	memcpy(buf, &h, 8);
	memcpy(buf + 8, &ip, 8);
	memcpy(buf + 16, &tid, 4);
	memcpy(buf + 20, &tid, 4);
	memcpy(buf + 24, &time, 8);
	memcpy(buf + 32, &period, 8);
	put(w, buf, sizeof(buf));
}

int main(int argc, char **argv)
{
	struct pulse_data_attr a = { .name = "cpu-clock" };
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	struct pulse_data_writer *w;
	__u64 id = 1;
	int fd;

	if (argc < 3)
		die("usage: pulse-mkorder OUT TOKEN...");
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.size = sizeof(a.attr);
	a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a.attr.sample_period = 1000;
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_PERIOD;
	a.attr.sample_id_all = 1;
	a.attr.comm = 1;
	a.ids = &id;
	a.nr_ids = 1;
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("cannot create the output");
	if (pulse_data_writer__new(&w, fd, &a, 1, NULL))
		die("cannot start the file");
	for (int i = 2; i < argc; i++) {
		const char *t = argv[i];
		unsigned long tid;
		unsigned long long time;
		char name[16];

		if (!strcmp(t, "R"))
			put(w, &round, sizeof(round));
		else if (sscanf(t, "C%lu@%llu=%15s", &tid, &time, name) == 3)
			write_comm(w, tid, time, name);
		else if (sscanf(t, "S%lu@%llu", &tid, &time) == 2)
			write_sample(w, tid, time);
		else
			die("bad token");
	}
	if (pulse_data_writer__finish(w))
		die("cannot finish the file");
	pulse_data_writer__delete(w);
	close(fd);
	return 0;
}
