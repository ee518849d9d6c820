/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters a program opens and reads itself (lib/counter/): one counter
 * or one group "{a,b}" on the calling thread (or a CPU), enabled,
 * disabled and reset by ioctl, read with values scaled by time_enabled /
 * time_running. Built on <pulse/evlist.h>: the event string is parsed as
 * `pulse record -e` parses it, the group opened cell by cell and read by
 * its read_format (PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING | ID, plus
 * PERF_FORMAT_GROUP for a group of several).
 *
 * On the calling thread every member's perf_event_mmap_page is mapped, and
 * pulse_counter__read() reads the count from it without a system call
 * when the kernel allows it (the event is on a PMU counter: index != 0
 * and cap_user_rdpmc): the page's seqlock, rdpmc, pmc_width sign
 * extension and the time_enabled/running extrapolation through
 * time_shift/mult/offset (lib/counter/page.c, as the UAPI header
 * <linux/perf_event.h> documents the page). Otherwise (software events,
 * which never sit on a PMU counter, or no rdpmc) it falls back to read(2);
 * pulse_counter_value.source says which path ran.
 *
 * Usage:
 *   struct pulse_counter *c;
 *   struct pulse_counter_value v[2];
 *   int nr;
 *
 *   pulse_counter__new(&c, "{task-clock,page-faults}", NULL);
 *   pulse_counter__enable(c);
 *   ... the work to count ...
 *   pulse_counter__disable(c);
 *   pulse_counter__read_group(c, v, 2, &nr);    (or pulse_counter__read(c, 1, &v[1]))
 *   printf("%llu page faults\n", (unsigned long long)v[1].scaled);
 *   pulse_counter__delete(c);
 *
 * Overflow signals: a counter opened with a sample_period can signal its
 * owner at each overflow (pulse_counter__set_signal(): F_SETOWN, F_SETSIG,
 * O_ASYNC), and PERF_EVENT_IOC_REFRESH n (pulse_counter__refresh()) lets it
 * overflow n times before the kernel disables it again. The counters of a
 * whole task stop and resume with prctl(PR_TASK_PERF_EVENTS_DISABLE /
 * _ENABLE): pulse_disable_task_counters(), pulse_enable_task_counters().
 */
#ifndef PULSE_COUNTER_H
#define PULSE_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct pulse_counter;

/* Where and how a counter opens. Zeroed: the calling thread, any CPU, disabled. */
struct pulse_counter_opts {
	size_t sz;			/* sizeof(struct pulse_counter_opts) */
	bool cpu_wide;			/* count every task on @cpu, not the calling thread */
	int cpu;			/* with @cpu_wide: the CPU */
	bool enable;			/* count from the open on (default: opened disabled) */
	uint64_t sample_period;		/* non-zero: a sampling leader, overflowing every period
					 * (for overflow signals and REFRESH) */
	bool no_mmap;			/* do not map the pages: every read is a read(2) */
};

/* How a value was read. */
enum pulse_counter_source {
	PULSE_COUNTER_READ,		/* read(2) of the counter's fd */
	PULSE_COUNTER_MMAP,		/* the mmap page and rdpmc, no system call */
};

/* One counter's value, as read and scaled. */
struct pulse_counter_value {
	uint64_t val;			/* the raw count */
	uint64_t ena;			/* time enabled, ns */
	uint64_t run;			/* time running (on the PMU), ns */
	uint64_t scaled;		/* val * ena / run; val when run == ena; 0 when it never ran */
	uint64_t id;			/* the kernel's id (PERF_FORMAT_ID); 0 from the page */
	uint64_t time;			/* from the page with cap_user_time_zero: the perf clock
					 * (sample timestamps) at the read; else 0 */
	enum pulse_counter_source source;	/* which path ran */
};

/**
 * pulse_counter__new - parse and open a counter or a group
 * @out: set to the new counter, NULL on failure
 * @events: one event or one group as `pulse record -e` takes it:
 *          "task-clock", "page-faults:u", "{task-clock,page-faults,cs}"
 * @opts: may be NULL (the calling thread, opened disabled)
 *
 * Return: 0; -EINVAL bad opts or more than one group ("a,b": use "{a,b}");
 * the parser's -ENOENT (unknown event) and -EINVAL (bad syntax); the
 * -errno of perf_event_open() or mmap(); -ENOMEM. The caller owns *@out:
 * pulse_counter__delete().
 */
int pulse_counter__new(struct pulse_counter **out, const char *events,
		       const struct pulse_counter_opts *opts);

/**
 * pulse_counter__new_attr - open a group from attrs, the first its leader
 * @out: set to the new counter, NULL on failure
 * @attrs: @nr attrs; read_format, disabled and (with a sample_period in
 *         @opts) the leader's sampling fields are set by the open, the
 *         rest is used as given
 * @nr: 1 for one counter
 * @opts: may be NULL
 *
 * Return: as pulse_counter__new(), without the parser's errors.
 */
int pulse_counter__new_attr(struct pulse_counter **out, const struct perf_event_attr *attrs,
			    int nr, const struct pulse_counter_opts *opts);

