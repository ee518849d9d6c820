// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's -F/--fields and its hpp sort keys: the sort list and the
 * output list as perf 6.1's setup_sorting() makes them (util/sort.c
 * __setup_sorting(), setup_overhead(), __setup_output_field(); ui/hist.c
 * perf_hpp__init(), perf_hpp__setup_output_field(),
 * perf_hpp__append_sort_keys()). See include/pulse/report.h.
 */
#include <errno.h>
#include <string.h>
#include <pulse/report.h>

struct klist {
	enum pulse_sort_key k[PULSE_SORT_MAX_KEYS];
	size_t n;
};

static bool klist__has(const struct klist *l, enum pulse_sort_key key)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->k[i] == key)
			return true;
	return false;
}

static int klist__add(struct klist *l, enum pulse_sort_key key)
{
	if (l->n == PULSE_SORT_MAX_KEYS)
		return -E2BIG;
	l->k[l->n++] = key;
	return 0;
}

/* -F's fields after @f into @out, one by one as perf's setup_output_list() */
static int parse_fields(const struct pulse_report *rep, const char *f, struct klist *out,
			const char **bad, size_t *bad_len)
{
	while (*f) {
		size_t len = strcspn(f, ", ");
		enum pulse_sort_key key;
		char tok[64];
		int n;

		if (len) {
			*bad = f;
			*bad_len = len;
			if (len >= sizeof(tok))
				return -ESRCH;
			memcpy(tok, f, len);
			tok[len] = '\0';
			n = pulse_sort_keys__parse(tok, &key, 1, NULL, NULL);
			/* the powerpc keys perf drops (n == 0) it shows nothing for */
			if (n < 0)
				return -ESRCH;
			/* perf's output_field_add(): memory keys outside --mem-mode */
			if (n && !rep->mem_mode && pulse_sort_key__needs_mem_mode(key))
				return -EINVAL;
			/* perf's dimensions, once taken, are not added again */
			if (n && !klist__has(out, key) && klist__add(out, key))
				return -E2BIG;
		}
		f += len;
		if (*f)
			f++;
	}
	return 0;
}

int pulse_report__setup_fields(struct pulse_report *rep, const char *user_sort,
			       const char *user_fields, bool show_nr, bool show_period,
			       const char **bad, size_t *bad_len)
{
	bool strict = user_fields && *user_fields != '+';
	struct klist s = { .n = 0 }, o = { .n = 0 };
	bool hpp = false;
	int err = 0;

	for (size_t i = 0; i < rep->nr_keys; i++)
		hpp |= pulse_sort_key__is_hpp(rep->keys[i]);
	if (!user_fields && !hpp)
		return 0;
	/* the sort list: prefixed with the overhead keys its text does not name */
	if (!strict) {
		if (rep->cumulate && !(user_sort && strstr(user_sort, "overhead_children")))
			err |= klist__add(&s, PULSE_SORT_OVERHEAD_CHILDREN);
		if (!(user_sort && strstr(user_sort, "overhead")))
			err |= klist__add(&s, PULSE_SORT_OVERHEAD);
	}
	for (size_t i = 0; i < rep->nr_keys; i++)
		/* -F alone: no default keys, only -p's parent */
		if (!strict || user_sort || rep->keys[i] == PULSE_SORT_PARENT)
			err |= klist__add(&s, rep->keys[i]);
	/* the output list: perf_hpp__init()'s columns unless -F is strict */
	if (!strict) {
		if (rep->cumulate)
			err |= klist__add(&o, PULSE_SORT_OVERHEAD_CHILDREN);
		err |= klist__add(&o, PULSE_SORT_OVERHEAD);
		if (show_nr)
			err |= klist__add(&o, PULSE_SORT_SAMPLE);
		if (show_period)
			err |= klist__add(&o, PULSE_SORT_PERIOD);
	}
	if (err)
		return -E2BIG;
	if (user_fields) {
		const char *f = strict ? user_fields : user_fields + 1;

		if (!*f) {
			*bad = user_fields;
			*bad_len = strlen(user_fields);
			return -EINVAL;
		}
		err = parse_fields(rep, f, &o, bad, bad_len);
		if (err)
			return err;
	}
	/* sort keys that are no column become one, columns that are no key one */
	for (size_t i = 0; i < s.n; i++)
		if (!klist__has(&o, s.k[i]) && klist__add(&o, s.k[i]))
			return -E2BIG;
	/* perf_hpp__cancel_cumulate() drops the Children column, not the key */
	if (!strict && rep->cumulate_cancelled) {
		size_t j = 0;

		for (size_t i = 0; i < o.n; i++)
			if (o.k[i] != PULSE_SORT_OVERHEAD_CHILDREN)
				o.k[j++] = o.k[i];
		o.n = j;
	}
	for (size_t i = 0; i < o.n; i++)
		if (!klist__has(&s, o.k[i]) && klist__add(&s, o.k[i]))
			return -E2BIG;
	memcpy(rep->keys, s.k, s.n * sizeof(s.k[0]));
	rep->nr_keys = s.n;
	memcpy(rep->fields, o.k, o.n * sizeof(o.k[0]));
	rep->nr_fields = o.n;
	/* perf_hpp__init() renames its overhead column, -F's keeps its name */
	rep->fields_self = rep->cumulate && !strict;
	return 0;
}
