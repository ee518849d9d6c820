// SPDX-License-Identifier: GPL-2.0
/*
 * The sort keys of the histograms: their --sort names and titles, and the
 * two comparisons perf gives each key, se_cmp (which entries are one, and
 * the collapsed tree's order) and se_sort (the output order among entries
 * of equal overhead).
 */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <pulse/hist.h>
#include "core/internal.h"
#include "hist/hist-internal.h"

/* a key name that adds no key */
#define SORT_DROPPED ((enum pulse_sort_key)-1)

static const struct {
	const char *name;
	enum pulse_sort_key key;
} sort_names[] = {
	{ "comm", PULSE_SORT_COMM },
	{ "pid", PULSE_SORT_PID },
	{ "dso", PULSE_SORT_DSO },
	{ "sym", PULSE_SORT_SYM },
	{ "symbol", PULSE_SORT_SYM },
	{ "cpu", PULSE_SORT_CPU },
	{ "symbol_size", PULSE_SORT_SYM_SIZE },
	{ "trace", PULSE_SORT_TRACE },
	{ "ipc_null", PULSE_SORT_IPC_NULL },
	/* not in perf 6.1, which has no tid key */
	{ "tid", PULSE_SORT_TID },
	{ "parent", PULSE_SORT_PARENT },
	{ "mem", PULSE_SORT_MEM },
	{ "symbol_daddr", PULSE_SORT_SYM_DADDR },
	{ "dso_daddr", PULSE_SORT_DSO_DADDR },
	{ "snoop", PULSE_SORT_SNOOP },
	{ "tlb", PULSE_SORT_TLB },
	{ "locked", PULSE_SORT_LOCKED },
	{ "blocked", PULSE_SORT_BLOCKED },
	{ "local_weight", PULSE_SORT_LOCAL_WEIGHT },
	{ "weight", PULSE_SORT_WEIGHT },
	{ "local_ins_lat", PULSE_SORT_LOCAL_INS_LAT },
	{ "ins_lat", PULSE_SORT_INS_LAT },
	/* powerpc's: perf on x86 takes them and shows nothing (lib/hist/sort-mem.c) */
	{ "p_stage_cyc", SORT_DROPPED },
	{ "local_p_stage_cyc", SORT_DROPPED },
	/* perf's hpp columns (lib/hist/fields.c) */
	{ "overhead", PULSE_SORT_OVERHEAD },
	{ "overhead_children", PULSE_SORT_OVERHEAD_CHILDREN },
	{ "sample", PULSE_SORT_SAMPLE },
	{ "period", PULSE_SORT_PERIOD },
	{ "srcline", PULSE_SORT_SRCLINE },
	/* not in perf 6.1: newer perf's */
	{ "symoff", PULSE_SORT_SYMOFF },
};

const char *pulse_sort_keys__known(void)
{
	return "comm, pid, tid, dso, sym, symbol, cpu, symbol_size, trace, ipc_null, parent, "
	       "mem, symbol_daddr, dso_daddr, snoop, tlb, locked, blocked, local_weight, weight, "
	       "local_ins_lat, ins_lat, p_stage_cyc, local_p_stage_cyc, overhead, overhead_children, "
	       "sample, period, srcline, symoff";
}

const char *pulse_sort_key__title(enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return "Command";
	case PULSE_SORT_PID:
		return "    Pid:Command";
	case PULSE_SORT_TID:
		return "    Tid:Command";
	case PULSE_SORT_DSO:
		return "Shared Object";
	case PULSE_SORT_SYM:
		return "Symbol";
	case PULSE_SORT_CPU:
		return "CPU";
	case PULSE_SORT_SYM_SIZE:
		return "Symbol size";
	case PULSE_SORT_TRACE:
		return "Trace output";
	case PULSE_SORT_IPC_NULL:
		return "IPC   [IPC Coverage]";
	case PULSE_SORT_PARENT:
		return "Parent symbol";
	case PULSE_SORT_OVERHEAD:
		return "Overhead";
	case PULSE_SORT_OVERHEAD_CHILDREN:
		return "Children";
	case PULSE_SORT_SAMPLE:
		return "Samples";
	case PULSE_SORT_PERIOD:
		return "Period";
	case PULSE_SORT_SRCLINE:
		return "Source:Line";
	case PULSE_SORT_SYMOFF:
		return "Symbol Offset";
	default:
		return pulse_sort_mem__title(key);
	}
}

int pulse_sort_keys__parse(const char *spec, enum pulse_sort_key *keys, size_t max,
			   const char **bad, size_t *bad_len)
{
	const char *p = spec;
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, ", ");
		size_t i;

		if (len) {
			for (i = 0; i < ARRAY_SIZE(sort_names); i++)
				if (strlen(sort_names[i].name) == len &&
				    !strncasecmp(sort_names[i].name, p, len))
					break;
			if (i == ARRAY_SIZE(sort_names) || n == max) {
				if (bad)
					*bad = p;
				if (bad_len)
					*bad_len = len;
				return -EINVAL;
			}
			if (sort_names[i].key != SORT_DROPPED)
				keys[n++] = sort_names[i].key;
		}
		p += len;
		if (*p)
			p++;
	}
	return n;
}

