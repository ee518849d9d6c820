// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's resolved frames, in a buffer reused from sample to sample
 * (include/pulse/cc-cursor.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/cc-cursor.h>

int pulse_cc_cursor__append(struct pulse_cc_cursor *c, const struct pulse_cc_loc *loc)
{
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? c->alloc * 2 : 64;
		struct pulse_cc_loc *l = realloc(c->locs, n * sizeof(*l));

		if (!l)
			return -ENOMEM;
		c->locs = l;
		c->alloc = n;
	}
	c->locs[c->nr++] = *loc;
	return 0;
}

void pulse_cc_cursor__exit(struct pulse_cc_cursor *c)
{
	free(c->locs);
	memset(c, 0, sizeof(*c));
}
