// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio tables: the per-event header lines, the column titles
 * with their dotted underline, and one line per histogram entry. Formats
 * and widths are perf 6.1's (ui/stdio/hist.c, util/sort.c, util/hist.c
 * hists__calc_col_len); see include/pulse/output-stdio.h.
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/output-callchain.h>
#include <pulse/output-stdio.h>
#include "core/internal.h"
#include "output/stdio-int.h"
#include "output/stdio-mem.h"
#include "output/stdio-symoff.h"

#define UNRESOLVED_WIDTH 16	/* hex digits of an unresolved address */

static const char *opts_sep(const struct pulse_stdio_opts *opts)
{
	return PULSE_STDIO_OPT(opts, field_sep) && opts->field_sep && *opts->field_sep ?
		       opts->field_sep : NULL;
}

static const char *key_title(enum pulse_sort_key key)
{
	return pulse_sort_key__title(key);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void compute_widths(const struct pulse_hists *h, struct widths *w, bool verbose,
			   const char *sep)
{
	int comm = 0;

	memset(w, 0, sizeof(*w));
	w->verbose = verbose;
	w->sep = sep;
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];

		/* perf's output_resort(): hists__calc_col_len() of shown entries */
		if (e->filtered)
			continue;
		if (e->parent)
			w->parent = max_int(w->parent, e->parent->namelen);
		if (e->sym) {
			/* perf's -v: the address (BITS_PER_LONG / 4 + 2) and origin too */
			w->sym = max_int(w->sym, e->sym->namelen + 4 + (verbose ? 16 + 2 + 3 : 0));
		} else {
			w->sym = max_int(w->sym, UNRESOLVED_WIDTH + 4 + 2);
			/* perf's hists__set_unres_dso_col_len(), not with -t */
			if (!sep)
				w->dso = max_int(w->dso, UNRESOLVED_WIDTH);
		}
		/* perf measures the thread's latest comm, not the entry's */
		comm = max_int(comm, strlen(e->thread->comm));
		if (e->dso)
			w->dso = max_int(w->dso, verbose ? (int)strlen(e->dso->long_name) :
							   (int)e->dso->short_name_len);
		w->trace = max_int(w->trace, strlen(e->trace ? e->trace : "N/A"));
		if (e->srcline && e->srcline_made)
			w->srcline = max_int(w->srcline, strlen(e->srcline));
	}
	w->srcline = max_int(w->srcline, strlen(key_title(PULSE_SORT_SRCLINE)));
	w->trace = max_int(w->trace, strlen(key_title(PULSE_SORT_TRACE)));
	w->comm = max_int(comm, strlen(key_title(PULSE_SORT_COMM)));
	w->pid = max_int(comm ? comm + 8 : 0, strlen(key_title(PULSE_SORT_PID)));
	w->dso = max_int(w->dso, strlen(key_title(PULSE_SORT_DSO)));
	w->sym = max_int(w->sym, strlen(key_title(PULSE_SORT_SYM)));
	w->parent = max_int(w->parent, strlen(key_title(PULSE_SORT_PARENT)));
	if (pulse_hists__has_mem_keys(h))
		pulse_stdio_mem__widths(h, w->mem);
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
	case PULSE_SORT_SRCLINE:
		return w->srcline;
	case PULSE_SORT_CPU:
	case PULSE_SORT_SYM_SIZE:
	case PULSE_SORT_IPC_NULL:
	case PULSE_SORT_SYMOFF:	/* newer perf measures no text of it */
		return strlen(key_title(key));
	case PULSE_SORT_OVERHEAD:
	case PULSE_SORT_OVERHEAD_CHILDREN:
		return 8;
	case PULSE_SORT_SAMPLE:
	case PULSE_SORT_PERIOD:
		return 12;
	default:
		return w->mem[key];
	}
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

/*
 * perf's dso__symtab_origin(): where the DSO's symbols came from, '!' for
 * none. pulse does not keep which file of a DSO gave them: a user DSO's
 * are 'd' (its own path) even when a debug file or the build-id cache gave
 * them.
 */
