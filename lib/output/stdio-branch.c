// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio in branch mode: the columns of perf 6.1's branch
 * sort keys (util/sort.c hist_entry__*_snprintf()) with the widths its
 * hists__calc_col_len() gives them. Every field pads itself to its width,
 * the last one too, and a name longer than its column is cut.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <pulse/hist-branch.h>
#include <pulse/output-stdio.h>
#include "core/internal.h"

/* perf's BITS_PER_LONG / 4: hex digits of an unresolved address */
#define UNRESOLVED_WIDTH 16

static const char *const titles[] = {
	[PULSE_BSORT_COMM] = "Command",
	[PULSE_BSORT_DSO_FROM] = "Source Shared Object",
	[PULSE_BSORT_DSO_TO] = "Target Shared Object",
	[PULSE_BSORT_SYM_FROM] = "Source Symbol",
	[PULSE_BSORT_SYM_TO] = "Target Symbol",
	[PULSE_BSORT_MISPREDICT] = "Branch Mispredicted",
	[PULSE_BSORT_IN_TX] = "Branch in transaction",
	[PULSE_BSORT_ABORT] = "Transaction abort",
	[PULSE_BSORT_CYCLES] = "Basic Block Cycles",
	[PULSE_BSORT_IPC_LBR] = "IPC   [IPC Coverage]",
	[PULSE_BSORT_DSO] = "Shared Object",
	[PULSE_BSORT_SYM] = "Symbol",
	[PULSE_BSORT_PID] = "    Pid:Command",
};

static void grow(int *w, int n)
{
	if (n > *w)
		*w = n;
}

/* hists__calc_col_len() for one end: the symbol's column, the DSO's */
static void end_widths(const struct pulse_branch_end *e, bool dso_list, int *sym, int *dso)
{
	if (e->sym) {
		grow(sym, e->sym->namelen + 4);
		grow(dso, e->dso ? (int)e->dso->short_name_len : 9);
	} else {
		grow(sym, UNRESOLVED_WIDTH + 4 + 2);
		if (!dso_list)
			grow(dso, UNRESOLVED_WIDTH);
	}
}

static void compute_widths(const struct pulse_branch_hists *h, int *w)
{
	for (size_t k = 0; k < ARRAY_SIZE(titles); k++)
		w[k] = strlen(titles[k]);
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_branch_hist_entry *e = &h->entries[i];

		if (e->filtered)
			continue;
		/* perf measures the thread's latest comm, not the entry's */
		grow(&w[PULSE_BSORT_COMM], strlen(e->thread->comm));
		grow(&w[PULSE_BSORT_PID], strlen(e->thread->comm) + 8);
		end_widths(&e->from, h->dso_list, &w[PULSE_BSORT_SYM_FROM],
			   &w[PULSE_BSORT_DSO_FROM]);
		end_widths(&e->to, h->dso_list, &w[PULSE_BSORT_SYM_TO], &w[PULSE_BSORT_DSO_TO]);
		/* the entry's own symbol and DSO columns: the target's */
		grow(&w[PULSE_BSORT_SYM], e->to.sym ? (int)e->to.sym->namelen + 4 :
		     UNRESOLVED_WIDTH + 4 + 2);
		if (!e->to.sym && !h->dso_list)
			grow(&w[PULSE_BSORT_DSO], UNRESOLVED_WIDTH);
		if (e->to.dso)
			grow(&w[PULSE_BSORT_DSO], e->to.dso->short_name_len);
	}
}

/*
 * _hist_entry__sym_snprintf(): "[l] " and the name or the address @addr,
 * cut at the width; padded by perf's hist_entry__snprintf_alignment(),
 * which leaves the last column as it is
 */
static void put_sym(FILE *fp, const struct pulse_branch_end *e, uint64_t addr, char level,
		    int width, bool last)
{
	char buf[8192];
	int n = snprintf(buf, sizeof(buf), "[%c] ", level);

	if (e->sym)
		n += snprintf(buf + n, sizeof(buf) - n, "%.*s", width - n > 0 ? width - n : 0,
			      e->sym->name);
	else
		n += snprintf(buf + n, sizeof(buf) - n, "%-#.*llx", UNRESOLVED_WIDTH,
			      (unsigned long long)addr);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (n > width)
		n = width;
	fprintf(fp, "%-*.*s", last ? 0 : width, n, buf);
}

