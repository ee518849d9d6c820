// SPDX-License-Identifier: GPL-2.0
/*
 * The evlist: the evsels an -e list parsed into, in order.
 */
#include <errno.h>
#include <stdlib.h>

#include "event/parse-internal.h"

/**
 * pulse_evlist__add - append an evsel, which the evlist then owns
 * @evlist: the list
 * @evsel: deleted if it cannot be added
 *
 * Return: 0 or -ENOMEM.
 */
int pulse_evlist__add(struct pulse_evlist *evlist, struct pulse_evsel *evsel)
{
	struct pulse_evsel **e = realloc(evlist->entries, (evlist->nr + 1) * sizeof(*e));

	if (!e) {
		pulse_evsel__delete(evsel);
		return -ENOMEM;
	}
	evlist->entries = e;
	evsel->idx = evlist->nr;
	e[evlist->nr++] = evsel;
	return 0;
}


/**
 * pulse_evlist__delete_entries - delete every evsel; the evlist is then empty
 * @evlist: the list, itself not freed (it is usually on the caller's stack)
 */
void pulse_evlist__delete_entries(struct pulse_evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		pulse_evsel__delete(evlist->entries[i]);
	free(evlist->entries);
	evlist->entries = NULL;
	evlist->nr = 0;
}
