// SPDX-License-Identifier: GPL-2.0
/*
 * The "srcline" sort key: an entry's source line as perf 6.1's
 * hist_entry__srcline() gives it (map__srcline(): "file.c:NN" from the
 * DWARF line table, else "sym+OFF" in decimal, else "dso[addr]", "??:0"
 * without a map), interned so that entries compare by pointer. perf looks
 * the entry's ip up: the sample's own entry has its DSO offset, a
 * --children entry made from a callchain frame the frame's address, which
 * finds no line in a shared object and gives perf's sym+OFF of that
 * address (reproduced).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include <pulse/srcline.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "hist/hist-internal.h"

#define SRCLINE_UNKNOWN "??:0"

struct addr_slot {
	const struct pulse_dso *dso;
	uint64_t ip;
	const char *text;	/* NULL: empty slot */
};

struct text_node {
	struct text_node *next;
	char text[];
};

struct pulse_hist_srcline {
	struct pulse_srclines *lines;	/* borrowed */
	struct addr_slot *slots;	/* (dso, ip) -> text, open addressing */
	size_t nr_slots, used;
	struct text_node **texts;	/* the interned texts, chained */
	size_t nr_texts;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

int pulse_hists__set_srclines(struct pulse_hists *h, struct pulse_srclines *lines)
{
	struct pulse_hist_srcline *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->lines = lines;
	t->nr_slots = 1024;
	t->nr_texts = 1024;
	t->slots = calloc(t->nr_slots, sizeof(*t->slots));
	t->texts = calloc(t->nr_texts, sizeof(*t->texts));
	if (!t->slots || !t->texts) {
		pulse_hist_srcline__delete(t);
		return -ENOMEM;
	}
	pulse_hist_srcline__delete(h->srcline);
	h->srcline = t;
	return 0;
}

void pulse_hist_srcline__delete(struct pulse_hist_srcline *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->texts && i < t->nr_texts; i++) {
		struct text_node *n = t->texts[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	free(t->texts);
	free(t->slots);
	free(t);
}

static const char *intern(struct pulse_hist_srcline *t, const char *text)
{
	size_t b = str_hash(text) & (t->nr_texts - 1), len = strlen(text);
	struct text_node *n;

	for (n = t->texts[b]; n; n = n->next)
		if (!strcmp(n->text, text))
			return n->text;
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return NULL;
	memcpy(n->text, text, len + 1);
	n->next = t->texts[b];
	t->texts[b] = n;
	return n->text;
}

static size_t slot_index(const struct pulse_hist_srcline *t, const struct pulse_dso *dso,
			 uint64_t ip)
{
	return hash_final(mix((uintptr_t)dso, ip)) & (t->nr_slots - 1);
}

static int grow(struct pulse_hist_srcline *t)
{
	struct addr_slot *old = t->slots;
	size_t nr = t->nr_slots;

	t->slots = calloc(nr * 2, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -ENOMEM;
	}
	t->nr_slots = nr * 2;
	for (size_t i = 0; i < nr; i++) {
		size_t j;

		if (!old[i].text)
			continue;
		for (j = slot_index(t, old[i].dso, old[i].ip); t->slots[j].text;
		     j = (j + 1) & (t->nr_slots - 1))
			;
		t->slots[j] = old[i];
	}
	free(old);
	return 0;
}

const char *pulse_hist_srcline__get(struct pulse_hist_srcline *t, struct pulse_dso *dso,
				    const struct pulse_symbol *sym, uint64_t ip)
{
	char buf[4096];
	const char *text;
	size_t j;

	if (!dso)
		return SRCLINE_UNKNOWN;
	for (j = slot_index(t, dso, ip); t->slots[j].text; j = (j + 1) & (t->nr_slots - 1))
		if (t->slots[j].dso == dso && t->slots[j].ip == ip)
			return t->slots[j].text;
	if (!pulse_srclines__lookup(t->lines, dso, ip, buf, sizeof(buf)))
		;
	else if (sym)
		/* perf's __get_srcline() fallback: the ip less the symbol's start */
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, sym->name, ip - sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name, ip);
	text = intern(t, buf);
	if (!text)
		return NULL;
	if (2 * (t->used + 1) > t->nr_slots) {
		if (grow(t))
			return NULL;
		for (j = slot_index(t, dso, ip); t->slots[j].text;
		     j = (j + 1) & (t->nr_slots - 1))
			;
	}
	t->slots[j] = (struct addr_slot){ .dso = dso, .ip = ip, .text = text };
	t->used++;
	return text;
}

struct mark_ctx {
	const struct pulse_hists *h;
	size_t nr_before;	/* the keys before srcline */
};

static int before_cmp(const void *pa, const void *pb, void *arg)
{
	const struct mark_ctx *c = arg;
	const struct pulse_hist_entry *a = &c->h->entries[*(const uint32_t *)pa];
	const struct pulse_hist_entry *b = &c->h->entries[*(const uint32_t *)pb];

	for (size_t k = 0; k < c->nr_before; k++) {
		int r = pulse_sort_key__cmp(c->h->keys[k], a, b);

		if (r)
			return r;
	}
	return 0;
}

/*
 * Without --children, perf 6.1 makes an entry's srcline when its collapse compares it with
 * an entry equal in the keys before srcline (an insertion passes the
 * entries next to it in order, so any two such meet), and measures the
 * column before it prints the others, which it cuts to the width.
 */
int pulse_hists__mark_srclines(struct pulse_hists *h)
{
	struct mark_ctx c = { .h = h };
	uint32_t *idx;
	size_t i, j;

	/* with --children perf 6.1 has every entry's text before it measures */
	if (h->cumulate) {
		for (i = 0; i < h->nr_entries; i++)
			h->entries[i].srcline_made = true;
		return 0;
	}
	for (i = 0; i < h->nr_keys && h->keys[i] != PULSE_SORT_SRCLINE; i++)
		;
	c.nr_before = i;
	idx = malloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < h->nr_entries; i++)
		idx[i] = i;
	qsort_r(idx, h->nr_entries, sizeof(*idx), before_cmp, &c);
	for (i = 0; i < h->nr_entries; i = j) {
		for (j = i + 1; j < h->nr_entries && !before_cmp(&idx[i], &idx[j], &c); j++)
			;
		for (size_t k = i; j - i > 1 && k < j; k++)
			h->entries[idx[k]].srcline_made = true;
	}
	free(idx);
	return 0;
}
