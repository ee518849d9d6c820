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

/* perf's __hpp__sort() in group mode: then each member's value @which */
static int desc_group(const struct pulse_hists *h, const struct pulse_hist_entry *a,
		      const struct pulse_hist_entry *b, uint64_t va, uint64_t vb, int which)
{
	int r = desc(va, vb);

	for (size_t i = 0; !r && i < h->nr_pairs; i++)
		r = desc(a->pairs ? a->pairs[i * 3 + which] : 0,
			 b->pairs ? b->pairs[i * 3 + which] : 0);
	return r;
}

int pulse_sort_hpp__sort(const struct pulse_hists *h, enum pulse_sort_key key,
			 const struct pulse_hist_entry *a, const struct pulse_hist_entry *b)
{
	switch (key) {
	case PULSE_SORT_OVERHEAD:
	case PULSE_SORT_PERIOD:
		return desc_group(h, a, b, a->period, b->period, 0);
	case PULSE_SORT_SAMPLE:
		return desc_group(h, a, b, a->nr_samples, b->nr_samples, 1);
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