static void put_key(FILE *fp, const struct pulse_branch_hist_entry *e,
		    enum pulse_branch_sort_key key, int width, bool last,
		    struct pulse_branch_print_state *st)
{
	const struct pulse_branch_flags *f = &e->flags;

	switch (key) {
	case PULSE_BSORT_COMM:
		fprintf(fp, "%-*.*s", width, width, e->comm);
		break;
	case PULSE_BSORT_DSO_FROM:
	case PULSE_BSORT_DSO_TO: {
		const struct pulse_dso *dso = key == PULSE_BSORT_DSO_FROM ? e->from.dso : e->to.dso;

		fprintf(fp, "%-*.*s", width, width, dso ? dso->short_name : "[unknown]");
		break;
	}
	case PULSE_BSORT_SYM_FROM:
		put_sym(fp, &e->from, e->from.al_addr, e->from.level, width, last);
		break;
	case PULSE_BSORT_SYM_TO:
		put_sym(fp, &e->to, e->to.al_addr, e->to.level, width, last);
		break;
	case PULSE_BSORT_SYM:
		/* perf's entry: the target's symbol and address, the sample's level */
		put_sym(fp, &e->to, e->to.addr, e->level, width, last);
		break;
	case PULSE_BSORT_DSO:
		fprintf(fp, "%-*.*s", width, width, e->to.dso ? e->to.dso->short_name : "[unknown]");
		break;
	case PULSE_BSORT_PID:
		fprintf(fp, "%7d:%-*.*s", e->thread->tid, width - 8, width - 8, e->thread->comm);
		break;
	case PULSE_BSORT_MISPREDICT:
		/* perf keeps the last answer in a static: neither flag repeats it */
		if (!st->mispredict)
			st->mispredict = "N/A";
		if (f->predicted)
			st->mispredict = "N";
		else if (f->mispred)
			st->mispredict = "Y";
		fprintf(fp, "%-*.*s", width, width, st->mispredict);
		break;
	case PULSE_BSORT_IN_TX:
		fprintf(fp, "%-*s", width, f->in_tx ? "T" : ".");
		break;
	case PULSE_BSORT_ABORT:
		fprintf(fp, "%-*s", width, f->abort ? "A" : ".");
		break;
	case PULSE_BSORT_CYCLES:
		/* "%hd": cycles above 32767 print negative, as in perf */
		if (!f->cycles)
			fprintf(fp, "%-*s", width, "-");
		else
			fprintf(fp, "%-*hd", width, (short)f->cycles);
		break;
	case PULSE_BSORT_IPC_LBR:
		/* without annotation perf has no instruction counts: 0 */
		fprintf(fp, "%-*s", width, e->to.sym ? "0.00  [  0.0%]" : "-");
		break;
	}
}

int pulse_branch_hists__fprintf(const struct pulse_branch_hists *h, FILE *fp,
				const struct pulse_stdio_opts *opts,
				struct pulse_branch_print_state *st)
{
	bool show_nr = opts && opts->show_nr_samples;
	bool show_period = opts && opts->show_total_period;
	double limit = opts ? opts->percent_limit : 0;
	int w[ARRAY_SIZE(titles)];

	const char *shown_titles[PULSE_BSORT_MAX_KEYS];
	int shown_widths[PULSE_BSORT_MAX_KEYS];
	size_t nr_shown = 0;

	compute_widths(h, w);
	for (size_t k = 0; k < h->nr_keys; k++) {
		if (h->hidden[k])
			continue;
		shown_titles[nr_shown] = titles[h->keys[k]];
		shown_widths[nr_shown++] = w[h->keys[k]];
	}
	pulse_stdio__fprintf_titles(fp, opts, false, shown_titles, shown_widths, nr_shown);
	for (size_t i = 0; i < h->nr_order; i++) {
		const struct pulse_branch_hist_entry *e = &h->entries[h->order[i]];
		double pct = h->total_period ? 100.0 * e->period / h->total_period : 0.0;

		if (e->filtered || pct < limit)
			continue;
		fprintf(fp, "  %7.2f%%", pct);
		if (show_nr)
			fprintf(fp, "  %12" PRIu64, e->nr_samples);
		if (show_period)
			fprintf(fp, "  %12" PRIu64, e->period);
		for (size_t k = 0, shown = 0; k < h->nr_keys; k++) {
			if (h->hidden[k])
				continue;
			fputs("  ", fp);
			put_key(fp, e, h->keys[k], w[h->keys[k]], ++shown == nr_shown, st);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}
