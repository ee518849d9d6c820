// SPDX-License-Identifier: GPL-2.0
/*
 * The code the Intel PT walk reads: each binary's bytes, found as perf 6.1
 * finds a DSO's data (dso__data_fd(): the build-id cache, then the path as
 * mapped, under --symfs), mapped once, and perf's two-strike rule for a
 * binary that cannot be read: the first failures are errors the user sees
 * ("Failed to get instruction"), after that the walk skips it silently
 * (intel_pt_walk_next_insn()'s DSO_DATA_STATUS_SEEN_ITRACE).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/build-id.h>
#include <pulse/symbols.h>
#include "aux/pt-code.h"

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

void pt_codes__exit(struct pt_codes *c)
{
	for (size_t i = 0; i < PT_CODE_BUCKETS; i++) {
		struct pt_code *e = c->buckets[i], *n;

		for (; e; e = n) {
			n = e->next;
			if (e->map)
				munmap(e->map, e->map_len);
			free(e->name);
			free(e);
		}
		c->buckets[i] = NULL;
	}
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* the file perf would read the DSO's data from, or "" */
static void data_path(const char *name, const struct pulse_dso *dso,
		      const struct pulse_symbol_opts *o, char *path, size_t size)
{
	path[0] = 0;
	if (dso && dso->has_build_id && o->buildid_dir) {
		char hex[41];

		pulse_build_id__hex(dso->build_id, dso->build_id_size, hex, sizeof(hex));
		snprintf(path, size, "%s/.build-id/%.2s/%s", o->buildid_dir, hex, hex + 2);
		if (is_regular(path))
			return;
		snprintf(path + strlen(path), size - strlen(path), "/elf");
		if (is_regular(path))
			return;
	}
	snprintf(path, size, "%s%s", o->symfs ? o->symfs : "", name);
	if (!is_regular(path))
		path[0] = 0;
}

static void open_code(struct pt_code *e, const struct pulse_dso *dso,
		      const struct pulse_symbol_opts *o)
{
	char path[4096];
	struct stat st;
	int fd;

	e->tried = true;
	/* [kernel.kallsyms], [vdso], //anon...: no file pulse reads code from */
	if (e->name[0] != '/')
		return;
	data_path(e->name, dso, o, path, sizeof(path));
	if (!path[0])
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && st.st_size > 0) {
		e->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (e->map == MAP_FAILED) {
			e->map = NULL;
		} else {
			e->map_len = st.st_size;
			e->is64 = e->map_len > 4 && ((const uint8_t *)e->map)[4] != 1;
		}
	}
	close(fd);
}

struct pt_code *pt_codes__get(struct pt_codes *c, const char *name, const struct pulse_dso *dso,
			      const struct pulse_symbol_opts *o)
{
	uint64_t h = hash_name(name);
	struct pt_code **slot = &c->buckets[h % PT_CODE_BUCKETS], *e;

	for (e = *slot; e; e = e->next)
		if (e->hash == h && !strcmp(e->name, name))
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return NULL;
		e->name = strdup(name);
		if (!e->name) {
			free(e);
			return NULL;
		}
		e->hash = h;
		e->next = *slot;
		*slot = e;
	}
	if (!e->tried)
		open_code(e, dso, o);
	return e;
}

bool pt_code__readable(const struct pt_code *e)
{
	return e->map != NULL;
}

/* perf's dso__data_status_seen(): false (and now seen) the first time */
bool pt_code__seen(struct pt_code *e)
{
	if (e->seen)
		return true;
	e->seen = true;
	return false;
}
