// SPDX-License-Identifier: GPL-2.0
/* pulse script --per-event-dump: perf's INPUT.EVENT.dump files, one per event. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pulse/data.h>
#include <pulse/script.h>
#include <pulse/session.h>
#include "builtin.h"
#include "script-files.h"

/* --per-event-dump: perf's INPUT.EVENT.dump, one per event, opened up front */
int script_event_files__open(struct script_event_files *f, struct pulse_session *session,
			     struct pulse_script *out, const char *input)
{
	struct pulse_data *d = pulse_session__data(session);
	size_t nr = pulse_data__nr_attrs(d);
	struct pulse_trace *t;

	if (pulse_session__trace(session, &t))
		t = NULL;
	for (size_t i = 0; i < nr && i < PER_EVENT_MAX; i++) {
		char name[256];

		pulse_script__event_name(d, t, i, name, sizeof(name));
		if (asprintf(&f->path[i], "%s.%s.dump", input, name) < 0) {
			f->path[i] = NULL;
			error("out of memory");
			return -ENOMEM;
		}
		f->nr = i + 1;
		f->fp[i] = fopen(f->path[i], "w");
		if (!f->fp[i]) {
			error("cannot open '%s': %s", f->path[i], strerror(errno));
			return -errno;
		}
		if (pulse_script__set_event_fp(out, i, f->fp[i])) {
			error("out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/* perf's "[ perf script: Wrote ... ]" line per file; false when a write failed */
bool script_event_files__close(struct script_event_files *f, struct pulse_script *out, bool report)
{
	bool ok = true;

	for (size_t i = 0; i < f->nr; i++) {
		struct stat st;

		if (f->fp[i]) {
			/* perf's size is what reached the file: stdio's buffer not yet */
			if (report && !fstat(fileno(f->fp[i]), &st))
				printf("[ perf script: Wrote %.3f MB %s (%llu samples) ]\n",
				       st.st_size / 1024.0 / 1024.0, f->path[i],
				       pulse_script__nr_event_samples(out, i));
			if (fflush(f->fp[i]) || ferror(f->fp[i])) {
				error("cannot write '%s': %s", f->path[i], strerror(errno));
				ok = false;
			}
			fclose(f->fp[i]);
		}
		free(f->path[i]);
	}
	f->nr = 0;
	return ok;
}
