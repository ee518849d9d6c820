/* SPDX-License-Identifier: GPL-2.0 */
/* cli/script-files.c: pulse script --per-event-dump's files */
#ifndef PULSE_SCRIPT_FILES_H
#define PULSE_SCRIPT_FILES_H

#include <stdbool.h>
#include <stdio.h>

#define PER_EVENT_MAX 256

struct pulse_session;
struct pulse_script;

struct script_event_files {
	FILE *fp[PER_EVENT_MAX];
	char *path[PER_EVENT_MAX];
	size_t nr;
};

/* Open one file per event of the session's input, handed to @out; 0 or -errno, said. */
int script_event_files__open(struct script_event_files *f, struct pulse_session *session,
			     struct pulse_script *out, const char *input);
/*
 * Close them, with perf's "[ perf script: Wrote ... ]" line per file when
 * @report; false when a write failed (said).
 */
bool script_event_files__close(struct script_event_files *f, struct pulse_script *out, bool report);

#endif
