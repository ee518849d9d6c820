// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks of a report: each hist entry's callchain tree (perf's
 * --no-children trees, caller order) walked once, every tree node's own
 * samples added at the end of its path. These are the lines `pulse report
 * -g folded,0,caller,count --no-children` prints, merged by name; the
 * samples are not walked again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/report.h>
#include "flame-int.h"

/* symbol -> interned name: a report names the same few symbols millions of times */
#define NAME_CACHE 4096

struct walk {
	struct pulse_flame *f;
	const void *key[NAME_CACHE];	/* the symbol (NULL slot: empty) */
	const char *name[NAME_CACHE];	/* its interned name */
};

static enum pulse_flame_kind kind_of(const struct pulse_symbol *sym, char level)
{
	if (!sym)
		return PULSE_FLAME_UNKNOWN;
	return level == 'k' ? PULSE_FLAME_KERNEL : PULSE_FLAME_USER;
}

static const char *frame_name(struct walk *w, const struct pulse_symbol *sym)
{
	size_t slot;

	if (!sym)
		return pulse_flame__intern(w->f, "[unknown]", 9);
	slot = ((uintptr_t)sym >> 4) % NAME_CACHE;
	if (w->key[slot] != sym) {
		const char *name = pulse_flame__intern(w->f, sym->name, strlen(sym->name));

		if (!name)
			return NULL;
		w->key[slot] = sym;
		w->name[slot] = name;
	}
	return w->name[slot];
}

/* the frames of @node's run below @cur, then its samples, then its children */
static int walk_node(struct walk *w, const struct pulse_cc_node *node, uint32_t cur)
{
	for (uint32_t i = 0; i < node->val_nr; i++) {
		const struct pulse_cc_loc *loc = &node->val[i];
		const char *name = frame_name(w, loc->sym);

		if (!name)
			return -ENOMEM;
		cur = pulse_flame__get_child(w->f, cur, name, kind_of(loc->sym, loc->level));
		if (!cur)
			return w->f->nr >= UINT32_MAX - 1 ? -E2BIG : -ENOMEM;
	}
	w->f->nodes[cur].self += node->count;
	for (uint32_t c = 0; c < node->nr_children; c++) {
		int err = walk_node(w, node->children[c], cur);

		if (err)
			return err;
	}
	return 0;
}

/* the frames the --sort keys put above the stack (stackcollapse's process name) */
static int prefix(struct walk *w, const struct pulse_hists *h, const struct pulse_hist_entry *e,
		  uint32_t *cur)
{
	for (size_t k = 0; k < h->nr_keys; k++) {
		char buf[64];
		const char *text;
		size_t len;

		switch (h->keys[k]) {
		case PULSE_SORT_COMM:
			text = e->comm ? e->comm : "[unknown]";
			len = strlen(text);
			break;
		case PULSE_SORT_PID:
		case PULSE_SORT_TID:
			/* stackcollapse-perf.pl --tid's "comm-pid/tid" */
			len = snprintf(buf, sizeof(buf), "%s-%d/%d", e->comm ? e->comm : "",
				       e->thread ? e->thread->pid : -1,
				       e->thread ? e->thread->tid : -1);
			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			text = buf;
			break;
		case PULSE_SORT_DSO:
			text = e->dso ? e->dso->short_name : "[unknown]";
			len = strlen(text);
			break;
		default:
			continue;
		}
		text = pulse_flame__intern(w->f, text, len);
		if (!text)
			return -ENOMEM;
		*cur = pulse_flame__get_child(w->f, *cur, text, PULSE_FLAME_TASK);
		if (!*cur)
			return -ENOMEM;
	}
	return 0;
}

int pulse_flame__add_report(struct pulse_flame *f, struct pulse_report *rep, size_t idx,
			    const struct pulse_flame_report_opts *opts)
{
	const struct perf_event_attr *attr;
	struct pulse_hists *h;
	bool chains;
	struct walk *w;
	int err = 0;

	if (!opts || opts->sz < sizeof(*opts) || idx >= rep->nr_hists)
		return -EINVAL;
	h = &rep->hists[idx];
	/* the event's samples took report's chain path (report__add()) */
	attr = pulse_data__attr(rep->d, idx);
	chains = rep->chains && ((attr && attr->sample_type & PERF_SAMPLE_CALLCHAIN) ||
				 rep->pt_chain_nr);
	err = pulse_hists__finish_trees(h);
	if (err)
		return err;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->f = f;
	for (size_t i = 0; i < h->nr_entries && !err; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];
		uint32_t cur = 0;

		if (e->filtered)
			continue;
		if (opts->prefix) {
			err = prefix(w, h, e, &cur);
			if (err)
				break;
		}
		if (e->callchain) {
			err = walk_node(w, &e->callchain->node, cur);
			continue;
		}
		/*
		 * an entry of chains without a tree: all its samples' chains
		 * were empty, which a tree does not take, nor folded prints
		 */
		if (chains)
			continue;
		/* no chain: the sampled function alone, as perf's folded output */
		{
			const char *name = frame_name(w, e->sym);

			if (!name) {
				err = -ENOMEM;
				break;
			}
			cur = pulse_flame__get_child(f, cur, name, kind_of(e->sym, e->level));
			if (!cur) {
				err = -ENOMEM;
				break;
			}
			f->nodes[cur].self += e->nr_samples;
		}
	}
	free(w);
	f->finished = false;
	return err;
}
