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
 * perf 6.1's check_modifier() and get_event_modifier() for an event of
 * its own (no group), so every bit starts at 0: the first of u/k/h
 * excludes all three contexts and each letter re-includes its own, the
 * first of G/H likewise for guest/host, and u or p alone also exclude the
 * guest.
 */
int pulse_mods__parse(const char *s, struct pulse_mods *m)
{
	bool exclude = false, exclude_GH = false;

	memset(m, 0, sizeof(*m));
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
	return m->precise > 3 ? -EINVAL : 0;
}

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
	a->pinned = m->pinned;
	a->exclusive = m->exclusive;
	evsel->precise_max = m->precise_max;
	evsel->mod_precise_set = m->precise || m->precise_max;
	evsel->sample_read = m->sample_read;
	evsel->weak_group = m->weak;
}