static char dso_origin(const struct pulse_dso *dso)
{
	if (!dso || !dso->symtab.nr)
		return '!';
	switch (dso->kind) {
	case PULSE_DSO_KERNEL:
		return 'k';
	case PULSE_DSO_MODULE:
		return dso->kmod_text_off ? 'K' : 'k';
	case PULSE_DSO_PERF_MAP:
		return 'j';
	default:
		return 'd';
	}
}

/* One column's text, unpadded unless the key pads itself (as perf's snprintf do). */
static int key_snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
			enum pulse_sort_key key, int width, bool verbose)
{
	int n = 0, w;

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
	case PULSE_SORT_SRCLINE:
		return snprintf(buf, size, "%-.*s", width, e->srcline ? e->srcline : "??:0");
	case PULSE_SORT_SYMOFF:
		return pulse_stdio_symoff__snprintf(buf, size, e, width);
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
				!e->dso ? "[unknown]" : verbose ? e->dso->long_name :
						  e->dso->short_name);
	case PULSE_SORT_SYM:
		if (verbose)
			n = snprintf(buf, size, "%-#*llx %c ", 16 + 2, (unsigned long long)e->ip,
				     dso_origin(e->dso));
		n += snprintf(buf + n, size - n, "[%c] ", e->level);
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
			/* perf's " (inlined)" goes past the column */
			n += snprintf(buf + n, size - n, "%.*s%s", width - n, e->sym->name,
				      e->sym->inlined ? " (inlined)" : "");
		else
			n += snprintf(buf + n, size - n, "%-#.*llx", UNRESOLVED_WIDTH,
				      (unsigned long long)e->ip);
		return n;
	default:
		return pulse_stdio_mem__snprintf(buf, size, e, key, width);
	}
}

int pulse_stdio__event_header(FILE *fp, const char *evname, uint64_t nr_samples,
			      uint64_t total_period, const struct pulse_stdio_opts *opts)
{
	unsigned long v = nr_samples;
	char unit = ' ';

	if (PULSE_STDIO_OPT(opts, quiet) && opts->quiet)
		return 0;
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
	fprintf(fp, "# Samples: %lu%c of event%s '%s'", v, unit,
		PULSE_STDIO_OPT(opts, group_leader) && opts->group_leader ? "s" : "", evname);
	if (opts && opts->time_slices)
		fprintf(fp, " (time slices: %s)", opts->time_slices);
	fputc('\n', fp);
	if (opts && opts->sz > offsetof(struct pulse_stdio_opts, mem_sort_order) &&
	    opts->mem_sort_order)
		fprintf(fp, "# Total weight : %" PRIu64 "\n# Sort order   : %s\n#\n", total_period,
			opts->mem_sort_order);
	else
		fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", total_period);
	return ferror(fp) ? -EIO : 0;
}

static void print_dots(FILE *fp, int n)
{
	while (n-- > 0)
		fputc('.', fp);
}

/*
 * A row is built in memory and written once: 390,000 rows of a dozen
 * printf calls each were a fifth of a report's printing.
 */
struct line {
	char buf[PULSE_SORT_MAX_KEYS * 8192 + 256];	/* key_snprintf()'s cut, each */
	size_t len;
};

