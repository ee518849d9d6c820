// SPDX-License-Identifier: GPL-2.0
/*
 * The walks of the files a diff compares, at the same time: each file is
 * its own session, machine and report (nothing shared), so each walks on
 * its own thread; the first on the caller's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <pulse/diff.h>
#include <pulse/report.h>

struct walk {
	struct pulse_report *rep;
	int err;
	pthread_t tid;
	bool started;
};

static void *walk__run(void *arg)
{
	struct walk *w = arg;

	w->err = pulse_report__process(w->rep);
	return NULL;
}

int pulse_diff__process(struct pulse_report *const *reps, size_t nr, int *errs)
{
	struct walk *w = calloc(nr, sizeof(*w));
	int err = 0;

	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		w[i].rep = reps[i];
		if (i && !pthread_create(&w[i].tid, NULL, walk__run, &w[i]))
			w[i].started = true;
	}
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 || !w[i].started)
			walk__run(&w[i]);
	}
	for (size_t i = 0; i < nr; i++) {
		if (w[i].started)
			pthread_join(w[i].tid, NULL);
		errs[i] = w[i].err;
		if (!err)
			err = w[i].err;
	}
	free(w);
	return err;
}
