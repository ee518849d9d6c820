/* SPDX-License-Identifier: GPL-2.0 */
/* lib/aux/pt-code.c: the binaries the Intel PT walk reads code from. Private to lib/aux. */
#ifndef PULSE_AUX_PT_CODE_H
#define PULSE_AUX_PT_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pulse_dso;
struct pulse_symbol_opts;

struct pt_code {
	char *name;		/* the DSO's long name */
	uint64_t hash;
	void *map;		/* the file, mapped; NULL: unreadable */
	size_t map_len;
	bool tried;		/* the file was looked for */
	bool is64;		/* ELFCLASS64 */
	bool error;		/* perf's DSO_DATA_STATUS_ERROR */
	bool seen;		/* perf's DSO_DATA_STATUS_SEEN_ITRACE */
	struct pt_code *next;
};

#define PT_CODE_BUCKETS 64

struct pt_codes {
	struct pt_code *buckets[PT_CODE_BUCKETS];
};

void pt_codes__exit(struct pt_codes *c);
/* the code of @name (its DSO @dso may be NULL), looked for on first use; NULL: -ENOMEM */
struct pt_code *pt_codes__get(struct pt_codes *c, const char *name, const struct pulse_dso *dso,
			      const struct pulse_symbol_opts *o);
bool pt_code__readable(const struct pt_code *e);
bool pt_code__seen(struct pt_code *e);

#endif
