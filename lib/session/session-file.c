// SPDX-License-Identifier: GPL-2.0
/*
 * Steps shared by report, script and -D when they read a perf.data: the
 * record time the ordering sorts on (perf's perf_evlist__parse_sample_
 * timestamp), the OSRELEASE check that decides whether /proc/kallsyms
 * names the file's kernel, and the BUILD_ID feature's entries (perf's
 * perf_header__read_build_ids) handed to the DSO table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <pulse/data.h>
#include "session/session-internal.h"
#include "core/internal.h"

__u64 session__record_time(struct pulse_data *d, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct pulse_sample s;
	int idx;

	idx = pulse_data__attr_of(d, rec, rec->size);
	if (idx < 0)
		return ~0ULL;
	attr = pulse_data__attr(d, idx);
	if (!attr || !(attr->sample_type & PERF_SAMPLE_TIME))
		return ~0ULL;
	if (rec->type != PERF_RECORD_SAMPLE && !attr->sample_id_all)
		return ~0ULL;
	if (pulse_sample__parse(rec, rec->size, attr, &s))
		return ~0ULL;
	return s.time;
}

static bool same_kernel(struct pulse_data *d)
{
	const unsigned char *p;
	struct utsname u;
	__u32 n;
	size_t len;

	p = pulse_data__feat(d, PULSE_FEAT_OSRELEASE, &len);
	if (!p)
		return true;
	if (len < 4 || uname(&u))
		return false;
	memcpy(&n, p, 4);
	if (n > len - 4)
		n = len - 4;
	return strnlen((const char *)p + 4, n) == strlen(u.release) &&
	       !strncmp((const char *)p + 4, u.release, n);
}

void session__load_build_ids(struct pulse_data *d, struct pulse_dsos *dsos)
{
	const unsigned char *p;
	size_t len, off = 0;

	p = pulse_data__feat(d, PULSE_FEAT_BUILD_ID, &len);
	if (!p)
		return;
	/* entry: header (8), pid (4), build_id[20], size (1), pad (3), filename */
	while (off + 36 < len) {
		struct perf_event_header hdr;
		char name[4096];
		size_t n, size = 20;
		enum pulse_dso_kind kind = PULSE_DSO_USER;
		int cpumode;

		memcpy(&hdr, p + off, sizeof(hdr));
		if (hdr.size < 36 || off + hdr.size > len)
			break;
		if (hdr.misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
			size = p[off + 32] <= 20 ? p[off + 32] : 20;
		n = strnlen((const char *)p + off + 36, hdr.size - 36);
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, p + off + 36, n);
		name[n] = '\0';
		cpumode = hdr.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (!strcmp(name, "[kernel.kallsyms]"))
			kind = PULSE_DSO_KERNEL;
		else if (!strcmp(name, "[vdso]"))
			kind = PULSE_DSO_VDSO;
		else if (cpumode == PERF_RECORD_MISC_KERNEL)
			kind = PULSE_DSO_MODULE;	/* the kernel's other DSOs */
		if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER) {
			pulse_dsos__set_build_id(dsos, name, kind, p + off + 12, size);
			if (kind == PULSE_DSO_MODULE) {
				struct pulse_dso *dso = pulse_dsos__find(dsos, name);

				if (dso)
					dso->kmod_named_by_path = true;
			}
		}
		off += hdr.size;
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
	size_t len;
	const uint64_t *t = pulse_data__feat(d, PULSE_FEAT_SAMPLE_TIME, &len);

	*first = *last = 0;
	if (!t || len < 2 * sizeof(*t))
		return -ENODATA;
	memcpy(first, t, sizeof(*first));
	memcpy(last, (const char *)t + sizeof(*first), sizeof(*last));
	if (pulse_data__swapped(d)) {
		*first = __builtin_bswap64(*first);
		*last = __builtin_bswap64(*last);
	}
	return 0;
}
