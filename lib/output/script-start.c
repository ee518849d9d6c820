// SPDX-License-Identifier: GPL-2.0
/*
 * The columns perf script starts a sample or side-band line with (perf
 * 6.1's perf_sample__fprintf_start()): comm, pid/tid, cpu, misc, tod (the
 * wall clock from the file's CLOCK_DATA) and the time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pulse/branch.h>
#include <pulse/data-src.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include <pulse/features.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/output-branch.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "script-int.h"

/* the MISC field: cpumode letters, then the record type's own flags */
static void print_misc(FILE *fp, __u16 misc, __u32 type)
{
	int n = 0;

#define HAS(m) ((misc & PERF_RECORD_MISC_##m) == PERF_RECORD_MISC_##m)
	static const struct {
		__u16 bits;
		char c;
	} modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};

	/* perf tests each mode as a bit mask, so USER (2) also matches HYPERVISOR (3) */
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if ((misc & modes[i].bits) == modes[i].bits) {
			putc_unlocked(modes[i].c, fp);
			n++;
		}
	}
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (HAS(MMAP_DATA)) {
			putc_unlocked('M', fp);
			n++;
		}
		break;
	case PERF_RECORD_COMM:
		if (HAS(COMM_EXEC)) {
			putc_unlocked('E', fp);
			n++;
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (HAS(SWITCH_OUT)) {
			putc_unlocked('S', fp);
			n++;
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
				putc_unlocked('p', fp);
				n++;
			}
		}
		break;
	default:
		break;
	}
#undef HAS
	/* "%*s" of " " in 6 - n: at least one space */
	put_spaces(fp, n < 5 ? 6 - n : 1);
}

/*
 * tod needs the file's CLOCK_DATA (perf record -k): the wall clock at a
 * reference time of the sampling clock
 */
static void script__load_clock(struct pulse_script *s)
{
	struct pulse_clock_data c;
	int err = pulse_data__clock_data(s->d, &c);

	s->clock_loaded = true;
	if (err == -ENOENT || err == -EBADMSG)
		return;
	s->tod_ns = c.tod_ns;
	s->clockid_ns = c.clockid_ns;
	s->has_clock = !err;
}

/* in file mode perf refuses tod up front; a pipe's lines say "disabled" */
int pulse_script__check_tod(struct pulse_script *s)
{
	bool want = false;

	for (int t = 0; t < OUT_MAX; t++)
		want |= (s->out[t].fields & F_TOD) != 0;
	if (!want)
		return 0;
	script__load_clock(s);
	if (s->has_clock)
		return 0;
	snprintf(s->err, sizeof(s->err), "Can't provide 'tod' time, missing clock data. "
		 "Please record with -k/--clockid option.");
	return -EINVAL;
}

/* perf's tod_scnprintf(): the sample's time on the wall clock, local time */
static void print_tod(struct pulse_script *s, uint64_t t)
{
	uint64_t tod;
	char date[64], buf[128];
	struct tm tm;
	time_t sec;
	unsigned long nsec;

	/* a pipe's CLOCK_DATA comes in band, before the samples */
	if (!s->clock_loaded)
		script__load_clock(s);
	if (!s->has_clock) {
		put_str(s->fp, "disabled ");
		return;
	}
	tod = s->tod_ns;
	if (t > s->clockid_ns)
		tod += t - s->clockid_ns;
	else
		tod -= s->clockid_ns - t;
	sec = (time_t)(tod / 1000000000ULL);
	nsec = tod - (uint64_t)sec * 1000000000ULL;
	if (!localtime_r(&sec, &tm)) {
		snprintf(buf, sizeof(buf), "failed");
	} else {
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
		if (s->opts.ns)
			snprintf(buf, sizeof(buf), "%s.%09lu", date, nsec);
		else
			snprintf(buf, sizeof(buf), "%s.%06lu", date, nsec / 1000);
	}
	put_str(s->fp, buf);
	putc_unlocked(' ', s->fp);
}

/* perf_sample__fprintf_start() */
void pulse_script__print_start(struct pulse_script *s, const struct script_event *ev,
			       const struct pulse_sample *smp, const char *comm, __u32 type)
{
	unsigned int fields = s->out[ev->otype].fields;
	FILE *fp = s->fp;

	if (fields & F_COMM) {
		if ((fields & F_IP) && ev->callchain && s->use_callchain) {
			put_str(fp, comm);
			putc_unlocked(' ', fp);
		} else {
			put_rstr(fp, comm, 16);
			putc_unlocked(' ', fp);
		}
	}
	if ((fields & F_PID) && (fields & F_TID)) {
		put_sdec(fp, (int32_t)smp->pid, 5);
		putc_unlocked('/', fp);
		put_sdec(fp, (int32_t)smp->tid, -5);
		putc_unlocked(' ', fp);
	} else if (fields & (F_PID | F_TID)) {
		put_sdec(fp, (int32_t)(fields & F_PID ? smp->pid : smp->tid), 5);
		putc_unlocked(' ', fp);
	}
	if (fields & F_CPU) {
		char buf[16], *end = buf + sizeof(buf), *p = fmt_dec(end, smp->cpu);

		putc_unlocked('[', fp);
		for (int n = end - p; n < 3; n++)
			putc_unlocked('0', fp);
		fwrite_unlocked(p, 1, end - p, fp);
		put_str(fp, "] ");
	}
	if (fields & F_MISC)
		print_misc(fp, smp->misc, type);
	if (fields & F_TOD)
		print_tod(s, smp->time);
	if (fields & F_TIME) {
		uint64_t t = smp->time, secs, nsecs;
		char buf[48], *end = buf + sizeof(buf), *p;

		/* perf's: a first time of 0 is no first time; a first delta is 0 */
		if (s->opts.reltime) {
			if (!s->initial_time)
				s->initial_time = smp->time;
			t = smp->time - s->initial_time;
		} else if (s->opts.deltatime) {
			t = s->previous_time ? smp->time - s->previous_time : 0;
			s->previous_time = smp->time;
		}
		secs = t / 1000000000ULL;
		nsecs = t % 1000000000ULL;

		/* "%lu.%06lu" in 12 (usecs, truncated) or "%5lu.%09llu" */
		if (s->opts.ns) {
			p = fmt_dec(end, nsecs + 1000000000ULL);
			*p = '.';
			p = fmt_dec(p, secs);
			if (end - p < 15)
				put_spaces(fp, 15 - (end - p));
		} else {
			p = fmt_dec(end, nsecs / 1000 + 1000000);
			*p = '.';
			p = fmt_dec(p, secs);
			if (end - p < 12)
				put_spaces(fp, 12 - (end - p));
		}
		fwrite_unlocked(p, 1, end - p, fp);
		put_str(fp, ": ");
	}
}
