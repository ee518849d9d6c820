// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record as a flight recorder: the options (--overwrite,
 * --switch-output, --switch-max-files, -M, --crash-snapshot), the
 * SIGUSR2 trigger, and perf's "[ perf record: Dump ... ]" lines. The
 * recorder itself is lib/flight.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/event.h>
#include <pulse/flight.h>
#include "builtin.h"
#include "parse-options.h"
#include "record.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

bool flight_overwrite;
const char *flight_switch_output;	/* "signal", SIZE or TIME; "" for the bare option */
int flight_max_files;
const char *flight_memory;
int flight_crash = -1;			/* --[no-]crash-snapshot; -1: the mode's default */

static volatile sig_atomic_t snapshot_flag;
static int wake[2] = { -1, -1 };

static void on_usr2(int sig)
{
	int saved = errno;

	(void)sig;
	snapshot_flag = 1;
	/* wake the recorder even if it was about to sleep */
	ssize_t n = write(wake[1], "", 1);

	(void)n;
	errno = saved;
}

int flight_switch_output_opt(const struct option *opt, const char *arg, int unset)
{
	flight_switch_output = unset ? NULL : arg ? arg : "";
	return 0;
}

int flight_crash_opt(const struct option *opt, const char *arg, int unset)
{
	flight_crash = !unset;
	return 0;
}

const char *flight_control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */
static struct pulse_evlist trigger_evlist;	/* --switch-output-event */

int flight_trigger_event_opt(const struct option *opt, const char *arg, int unset)
{
	struct pulse_parse_error perr;
	int ret;

	memset(&perr, 0, sizeof(perr));
	ret = pulse_evlist__parse(&trigger_evlist, arg, NULL, &perr);
	if (ret) {
		error("invalid --switch-output-event '%s': %s", arg,
		      perr.msg[0] ? perr.msg : strerror(-ret));
		if (perr.hint[0])
			hint("%s", perr.hint);
		return -1;
	}
	return 0;
}

bool record_flight_wanted(void)
{
	return flight_overwrite || flight_switch_output || flight_memory || trigger_evlist.nr;
}

/* --control: cli/control.c's, for record and stat */
int record_control_setup(struct pulse_record_opts *o)
{
	int ret;

	if (!flight_control)
		return 0;
	ret = control_setup(flight_control, &o->ctl_fd, &o->ack_fd);
	o->control = !ret;
	return ret;
}

void record_flight_exit(void)
{
	pulse_evlist__exit(&trigger_evlist);
}

/* perf's switch_output_setup(): "signal", SIZE[BKMG] or TIME[smhd] */
static int parse_switch(const char *s, struct pulse_record_opts *o)
{
	static const struct { char c; __u64 mul; } sizes[] = {
		{ 'B', 1 }, { 'K', 1ULL << 10 }, { 'M', 1ULL << 20 }, { 'G', 1ULL << 30 } };
	static const struct { char c; __u64 ms; } times[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 }, { 'd', 86400000 } };
	char *end;
	unsigned long long v;

	if (!*s || !strcmp(s, "signal"))
		return 0;
	v = strtoull(s, &end, 10);
	if (end == s || !v || !end[0] || end[1])
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		if (end[0] == sizes[i].c || end[0] == sizes[i].c + 32) {
			o->snapshot_bytes = v * sizes[i].mul;
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(times); i++)
		if (end[0] == times[i].c) {
			o->snapshot_ms = v * times[i].ms;
			return 0;
		}
	return -1;
}

static void on_snapshot(const struct pulse_flight_snapshot *s, void *arg)
{
	bool quiet = *(bool *)arg;

	if (s->error) {
		warning("snapshot not written to %s: %s (the recording goes on)", s->path,
			strerror(-s->error));
		return;
	}
	if (quiet)
		return;
	if (s->removed)
		fprintf(stderr, "[ pulse record: Removed %s ]\n", s->removed);
	fprintf(stderr, "[ pulse record: Dump %s: %llu samples ]\n", s->path,
		(unsigned long long)s->samples);
}

