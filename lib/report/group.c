// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's group view: the groups of the GROUP_DESC feature (util/
 * header.c process_group_desc(): a leader, then its members, the attrs
 * after it), or with --group on a file without groups every event one
 * group (evlist__force_leader()); one table per group, its members'
 * entries linked into the leader's hists, its title "anon group { a, b }"
 * (the recorded name for a named group, "a, b" for a forced one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/report.h>

void pulse_report_group__exit(struct pulse_report_group *g)
{
	for (size_t i = 0; g->name && i < g->nr; i++)
		free(g->name[i]);
	free(g->name);
	free(g->leader);
	free(g->nr_members);
	g->name = NULL;
	g->leader = NULL;
	g->nr_members = NULL;
	g->nr = 0;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* GROUP_DESC: u32 nr; { u32 len; char name[len]; u32 leader_idx; u32 nr_members } */
static int group__parse(struct pulse_report_group *g, const unsigned char *p, size_t len)
{
	uint32_t nr;

	if (len < 4)
		return -EBADMSG;
	nr = get_u32(p);
	p += 4;
	len -= 4;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t slen, leader, members;

		if (len < 4 || (slen = get_u32(p)) > len - 4 || len - 4 - slen < 8)
			return -EBADMSG;
		leader = get_u32(p + 4 + slen);
		members = get_u32(p + 8 + slen);
		if (leader < g->nr && members <= g->nr - leader) {
			const char *name = (const char *)p + 4;

			g->nr_members[leader] = members;
			for (uint32_t j = 1; j < members; j++)
				g->leader[leader + j] = leader;
			if (strnlen(name, slen) < slen && strcmp(name, "{anon_group}")) {
				g->name[leader] = strdup(name);
				if (!g->name[leader])
					return -ENOMEM;
			}
		}
		p += 12 + slen;
		len -= 12 + slen;
	}
	return 0;
}

int pulse_report__setup_groups(struct pulse_report *rep)
{
	struct pulse_report_group *g = &rep->group;
	size_t nr = pulse_data__nr_attrs(rep->d), len;
	const void *desc = pulse_data__feat(rep->d, PULSE_FEAT_GROUP_DESC, &len);
	bool any = false;
	int err;

	pulse_report_group__exit(g);
	g->leader = calloc(nr ? nr : 1, sizeof(*g->leader));
	g->nr_members = calloc(nr ? nr : 1, sizeof(*g->nr_members));
	g->name = calloc(nr ? nr : 1, sizeof(*g->name));
	if (!g->leader || !g->nr_members || !g->name)
		return -ENOMEM;
	g->nr = nr;
	for (size_t i = 0; i < nr; i++)
		g->leader[i] = i;
	g->forced = false;
	if (desc) {
		err = group__parse(g, desc, len);
		if (err == -ENOMEM)
			return err;
	}
	for (size_t i = 0; i < nr; i++)
		any |= g->nr_members[i] > 1;
	/* perf's default: the group view when the file has groups */
	g->on = g->want < 0 ? any : g->want;
	if (g->on && !any && nr > 1) {
		g->forced = true;
		g->nr_members[0] = nr;
		for (size_t i = 1; i < nr; i++)
			g->leader[i] = 0;
	}
	return 0;
}

bool pulse_report__is_group_leader(const struct pulse_report *rep, size_t idx)
{
	return idx < rep->group.nr && rep->group.nr_members[idx] > 1;
}

bool pulse_report__is_group_member(const struct pulse_report *rep, size_t idx)
{
	return idx < rep->group.nr && rep->group.leader[idx] != idx;
}

const char *pulse_report__group_name(struct pulse_report *rep, size_t idx, char *buf,
				     size_t size)
{
	const struct pulse_report_group *g = &rep->group;
	char name[256];
	size_t n = 0;

	if (!g->forced)
		n = snprintf(buf, size, "%s { ", g->name[idx] ? g->name[idx] : "anon group");
	for (size_t j = idx; j < idx + g->nr_members[idx] && n < size; j++)
		n += snprintf(buf + n, size - n, "%s%s", j == idx ? "" : ", ",
			      pulse_session__event_name(rep->session, j, name, sizeof(name)));
	if (!g->forced && n < size)
		snprintf(buf + n, size - n, " }");
	return buf;
}

int pulse_report__link_group(struct pulse_report *rep, size_t idx)
{
	size_t nr = rep->group.nr_members[idx] - 1;
	struct pulse_hists *h = &rep->hists[idx];

	for (size_t j = 0; j < nr; j++) {
		struct pulse_hists *m = idx + 1 + j < rep->nr_hists ? &rep->hists[idx + 1 + j] :
									  NULL;
		struct pulse_hists none = { 0 };
		int err;

		if (m && rep->relative)
			pulse_hists__use_relative(m);
		err = pulse_hists__link(h, m ? m : &none, j, nr);
		if (err)
			return err;
	}
	return 0;
}
