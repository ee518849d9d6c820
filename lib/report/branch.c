// SPDX-License-Identifier: GPL-2.0
/*
 * Whether pulse report runs in branch mode, as perf 6.1's cmd_report()
 * decides: by default when the file's header has the BRANCH_STACK feature
 * and no event samples user stacks; --branch-stack forces it and
 * --no-branch-stack turns it off. A pipe's features come in-band, after
 * perf has decided, so a pipe is in branch mode only when forced.
 *
 * In branch mode every branch of a sample is an entry (lib/hist/hist-branch.c);
 * these are the report's calls into it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/hist-branch.h>
#include <pulse/output-stdio.h>
#include <pulse/reader.h>
#include <pulse/report.h>

bool pulse_report_branch__is_on(struct pulse_data *d, int forced)
{
	__u64 combined = 0;

	if (forced >= 0)
		return forced;
	if (pulse_data__is_pipe(d) || !pulse_data__has_feat(d, PULSE_FEAT_BRANCH_STACK))
		return false;
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++)
		combined |= pulse_data__attr(d, i)->sample_type;
	return !(combined & PERF_SAMPLE_STACK_USER);
}

bool pulse_report_branch__has_data(struct pulse_data *d)
{
	__u64 combined = 0;

	/* perf checks the attrs it has: a pipe's come later */
	if (pulse_data__is_pipe(d))
		return true;
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++)
		combined |= pulse_data__attr(d, i)->sample_type;
	return combined & PERF_SAMPLE_BRANCH_STACK;
}

int pulse_report_branch__setup(struct pulse_report_branch *rb, const char *user_sort,
			       const char **bad, size_t *bad_len)
{
	char buf[512];
	int nr;

	memset(rb, 0, sizeof(*rb));
	rb->on = true;
	/* perf appends ipc_lbr to a --sort that names a symbol key */
	if (user_sort && strstr(user_sort, "symbol")) {
		snprintf(buf, sizeof(buf), "%s,ipc_lbr", user_sort);
		user_sort = buf;
	}
	nr = pulse_branch_sort_keys__parse(user_sort ? user_sort : PULSE_BRANCH_DEFAULT_SORT,
					   rb->keys, PULSE_BSORT_MAX_KEYS, bad, bad_len);
	if (nr < 0)
		return -EINVAL;
	rb->nr_keys = nr;
	return 0;
}

void pulse_report_branch__exit(struct pulse_report_branch *rb)
{
	for (size_t i = 0; i < rb->nr_hists; i++)
		pulse_branch_hists__exit(&rb->hists[i]);
	free(rb->hists);
	rb->hists = NULL;
	rb->nr_hists = 0;
	free(rb->lbr_chain);
	rb->lbr_chain = NULL;
	rb->lbr_alloc = 0;
}

int pulse_report_branch__sample(struct pulse_report_branch *rb, struct pulse_machine *m,
				size_t idx, const struct pulse_sample *s,
				const struct pulse_addr_loc *al, bool hidden)
{
	if (idx >= rb->nr_hists) {
		struct pulse_branch_hists *h = realloc(rb->hists, (idx + 1) * sizeof(*h));

		if (!h)
			return -ENOMEM;
		rb->hists = h;
		for (; rb->nr_hists <= idx; rb->nr_hists++) {
			int err = pulse_branch_hists__init(&h[rb->nr_hists], rb->keys, rb->nr_keys);

			if (err)
				return err;
		}
	}
	return pulse_branch_hists__add_sample(&rb->hists[idx], m, al, s, hidden, &rb->stat);
}

bool pulse_report_branch__has_samples(const struct pulse_report_branch *rb)
{
	for (size_t i = 0; i < rb->nr_hists; i++)
		if (rb->hists[i].nr_samples)
			return true;
	return false;
}

void pulse_report_branch__elide(struct pulse_report_branch *rb, FILE *fp, const char *comms,
				const char *dsos, const char *symbols)
{
	bool hide[PULSE_BSORT_MAX_KEYS] = { false }, all = true;

	/*
	 * perf's sort__setup_elide(), in column order: a filter of one value
	 * hides its key's column; hiding them all shows them all again
	 */
	for (size_t k = 0; k < rb->nr_keys; k++) {
		const char *name, *val;

		switch (rb->keys[k]) {
		case PULSE_BSORT_COMM:
			name = "comm", val = comms;
			break;
		case PULSE_BSORT_DSO:
			name = "dso", val = dsos;
			break;
		case PULSE_BSORT_SYM:
			name = "symbol", val = symbols;
			break;
		default:
			all = false;
			continue;
		}
		hide[k] = val && *val && !strchr(val, ',');
		if (hide[k])
			fprintf(fp, "# %s: %s\n", name, val);
		all &= hide[k];
	}
	for (size_t i = 0; i < rb->nr_hists; i++) {
		rb->hists[i].dso_list = dsos && *dsos;
		for (size_t k = 0; k < rb->nr_keys; k++)
			pulse_branch_hists__hide_key(&rb->hists[i], rb->keys[k], hide[k] && !all);
	}
}

int pulse_report_branch__fprintf_event(struct pulse_report_branch *rb, size_t idx, FILE *fp,
				       const char *evname, const struct pulse_stdio_opts *sopts,
				       bool relative)
{
	struct pulse_branch_hists *h;

	if (idx >= rb->nr_hists || !rb->hists[idx].nr_samples)
		return 0;
	h = &rb->hists[idx];
	if (pulse_branch_hists__sort(h))
		return -ENOMEM;
	if (relative)
		pulse_branch_hists__use_relative(h);
	pulse_stdio__event_header(fp, evname, h->nr_samples, h->total_period, sopts);
	pulse_branch_hists__fprintf(h, fp, sopts, &rb->print_state);
	fputs("\n\n", fp);
	return ferror(fp) ? -EIO : 0;
}
