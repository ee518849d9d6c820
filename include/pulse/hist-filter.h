/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's sample filters (lib/hist/filter.c): whether a sample counts
 * in a histogram, only in its totals, or not at all.
 */
#ifndef PULSE_HIST_FILTER_H
#define PULSE_HIST_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <regex.h>
#include <pulse/callchain.h>
#include <pulse/machine.h>

/*
 * perf report's sample filters. The lists are perf's strlists (comma
 * separated); a NULL list lets everything through.
 */
struct pulse_hist_filter {
	const char *comms;	/* --comms: the thread's comm at the sample */
	const char *pids;	/* --pids: process ids */
	const char *tids;	/* --tids: thread ids */
	const char *dsos;	/* --dsos: short or long name (a sample with no map passes) */
	const char *symbols;	/* --symbols: names and sample addresses in hex */
	const char *cpus;	/* --cpu: "0-2,5" */
	uint64_t *time;		/* --time: [start, end] pairs in ns, 0: open */
	size_t nr_time;		/* pairs */
	/* pulse_hist_filter__setup() */
	char *sym_names;	/* --symbols less the addresses; owned */
	unsigned long *sym_addrs;	/* the addresses; owned */
	size_t nr_sym_addrs;
};

enum pulse_filter_result {
	PULSE_FILTER_KEEP,	/* an entry */
	PULSE_FILTER_HIDE,	/* counted in the totals only (pulse_hists__add_filtered()) */
	PULSE_FILTER_SKIP,	/* not counted at all (--cpu, --time) */
};

/**
 * pulse_hist_filter__parse_time - perf 6.1's --time
 * @str: "start,end" in seconds with up to nine fraction digits (either side
 *	may be empty), several such ranges separated by blanks, in order and
 *	disjoint; or percentages of the time between the first and the last
 *	sample: "10%/2" (the second tenth), "0%-10%", "25%", several separated
 *	by commas
 * @first, @last: the file's first and last sample times (its SAMPLE_TIME
 *	feature), for the percentages; both 0: unknown
 *
 * Replaces the ranges @f had; the caller frees f->time.
 * Return: 0, -EINVAL on a malformed string, -ENODATA for percentages
 * without @first and @last, -ENOMEM.
 */
int pulse_hist_filter__parse_time(struct pulse_hist_filter *f, const char *str, uint64_t first,
				  uint64_t last);

/**
 * pulse_hist_filter__setup - split --symbols as perf 6.1's symbol__init()
 * does: an entry that reads whole as a hex number (strtoul(, 16): "0x"
 * optional, trailing blanks allowed; a name such as "add" too) is a sample
 * address, matched exactly; the others are names
 * @bad: on -EINVAL, the list ("dso", "comm", "pid", "tid", "symbol") that
 *	has an entry twice, which perf refuses
 * Return: 0, -EINVAL or -ENOMEM.
 */
int pulse_hist_filter__setup(struct pulse_hist_filter *f, const char **bad);

/* Free what __setup() and __parse_time() allocated. */
void pulse_hist_filter__exit(struct pulse_hist_filter *f);

/**
 * pulse_hist_filter__match - what perf report does with a sample
 * @ip: the sample's address as recorded (--symbols addresses)
 * @cpu, @time: the sample's (time ~0: unknown, passes)
 */
enum pulse_filter_result pulse_hist_filter__match(const struct pulse_hist_filter *f,
						  const struct pulse_addr_loc *al,
						  const char *comm, uint64_t ip, int cpu,
						  uint64_t time);

/**
 * pulse_hist_filter__parent - perf's parent of a sample (--sort parent,
 * -p): the symbol of the first frame of @chain, in the order perf
 * resolves it (the callchain order), whose name @re matches
 * Return: the symbol, NULL for "[other]".
 */
const struct pulse_symbol *pulse_hist_filter__parent(const regex_t *re,
						     const struct pulse_cc_loc *chain,
						     size_t nr);

#endif
