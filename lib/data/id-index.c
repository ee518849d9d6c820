// SPDX-License-Identifier: GPL-2.0
/*
 * The id index (include/pulse/id-index.h): (id, event) pairs kept in an
 * array that is sorted once after the ids are known, then searched with a
 * lower-bound binary search, so that an id shared by several events goes
 * to the first of them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <pulse/id-index.h>

void pulse_id_index__init(struct pulse_id_index *x)
{
	*x = (struct pulse_id_index){ .sorted = true };
}

void pulse_id_index__exit(struct pulse_id_index *x)
{
	free(x->ents);
	pulse_id_index__init(x);
}

int pulse_id_index__reserve(struct pulse_id_index *x, size_t nr)
{
	struct pulse_id_index_ent *v;

	if (nr <= x->alloc)
		return 0;
	if (nr > SIZE_MAX / sizeof(*v))
		return -ENOMEM;
	v = realloc(x->ents, nr * sizeof(*v));
	if (!v)
		return -ENOMEM;
	x->ents = v;
	x->alloc = nr;
	return 0;
}

int pulse_id_index__add(struct pulse_id_index *x, __u64 id, size_t idx)
{
	if (x->nr == x->alloc) {
		int err = pulse_id_index__reserve(x, x->alloc ? 2 * x->alloc : 16);

		if (err)
			return err;
	}
	x->ents[x->nr++] = (struct pulse_id_index_ent){ id, idx };
	x->sorted = false;
	return 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct pulse_id_index_ent *p = a, *q = b;

	if (p->id != q->id)
		return p->id < q->id ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

void pulse_id_index__sort(struct pulse_id_index *x)
{
	if (x->nr)
		qsort(x->ents, x->nr, sizeof(*x->ents), ent_cmp);
	x->sorted = true;
}

#define SMALL_INDEX 16

int pulse_id_index__find(const struct pulse_id_index *x, __u64 id)
{
	size_t lo = 0, hi = x->nr;

	if (!x->sorted)
		return -ENOENT;
	/*
	 * A few ids (an event or two per CPU) are what most files have, and
	 * records alternate between them: a scan without early exit has no
	 * branch to mispredict. From the end, so that a duplicated id goes to
	 * its first event as below.
	 */
	if (x->nr <= SMALL_INDEX) {
		int found = -ENOENT;

		for (size_t i = x->nr; i-- > 0;) {
			int hit = -(int)(x->ents[i].id == id);	/* all ones or 0 */

			found ^= (found ^ (int)x->ents[i].idx) & hit;
		}
		return found;
	}
	/* lower bound, so that a duplicated id goes to its first event */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->ents[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < x->nr && x->ents[lo].id == id)
		return (int)x->ents[lo].idx;
	return -ENOENT;
}
