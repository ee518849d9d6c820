// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's AUX area options, as perf 6.1 parses them: -m pages,auxpages
 * (record_opts__parse_mmap_pages), -S/--snapshot[=[e]size]
 * (auxtrace_parse_snapshot_options, intel_pt_parse_snapshot_options) and
 * --aux-sample[=size] (auxtrace_parse_sample_options), and the checks that
 * need the events: perf's "No AUX area tracing to snapshot" and "No AUX
 * area event to sample" when no event is on an AUX PMU.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "record.h"

static const char *snapshot_arg;
static bool snapshot_set;
static const char *aux_sample_arg;
static bool aux_sample_set;
static volatile sig_atomic_t snapshot_wanted;

/* -S: SIGUSR2 takes a snapshot of the AUX areas, as perf's */
static void on_sigusr2(int sig)
{
	snapshot_wanted = 1;
}

int record_snapshot_opt(const struct option *opt, const char *arg, int unset)
{
	snapshot_set = !unset;
	snapshot_arg = arg;
	return 0;
}

int record_aux_sample_opt(const struct option *opt, const char *arg, int unset)
{
	aux_sample_set = !unset;
	aux_sample_arg = arg;
	return 0;
}

/*
 * -m DATA[,AUX]: either part may be empty; an empty AUX part is 0 pages,
 * which perf rounds up to 1 (with its line)
 */
int record_parse_mmap_arg(const char *s, size_t *pages, size_t *aux_pages, bool quiet)
{
	const char *comma = strchr(s, ',');
	char *data;
	int ret = 0;

	if (!comma)
		return record_parse_mmap_pages(s, pages, quiet);
	data = strndup(s, comma - s);
	if (!data)
		return -1;
	if (*data)
		ret = record_parse_mmap_pages(data, pages, quiet);
	free(data);
	if (ret)
		return ret;
	return record_parse_mmap_pages(comma[1] ? comma + 1 : "0", aux_pages, quiet);
}

/* a size as intel_pt_parse_snapshot_options() takes it: strtoull base 0, nothing after */
static int parse_bytes(const char *s, __u64 *v)
{
	char *end;

	if (!*s)
		return 0;
	if (*s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static bool has_aux_event(const struct pulse_evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		if (pulse_evsel__is_aux(evlist->entries[i]))
			return true;
	return false;
}

int record_aux_setup(const struct pulse_evlist *evlist, struct pulse_record_opts *o)
{
	const char *s = snapshot_arg ? snapshot_arg : "";

	if (has_aux_event(evlist) && threads_spec) {
		error("AUX area tracing does not go with --threads yet");
		hint("record the AUX event without --threads (one reader drains every area)");
		return PULSE_EXIT_USAGE;
	}
	/* the flight recorder keeps the AUX areas' past in them: snapshot mode */
	if (has_aux_event(evlist) && record_flight_wanted() && !snapshot_set) {
		error("AUX area tracing in a flight recording (--overwrite, -M, --switch-output) needs -S");
		hint("-S: each snapshot takes the AUX areas' newest bytes, as perf's snapshot mode");
		return PULSE_EXIT_USAGE;
	}

	for (int i = 0; getenv("PULSE_AUX_MODEL") && i < evlist->nr; i++) {
		const struct pulse_evsel *e = evlist->entries[i];

		if (e->leader && e->leader != e && pulse_evsel__is_aux(e->leader)) {
			error("the model PMU (PULSE_AUX_MODEL) takes an AUX event alone, not leading '%s'",
			      e->name);
			return PULSE_EXIT_USAGE;
		}
	}
	if (snapshot_set) {
		if (!has_aux_event(evlist)) {
			error("no AUX area tracing to snapshot");
			hint("-S takes snapshots of an AUX area event's trace, such as -e intel_pt//");
			return PULSE_EXIT_USAGE;
		}
		o->auxtrace_snapshot = true;
		if (*s == 'e') {
			o->auxtrace_snapshot_on_exit = true;
			s++;
		}
		if (parse_bytes(s, &o->auxtrace_snapshot_size)) {
			error("invalid snapshot size '%s' for -S", s);
			return PULSE_EXIT_USAGE;
		}
		/* a flight recording's triggers (SIGUSR2 among them) take the areas too */
		if (!record_flight_wanted()) {
			o->aux_snapshot = &snapshot_wanted;
			signal(SIGUSR2, on_sigusr2);
		}
	}
	if (aux_sample_set) {
		if (!has_aux_event(evlist)) {
			error("no AUX area event to sample");
			hint("--aux-sample needs an AUX area event in a group, such as -e '{intel_pt//,cycles}'");
			return PULSE_EXIT_USAGE;
		}
		o->aux_sample_size = 4096;	/* perf's DEFAULT_AUX_SAMPLE_SIZE */
		if (aux_sample_arg && parse_bytes(aux_sample_arg, &o->aux_sample_size)) {
			error("invalid --aux-sample size '%s'", aux_sample_arg);
			return PULSE_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * After the summary: what the AUX areas gave, and that it was the model
 * when it was (PULSE_AUX_MODEL: never hardware); perf's words for
 * truncated pieces (its report says "AUX data lost N times out of M!")
 */
void record_aux_summary(const struct pulse_record_stats *st, bool ok, bool quiet)
{
	if (st->aux_model && (ok || st->aux_chunks) && !quiet)
		fprintf(stderr,
			"[ pulse record: AUX area data from the model PMU (PULSE_AUX_MODEL), not hardware: %llu bytes in %llu AUXTRACE records%s ]\n",
			(unsigned long long)st->aux_bytes, (unsigned long long)st->aux_chunks,
			st->aux_snapshots ? ", snapshots" : "");
	/* perf's words, which its report prints for the same records */
	if (st->aux_truncated)
		warning("AUX data lost %llu times out of %llu!", (unsigned long long)st->aux_truncated,
			(unsigned long long)st->aux_records);
	if (st->aux_partial)
		warning("AUX data had gaps in it %llu times out of %llu!",
			(unsigned long long)st->aux_partial, (unsigned long long)st->aux_records);
	if (st->aux_collision)
		warning("AUX data detected collision  %llu times out of %llu!",
			(unsigned long long)st->aux_collision, (unsigned long long)st->aux_records);
}
