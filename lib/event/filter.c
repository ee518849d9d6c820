// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint filters (perf record --filter, --exclude-perf): the string
 * kept on the evsel, and PERF_EVENT_IOC_SET_FILTER on every open cell of
 * it once the evlist is open, as perf 6.1's evsel__append_tp_filter() and
 * evlist__apply_filters() do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <pulse/evlist.h>

/**
 * pulse_evsel__append_filter - add a filter to @evsel's
 * @evsel: the event (a tracepoint, for the kernel to take it)
 * @filter: "id == 110"
 *
 * A second filter joins the first as perf does: "(old) && (new)".
 *
 * Return: 0 or -ENOMEM (then the old filter stays).
 */
int pulse_evsel__append_filter(struct pulse_evsel *evsel, const char *filter)
{
	char *s;
	int n;

	if (evsel->filter)
		n = asprintf(&s, "(%s) && (%s)", evsel->filter, filter);
	else
		n = asprintf(&s, "%s", filter);
	if (n < 0)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = s;
	return 0;
}

/**
 * pulse_evlist__apply_filters - set each evsel's filter on its open cells
 * @evlist: opened by pulse_evlist__open()
 * @failed: set to the evsel whose filter the kernel refused (may be NULL)
 *
 * Return: 0, or the -errno of the first refused PERF_EVENT_IOC_SET_FILTER
 * (-EINVAL for a filter the kernel cannot parse).
 */
int pulse_evlist__apply_filters(struct pulse_evlist *evlist, struct pulse_evsel **failed)
{
	int nr_cpus = pulse_evlist__nr_cpus(evlist);
	int nr_threads = pulse_evlist__nr_threads(evlist);

	if (failed)
		*failed = NULL;
	for (int i = 0; i < evlist->nr; i++) {
		struct pulse_evsel *evsel = evlist->entries[i];

		if (!evsel->filter)
			continue;
		for (int c = 0; c < nr_cpus; c++) {
			for (int t = 0; t < nr_threads; t++) {
				int fd = pulse_evlist__fd(evlist, i, c, t);

				if (fd < 0)
					continue;
				if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
					int err = -errno;

					if (failed)
						*failed = evsel;
					return err;
				}
			}
		}
	}
	return 0;
}