/* Unmap, close and free @c (NULL is a no-op). */
void pulse_counter__delete(struct pulse_counter *c);

/* The members of @c (1 for a single counter). */
int pulse_counter__nr(const struct pulse_counter *c);

/* The name of member @idx ("page-faults"), valid until pulse_counter__delete(); NULL out of range. */
const char *pulse_counter__name(const struct pulse_counter *c, int idx);

/* The fd of member @idx, owned by @c. Return: the fd, or -ERANGE. */
int pulse_counter__fd(const struct pulse_counter *c, int idx);

/*
 * PERF_EVENT_IOC_ENABLE / _DISABLE / _RESET on every member.
 * Return: 0 or the first -errno of ioctl(2).
 */
int pulse_counter__enable(struct pulse_counter *c);
int pulse_counter__disable(struct pulse_counter *c);
int pulse_counter__reset(struct pulse_counter *c);

/**
 * pulse_counter__read - read one member, scaled
 * @idx: the member, 0 the leader
 * @v: filled in
 *
 * Through the member's mmap page where the kernel allows it
 * (pulse_counter_page__read()), else by read(2) (with PERF_FORMAT_GROUP
 * the group is read and @idx's entry returned).
 *
 * Return: 0; -ERANGE bad @idx; -errno of read(2) (-EIO a short read).
 */
int pulse_counter__read(struct pulse_counter *c, int idx, struct pulse_counter_value *v);

/**
 * pulse_counter__read_group - read every member at once, scaled
 * @v: filled in, leader first
 * @size: entries @v has room for
 * @nr: set to the number of members read
 *
 * One read(2) with PERF_FORMAT_GROUP for a group of several (all members
 * then share ena and run); a single counter is read by pulse_counter__read().
 *
 * Return: 0; -ENOSPC @size too small; the errors of pulse_counter__read().
 */
int pulse_counter__read_group(struct pulse_counter *c, struct pulse_counter_value *v, int size,
			      int *nr);

/*
 * The user page of member @idx, mapped read-only when @c counts the
 * calling thread, valid until pulse_counter__delete(). NULL: not mapped.
 */
const struct perf_event_mmap_page *pulse_counter__page(const struct pulse_counter *c, int idx);

/**
 * pulse_counter__set_signal - signal the calling thread at each overflow
 * @sig: the signal (e.g. SIGIO, or a real-time signal to get si_fd)
 *
 * fcntl F_SETOWN_EX to the calling thread, F_SETSIG @sig and O_ASYNC on
 * the leader's fd: the kernel then sends @sig each time the counter
 * overflows its sample_period (and at wakeups of a ring, when there is one).
 *
 * Return: 0; -EINVAL @c was opened without a sample_period; -errno of fcntl(2).
 */
int pulse_counter__set_signal(struct pulse_counter *c, int sig);

/**
 * pulse_counter__refresh - PERF_EVENT_IOC_REFRESH @n on the leader
 *
 * Enables the counter for @n overflows: after the n-th the kernel
 * disables it (each overflow signals, see pulse_counter__set_signal()).
 *
 * Return: 0; -EINVAL @n <= 0 or no sample_period; -errno of ioctl(2).
 */
int pulse_counter__refresh(struct pulse_counter *c, int n);

/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE / _ENABLE): stop or resume every
 * counter the calling task opened, whatever task or CPU it counts (the
 * kernel walks the task's own list of events, not the events counting
 * it). Return: 0 or -errno.
 */
int pulse_disable_task_counters(void);
int pulse_enable_task_counters(void);

/*
 * How the page reader reads the hardware: rdpmc(counter) and the
 * timestamp counter. NULL hooks: the CPU's own rdpmc and rdtsc (x86;
 * elsewhere the page gives no count and the reader falls back).
 */
struct pulse_counter_page_hooks {
	uint64_t (*rdpmc)(void *arg, uint32_t counter);	/* the raw PMC, @counter = index - 1 */
	uint64_t (*rdtsc)(void *arg);			/* the clock cap_user_time converts */
	void *arg;
};

/**
 * pulse_counter_page__read - read a counter from its perf_event_mmap_page
 * @pc: the page (mapped from the counter's fd, or a model of it)
 * @hooks: NULL: the CPU's rdpmc/rdtsc
 * @v: filled in (source PULSE_COUNTER_MMAP, id 0), scaled
 *
 * The seqlock loop of the UAPI header: lock, then time_enabled/running,
 * time_mult/shift/offset (and time_cycles/mask with cap_user_time_short)
 * with a clock read, index and offset, rdpmc(index - 1) sign-extended from
 * pmc_width; again if lock moved. The times are extrapolated by the clock
 * (running too when the event is on a counter), the count scaled by them.
 *
 * Return: 0; -EAGAIN the page gives no count: index 0 (not on a PMU
 * counter, as software events never are), no cap_user_rdpmc, or no rdpmc
 * on this architecture — read(2) instead.
 */
int pulse_counter_page__read(const struct perf_event_mmap_page *pc,
			     const struct pulse_counter_page_hooks *hooks,
			     struct pulse_counter_value *v);

#endif
