// SPDX-License-Identifier: GPL-2.0
/*
 * perf's hpp columns as sort keys and output fields: "overhead",
 * "overhead_children", "sample", "period" in --sort and -F. perf gives
 * them no identity (hpp__nop_cmp: they never split entries) and an order
 * (hpp__sort_*: larger first); with them, or with -F, a hists' keys[] is
 * perf's whole sort list and fields[] its output list (ui/hist.c
 * perf_hpp__setup_output_field(), perf_hpp__append_sort_keys()).
 */
#include <errno.h>
#include <string.h>
#include <pulse/hist.h>
#include "core/internal.h"
#include "hist/hist-internal.h"

bool pulse_sort_key__is_hpp(enum pulse_sort_key key)
{
	return key >= PULSE_SORT_OVERHEAD && key <= PULSE_SORT_PERIOD;
}

static int desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

int pulse_sort_hpp__sort(const struct pulse_hists *h, enum pulse_sort_key key,
			 const struct pulse_hist_entry *a, const struct pulse_hist_entry *b)
{
	switch (key) {
	case PULSE_SORT_OVERHEAD:
	case PULSE_SORT_PERIOD:
		return desc(a->period, b->period);
	case PULSE_SORT_SAMPLE:
		return desc(a->nr_samples, b->nr_samples);
	case PULSE_SORT_OVERHEAD_CHILDREN:
		/* perf's __hpp__sort_acc(): callers above callees in one thread */
		if (!h->cumulate)
			return 0;
		if (a->acc_period != b->acc_period)
			return desc(a->acc_period, b->acc_period);
		if (a->thread == b->thread && h->use_callchain && a->max_depth != b->max_depth) {
			if (h->cc.order == PULSE_CC_CALLER)
				return a->max_depth > b->max_depth ? -1 : 1;
			return a->max_depth < b->max_depth ? -1 : 1;
		}
		return 0;
	default:
		return 0;
	}
}

int pulse_hists__set_fields(struct pulse_hists *h, const enum pulse_sort_key *fields, size_t nr,
			    bool self_title)
{
	if (nr > PULSE_SORT_MAX_KEYS)
		return -EINVAL;
	memcpy(h->fields, fields, nr * sizeof(*fields));
	h->nr_fields = nr;
	h->self_title = self_title;
	return 0;
}
