// SPDX-License-Identifier: GPL-2.0
/*
 * Ranks of the entries' comms, DSOs and symbol names in name order, for
 * the output sort (lib/hist/hist-sort.c), which compares the numbers
 * instead of the strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include "hist/hist-internal.h"

static int comm_name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int dso_name_cmp(const void *a, const void *b)
{
	return pulse_sort__dso_cmp(*(const struct pulse_dso *const *)a, *(const struct pulse_dso *const *)b);
}

static int sym_name_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct pulse_symbol *const *)a)->name,
		      (*(const struct pulse_symbol *const *)b)->name);
}

struct rank_ctx {
	const uintptr_t *u;
	int (*cmp)(const void *, const void *);
};

/* distinct values (indexes into ctx->u) by name, NULL first */
static int rank_name_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rank_ctx *c = arg;
	const uintptr_t *a = &c->u[*(const uintptr_t *)pa], *b = &c->u[*(const uintptr_t *)pb];

	if (!*a || !*b)
		return !*a && !*b ? 0 : (!*a ? -1 : 1);
	return c->cmp(a, b);
}

static uintptr_t rank_value(const struct pulse_hist_entry *e, enum rank_what what)
{
	switch (what) {
	case RANK_COMM:
		return (uintptr_t)e->comm;
	case RANK_DSO:
		return (uintptr_t)e->dso;
	case RANK_SYM_NAME:
		return (uintptr_t)e->sym;
	}
	return 0;
}

/*
 * Number the distinct comms, DSOs or symbols of the entries in name order
 * (1 first; equal names, equal numbers) into @rank[entry]; no DSO ranks
 * last (UINT32_MAX), no symbol 0. A report has 390,000 entries and a few
 * thousand distinct values: a hash table finds each entry's, and only the
 * distinct ones are sorted by name.
 */
int pulse_hists__rank(const struct pulse_hists *h, enum rank_what what, uint32_t *rank)
{
	int (*cmp)(const void *, const void *) = what == RANK_COMM ? comm_name_cmp :
						 what == RANK_DSO ? dso_name_cmp : sym_name_cmp;
	size_t n = h->nr_entries, nu = 0, mask = 1023, alloc = 0;
	uintptr_t *u = NULL, *by_name = NULL;
	uint32_t *slot = NULL, *urank = NULL;
	int err = -ENOMEM;

	slot = malloc((mask + 1) * sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	memset(slot, 0xff, (mask + 1) * sizeof(*slot));
	for (size_t i = 0; i < n; i++) {
		uintptr_t v = rank_value(&h->entries[i], what);
		size_t j = hash_final(v) & mask;

		while (slot[j] != UINT32_MAX && u[slot[j]] != v)
			j = (j + 1) & mask;
		if (slot[j] == UINT32_MAX) {
			if (nu == alloc) {
				size_t a = alloc ? alloc * 2 : 256;
				uintptr_t *nuv = realloc(u, a * sizeof(*u));

				if (!nuv)
					goto out;
				u = nuv;
				alloc = a;
			}
			u[nu] = v;
			slot[j] = nu++;
			/* at half full, twice the slots */
			if (nu * 2 > mask) {
				uint32_t *ns = malloc((mask + 1) * 2 * sizeof(*ns));

				if (!ns)
					goto out;
				mask = mask * 2 + 1;
				memset(ns, 0xff, (mask + 1) * sizeof(*ns));
				for (size_t k = 0; k < nu; k++) {
					size_t q = hash_final(u[k]) & mask;

					while (ns[q] != UINT32_MAX)
						q = (q + 1) & mask;
					ns[q] = k;
				}
				free(slot);
				slot = ns;
				j = hash_final(v) & mask;
				while (u[slot[j]] != v)
					j = (j + 1) & mask;
			}
		}
		rank[i] = slot[j];
	}
	by_name = malloc((nu ? nu : 1) * sizeof(*by_name));
	urank = malloc((nu ? nu : 1) * sizeof(*urank));
	if (!by_name || !urank)
		goto out;
	/* the distinct values by name; NULL is no name, ranked apart */
	for (size_t k = 0; k < nu; k++)
		by_name[k] = k;
	qsort_r(by_name, nu, sizeof(*by_name), rank_name_cmp, &(struct rank_ctx){ u, cmp });
	for (size_t r = 0, k = 0; r < nu; r++) {
		uintptr_t v = u[by_name[r]];

		if (!v) {
			urank[by_name[r]] = what == RANK_DSO ? UINT32_MAX : 0;
			continue;
		}
		if (!k || cmp(&u[by_name[r - 1]], &v))
			k++;
		urank[by_name[r]] = k;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = urank[rank[i]];
	err = 0;
out:
	free(slot);
	free(u);
	free(by_name);
	free(urank);
	return err;
}

