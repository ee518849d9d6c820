// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkgroup: writes a perf.data with an event group the way another
 * tool could, through the project's writer, for the group tests:
 *
 *   pulse-mkgroup OUT LAYOUT [pipe] [lost] [attr=SIZE]
 *
 * Two software events, task-clock leading page-faults (GROUP_DESC,
 * EVENT_DESC), a COMM, and 40 samples of the leader at three unmapped
 * addresses whose PERF_SAMPLE_READ values grow by known steps. LAYOUT is
 * the read_format of both: "group" (GROUP|ID), "group-times"
 * (GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING), "group-lost"
 * (GROUP|ID|LOST), "group-all" (all four), "one" (ID alone: each event's
 * own value; page-faults then samples too), "noid" (GROUP, no ids: perf
 * delivers nothing). "pipe": pipe mode; "lost": two LOST_SAMPLES records;
 * "attr=SIZE": attrs of SIZE bytes, as an older perf wrote them (64, 96, ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <pulse/buf.h>
#include <pulse/data.h>
#include <pulse/features.h>

#define PID 4242
#define ID_LEAD 1011
#define ID_MEMB 1012

#include "rec-put.h"

static void end(struct pulse_data_writer *w)
{
	struct perf_event_header *h = (void *)rec;

	h->size = (__u16)rlen;
	if (pulse_data_writer__write(w, rec, rlen)) {
		fprintf(stderr, "pulse-mkgroup: write failed\n");
		exit(1);
	}
}

/* sample_id_all: TID, TIME, ID */
static void sample_id(__u64 time, __u64 id)
{
	put32x2(PID, PID);
	put64(time);
	put64(id);
}

int main(int argc, char **argv)
{
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo) };
	struct pulse_data_attr attrs[2] = { 0 };
	__u64 ids[2] = { ID_LEAD, ID_MEMB };
	struct pulse_data_writer *w;
	struct pulse_feat_ctx ctx = { 0 };
	__u64 fmt, lead = 0, memb = 0, t = 1000000000ULL;
	bool lost = false, group;
	const char *layout;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: pulse-mkgroup OUT LAYOUT [pipe] [lost] [attr=SIZE]\n");
		return 129;
	}
	layout = argv[2];
	for (int i = 3; i < argc; i++) {
		wo.pipe |= !strcmp(argv[i], "pipe");
		lost |= !strcmp(argv[i], "lost");
		/* an older perf's attrs: attr=64 (PERF_ATTR_SIZE_VER0), 96, 112 ... */
		if (!strncmp(argv[i], "attr=", 5))
			wo.attr_size = strtoul(argv[i] + 5, NULL, 0);
	}
	if (!strcmp(layout, "group"))
		fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	else if (!strcmp(layout, "group-times"))
		fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING;
	else if (!strcmp(layout, "group-lost"))
		fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	else if (!strcmp(layout, "group-all"))
		fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
		      PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	else if (!strcmp(layout, "one"))
		fmt = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	else if (!strcmp(layout, "noid"))
		fmt = PERF_FORMAT_GROUP;
	else
		return 129;
	group = fmt & PERF_FORMAT_GROUP;
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr *a = &attrs[i].attr;

		a->type = PERF_TYPE_SOFTWARE;
		a->size = sizeof(*a);
		a->config = i ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_TASK_CLOCK;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
		a->read_format = fmt;
		a->sample_id_all = 1;
		a->exclude_guest = 1;	/* as perf records them */
		a->sample_period = i ? 0 : 250000;
		a->comm = !i;
		attrs[i].name = i ? "page-faults" : "task-clock";
		attrs[i].ids = &ids[i];
		attrs[i].nr_ids = 1;
	}
	attrs[0].nr_members = 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pulse_data_writer__new(&w, fd, attrs, 2, &wo)) {
		perror("pulse-mkgroup");
		return 1;
	}
	ctx.attrs = attrs;
	ctx.nr_attrs = 2;
	for (int f = PULSE_FEAT_EVENT_DESC; f <= PULSE_FEAT_GROUP_DESC; f++) {
		struct pulse_buf b = { 0 };

		if (f != PULSE_FEAT_EVENT_DESC && f != PULSE_FEAT_GROUP_DESC)
			continue;
		if (pulse_feat__build(f, &b, &ctx) ||
		    pulse_data_writer__add_feature(w, f, b.p, b.len))
			return 1;
		pulse_buf__release(&b);
	}
	begin(PERF_RECORD_COMM, 0);
	put32x2(PID, PID);
	put("grp\0\0\0\0\0", 8);
	sample_id(t, ID_LEAD);
	end(w);
	for (int i = 0; i < 40; i++) {
		/* three places, growing by 1, 2 and 3 units, faults by i % 4 */
		__u64 ip = 0x400000 + 0x100 * (i % 3);
		__u64 id = (fmt & PERF_FORMAT_GROUP) || i % 2 == 0 ? ID_LEAD : ID_MEMB;

		t += 1000;
		lead += 250000 * (1 + i % 3);
		memb += i % 4;
		begin(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(ip);
		put32x2(PID, PID);
		put64(t);
		put64(id);
		put64(250000);
		if (group) {
			put64(2);
			if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
				put64(t);
			if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
				put64(t / 2);
			put64(lead);
			if (fmt & PERF_FORMAT_ID)
				put64(ID_LEAD);
			if (fmt & PERF_FORMAT_LOST)
				put64(i / 10);
			put64(memb);
			if (fmt & PERF_FORMAT_ID)
				put64(ID_MEMB);
			if (fmt & PERF_FORMAT_LOST)
				put64(0);
		} else {
			put64(id == ID_LEAD ? lead : memb);
			put64(t);	/* TOTAL_TIME_ENABLED */
			put64(id);
		}
		end(w);
		if (lost && i % 20 == 10) {
			begin(PERF_RECORD_LOST_SAMPLES, 0);
			put64(3 + i);
			sample_id(t, ID_LEAD);
			end(w);
		}
	}
	if (pulse_data_writer__finish(w))
		return 1;
	pulse_data_writer__delete(w);
	close(fd);
	return 0;
}
