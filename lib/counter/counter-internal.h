/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct pulse_counter (counter.c opens and reads it, signal.c signals
 * and refreshes it). Not part of the public API: <pulse/counter.h>.
 */
#ifndef PULSE_COUNTER_INTERNAL_H
#define PULSE_COUNTER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <pulse/counter.h>
#include <pulse/event.h>

struct pulse_counter {
	struct pulse_evlist evlist;	/* one group, leader first; one cell (cpu 0, thread 0) */
	struct perf_event_mmap_page **pages;	/* [evlist.nr] user pages; NULL: not mapped */
	size_t page_size;		/* what each page's mmap() took */
	uint64_t sample_period;		/* the leader's, 0: a counting group */
};

#endif
