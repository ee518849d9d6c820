// SPDX-License-Identifier: GPL-2.0
/*
 * The damage table's messages, the same for every command that reads a
 * perf.data (report, report -D, script): one `error:` line naming what is
 * wrong and where for a damaged header or record, and the warnings for
 * bytes that could not be read and records recovered past data.size; and
 * the --time parse every reader shares; perf's check of who owns the file;
 * the input perf reads when none is named.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/dump.h>
#include <pulse/hist.h>
#include <pulse/ordering.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "builtin.h"

const char *default_input(void)
{
	struct stat st;

	/* perf reads a pipe on stdin when no file is named */
	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

void data_error(const char *verb, const char *input, int err)
{
	__u64 off = 0;
	const char *what = err == -EBADMSG ? pulse_data__error(&off) : NULL;

	if (what)
		error("'%s': %s at offset %#llx", input, what, (unsigned long long)off);
	else
		error("cannot %s '%s': %s", verb, input, strerror(err < 0 ? -err : EIO));
}

void data_warn_damage(const struct pulse_data *d)
{
	__u64 bytes, off;

	if (pulse_data__recovered(d, &off, &bytes))
		warning("the recording was not finished: %llu bytes of records past the "
			"header's data end (%#llx) were read", (unsigned long long)bytes,
			(unsigned long long)off);
	if (pulse_data__unreadable(d, &bytes, &off)) {
		const char *file = pulse_data__unreadable_path(d);

		if (file)	/* a directory: which of its files */
			warning("%llu bytes unreadable at %#llx of '%s'", (unsigned long long)bytes,
				(unsigned long long)off, file);
		else
			warning("%llu bytes unreadable at %#llx", (unsigned long long)bytes,
				(unsigned long long)off);
	}
}

void data_warn_unordered(uint64_t n)
{
	/* perf's words: records older than what was already delivered */
	if (n)
		fprintf(stderr, "Warning:\n%llu out of order events recorded.\n",
			(unsigned long long)n);
}

int parse_time_filter(struct pulse_hist_filter *f, struct pulse_session *s, const char *str)
{
	uint64_t first, last;
	int err;

	pulse_session__sample_time(s, &first, &last);
	err = pulse_hist_filter__parse_time(f, str, first, last);
	if (err == -ENODATA) {
		error("--time '%s': the file does not say when its first and last samples were taken",
		      str);
		hint("percentages need the SAMPLE_TIME feature, which a pipe and 'perf record --buildid-all' without --timestamp-boundary do not write");
	} else if (err == -ENOMEM) {
		error("out of memory");
	} else if (err) {
		error("invalid --time '%s' (start,end in seconds, or percentages: 10%%/2, 0%%-10%%)",
		      str);
	}
	return err;
}

int setup_filter(struct pulse_hist_filter *f)
{
	const char *bad;
	int err = pulse_hist_filter__setup(f, &bad);

	if (!err)
		return 0;
	if (err == -EINVAL)
		error("problems parsing %s list: an entry is there twice", bad);
	else
		error("out of memory");
	return err == -EINVAL ? PULSE_EXIT_USAGE : 1;
}

/*
 * perf's check_backup()/open_file_read(): a file (a directory's DIR/data)
 * owned by someone other than root and the user is refused unless -f.
 */
int data_check_owner(const char *input, bool force)
{
	char path[4096];
	struct stat st;

	if (force || !strcmp(input, "-") || stat(input, &st))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/data", input);
		input = path;
		if (stat(input, &st))
			return 0;
	}
	if (!S_ISREG(st.st_mode) || !st.st_uid || st.st_uid == geteuid())
		return 0;
	error("file '%s' not owned by current user or root", input);
	hint("use -f to override");
	return -EPERM;
}

/* perf_session__warn_about_errors()'s AUX lines, perf's words, in its order */
void data_warn_aux(const struct pulse_aux_stats *st)
{
	if (st->lost)
		warning("AUX data lost %llu times out of %llu!", (unsigned long long)st->lost,
			(unsigned long long)st->nr_aux);
	if (st->partial)
		warning("AUX data had gaps in it %llu times out of %llu! "
			"Are you running a KVM guest in the background?",
			(unsigned long long)st->partial, (unsigned long long)st->nr_aux);
	if (st->collision)
		warning("AUX data detected collision  %llu times out of %llu!",
			(unsigned long long)st->collision, (unsigned long long)st->nr_aux);
	/* events_stats__auxtrace_error_warn() */
	for (int i = 0; i < 2; i++)
		if (st->errors[i])
			warning("%llu %s errors", (unsigned long long)st->errors[i],
				i ? "instruction trace" : "unknown AUX");
}

/*
 * More than 1% of the events lost (perf warns from 5%): LOST_SAMPLES
 * counts when there are any (they count what LOST records count too).
 */
void data_warn_lost(uint64_t lost, uint64_t nr_samples)
{
	uint64_t all = nr_samples + lost;

	if (lost && lost * 100 > all)
		fprintf(stderr, "warning: %" PRIu64 " of %" PRIu64 " events lost (%.2f%%)\n", lost,
			all, 100.0 * lost / all);
}