int record_flight_setup(struct pulse_record_opts *o, const char *output, bool *quiet,
			struct pulse_flight **out)
{
	struct pulse_flight_opts fo = { .sz = sizeof(fo), .path = output,
					.on_snapshot = on_snapshot, .arg = quiet };
	struct sigaction sa;
	__u64 mem = 0;
	int ret;

	*out = NULL;
	if (!strcmp(output, "-")) {
		error("a flight recording (--overwrite, --switch-output, -M) cannot go to a pipe");
		return PULSE_EXIT_USAGE;
	}
	if (flight_memory && flight_overwrite) {
		error("-M keeps the past in pulse's memory, --overwrite in the kernel's: give one");
		return PULSE_EXIT_USAGE;
	}
	if (flight_switch_output && parse_switch(flight_switch_output, o)) {
		error("invalid --switch-output '%s': give signal, a size (100M) or a time (30s)",
		      flight_switch_output);
		return PULSE_EXIT_USAGE;
	}
	if (trigger_evlist.nr)
		o->trigger_events = &trigger_evlist;
	if (flight_memory) {
		if (record_parse_size(flight_memory, &mem) || mem < PULSE_FLIGHT_MIN_MEMORY) {
			error("invalid -M '%s': give a size of at least %uK, such as 64M",
			      flight_memory, PULSE_FLIGHT_MIN_MEMORY >> 10);
			return PULSE_EXIT_USAGE;
		}
		fo.mode = PULSE_FLIGHT_DEEP;
		fo.memory = mem;
	} else if (flight_overwrite) {
		fo.mode = PULSE_FLIGHT_OVERWRITE;
	} else {
		fo.mode = PULSE_FLIGHT_ROTATE;
	}
	/*
	 * perf's --overwrite alone writes the rings once, at the end; pulse's
	 * snapshots each go to a file of their own, as with --switch-output
	 */
	fo.switch_output = flight_switch_output != NULL || !flight_memory;
	fo.trigger = &snapshot_flag;
	if (flight_max_files < 0) {
		error("invalid --switch-max-files %d", flight_max_files);
		return PULSE_EXIT_USAGE;
	}
	fo.max_files = flight_max_files;
	ret = pulse_flight__new(out, &fo);
	if (ret) {
		error("cannot set up the flight recorder: %s", strerror(-ret));
		return 1;
	}
	o->output = pulse_flight__output(*out);
	o->tracking_output = pulse_flight__tracking(*out);
	o->overwrite = flight_overwrite;
	o->snapshot = &snapshot_flag;
	o->snapshot_on_crash = flight_crash < 0 ? flight_memory != NULL : flight_crash;

	if (pipe2(wake, O_NONBLOCK | O_CLOEXEC)) {
		error("cannot set up the flight recorder: %s", strerror(errno));
		return 1;
	}
	o->wake_fd = &wake[0];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	return 0;
}

void record_flight_summary(struct pulse_flight *f, const struct pulse_record_stats *st,
			   const char *output, bool quiet)
{
	struct pulse_flight_stats fs;

	if (quiet)
		return;
	pulse_flight__stats(f, &fs);
	if (st->crash_snapshot)
		fprintf(stderr, "[ pulse record: the command failed: its last moments are in the last dump ]\n");
	if (!fs.snapshots && !flight_memory && !flight_overwrite)
		return;
	if (!fs.snapshots) {
		fprintf(stderr, "[ pulse record: no snapshot was asked for (SIGUSR2): no samples written%s%s ]\n",
			flight_switch_output || !flight_memory ? "" : " to ",
			flight_switch_output || !flight_memory ? "" : output);
		return;
	}
	fprintf(stderr, "[ pulse record: %u snapshot%s, %llu samples written ]\n", fs.snapshots,
		fs.snapshots == 1 ? "" : "s", (unsigned long long)fs.samples_written);
	if (fs.failed)
		fprintf(stderr, "[ pulse record: %u snapshot%s could not be written ]\n", fs.failed,
			fs.failed == 1 ? "" : "s");
	if (fs.samples_dropped)
		fprintf(stderr, "[ pulse record: %llu older samples left the -M window unwritten ]\n",
			(unsigned long long)fs.samples_dropped);
}