static void line__add(struct line *l, const char *s, size_t n)
{
	if (n > sizeof(l->buf) - 1 - l->len)
		n = sizeof(l->buf) - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void line__pad(struct line *l, size_t n)
{
	if (n > sizeof(l->buf) - 1 - l->len)
		n = sizeof(l->buf) - 1 - l->len;
	memset(l->buf + l->len, ' ', n);
	l->len += n;
}

/*
 * "  %7.2f%%" of @v: the digits by integer arithmetic, printf's where its
 * rounding (the exact double's, ties to even) could differ from that
 */
static void line__pct(struct line *l, double v)
{
	double x = v * 100.0, fl = floor(x), frac = x - fl;
	char tmp[32];
	uint64_t n;
	int len;

	if (!(v >= 0 && v < 1e9) || signbit(v) || (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6)) {
		len = snprintf(tmp, sizeof(tmp), "  %7.2f%%", v);
		line__add(l, tmp, len);
		return;
	}
	n = (uint64_t)fl + (frac > 0.5);
	len = snprintf(tmp, sizeof(tmp), "%" PRIu64 ".%02u%%", n / 100, (unsigned int)(n % 100));
	/* two blanks, then the number right-aligned in 7 */
	line__pad(l, 2 + (len - 1 < 7 ? 7 - (len - 1) : 0));
	line__add(l, tmp, len);
}

/*
 * perf's group columns: each member's " %6.2f%%" after the leader's, 100 *
 * value / that member's total (0.00% for a member with none)
 */
static void line__pair_pcts(struct line *l, const struct pulse_hists *h,
			    const struct pulse_hist_entry *e, int which)
{
	for (size_t i = 0; i < h->nr_pairs; i++) {
		uint64_t total = h->pair_totals[i * 2];
		uint64_t v = e->pairs ? e->pairs[i * 3 + which] : 0;
		size_t at = l->len;

		line__pct(l, total ? 100.0 * v / total : 0.0);
		/* line__pct()'s two blanks are the column gap, which members have not */
		memmove(l->buf + at, l->buf + at + 2, l->len - at - 2);
		l->len -= 2;
	}
}

/* -n and --show-total-period in a group: each member's " %11llu" */
static void line__pair_numbers(struct line *l, const struct pulse_hists *h,
			       const struct pulse_hist_entry *e, int which)
{
	char tmp[32];

	for (size_t i = 0; i < h->nr_pairs; i++)
		line__add(l, tmp, snprintf(tmp, sizeof(tmp), " %11" PRIu64,
					   e->pairs ? e->pairs[i * 3 + which] : 0));
}

/* "%-*.*s": @s cut to @width bytes, blanks after it up to @width */
static size_t line__col(struct line *l, const char *s, int width)
{
	size_t n = strnlen(s, width > 0 ? width : 0);

	line__add(l, s, n);
	return n;
}

/* key_snprintf() for the common keys without printf; else that */
static int line__key(struct line *l, const struct pulse_hist_entry *e, enum pulse_sort_key key,
		     int width, bool verbose)
{
	char buf[8192];
	int n;

	/* key_snprintf() cuts at its buffer: the same cut, the same bytes */
	bool fast = width > 0 && width < (int)sizeof(buf) - 1 && !verbose;

	switch (fast ? (int)key : -1) {
	case PULSE_SORT_COMM:
		n = line__col(l, e->comm, width);
		line__pad(l, width - n);
		return width;
	case PULSE_SORT_DSO:
		n = line__col(l, e->dso ? e->dso->short_name : "[unknown]", width);
		line__pad(l, width - n);
		return width;
	case PULSE_SORT_SYM:
		if (e->sym && e->sym->type != STT_OBJECT && width >= 4 && e->level) {
			char lv[4] = { '[', e->level, ']', ' ' };

			line__add(l, lv, 4);
			n = 4 + line__col(l, e->sym->name, width - 4);
			if (e->sym->inlined) {
				line__add(l, " (inlined)", 10);
				n += 10;
			}
			return n;
		}
		break;
	default:
		break;
	}
	n = key_snprintf(buf, sizeof(buf), e, key, width, verbose);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	line__add(l, buf, n);
	return n;
}

/* -t in a group: each member's value @which as " %.2f%%", or " %llu" (@number) */
static int line__sep_pairs(struct line *l, const struct pulse_hists *h,
			   const struct pulse_hist_entry *e, int which, bool number)
{
	char tmp[64];
	int len = 0;

	for (size_t i = 0; i < h->nr_pairs; i++) {
		uint64_t total = h->pair_totals[i * 2];
		uint64_t v = e->pairs ? e->pairs[i * 3 + which] : 0;
		int n = number ? snprintf(tmp, sizeof(tmp), " %" PRIu64, v) :
				     snprintf(tmp, sizeof(tmp), " %.2f%%",
					      total ? 100.0 * v / total : 0.0);

		line__add(l, tmp, n);
		len += n;
	}
	return len;
}

/*
 * -t: perf's " %.2f%%" and " %llu" columns at their least width (a
 * group's members after the leader), padded after to their width (a key
 * column always follows)
 */
static void line__sep_numbers(struct line *l, const struct widths *w,
			      const struct pulse_hists *h, const struct pulse_hist_entry *e,
			      double acc, double pct, bool show_nr, bool show_period)
{
	int nr = 1 + (int)h->nr_pairs;
	char tmp[64];
	int n;

	if (h->cumulate) {
		n = snprintf(tmp, sizeof(tmp), " %.2f%%", acc);
		line__add(l, tmp, n);
		n += line__sep_pairs(l, h, e, 2, false);
		line__pad(l, n < 8 * nr ? 8 * nr - n : 0);
		line__add(l, w->sep, strlen(w->sep));
	}
	n = snprintf(tmp, sizeof(tmp), " %.2f%%", pct);
	line__add(l, tmp, n);
	n += line__sep_pairs(l, h, e, 0, false);
	line__pad(l, n < 8 * nr ? 8 * nr - n : 0);
	for (int i = 0; i < 2; i++) {
		if (!(i ? show_period : show_nr))
			continue;
		line__add(l, w->sep, strlen(w->sep));
		n = snprintf(tmp, sizeof(tmp), " %" PRIu64, i ? e->period : e->nr_samples);
		line__add(l, tmp, n);
		n += line__sep_pairs(l, h, e, i ? 0 : 1, true);
		line__pad(l, n < 12 * nr ? 12 * nr - n : 0);
	}
}

/*
 * -F and the hpp keys: one of perf's output fields, after its "  " (or
 * -t's separator): the numbers right-aligned, a key padded but in the
 * last column. Children without --children is perf's "N/A".
 */
static void line__field(struct line *l, const struct pulse_hists *h,
			const struct pulse_hist_entry *e, enum pulse_sort_key key,
			const struct widths *w, bool first, bool last)
{
	/* the first column's "  " is the row's indent; -t has none */
	const char *gap = !w->sep ? "  " : first ? "" : w->sep;
	uint64_t total = h->total_period;
	int nr = 1 + (int)h->nr_pairs, which = key == PULSE_SORT_OVERHEAD ? 0 : 2;
	char tmp[64];
	int width, n;
	double v;

	switch (key) {
	case PULSE_SORT_OVERHEAD:
	case PULSE_SORT_OVERHEAD_CHILDREN:
		if (key == PULSE_SORT_OVERHEAD_CHILDREN && !h->cumulate) {
			n = snprintf(tmp, sizeof(tmp), "%s%8s", gap, "N/A");
			line__add(l, tmp, n);
			/* a group's: padded to the column */
			if (!w->sep || !last)
				line__pad(l, 8 * (nr - 1));
			return;
		}
		v = total ? 100.0 * (key == PULSE_SORT_OVERHEAD ? e->period : e->acc_period) /
				    total : 0.0;
		if (!w->sep) {
			line__pct(l, v);
			line__pair_pcts(l, h, e, which);
			return;
		}
		line__add(l, gap, strlen(gap));
		n = snprintf(tmp, sizeof(tmp), " %.2f%%", v);
		line__add(l, tmp, n);
		n += line__sep_pairs(l, h, e, which, false);
		if (!last)
			line__pad(l, n < 8 * nr ? 8 * nr - n : 0);
		return;
	case PULSE_SORT_SAMPLE:
	case PULSE_SORT_PERIOD:
		if (w->sep) {
			line__add(l, gap, strlen(gap));
			n = snprintf(tmp, sizeof(tmp), " %" PRIu64,
				     key == PULSE_SORT_SAMPLE ? e->nr_samples : e->period);
			line__add(l, tmp, n);
			n += line__sep_pairs(l, h, e, key == PULSE_SORT_SAMPLE, true);
			if (!last)
				line__pad(l, n < 12 * nr ? 12 * nr - n : 0);
			return;
		}
		line__add(l, tmp, snprintf(tmp, sizeof(tmp), "  %12" PRIu64,
					   key == PULSE_SORT_SAMPLE ? e->nr_samples : e->period));
		line__pair_numbers(l, h, e, key == PULSE_SORT_SAMPLE);
		return;
	default:
		break;
	}
	width = key_width(w, key);
	line__add(l, gap, strlen(gap));
	n = line__key(l, e, key, width, w->verbose);
	for (size_t c = l->len - n; w->sep && c < l->len; c++)
		if (l->buf[c] == w->sep[0])
			l->buf[c] = '.';
	if (!last && n < width)
		line__pad(l, width - n);
}

/* the rows of entries [@from, @to) with their callchains */
void pulse_stdio__print_rows(const struct pulse_hists *h, const struct pulse_stdio_opts *opts,
			     const struct widths *wp, FILE *fp, size_t from, size_t to)
{
	bool show_nr = opts && opts->show_nr_samples;
	bool show_period = opts && opts->show_total_period;
	double limit = opts ? opts->percent_limit : 0;
	const struct widths w = *wp;
	struct line *l = malloc(sizeof(*l));
	char tmp[32];

	if (!l)
		return;
	for (size_t i = from; i < to; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];
		double pct = h->total_period ? 100.0 * e->period / h->total_period : 0.0;
		double acc = h->total_period ? 100.0 * e->acc_period / h->total_period : 0.0;

		if (e->filtered || (h->cumulate ? acc : pct) < limit)
			continue;
		l->len = 0;
		if (h->nr_fields) {
			for (size_t f = 0; f < h->nr_fields; f++)
				line__field(l, h, e, h->fields[f], &w, !f, f + 1 == h->nr_fields);
			goto row_done;
		}
		if (w.sep) {
			line__sep_numbers(l, &w, h, e, acc, pct, show_nr, show_period);
		} else {
			if (h->cumulate) {
				line__pct(l, acc);
				line__pair_pcts(l, h, e, 2);
			}
			line__pct(l, pct);
			line__pair_pcts(l, h, e, 0);
		}
		if (show_nr && !w.sep) {
			line__add(l, tmp, snprintf(tmp, sizeof(tmp), "  %12" PRIu64, e->nr_samples));
			line__pair_numbers(l, h, e, 1);
		}
		if (show_period && !w.sep) {
			line__add(l, tmp, snprintf(tmp, sizeof(tmp), "  %12" PRIu64, e->period));
			line__pair_numbers(l, h, e, 0);
		}
		for (size_t k = 0; k < h->nr_keys; k++) {
			int width = key_width(&w, h->keys[k]);
			size_t at;
			int n;

			if (w.sep)
				line__add(l, w.sep, strlen(w.sep));
			else
				line__add(l, "  ", 2);
			at = l->len;
			n = line__key(l, e, h->keys[k], width, w.verbose);
			/* perf's repsep_snprintf() */
			for (size_t c = at; w.sep && c < l->len; c++)
				if (l->buf[c] == w.sep[0])
					l->buf[c] = '.';
			/* perf pads every column but the last to its width */
			if (k + 1 < h->nr_keys && n < width)
				line__pad(l, width - n);
		}
row_done:
		line__add(l, "\n", 1);
		fwrite(l->buf, 1, l->len, fp);
		if (h->use_callchain && e->callchain)
			pulse_callchain__fprintf(fp, e->callchain, &h->cc,
						 h->abs_total_period ?: h->total_period,
						 h->cumulate ? e->acc_period : e->period,
						 opts && opts->sort_starts_with_sym);
	}
	free(l);
}

