// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's memory sort keys (perf 6.1 util/sort.c): mem, snoop, tlb,
 * locked, blocked, symbol_daddr, dso_daddr, which perf takes only in
 * --mem-mode, and local_weight, weight, local_ins_lat, ins_lat, which it
 * takes always. Their identity and order, in hist.c's sign (perf's se_cmp
 * negated, so that a negative result puts @a first in perf's trees):
 *
 *   mem, snoop, tlb, locked, blocked  the raw mem_lvl, mem_snoop, mem_dtlb,
 *                     mem_lock, mem_blk bits, ascending; only those bits
 *                     (lvl_num, remote, hops and snoopx are not compared:
 *                     the entry shows its first sample's)
 *   symbol_daddr      the data address itself (as an s64 difference), not
 *                     its symbol
 *   dso_daddr         the DSO's short name, descending, no DSO first
 *   local_weight, weight, local_ins_lat, ins_lat
 *                     the first sample's value, descending; as samples join
 *                     only an entry of their own value, the entry's value
 *                     is every sample's
 *
 * p_stage_cyc and local_p_stage_cyc are powerpc keys: perf 6.1 on x86
 * accepts them and shows no column, and so does pulse.
 */
#include <string.h>
#include <pulse/data.h>
#include <pulse/data-src.h>
#include <pulse/hist.h>
#include "core/internal.h"

int pulse_hist_mem__init(struct pulse_hist_mem *mem, const struct perf_event_attr *attr,
			 const struct pulse_sample *s, struct pulse_machine *m, uint8_t cpumode,
			 bool resolve)
{
	__u64 st = attr->sample_type;
	struct pulse_addr_loc dal;
	int err;

	memset(mem, 0, sizeof(*mem));
	mem->data_src = st & PERF_SAMPLE_DATA_SRC ? s->data_src : 0;
	if (st & PERF_SAMPLE_WEIGHT) {
		mem->weight = s->weight;
	} else if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		mem->weight = (uint32_t)s->weight;
		mem->ins_lat = (uint16_t)(s->weight >> 32);
	}
	if (!resolve)
		return 0;
	mem->daddr = st & PERF_SAMPLE_ADDR ? s->addr : 0;
	err = pulse_machine__resolve(m, s->pid, s->tid, cpumode, mem->daddr, &dal);
	if (err)
		return err;
	mem->daddr_dso = dal.dso;
	mem->daddr_sym = dal.dso ? dal.sym : NULL;
	mem->daddr_off = dal.addr;
	return 0;
}

bool pulse_sort_key__is_mem(enum pulse_sort_key key)
{
	return key >= PULSE_SORT_MEM && key <= PULSE_SORT_INS_LAT;
}

bool pulse_sort_key__needs_mem_mode(enum pulse_sort_key key)
{
	return key >= PULSE_SORT_MEM && key <= PULSE_SORT_BLOCKED;
}

const char *pulse_sort_mem__title(enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_MEM:
		return "Memory access";
	case PULSE_SORT_SYM_DADDR:
		return "Data Symbol";
	case PULSE_SORT_DSO_DADDR:
		return "Data Object";
	case PULSE_SORT_SNOOP:
		return "Snoop";
	case PULSE_SORT_TLB:
		return "TLB access";
	case PULSE_SORT_LOCKED:
		return "Locked";
	case PULSE_SORT_BLOCKED:
		return "Blocked";
	case PULSE_SORT_LOCAL_WEIGHT:
		return "Local Weight";
	case PULSE_SORT_WEIGHT:
		return "Weight";
	case PULSE_SORT_LOCAL_INS_LAT:
		return "Local INSTR Latency";
	case PULSE_SORT_INS_LAT:
		return "INSTR Latency";
	default:
		return "";
	}
}

/* the value a key compares; perf's defaults stand in for an entry without mem */
static uint64_t mem_value(enum pulse_sort_key key, const struct pulse_hist_mem *m)
{
	uint64_t ds = m ? m->data_src : 0;

	switch (key) {
	case PULSE_SORT_MEM:
		return m ? PULSE_DS_LVL(ds) : 0x01;	/* PERF_MEM_LVL_NA */
	case PULSE_SORT_SNOOP:
		return m ? PULSE_DS_SNOOP(ds) : 0x01;
	case PULSE_SORT_TLB:
		return m ? PULSE_DS_DTLB(ds) : 0x01;
	case PULSE_SORT_LOCKED:
		return m ? PULSE_DS_LOCK(ds) : 0x01;
	case PULSE_SORT_BLOCKED:
		return m ? PULSE_DS_BLK(ds) : 0x01;
	case PULSE_SORT_SYM_DADDR:
		return m ? m->daddr : 0;
	case PULSE_SORT_LOCAL_WEIGHT:
	case PULSE_SORT_WEIGHT:
		return m ? m->weight : 0;
	case PULSE_SORT_LOCAL_INS_LAT:
	case PULSE_SORT_INS_LAT:
		return m ? m->ins_lat : 0;
	default:
		return 0;
	}
}

uint64_t pulse_sort_mem__hash(enum pulse_sort_key key, const struct pulse_hist_entry *e)
{
	const struct pulse_dso *dso = e->mem ? e->mem->daddr_dso : NULL;

	if (key == PULSE_SORT_DSO_DADDR)
		return dso ? dso->short_name_hash : 0;
	return mem_value(key, e->mem);
}

int pulse_sort_mem__cmp(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b)
{
	uint64_t va = mem_value(key, a->mem), vb = mem_value(key, b->mem);
	const struct pulse_dso *da, *db;
	int64_t d;

	switch (key) {
	case PULSE_SORT_DSO_DADDR:
		/*
		 * perf's _sort__dso_cmp() on the data maps, negated: unlike
		 * "dso" the key has no se_sort to turn it around, so names
		 * come last to first and no DSO first
		 */
		da = a->mem ? a->mem->daddr_dso : NULL;
		db = b->mem ? b->mem->daddr_dso : NULL;
		if (!da || !db)
			return !da && !db ? 0 : (!da ? -1 : 1);
		return da == db ? 0 : -strcmp(da->short_name, db->short_name);
	case PULSE_SORT_SYM_DADDR:
		/* perf's (int64_t)(r - l) */
		d = (int64_t)(va - vb);
		return d < 0 ? -1 : d > 0;
	case PULSE_SORT_LOCAL_WEIGHT:
	case PULSE_SORT_WEIGHT:
	case PULSE_SORT_LOCAL_INS_LAT:
	case PULSE_SORT_INS_LAT:
		/* perf's left - right: the larger first */
		d = (int64_t)(vb - va);
		return d < 0 ? -1 : d > 0;
	default:
		return va < vb ? -1 : va > vb;
	}
}
