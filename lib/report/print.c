// SPDX-License-Identifier: GPL-2.0
/*
 * The report as perf 6.1's `perf report --stdio` prints it: the columns a
 * one-value filter elides (sort__setup_elide()), "Total Lost Samples", one
 * table per event with samples, the tip; and a pipe's in-band features
 * printed as they come (--header, -I).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/output-header.h>
#include <pulse/report.h>

const char pulse_report__header_hint[] =
	"# To display the perf.data header info, please use --header/--header-only options.\n#\n";

void pulse_report__fprintf_feature(FILE *fp, struct pulse_header_env *env,
				   const struct perf_event_header *rec)
{
	uint64_t feat;

	if (rec->size < 16)
		return;
	memcpy(&feat, (const char *)rec + 8, sizeof(feat));
	if (feat < PULSE_FEAT_MAX)
		pulse_header__fprintf_feat(fp, (int)feat, (const char *)rec + 16, rec->size - 16,
					   env);
}

/*
 * perf's sort__setup_elide(): a --comms, --dsos or --symbols list of one
 * value is said once ("# comm: x") and its column left out, unless that
 * would leave no column.
 */
static void report__elide(struct pulse_report *rep, FILE *fp)
{
	/* in --sort order, as perf walks its columns */
	for (size_t k = 0; k < rep->nr_keys; k++) {
		const char *name, *val;

		switch (rep->keys[k]) {
		case PULSE_SORT_SYM:
			/* the names: perf moved the addresses out of its list */
			name = "symbol", val = rep->filter.sym_names;
			break;
		case PULSE_SORT_DSO:
			name = "dso", val = rep->filter.dsos;
			break;
		case PULSE_SORT_COMM:
			name = "comm", val = rep->filter.comms;
			break;
		default:
			continue;
		}
		if (!val || !*val || strchr(val, ','))
			continue;
		fprintf(fp, "# %s: %s\n", name, val);
		for (size_t j = 0; j < rep->nr_hists; j++)
			pulse_hists__hide_key(&rep->hists[j], rep->keys[k]);
	}
}

int pulse_report__fprintf(struct pulse_report *rep, FILE *fp,
			  const struct pulse_stdio_opts *sopts)
{
	char buf[512];

	if (rep->branch.on)
		pulse_report_branch__elide(&rep->branch, fp, rep->filter.comms, rep->filter.dsos,
					   rep->filter.sym_names);
	else
		report__elide(rep, fp);
	if (!sopts->quiet)
		fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", rep->lost_samples);
	for (size_t i = 0; rep->branch.on && i < rep->branch.nr_hists; i++) {
		const char *name = pulse_session__event_name(rep->session, i, buf, sizeof(buf));
		/* -t is not done for branch tables: they keep their blanks */
		struct pulse_stdio_opts bopts = *sopts;

		bopts.field_sep = NULL;
		if (pulse_report_branch__fprintf_event(&rep->branch, i, fp, name, &bopts,
						       rep->relative))
			return -ENOMEM;
	}
	if (!rep->branch.on && pulse_report__setup_groups(rep))
		return -ENOMEM;
	for (size_t i = 0; !rep->branch.on && i < rep->nr_hists; i++) {
		struct pulse_hists *h = &rep->hists[i];
		struct pulse_stdio_opts eopts = *sopts;
		uint64_t nr_samples, total;
		const char *name;

		/* perf's skip_empty looks at the leader's samples alone */
		if (!h->nr_samples || (rep->group.on && pulse_report__is_group_member(rep, i)))
			continue;
		if (rep->relative)
			pulse_hists__use_relative(h);
		nr_samples = h->nr_samples;
		total = h->total_period;
		eopts.group_leader = pulse_report__is_group_leader(rep, i);
		if (rep->group.on && eopts.group_leader) {
			if (pulse_report__link_group(rep, i))
				return -ENOMEM;
			for (size_t j = 0; j < h->nr_pairs; j++) {
				total += h->pair_totals[j * 2];
				nr_samples += h->pair_totals[j * 2 + 1];
			}
			name = pulse_report__group_name(rep, i, buf, sizeof(buf));
		} else {
			name = pulse_session__event_name(rep->session, i, buf, sizeof(buf));
		}
		if (pulse_hists__sort(h) || pulse_hists__sort_chains(h))
			return -ENOMEM;
		pulse_stdio__event_header(fp, name, nr_samples, total, &eopts);
		pulse_hists__fprintf(h, fp, &eopts);
		fputs("\n\n", fp);
	}
	if (!sopts->quiet)
		fputs("#\n# (Tip: For a higher level overview, try: pulse report --sort comm,dso)\n#\n",
		      fp);
	if (rep->branch.on)
		pulse_branch_type_stat__fprintf(&rep->branch.stat, fp);
	return ferror(fp) ? -EIO : 0;
}