/* -t: perf's titles, joined by @sep, without the dotted line */
static void fprintf_sep_titles(FILE *fp, const char *sep, bool show_nr, bool show_period,
			       bool children, const char *const *titles, const int *widths,
			       size_t n, int nr)
{
	if (children)
		fprintf(fp, "# %*s%s%*s", 8 * nr, "Children", sep, 8 * nr, "Self");
	else
		fprintf(fp, "# %*s", 8 * nr, "Overhead");
	if (show_nr)
		fprintf(fp, "%s%*s", sep, 12 * nr, "Samples");
	if (show_period)
		fprintf(fp, "%s%*s", sep, 12 * nr, "Period");
	for (size_t k = 0; k < n; k++)
		fprintf(fp, "%s%-*s", sep, widths[k], titles[k]);
	fputc('\n', fp);
}

/* -F and the hpp keys: perf's titles of the output fields, and their dots */
static void fprintf_field_titles(FILE *fp, const struct pulse_hists *h,
				 const struct pulse_stdio_opts *opts, const struct widths *w)
{
	const char *sep = opts_sep(opts);

	if (PULSE_STDIO_OPT(opts, quiet) && opts->quiet)
		return;
	fputc('#', fp);
	for (size_t f = 0; f < h->nr_fields; f++) {
		enum pulse_sort_key key = h->fields[f];
		const char *title = key_title(key);

		if (key == PULSE_SORT_OVERHEAD && h->self_title)
			title = "Self";
		fputs(!f ? " " : sep ?: "  ", fp);
		if (pulse_sort_key__is_hpp(key))
			fprintf(fp, "%*s", key_width(w, key) * (1 + (int)h->nr_pairs), title);
		else
			fprintf(fp, "%-*s", key_width(w, key), title);
	}
	if (sep) {
		fputc('\n', fp);
		return;
	}
	fputs("\n#", fp);
	for (size_t f = 0; f < h->nr_fields; f++) {
		fputs(!f ? " " : "  ", fp);
		print_dots(fp, key_width(w, h->fields[f]) *
				       (pulse_sort_key__is_hpp(h->fields[f]) ? 1 + (int)h->nr_pairs : 1));
	}
	fputs("\n#\n", fp);
}

