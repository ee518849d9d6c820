// SPDX-License-Identifier: GPL-2.0
/*
 * The memory keys' columns of perf report --stdio (perf 6.1 util/sort.c
 * hist_entry__*_snprintf() and util/hist.c hists__calc_col_len()): fixed
 * widths for the data_src texts and the weights, which longer texts
 * overflow; the data symbol and object columns sized by their entries.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <pulse/data-src.h>
#include "output/stdio-mem.h"

#define UNRESOLVED_WIDTH 16	/* perf's BITS_PER_LONG / 4 */

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

void pulse_stdio_mem__widths(const struct pulse_hists *h, int *w)
{
	static const struct {
		enum pulse_sort_key key;
		int width;		/* perf's hists__new_col_len() for every entry */
	} fixed[] = {
		{ PULSE_SORT_MEM, 21 + 3 }, { PULSE_SORT_SNOOP, 12 }, { PULSE_SORT_TLB, 22 },
		{ PULSE_SORT_LOCKED, 6 }, { PULSE_SORT_BLOCKED, 10 },
		{ PULSE_SORT_LOCAL_WEIGHT, 12 }, { PULSE_SORT_WEIGHT, 12 },
		{ PULSE_SORT_LOCAL_INS_LAT, 13 }, { PULSE_SORT_INS_LAT, 13 },
	};
	bool any = false;

	for (int k = PULSE_SORT_MEM; k <= PULSE_SORT_INS_LAT; k++)
		w[k] = 0;
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];
		const struct pulse_hist_mem *m = e->mem;

		if (e->filtered)
			continue;
		any = true;
		if (m && m->daddr_sym)
			w[PULSE_SORT_SYM_DADDR] = max_int(w[PULSE_SORT_SYM_DADDR],
							  m->daddr_sym->namelen + 4 +
							  UNRESOLVED_WIDTH + 2);
		else
			w[PULSE_SORT_SYM_DADDR] = max_int(w[PULSE_SORT_SYM_DADDR],
							  UNRESOLVED_WIDTH + 4 + 2);
		if (m && m->daddr_dso)
			w[PULSE_SORT_DSO_DADDR] = max_int(w[PULSE_SORT_DSO_DADDR],
							  m->daddr_dso->short_name_len);
		else
			w[PULSE_SORT_DSO_DADDR] = max_int(w[PULSE_SORT_DSO_DADDR],
							  UNRESOLVED_WIDTH);
	}
	for (size_t i = 0; any && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		w[fixed[i].key] = fixed[i].width;
	/* perf_hpp__reset_sort_width(): never narrower than the title */
	for (int k = PULSE_SORT_MEM; k <= PULSE_SORT_INS_LAT; k++)
		w[k] = max_int(w[k], strlen(pulse_sort_key__title(k)));
}

/* perf's hist_entry__daddr_snprintf() through _hist_entry__sym_snprintf() */
static int daddr_snprintf(char *buf, size_t size, const struct pulse_hist_entry *e, int width)
{
	const struct pulse_hist_mem *m = e->mem;
	const struct pulse_symbol *sym = m ? m->daddr_sym : NULL;
	int n = snprintf(buf, size, "[%c] ", e->level);

	if (sym && m->daddr_dso && sym->type == STT_OBJECT)
		n += snprintf(buf + n, size - n, "%s+0x%llx", sym->name,
			      (unsigned long long)(m->daddr_off - sym->start));
	else if (sym && m->daddr_dso)
		n += snprintf(buf + n, size - n, "%.*s", width - n, sym->name);
	else
		n += snprintf(buf + n, size - n, "%-#.*llx", UNRESOLVED_WIDTH,
			      (unsigned long long)(m ? m->daddr : 0));
	return n;
}

int pulse_stdio_mem__snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
			      enum pulse_sort_key key, int width)
{
	const struct pulse_hist_mem *m = e->mem;
	const uint64_t *ds = m ? &m->data_src : NULL;
	char out[64];

	switch (key) {
	case PULSE_SORT_LOCAL_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, width, m ? m->weight : 0);
	case PULSE_SORT_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, width, (m ? m->weight : 0) * e->nr_samples);
	case PULSE_SORT_LOCAL_INS_LAT:
		return snprintf(buf, size, "%-*u", width, m ? m->ins_lat : 0);
	case PULSE_SORT_INS_LAT:
		/* perf's u16 times the u32 count, printed with %u */
		return snprintf(buf, size, "%-*u", width,
				(unsigned int)((m ? m->ins_lat : 0) * (uint32_t)e->nr_samples));
	case PULSE_SORT_SYM_DADDR:
		return daddr_snprintf(buf, size, e, width);
	case PULSE_SORT_DSO_DADDR:
		return snprintf(buf, size, "%-*.*s", width, width,
				m && m->daddr_dso ? m->daddr_dso->short_name : "[unknown]");
	case PULSE_SORT_MEM:
		pulse_data_src__lvl_scnprintf(out, 64, ds);
		break;
	case PULSE_SORT_SNOOP:
		pulse_data_src__snp_scnprintf(out, 64, ds);
		break;
	case PULSE_SORT_TLB:
		pulse_data_src__tlb_scnprintf(out, 64, ds);
		break;
	case PULSE_SORT_LOCKED:
		pulse_data_src__lck_scnprintf(out, 10, ds);
		/* perf's "%.*s": padded only where another column follows */
		return snprintf(buf, size, "%.*s", width, out);
	case PULSE_SORT_BLOCKED:
		pulse_data_src__blk_scnprintf(out, 16, ds);
		return snprintf(buf, size, "%.*s", width, out);
	default:
		return 0;
	}
	return snprintf(buf, size, "%-*s", width, out);
}
