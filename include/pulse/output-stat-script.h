/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `script` on a stat file (one with the STAT feature): perf 6.1's
 * builtin-script prints, at each STAT_ROUND, a row per counter, thread and
 * cpu of the file's maps:
 *
 *   CPU   THREAD             VAL             ENA             RUN            TIME EVENT
 *    -1    11734          489590          489590          489590          907673 task-clock
 *
 * (%3d %8d %15 %15 %15 %15 %s; the header once). The values are the last
 * STAT record's for the cell, as they are in global mode; in the other
 * aggregation modes (-A, --per-*) perf turns them into the difference from
 * the previous round and scales them by ena/run, and so does this.
 */
#ifndef PULSE_OUTPUT_STAT_SCRIPT_H
#define PULSE_OUTPUT_STAT_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/perf_event.h>

struct pulse_data;
struct pulse_stat_script;

/**
 * pulse_stat_script__new - a printer of a stat file's rounds
 * @out: set to it (caller owns; pulse_stat_script__delete()); NULL on failure
 * @d: the file, for its attrs and their names (borrowed; must outlive it)
 * @fp: where the rows go
 * Return: 0 or -ENOMEM.
 */
int pulse_stat_script__new(struct pulse_stat_script **out, struct pulse_data *d, FILE *fp);

/**
 * pulse_stat_script__record - take one record of the file, in file order
 *
 * THREAD_MAP, CPU_MAP and STAT_CONFIG set the maps and the mode, STAT
 * stores a value, STAT_ROUND prints; other records are ignored.
 *
 * Return: 0; -EBADMSG for a damaged stat record, a STAT before the maps,
 * for a cpu not in the CPU_MAP, a thread index past the THREAD_MAP or an id
 * of no attr (perf stops there too); -ENOMEM; -EIO when @fp fails.
 */
int pulse_stat_script__record(struct pulse_stat_script *s, const struct perf_event_header *rec);

/* Free it; NULL is fine. */
void pulse_stat_script__delete(struct pulse_stat_script *s);

/**
 * pulse_stat_script__print - walk @d in file order through a printer,
 * then flush @fp
 * Return: 0, or -errno of the walk or of pulse_stat_script__record();
 * -EIO when @fp fails.
 */
int pulse_stat_script__print(struct pulse_data *d, FILE *fp);

#endif