/* @nr: the columns of a group (perf's hpp__width_fn(): the title over all of them) */
static void fprintf_titles(FILE *fp, const struct pulse_stdio_opts *opts, bool children,
			   const char *const *titles, const int *widths, size_t n, int nr)
{
	bool show_nr = opts && opts->show_nr_samples;
	bool show_period = opts && opts->show_total_period;

	const char *sep = opts_sep(opts);

	if (PULSE_STDIO_OPT(opts, quiet) && opts->quiet)
		return;
	if (sep) {
		fprintf_sep_titles(fp, sep, show_nr, show_period, children, titles, widths, n, nr);
		return;
	}
	if (children)
		fprintf(fp, "# %*s  %*s", 8 * nr, "Children", 8 * nr, "Self");
	else
		fprintf(fp, "# %*s", 8 * nr, "Overhead");
	if (show_nr)
		fprintf(fp, "  %*s", 12 * nr, "Samples");
	if (show_period)
		fprintf(fp, "  %*s", 12 * nr, "Period");
	for (size_t k = 0; k < n; k++)
		fprintf(fp, "  %-*s", widths[k], titles[k]);
	fputs("\n# ", fp);
	print_dots(fp, 8 * nr);
	if (children) {
		fputs("  ", fp);
		print_dots(fp, 8 * nr);
	}
	if (show_nr) {
		fputs("  ", fp);
		print_dots(fp, 12 * nr);
	}
	if (show_period) {
		fputs("  ", fp);
		print_dots(fp, 12 * nr);
	}
	for (size_t k = 0; k < n; k++) {
		fputs("  ", fp);
		print_dots(fp, widths[k]);
	}
	fputs("\n#\n", fp);
}

