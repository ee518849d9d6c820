// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio tables: the per-event header lines, the column titles
 * with their dotted underline, and one line per histogram entry. Formats
 * and widths are perf 6.1's (ui/stdio/hist.c, util/sort.c, util/hist.c
 * hists__calc_col_len); see include/pulse/output-stdio.h.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <pulse/output-callchain.h>
#include <pulse/output-stdio.h>
#include "core/internal.h"

#define UNRESOLVED_WIDTH 16	/* hex digits of an unresolved address */

struct widths {
	int comm;	/* Command */
	int pid;	/* Pid:Command */
	int dso;	/* Shared Object */
	int sym;	/* Symbol */
	int trace;	/* Trace output */
	int parent;	/* Parent symbol */
};

static const char *key_title(enum pulse_sort_key key)
{
	return pulse_sort_key__title(key);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void compute_widths(const struct pulse_hists *h, struct widths *w)
{
	int comm = 0;

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];

		/* perf's output_resort(): hists__calc_col_len() of shown entries */
		if (e->filtered)
			continue;
		if (e->parent)
			w->parent = max_int(w->parent, e->parent->namelen);
		if (e->sym) {
			w->sym = max_int(w->sym, e->sym->namelen + 4);
		} else {
			w->sym = max_int(w->sym, UNRESOLVED_WIDTH + 4 + 2);
			w->dso = max_int(w->dso, UNRESOLVED_WIDTH);
		}
		/* perf measures the thread's latest comm, not the entry's */
		comm = max_int(comm, strlen(e->thread->comm));
		if (e->dso)
			w->dso = max_int(w->dso, e->dso->short_name_len);
		w->trace = max_int(w->trace, strlen(e->trace ? e->trace : "N/A"));
	}
	w->trace = max_int(w->trace, strlen(key_title(PULSE_SORT_TRACE)));
	w->comm = max_int(comm, strlen(key_title(PULSE_SORT_COMM)));
	w->pid = max_int(comm ? comm + 8 : 0, strlen(key_title(PULSE_SORT_PID)));
	w->dso = max_int(w->dso, strlen(key_title(PULSE_SORT_DSO)));
	w->sym = max_int(w->sym, strlen(key_title(PULSE_SORT_SYM)));
	w->parent = max_int(w->parent, strlen(key_title(PULSE_SORT_PARENT)));
}

static int key_width(const struct widths *w, enum pulse_sort_key key)
{
	switch (key) {
	case PULSE_SORT_COMM:
		return w->comm;
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		return w->pid;
	case PULSE_SORT_DSO:
		return w->dso;
	case PULSE_SORT_SYM:
		return w->sym;
	case PULSE_SORT_TRACE:
		return w->trace;
	case PULSE_SORT_PARENT:
		return w->parent;
	case PULSE_SORT_CPU:
	case PULSE_SORT_SYM_SIZE:
	case PULSE_SORT_IPC_NULL:
		return strlen(key_title(key));
	}
	return 0;
}

/*
 * perf's map->unmap_ip(map, addr) for the entry's DSO: the address a DSO
 * offset had in the first sample's process (kernel, JIT and other identity
 * maps: the offset itself). Found again through the thread's maps, where a
 * DSO's segments share one load bias.
 */
static uint64_t entry__unmap_ip(const struct pulse_hist_entry *e, uint64_t addr)
{
	const struct pulse_maps *maps = e->thread ? e->thread->maps : NULL;

	if (!maps || !e->dso || e->dso->kind == PULSE_DSO_KERNEL)
		return addr;
	for (size_t i = 0; i < maps->nr; i++) {
		const struct pulse_map *m = &maps->maps[i];

		if (m->dso != e->dso || m->identity)
			continue;
		if (e->ip >= m->pgoff && e->ip - m->pgoff < m->end - m->start)
			return addr + m->start - m->pgoff;
	}
	return addr;
}

/* One column's text, unpadded unless the key pads itself (as perf's snprintf do). */
static int key_snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
			enum pulse_sort_key key, int width)
{
	int n, w;

