/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress bar for long reads (lib/output/progress.c): nothing during
 * the first second, then perf's kind of bar, redrawn a few times a second,
 * and only when the stream is a terminal (never in pipes or tests).
 */
#ifndef PULSE_PROGRESS_H
#define PULSE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pulse_progress {
	FILE *out;		/* NULL: disabled */
	uint64_t total;		/* bytes to go through; 0: unknown (no bar) */
	uint64_t start_ns;	/* when it began */
	uint64_t next_ns;	/* next time worth a redraw */
	unsigned int calls;	/* updates since the last clock read */
	bool shown;		/* something was drawn: clear it at the end */
	const char *title;
};

/* Starts a bar on @out if it is a terminal; @total in bytes. */
void pulse_progress__init(struct pulse_progress *p, FILE *out, uint64_t total, const char *title);

/* Cheap to call per record: reads the clock once every 4096 calls. */
void pulse_progress__update(struct pulse_progress *p, uint64_t done);

/* Erases the bar, if one was drawn. */
void pulse_progress__finish(struct pulse_progress *p);

#endif
