// SPDX-License-Identifier: GPL-2.0
/*
 * What the session takes from a file before and while it walks it: the
 * record time the ordering sorts on (perf's perf_evlist__parse_sample_
 * timestamp), whether its callchains need DWARF unwinding, the OSRELEASE
 * check that decides whether /proc/kallsyms names the file's kernel, and the BUILD_ID feature's entries (perf's
 * perf_header__read_build_ids) handed to the DSO table. The features are
 * read through lib/data's accessors: the format is lib/data's business.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include "session/session-internal.h"
#include "core/internal.h"

__u64 session__record_time(struct pulse_data *d, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	__u64 t;
	int idx;

	idx = pulse_data__attr_of(d, rec, rec->size);
	if (idx < 0)
		return ~0ULL;
	attr = pulse_data__attr(d, idx);
	if (!attr || pulse_sample__time(rec, rec->size, attr, &t))
		return ~0ULL;
	return t;
}

static bool same_kernel(struct pulse_data *d)
{
	struct utsname u;
	const char *rel;
	size_t len;
	int err = pulse_data__osrelease(d, &rel, &len);

	if (err == -ENOENT)
		return true;
	if (err || uname(&u))
		return false;
	return len == strlen(u.release) && !strncmp(rel, u.release, len);
}

void session__load_build_ids(struct pulse_data *d, struct pulse_dsos *dsos)
{
	struct pulse_build_id_entry e;
	size_t pos;

	pulse_data__for_each_build_id(d, pos, &e) {
		enum pulse_dso_kind kind = PULSE_DSO_USER;
		int cpumode = e.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		size_t n = e.filename_len;
		char name[4096];

		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, e.filename, n);
		name[n] = '\0';
		if (!strcmp(name, "[kernel.kallsyms]"))
			kind = PULSE_DSO_KERNEL;
		else if (!strcmp(name, "[vdso]"))
			kind = PULSE_DSO_VDSO;
		else if (cpumode == PERF_RECORD_MISC_KERNEL)
			kind = PULSE_DSO_MODULE;	/* the kernel's other DSOs */
		if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER)
			continue;
		pulse_dsos__set_build_id(dsos, name, kind, e.id, e.size);
		if (kind == PULSE_DSO_MODULE) {
			struct pulse_dso *dso = pulse_dsos__find(dsos, name);

			if (dso)
				dso->kmod_named_by_path = true;
		}
	}
}

void session__symbol_defaults(struct pulse_data *d, struct pulse_symbol_opts *opts,
				    char *buf, size_t size)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (!opts->kallsyms && same_kernel(d))
		opts->kallsyms = "/proc/kallsyms";
	opts->debug_dir = "/usr/lib/debug";
	/* perf's symbol__config_symfs(): the cache under the root, not ours */
	if (opts->symfs) {
		snprintf(buf, size, "%s/.debug", opts->symfs);
		opts->buildid_dir = buf;
	} else if (dir) {
		snprintf(buf, size, "%s", dir);
		opts->buildid_dir = buf;
	} else if (home) {
		snprintf(buf, size, "%s/.debug", home);
		opts->buildid_dir = buf;
	}
}

int session__sample_time(struct pulse_data *d, uint64_t *first, uint64_t *last)
{
	__u64 f, l;
	int err = pulse_data__sample_time(d, &f, &l);

	*first = f;
	*last = l;
	return err;
}
