/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every reader of a perf.data does the same way before and while it
 * walks the records (lib/session/session.c): the time a record carries for
 * ordering, whether kernel symbols may come from this kernel, the DSOs'
 * recorded build-ids.
 */
#ifndef PULSE_SESSION_H
#define PULSE_SESSION_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include <pulse/machine.h>
#include <pulse/reader.h>

/**
 * pulse_session__record_time - the timestamp a record carries, for ordering
 * Return: the time, or ~0ULL when its attr samples no time (or the record
 * carries no sample_id), which means "deliver at once" to the ordering.
 */
__u64 pulse_session__record_time(struct pulse_data *d, const struct perf_event_header *rec);

/* Whether the file was recorded on this kernel (its OSRELEASE; true without one). */
bool pulse_session__same_kernel(struct pulse_data *d);

/**
 * pulse_session__symbol_defaults - perf's places to look for symbols: this
 * kernel's /proc/kallsyms when the file was made on it (unless the caller
 * already set kallsyms), /usr/lib/debug, and the build-id cache
 * ($PERF_BUILDID_DIR, else ~/.debug; with @opts->symfs set, SYMFS/.debug)
 * written into @buf, which must outlive @opts. Under a symfs root the DSO
 * code looks up the other paths itself (see struct pulse_symbol_opts).
 */
void pulse_session__symbol_defaults(struct pulse_data *d, struct pulse_symbol_opts *opts,
				    char *buf, size_t size);

/* Hand the BUILD_ID feature's entries to @dsos, so each DSO's file is checked. */
void pulse_session__load_build_ids(struct pulse_data *d, struct pulse_dsos *dsos);

/**
 * pulse_session__sample_time - the first and last sample times the file
 * says it has (its SAMPLE_TIME feature, in the file's byte order)
 * Return: 0, or -ENODATA when it does not say (a pipe, an old perf).
 */
int pulse_session__sample_time(struct pulse_data *d, uint64_t *first, uint64_t *last);

#endif