void pulse_stdio__fprintf_titles(FILE *fp, const struct pulse_stdio_opts *opts, bool children,
				 const char *const *titles, const int *widths, size_t n)
{
	fprintf_titles(fp, opts, children, titles, widths, n, 1);
}

int pulse_hists__fprintf(const struct pulse_hists *h, FILE *fp,
			 const struct pulse_stdio_opts *opts)
{
	struct widths w;
	const char *titles[PULSE_SORT_MAX_KEYS];
	int widths[PULSE_SORT_MAX_KEYS];

	compute_widths(h, &w, PULSE_STDIO_OPT(opts, verbose) && opts->verbose, opts_sep(opts));
	if (h->nr_fields) {
		fprintf_field_titles(fp, h, opts, &w);
		goto rows;
	}
	for (size_t k = 0; k < h->nr_keys; k++) {
		titles[k] = key_title(h->keys[k]);
		widths[k] = key_width(&w, h->keys[k]);
	}
	fprintf_titles(fp, opts, h->cumulate, titles, widths, h->nr_keys, 1 + (int)h->nr_pairs);

rows:
	if (pulse_stdio__print_rows_parallel(h, opts, &w, fp))
		pulse_stdio__print_rows(h, opts, &w, fp, 0, h->nr_entries);
	return ferror(fp) ? -EIO : 0;
}
