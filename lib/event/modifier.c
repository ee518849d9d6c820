// SPDX-License-Identifier: GPL-2.0
/*
 * Event modifiers, the letters after an event's colon (":u", ":ppp",
 * ":S"), as perf 6.1's check_modifier() and get_event_modifier() read them,
 * and the attr bits they set.
 */
#include <errno.h>
#include <string.h>

#include "event/parse-internal.h"

/*
 * perf 6.1's check_modifier() and get_event_modifier(). For an event of its
 * own (@from NULL) every bit starts at 0; for a group's modifiers
 * ("{a,b}:u") they start from what the member already has, so its own
 * modifiers and exclude_guest stay unless a letter changes them, while
 * P, S and W start afresh, as perf's do. Then the first of u/k/h excludes
 * all three contexts (unless some already were) and each letter
 * re-includes its own, the first of G/H likewise for guest/host, and u or
 * p alone also exclude the guest.
 */
int pulse_mods__parse(const char *s, const struct pulse_evsel *from, struct pulse_mods *m)
{
	bool exclude = false, exclude_GH = false;

	memset(m, 0, sizeof(*m));
	if (from) {
		const struct perf_event_attr *a = &from->attr;

		m->eu = a->exclude_user;
		m->ek = a->exclude_kernel;
		m->eh = a->exclude_hv;
		m->eH = a->exclude_host;
		m->eG = a->exclude_guest;
		m->eI = a->exclude_idle;
		/* our :P is precise_ip 3 already; perf's is still 0 here */
		m->precise = from->precise_max ? 0 : a->precise_ip;
		m->pinned = a->pinned;
		m->exclusive = a->exclusive;
		exclude = m->eu || m->ek || m->eh;
		exclude_GH = from->exclude_GH;
	}
	if (strlen(s) > strlen("ukhGHpppPSDIWe"))
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p != 'p' && strchr(p + 1, *p))
			return -EINVAL;
	m->any = *s;
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			if (!exclude_GH)
				m->eG = true;
			m->eu = false;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->ek = false;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->eh = false;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = m->eG = m->eH = true;
			m->eG = false;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = m->eG = m->eH = true;
			m->eH = false;
			break;
		case 'I':
			m->eI = true;
			break;
		case 'p':
			m->precise++;
			/* perf: precise sampling implies not sampling the guest */
			if (!exclude_GH)
				m->eG = true;
			break;
		case 'P':
			m->precise_max = true;
			break;
		case 'S':
			m->sample_read = true;
			break;
		case 'D':
			m->pinned = true;
			break;
		case 'e':
			m->exclusive = true;
			break;
		case 'W':
			m->weak = true;
			break;
		default:
			return -EINVAL;
		}
	}
	m->exclude_GH = exclude_GH;
	return m->precise > 3 ? -EINVAL : 0;
}

/*
 * perf's parse_events__modifier_event(): pinned and exclusive go to a
 * group's leader only (an event alone is its own leader).
 */
void pulse_mods__apply(const struct pulse_mods *m, struct pulse_evsel *evsel)
{
	struct perf_event_attr *a = &evsel->attr;

	if (!m->any) {
		/* perf's event_attr_init() when perf is not told about guests */
		a->exclude_guest = 1;
		return;
	}
	a->exclude_user = m->eu;
	a->exclude_kernel = m->ek;
	a->exclude_hv = m->eh;
	a->exclude_host = m->eH;
	a->exclude_guest = m->eG;
	a->exclude_idle = m->eI;
	a->precise_ip = m->precise;
	/* perf's evsel__config() starts :P at 3; its opener lowers it on failure */
	if (m->precise_max)
		a->precise_ip = 3;
	if (pulse_evsel__is_leader(evsel)) {
		a->pinned = m->pinned;
		a->exclusive = m->exclusive;
	}
	evsel->exclude_GH = m->exclude_GH;
	evsel->precise_max = m->precise_max;
	evsel->mod_precise_set = m->precise || m->precise_max;
	evsel->sample_read = m->sample_read;
	evsel->weak_group = m->weak;
}
