// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines (perf's util/srcline.c, as perf script -F srcline uses
 * it): each user DSO's file is opened once with libdwfl, offline, and its
 * line table (its own, or its separate debug file's, found by
 * dwfl_standard_find_debuginfo(): build-id and debuglink under
 * /usr/lib/debug) answers for every address. What has no file or no line
 * for the address is named as perf names it: "SHORT_NAME[addr]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <pulse/srcline.h>
#include <pulse/symbols.h>
#include "core/internal.h"

struct srcline_dso {
	const struct pulse_dso *dso;
	Dwfl *dwfl;			/* NULL: no file or no DWARF */
	Dwfl_Module *mod;
	GElf_Addr bias;			/* the module's addresses are the file's + bias */
	struct srcline_dso *next;
};

#define SRCLINE_HASH 256

struct pulse_srclines {
	char *symfs;
	struct srcline_dso *hash[SRCLINE_HASH];
};

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int pulse_srclines__new(struct pulse_srclines **out, const char *symfs)
{
	struct pulse_srclines *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	/* perf's symbol__init(): a symfs of "/" is no symfs */
	if (symfs && strcmp(symfs, "/")) {
		s->symfs = strdup(symfs);
		if (!s->symfs) {
			free(s);
			return -ENOMEM;
		}
	}
	*out = s;
	return 0;
}

void pulse_srclines__delete(struct pulse_srclines *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < SRCLINE_HASH; i++) {
		struct srcline_dso *e = s->hash[i], *next;

		for (; e; e = next) {
			next = e->next;
			if (e->dwfl)
				dwfl_end(e->dwfl);
			free(e);
		}
	}
	free(s->symfs);
	free(s);
}

static void srcline_dso__open(struct pulse_srclines *s, struct srcline_dso *e)
{
	const struct pulse_dso *dso = e->dso;
	char path[4096];

	if (dso->kind != PULSE_DSO_USER || !dso->long_name || dso->long_name[0] != '/')
		return;
	if (snprintf(path, sizeof(path), "%s%s", s->symfs ? s->symfs : "", dso->long_name) >=
	    (int)sizeof(path))
		return;
	e->dwfl = dwfl_begin(&offline_callbacks);
	if (!e->dwfl)
		return;
	e->mod = dwfl_report_offline(e->dwfl, dso->short_name, path, -1);
	dwfl_report_end(e->dwfl, NULL, NULL);
	if (!e->mod || !dwfl_module_getelf(e->mod, &e->bias)) {
		pr_debug("srcline: cannot read '%s': %s\n", path, dwfl_errmsg(-1));
		dwfl_end(e->dwfl);
		e->dwfl = NULL;
	}
}

static struct srcline_dso *srcline_dso__find(struct pulse_srclines *s,
					     const struct pulse_dso *dso)
{
	size_t h = ((uintptr_t)dso >> 4) % SRCLINE_HASH;
	struct srcline_dso *e;

	for (e = s->hash[h]; e; e = e->next)
		if (e->dso == dso)
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = dso;
	srcline_dso__open(s, e);
	e->next = s->hash[h];
	s->hash[h] = e;
	return e;
}

const char *pulse_srclines__find(struct pulse_srclines *s, const struct pulse_dso *dso,
				 uint64_t addr, char *buf, size_t size)
{
	if (!pulse_srclines__lookup(s, dso, addr, buf, size))
		return buf;
	snprintf(buf, size, "%s[%" PRIx64 "]", dso->short_name, addr);
	return buf;
}

int pulse_srclines__lookup(struct pulse_srclines *s, const struct pulse_dso *dso, uint64_t addr,
			   char *buf, size_t size)
{
	struct srcline_dso *e = srcline_dso__find(s, dso);

	if (e && e->dwfl) {
		Dwfl_Line *line = dwfl_module_getsrc(e->mod, addr + e->bias);
		const char *file, *base;
		int lineno = 0;

		file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (file) {
			/* perf's srcline_from_fileline(): the base name */
			base = strrchr(file, '/');
			snprintf(buf, size, "%s:%u", base ? base + 1 : file, (unsigned int)lineno);
			return 0;
		}
	}
	return -ENOENT;
}