	switch (key) {
	case PULSE_SORT_COMM:
		return snprintf(buf, size, "%-*.*s", width, width, e->comm);
	case PULSE_SORT_CPU:
		return snprintf(buf, size, "%*.*d", width, width, e->cpu);
	case PULSE_SORT_SYM_SIZE:
		if (e->sym)
			return snprintf(buf, size, "%*d", width, (int)(e->sym->end - e->sym->start));
		return snprintf(buf, size, "%*s", width, "unknown");
	case PULSE_SORT_TRACE:
		return snprintf(buf, size, "%-.*s", width, e->trace ? e->trace : "N/A");
	case PULSE_SORT_IPC_NULL:
		return snprintf(buf, size, "%-*s", width, "-      -");
	case PULSE_SORT_PARENT:
		return snprintf(buf, size, "%-*.*s", width, width,
				e->parent ? e->parent->name : "[other]");
	case PULSE_SORT_PID:
	case PULSE_SORT_TID:
		w = max_int(7, width) - 8;
		return snprintf(buf, size, "%7d:%-*.*s", e->thread->tid, w, w, e->thread->comm);
	case PULSE_SORT_DSO:
		return snprintf(buf, size, "%-*.*s", width, width,
				e->dso ? e->dso->short_name : "[unknown]");
	case PULSE_SORT_SYM:
		n = snprintf(buf, size, "[%c] ", e->level);
		/*
		 * perf's _hist_entry__sym_snprintf(): a data symbol gets the first
		 * sample's offset, taken between a DSO offset and an address (so
		 * the load address shows through, as perf has it), and is never
		 * cut to the column.
		 */
		if (e->sym && e->sym->type == STT_OBJECT)
			n += snprintf(buf + n, size - n, "%s+0x%llx", e->sym->name,
				      (unsigned long long)(e->ip - entry__unmap_ip(e, e->sym->start)));
		else if (e->sym)
			n += snprintf(buf + n, size - n, "%.*s", width - n, e->sym->name);
		else
			n += snprintf(buf + n, size - n, "%-#.*llx", UNRESOLVED_WIDTH,
				      (unsigned long long)e->ip);
		return n;
	}
	return 0;
}

int pulse_stdio__event_header(FILE *fp, const char *evname, uint64_t nr_samples,
			      uint64_t total_period, const struct pulse_stdio_opts *opts)
{
	unsigned long v = nr_samples;
	char unit = ' ';

	/* perf's convert_unit() */
	if (v > 1000) {
		v /= 1000;
		unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		unit = 'G';
	}
	fprintf(fp, "# Samples: %lu%c of event '%s'", v, unit, evname);
	if (opts && opts->time_slices)
		fprintf(fp, " (time slices: %s)", opts->time_slices);
	fputc('\n', fp);
	fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", total_period);
	return ferror(fp) ? -EIO : 0;
}

static void print_dots(FILE *fp, int n)
{
	while (n-- > 0)
		fputc('.', fp);
}

int pulse_hists__fprintf(const struct pulse_hists *h, FILE *fp,
			 const struct pulse_stdio_opts *opts)
{
	bool show_nr = opts && opts->show_nr_samples;
	bool show_period = opts && opts->show_total_period;
	double limit = opts ? opts->percent_limit : 0;
	struct widths w;
	char buf[8192];

	compute_widths(h, &w);

	if (h->cumulate)
		fprintf(fp, "# %8s  %8s", "Children", "Self");
	else
		fprintf(fp, "# %8s", "Overhead");
	if (show_nr)
		fprintf(fp, "  %12s", "Samples");
	if (show_period)
		fprintf(fp, "  %12s", "Period");
	for (size_t k = 0; k < h->nr_keys; k++)
		fprintf(fp, "  %-*s", key_width(&w, h->keys[k]), key_title(h->keys[k]));
	fputs("\n# ", fp);
	print_dots(fp, 8);
	if (h->cumulate) {
		fputs("  ", fp);
		print_dots(fp, 8);
	}
	if (show_nr) {
		fputs("  ", fp);
		print_dots(fp, 12);
	}
	if (show_period) {
		fputs("  ", fp);
		print_dots(fp, 12);
	}
	for (size_t k = 0; k < h->nr_keys; k++) {
		fputs("  ", fp);
		print_dots(fp, key_width(&w, h->keys[k]));
	}
	fputs("\n#\n", fp);

	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];
		double pct = h->total_period ? 100.0 * e->period / h->total_period : 0.0;
		double acc = h->total_period ? 100.0 * e->acc_period / h->total_period : 0.0;

		if (e->filtered || (h->cumulate ? acc : pct) < limit)
			continue;
		if (h->cumulate)
			fprintf(fp, "  %7.2f%%", acc);
		fprintf(fp, "  %7.2f%%", pct);
		if (show_nr)
			fprintf(fp, "  %12" PRIu64, e->nr_samples);
		if (show_period)
			fprintf(fp, "  %12" PRIu64, e->period);
		for (size_t k = 0; k < h->nr_keys; k++) {
			int width = key_width(&w, h->keys[k]);
			int n = key_snprintf(buf, sizeof(buf), e, h->keys[k], width);

			if (n >= (int)sizeof(buf))
				n = sizeof(buf) - 1;
			/* perf pads every column but the last to its width */
			if (k + 1 < h->nr_keys && n < width)
				fprintf(fp, "  %s%*s", buf, width - n, "");
			else
				fprintf(fp, "  %s", buf);
		}
		fputc('\n', fp);
		if (h->use_callchain && e->callchain)
			pulse_callchain__fprintf(fp, e->callchain, &h->cc,
						 h->abs_total_period ?: h->total_period,
						 h->cumulate ? e->acc_period : e->period,
						 opts && opts->sort_starts_with_sym);
	}
	return ferror(fp) ? -EIO : 0;
}
