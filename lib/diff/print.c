// SPDX-License-Identifier: GPL-2.0
/*
 * The table of perf 6.1's `perf diff` (builtin-diff.c's hpp columns, then
 * the sort keys' columns as perf report prints them): per file its
 * columns (the baseline's "Baseline" and -p's "Base period"; each other
 * file's computed column, -F's "Formula", -p's "Period"), titled
 * "Name/N" with more than two files, right-aligned in their width (the
 * title's, or perf's minimum); a cell without a pair is blank.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff-int.h"

#define FORMULA_WIDTH 70	/* perf's MAX_COL_WIDTH */
#define UNRESOLVED_WIDTH 16	/* hex digits of an unresolved address */

enum col_kind { COL_BASELINE, COL_BASE_PERIOD, COL_COMPUTE, COL_FORMULA, COL_PERIOD };

struct col {
	enum col_kind kind;
	size_t file;		/* whose values */
	int width;		/* of the title and the cells */
	char title[FORMULA_WIDTH + 16];		/* right-aligned to width */
};

static const char *compute_title(enum pulse_diff_compute c)
{
	switch (c) {
	case PULSE_DIFF_DELTA:
		return "Delta";
	case PULSE_DIFF_DELTA_ABS:
		return "Delta Abs";
	case PULSE_DIFF_RATIO:
		return "Ratio";
	case PULSE_DIFF_WDIFF:
		return "Weighted diff";
	}
	return "";
}

/* perf's init_header(): the name (with "/N" past two files), at least @width wide */
static void col_init(struct col *c, const struct pulse_diff *diff, enum col_kind kind,
		     size_t file, const char *name, int width)
{
	char buf[48];
	int len;

	if (diff->nr_files > 2)
		snprintf(buf, sizeof(buf), "%s/%zu", name, file);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	len = (int)strlen(buf);
	c->kind = kind;
	c->file = file;
	c->width = width > len ? width : len;
	snprintf(c->title, sizeof(c->title), "%*s", c->width, buf);
}

/* perf's ui_init(): the columns in its order. Return: how many. */
static size_t diff__cols(const struct pulse_diff *diff, struct col *cols)
{
	enum pulse_diff_compute c = diff->opts.compute;
	int cw = c == PULSE_DIFF_DELTA || c == PULSE_DIFF_DELTA_ABS ? 7 : 14;
	size_t n = 0;

	for (size_t f = 0; f < diff->nr_files; f++) {
		if (!f) {
			col_init(&cols[n++], diff, COL_BASELINE, f, "Baseline", 0);
		} else {
			col_init(&cols[n++], diff, COL_COMPUTE, f, compute_title(c), cw);
			if (diff->opts.show_formula)
				col_init(&cols[n++], diff, COL_FORMULA, f, "Formula", FORMULA_WIDTH);
		}
		if (diff->opts.show_period)
			col_init(&cols[n++], diff, f ? COL_PERIOD : COL_BASE_PERIOD, f,
				 f ? "Period" : "Base period", 14);
	}
	return n;
}

static void formula(const struct pulse_diff *diff, const struct diff_row *r, uint64_t pp,
		    size_t f, char *buf, size_t size)
{
	switch (diff->opts.compute) {
	case PULSE_DIFF_DELTA:
	case PULSE_DIFF_DELTA_ABS:
		snprintf(buf, size, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 pp, diff->total[f], r->period, diff->base_total);
		break;
	case PULSE_DIFF_RATIO:
		snprintf(buf, size, "%.0F / %.0F", (double)pp, (double)r->period);
		break;
	case PULSE_DIFF_WDIFF:
		snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 pp, diff->opts.w2, r->period, diff->opts.w1);
		break;
	}
}

/*
 * perf's hpp__color_*() (stdio uses them: no field separator): a cell's
 * text before its padding (" ": blank). Return: 0 (pad on the left to the
 * column's width), or negative: pad on the right.
 */