bool pulse_hists__has_key(const struct pulse_hists *h, enum pulse_sort_key key)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == key)
			return true;
	return false;
}

/* perf's _sort__dso_cmp() by short name, an unknown DSO after the others */
int pulse_sort__dso_cmp(const struct pulse_dso *a, const struct pulse_dso *b)
{
	if (!a || !b)
		return !a && !b ? 0 : (!a ? 1 : -1);
	if (a == b)
		return 0;
	return strcmp(a->short_name, b->short_name);
}

static int u64_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* perf's se_cmp/se_collapse: identity of entries and the collapsed tree order */
int pulse_sort_key__cmp(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b)
{
	int r;

	switch (key) {
	case PULSE_SORT_COMM:
		return a->comm == b->comm ? 0 : strcmp(a->comm, b->comm);
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		return a->thread->tid < b->thread->tid ? -1 : a->thread->tid > b->thread->tid;
	case PULSE_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case PULSE_SORT_SYM_SIZE:
		return u64_cmp(a->sym ? a->sym->end - a->sym->start : 0,
			       b->sym ? b->sym->end - b->sym->start : 0);
	case PULSE_SORT_TRACE:
		return strcmp(a->trace ? a->trace : "N/A", b->trace ? b->trace : "N/A");
	case PULSE_SORT_PARENT:
		/* perf's sort__parent_cmp(), in this file's sign: names, then [other] */
		if (!a->parent || !b->parent)
			return !a->parent && !b->parent ? 0 : (!a->parent ? 1 : -1);
		return strcmp(a->parent->name, b->parent->name);
	case PULSE_SORT_DSO:
		return pulse_sort__dso_cmp(a->dso, b->dso);
	/*
	 * perf's sort_sym_ipc_null compares as "sym" does (sort__sym_cmp):
	 * it splits the entries of keys like symbol_size or symbol_daddr,
	 * after which perf's --sort appends it, by symbol
	 */
	case PULSE_SORT_SYMOFF:
		/* newer perf's sort__symoff_cmp(): the symbol's, then the ip's */
		r = pulse_sort_key__cmp(PULSE_SORT_SYM, a, b);
		return r ? r : addr_cmp(b->ip, a->ip);
	case PULSE_SORT_IPC_NULL:
	case PULSE_SORT_SYM:
		if (!a->sym && !b->sym)
			return addr_cmp(a->ip, b->ip);
		r = pulse_sort__dso_cmp(a->dso, b->dso);
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return !a->sym ? 1 : -1;
		if (a->sym == b->sym)
			return 0;
		/*
		 * perf's _sort__sym_cmp(): inlined functions by name, one
		 * name in overlapping symbols being one entry (perf's
		 * strcmp(left, right), which is this file's sign turned)
		 */
		if (a->sym->inlined || b->sym->inlined) {
			r = strcmp(b->sym->name, a->sym->name);
			if (r)
				return r;
			if (a->sym->start <= b->sym->end && a->sym->end >= b->sym->start)
				return 0;
		}
		r = addr_cmp(a->sym->start, b->sym->start);
		return r ? r : addr_cmp(a->sym->end, b->sym->end);
	case PULSE_SORT_OVERHEAD:
	case PULSE_SORT_OVERHEAD_CHILDREN:
	case PULSE_SORT_SAMPLE:
	case PULSE_SORT_PERIOD:
		return 0;	/* perf's hpp__nop_cmp */
	case PULSE_SORT_SRCLINE:
		/* perf's sort__srcline_collapse(), in this file's sign */
		if (a->srcline == b->srcline)
			return 0;
		return strcmp(a->srcline ? a->srcline : "", b->srcline ? b->srcline : "");
	default:
		return pulse_sort_mem__cmp(key, a, b);
	}
}

/* perf's se_sort where a key has one (names), else se_cmp */
int pulse_sort_key__sort(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			 const struct pulse_hist_entry *b)
{
	int r;

	if (key == PULSE_SORT_SYMOFF) {
		/* sort__symoff_sort(): the symbol's name, then the ip */
		r = pulse_sort_key__sort(PULSE_SORT_SYM, a, b);
		return r ? r : addr_cmp(b->ip, a->ip);
	}
	if (key != PULSE_SORT_SYM)
		return pulse_sort_key__cmp(key, a, b);
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym ? 0 : (!a->sym ? 1 : -1);
	return strcmp(a->sym->name, b->sym->name);
}

bool pulse_hists__has_mem_keys(const struct pulse_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (pulse_sort_key__is_mem(h->keys[i]))
			return true;
	return false;
}

bool pulse_hists__hide_key(struct pulse_hists *h, enum pulse_sort_key key)
{
	size_t i, j;

	if (!pulse_hists__has_key(h, key))
		return false;
	for (i = 0; i < h->nr_keys && h->keys[i] == key; i++)
		;
	if (i == h->nr_keys)
		return false;
	for (i = j = 0; i < h->nr_keys; i++)
		if (h->keys[i] != key)
			h->keys[j++] = h->keys[i];
	h->nr_keys = j;
	h->sym_key = pulse_hists__has_key(h, PULSE_SORT_SYM);
	return true;
}