static int cell(const struct pulse_diff *diff, const struct diff_row *r, const struct col *c,
		 char *buf, size_t size)
{
	size_t at = r->born * diff->nr_files + c->file;
	const struct pulse_hist_entry *p = c->file ? diff->pair[at] : NULL;

	snprintf(buf, size, " ");
	switch (c->kind) {
	case COL_BASELINE:
		if (!r->dummy)
			snprintf(buf, size, "%6.2f%%", r->period * 100.0 / diff->base_total);
		return 0;
	case COL_BASE_PERIOD:
		snprintf(buf, size, "%" PRIu64, r->period);
		return 0;
	default:
		break;
	}
	if (!p)
		return 0;
	switch (c->kind) {
	case COL_COMPUTE:
		if (diff->opts.compute == PULSE_DIFF_DELTA ||
		    diff->opts.compute == PULSE_DIFF_DELTA_ABS)
			snprintf(buf, size, "%+4.2F%%", diff->value[at]);
		else if (r->dummy)
			/* no baseline: nothing to divide by or weigh */
			snprintf(buf, size, "N/A");
		else if (diff->opts.compute == PULSE_DIFF_RATIO && diff->value[at] > 0.0)
			snprintf(buf, size, "%14.6F", diff->value[at]);
		else if (diff->opts.compute == PULSE_DIFF_WDIFF)
			/*
			 * perf's color path: 0 too, 14 wide, then padded on
			 * the right to a wider title ("Weighted diff/1")
			 */
			return -(int)snprintf(buf, size, "%14" PRId64, diff->wdiff[at]);
		break;
	case COL_FORMULA:
		formula(diff, r, diff->pperiod[at], c->file, buf, size);
		break;
	case COL_PERIOD:
		snprintf(buf, size, "%" PRIu64, diff->pperiod[at]);
		break;
	default:
		break;
	}
	return 0;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* perf's hists__calc_col_len() over the rows shown */
static int key_width(const struct pulse_diff *diff, enum pulse_sort_key key)
{
	int w = (int)strlen(pulse_sort_key__title(key));

	for (size_t i = 0; i < diff->nr_rows; i++) {
		const struct pulse_hist_entry *e = diff->rows[i].e;

		if (e->filtered)
			continue;
		switch (key) {
		case PULSE_SORT_COMM:
			/* perf measures the thread's latest comm */
			w = max_int(w, (int)strlen(e->thread->comm));
			break;
		case PULSE_SORT_PID:
			w = max_int(w, (int)strlen(e->thread->comm) + 8);
			break;
		case PULSE_SORT_DSO:
			if (e->dso)
				w = max_int(w, (int)e->dso->short_name_len);
			/* perf's hists__set_unres_dso_col_len() */
			if (!e->sym)
				w = max_int(w, UNRESOLVED_WIDTH);
			break;
		case PULSE_SORT_SYM:
			w = max_int(w, e->sym ? (int)e->sym->namelen + 4 : UNRESOLVED_WIDTH + 4 + 2);
			break;
		default:
			break;
		}
	}
	return w;
}

/* a key's cell as perf's se_snprintf() makes it */
static int key_cell(const struct pulse_hist_entry *e, enum pulse_sort_key key, int width,
		    char *buf, size_t size)
{
	int n;

	switch (key) {
	case PULSE_SORT_COMM:
		return snprintf(buf, size, "%-*.*s", width, width, e->comm);
	case PULSE_SORT_PID:
		n = max_int(7, width) - 8;
		return snprintf(buf, size, "%7d:%-*.*s", e->thread->tid, n, n, e->thread->comm);
	case PULSE_SORT_DSO:
		return snprintf(buf, size, "%-*.*s", width, width,
				e->dso ? e->dso->short_name : "[unknown]");
	case PULSE_SORT_CPU:
		return snprintf(buf, size, "%*.*d", width, width, e->cpu);
	case PULSE_SORT_SYM:
		n = snprintf(buf, size, "[%c] ", e->level);
		if (e->sym)
			n += snprintf(buf + n, size - n, "%.*s", max_int(width - n, 0), e->sym->name);
		else
			n += snprintf(buf + n, size - n, "%-#.*llx", UNRESOLVED_WIDTH,
				      (unsigned long long)e->ip);
		return n;
	default:
		return snprintf(buf, size, "%s", "");
	}
}

static void print_dots(FILE *fp, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', fp);
}

int pulse_diff__fprintf(const struct pulse_diff *diff, FILE *fp, const char *evname, bool first,
			const char *const *paths)
{
	struct col *cols = calloc(diff->nr_files * 3 + 1, sizeof(*cols));
	int kw[PULSE_SORT_MAX_KEYS];
	size_t nr_cols, last_key = 0;
	char buf[512];

	if (!cols)
		return -ENOMEM;
	nr_cols = diff__cols(diff, cols);
	for (size_t k = 0; k < diff->nr_keys; k++) {
		kw[k] = key_width(diff, diff->keys[k]);
		if (!(diff->opts.hidden_keys & (1u << k)))
			last_key = k;
	}
	if (!diff->opts.quiet) {
		fprintf(fp, "%s# Event '%s'\n#\n", first ? "" : "\n", evname);
		/* perf's -v lists them with two files too */
		if (diff->nr_files > 2 || diff->opts.list_files) {
			fputs("# Data files:\n", fp);
			for (size_t f = 0; f < diff->nr_files; f++)
				fprintf(fp, "#  [%zu] %s %s\n", f, paths[f], f ? "" : "(Baseline)");
			fputs("#\n", fp);
		}
		fputs("# ", fp);
		for (size_t c = 0; c < nr_cols; c++)
			fprintf(fp, "%s%s", c ? "  " : "", cols[c].title);
		for (size_t k = 0; k < diff->nr_keys; k++) {
			if (!(diff->opts.hidden_keys & (1u << k)))
				fprintf(fp, "  %-*s", kw[k], pulse_sort_key__title(diff->keys[k]));
		}
		fputs("\n# ", fp);
		for (size_t c = 0; c < nr_cols; c++) {
			fputs(c ? "  " : "", fp);
			print_dots(fp, cols[c].width);
		}
		for (size_t k = 0; k < diff->nr_keys; k++) {
			if (!(diff->opts.hidden_keys & (1u << k))) {
				fputs("  ", fp);
				print_dots(fp, kw[k]);
			}
		}
		fputs("\n#\n", fp);
	}
	for (size_t i = 0; i < diff->nr_rows; i++) {
		const struct diff_row *r = &diff->rows[i];

		/* perf prints no filtered entry */
		if (r->e->filtered)
			continue;
		fputs("  ", fp);
		for (size_t c = 0; c < nr_cols; c++) {
			bool left = cell(diff, r, &cols[c], buf, sizeof(buf)) < 0;

			fprintf(fp, "%s%*s", c ? "  " : "", left ? -cols[c].width : cols[c].width,
				buf);
		}
		for (size_t k = 0; k < diff->nr_keys; k++) {
			int n;

			if (diff->opts.hidden_keys & (1u << k))
				continue;
			n = key_cell(r->e, diff->keys[k], kw[k], buf, sizeof(buf));
			fprintf(fp, "  %s", buf);
			if (k != last_key && n < kw[k])
				fprintf(fp, "%*s", kw[k] - n, "");
		}
		fputc('\n', fp);
	}
	free(cols);
	return ferror(fp) ? -EIO : 0;
}
