// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks straight from report's walk (its sink, struct pulse_report):
 * each sample's resolved callchain merged into one trie per event, keyed
 * by the frame's symbol (a pointer, not its name), counted in samples.
 * A report makes an entry and a callchain tree per symbol and merges every
 * chain into one of them (perf's way: two thirds of a flame graph's time);
 * a flame graph needs one tree of names only, so the names are looked at
 * once per trie node at the end (pulse_flame__add_stacks()), when equal
 * names on different symbols merge as `report -g folded` lines do.
 *
 * A thread's consecutive samples mostly share their outer frames (caller
 * order), but threads take turns: the last path of each of a few threads
 * (by tid) is kept, and the common part of the thread's next sample is
 * taken from it without looking at the trie (13 M frames, 2.4 M with one
 * path for all threads, 10.6 M). Any path is a valid start: equal frames
 * from an event's root are the same nodes. A node's hint (its last child)
 * then saves most hash lookups below.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/report.h>
#include "flame-int.h"

enum stk_type {
	STK_EVENT,	/* an event's root: key its index */
	STK_USER,	/* a symbol (user space): key the symbol */
	STK_KERNEL,	/* a kernel symbol */
	STK_UNKNOWN,	/* no symbol: "[unknown]", key 0 */
	STK_TEXT,	/* a --sort frame (comm, dso): key its interned text */
};

struct stk_node {
	uintptr_t key;
	uint32_t parent;
	/*
	 * the child last gone to: the next sample of the same code mostly
	 * goes there again, and then the hash table is not looked at
	 */
	uint32_t hint;
	uint8_t type;
	uint64_t self;		/* samples whose stack ends here */
};

struct stk_path {
	uintptr_t key;
	uint8_t type;
	uint32_t node;
};

/* a path and its room */
struct stk_buf {
	struct stk_path *p;
	size_t nr, alloc;
};

#define STK_THREADS 64		/* paths kept, by tid */

struct pulse_flame_stacks {
	struct pulse_flame *names;	/* interns the --sort frames' text */
	struct stk_node *nodes;		/* node 0: above the events' roots */
	size_t nr, alloc;
	uint32_t *index;		/* (parent, type, key) -> node + 1; 0 empty */
	size_t slots;			/* a power of two */
	struct stk_buf path[STK_THREADS];	/* a thread's last sample's */
	struct stk_buf cur;		/* this sample's, being made */
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];	/* those that make frames */
	size_t nr_keys;
	uint64_t *samples;		/* per event */
	size_t nr_events;
	const char *last_text[2];	/* the last comm and dso interned */
};

static uint64_t hash_key(uint32_t parent, uint8_t type, uintptr_t key)
{
	uint64_t v = (uint64_t)key * 0x9e3779b97f4a7c15ULL ^
		     ((uint64_t)parent << 3 | type) * 0xc2b2ae3d27d4eb4fULL;

	v ^= v >> 29;
	return v * 0xbf58476d1ce4e5b9ULL;
}

static size_t find_slot(const struct pulse_flame_stacks *st, uint32_t parent, uint8_t type,
			uintptr_t key)
{
	size_t j = hash_key(parent, type, key) & (st->slots - 1);

	for (; st->index[j]; j = (j + 1) & (st->slots - 1)) {
		const struct stk_node *n = &st->nodes[st->index[j] - 1];

		if (n->key == key && n->parent == parent && n->type == type)
			break;
	}
	return j;
}

static int grow_index(struct pulse_flame_stacks *st)
{
	size_t slots = st->slots * 2;
	uint32_t *idx = calloc(slots, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < st->slots; i++) {
		const struct stk_node *n;
		size_t j;

		if (!st->index[i])
			continue;
		n = &st->nodes[st->index[i] - 1];
		j = hash_key(n->parent, n->type, n->key) & (slots - 1);
		while (idx[j])
			j = (j + 1) & (slots - 1);
		idx[j] = st->index[i];
	}
	free(st->index);
	st->index = idx;
	st->slots = slots;
	return 0;
}

/* the child (@type, @key) of @parent, made if new; 0 on -ENOMEM or -E2BIG */
static uint32_t get_child(struct pulse_flame_stacks *st, uint32_t parent, uint8_t type,
			  uintptr_t key)
{
	uint32_t hint = st->nodes[parent].hint;
	struct stk_node *n;
	size_t j;

	if (hint && st->nodes[hint].key == key && st->nodes[hint].type == type)
		return hint;
	j = find_slot(st, parent, type, key);
	if (st->index[j]) {
		st->nodes[parent].hint = st->index[j] - 1;
		return st->index[j] - 1;
	}
	if (st->nr >= UINT32_MAX - 1)
		return 0;
	if ((st->nr + 1) * 2 >= st->slots) {
		if (grow_index(st))
			return 0;
		j = find_slot(st, parent, type, key);
	}
	if (st->nr == st->alloc) {
		n = realloc(st->nodes, st->alloc * 2 * sizeof(*n));
		if (!n)
			return 0;
		st->nodes = n;
		st->alloc *= 2;
	}
	n = &st->nodes[st->nr];
	n->key = key;
	n->parent = parent;
	n->type = type;
	n->self = 0;
	n->hint = 0;
	st->nodes[parent].hint = st->nr;
	st->index[j] = ++st->nr;
	return st->nr - 1;
}

int pulse_flame_stacks__new(struct pulse_flame_stacks **out, struct pulse_report *rep,
			    const struct pulse_flame_report_opts *opts)
{
	struct pulse_flame_stacks *st;

	*out = NULL;
	if (!opts || opts->sz < sizeof(*opts))
		return -EINVAL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->alloc = 4096;
	st->nodes = calloc(st->alloc, sizeof(*st->nodes));
	st->slots = 8192;
	st->index = calloc(st->slots, sizeof(*st->index));
	if (!st->nodes || !st->index || pulse_flame__new(&st->names)) {
		pulse_flame_stacks__delete(st);
		return -ENOMEM;
	}
	st->nr = 1;
	for (size_t k = 0; opts->prefix && k < rep->nr_keys; k++)
		if (rep->keys[k] == PULSE_SORT_COMM || rep->keys[k] == PULSE_SORT_DSO)
			st->keys[st->nr_keys++] = rep->keys[k];
	rep->sink = pulse_flame_stacks__sample;
	rep->sink_arg = st;
	*out = st;
	return 0;
}

void pulse_flame_stacks__delete(struct pulse_flame_stacks *st)
{
	if (!st)
		return;
	free(st->nodes);
	free(st->index);
	for (size_t i = 0; i < STK_THREADS; i++)
		free(st->path[i].p);
	free(st->cur.p);
	free(st->samples);
	pulse_flame__delete(st->names);
	free(st);
}

bool pulse_flame_stacks__usable(const struct pulse_report *rep)
{
	const struct pulse_hist_filter *f = &rep->filter;

	/* an entry hidden by its first sample hides the later ones: perf's */
	if (f->comms || f->pids || f->tids || f->dsos || f->symbols)
		return false;
	/* "comm-pid/tid" is the entry's first comm, which exec changes */
	for (size_t k = 0; k < rep->nr_keys; k++)
		if (rep->keys[k] == PULSE_SORT_PID || rep->keys[k] == PULSE_SORT_TID)
			return false;
	return !rep->hide_unresolved && !rep->parent;
}

uint64_t pulse_flame_stacks__nr_samples(const struct pulse_flame_stacks *st, size_t idx)
{
	return idx < st->nr_events ? st->samples[idx] : 0;
}

static int path_reserve(struct stk_buf *b, size_t nr)
{
	struct stk_path *p;

	if (nr <= b->alloc)
		return 0;
	p = realloc(b->p, nr * sizeof(*p));
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->alloc = nr;
	return 0;
}

static int count_sample(struct pulse_flame_stacks *st, size_t idx)
{
	if (idx >= st->nr_events) {
		size_t n = idx + 1;
		uint64_t *s = realloc(st->samples, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		memset(s + st->nr_events, 0, (n - st->nr_events) * sizeof(*s));
		st->samples = s;
		st->nr_events = n;
	}
	st->samples[idx]++;
	return 0;
}

/* a --sort frame's text, interned (comms change: their text is the key) */
static uintptr_t text_key(struct pulse_flame_stacks *st, int which, const char *text)
{
	const char *last = st->last_text[which];

	if (!last || strcmp(last, text)) {
		last = pulse_flame__intern(st->names, text, strlen(text));
		st->last_text[which] = last;
	}
	return (uintptr_t)last;
}

static void frame(struct stk_path *p, const struct pulse_symbol *sym, char level)
{
	p->key = (uintptr_t)sym;
	p->type = !sym ? STK_UNKNOWN : level == 'k' ? STK_KERNEL : STK_USER;
}

int pulse_flame_stacks__sample(void *arg, size_t idx, const struct pulse_addr_loc *al,
			       const struct pulse_cc_loc *chain, size_t nr, bool chained)
{
	struct pulse_flame_stacks *st = arg;
	size_t n = 0, same = 0;
	uint32_t cur = 0;
	struct stk_buf *last, tmp;
	struct stk_path *p;
	int err;

	err = count_sample(st, idx);
	if (!err)
		err = path_reserve(&st->cur, 1 + st->nr_keys + (chained ? nr : 1));
	if (err)
		return err;
	/* report's tree takes no empty chain (perf's callchain_append()) */
	if (chained && !nr)
		return 0;
	last = &st->path[(uint32_t)al->thread->tid * 0x9e3779b1U >> 26];
	p = st->cur.p;
	p[n].type = STK_EVENT;
	p[n++].key = idx;
	for (size_t k = 0; k < st->nr_keys; k++, n++) {
		const char *text = "[unknown]";

		if (st->keys[k] == PULSE_SORT_COMM) {
			if (al->thread->comm)
				text = al->thread->comm;
		} else if (al->dso) {
			text = al->dso->short_name;
		}
		p[n].type = STK_TEXT;
		p[n].key = text_key(st, st->keys[k] == PULSE_SORT_DSO, text);
		if (!p[n].key)
			return -ENOMEM;
	}
	if (!chained)
		frame(&p[n++], al->sym, al->level);
	for (size_t i = 0; i < nr; i++)
		frame(&p[n++], chain[i].sym, chain[i].level);

	/* the previous sample's nodes as far as the frames are the same */
	while (same < n && same < last->nr && last->p[same].key == p[same].key &&
	       last->p[same].type == p[same].type) {
		p[same].node = last->p[same].node;
		same++;
	}
	if (same)
		cur = p[same - 1].node;
	for (size_t i = same; i < n; i++) {
		cur = get_child(st, cur, p[i].type, p[i].key);
		if (!cur)
			return st->nr >= UINT32_MAX - 1 ? -E2BIG : -ENOMEM;
		p[i].node = cur;
	}
	st->nodes[cur].self++;
	/* this sample's path is the thread's last, its old room the next one's */
	st->cur.nr = n;
	tmp = *last;
	*last = st->cur;
	st->cur = tmp;
	return 0;
}

static enum pulse_flame_kind kind_of(uint8_t type)
{
	switch (type) {
	case STK_KERNEL:
		return PULSE_FLAME_KERNEL;
	case STK_UNKNOWN:
		return PULSE_FLAME_UNKNOWN;
	case STK_TEXT:
		return PULSE_FLAME_TASK;
	default:
		return PULSE_FLAME_USER;
	}
}

int pulse_flame__add_stacks(struct pulse_flame *f, const struct pulse_flame_stacks *st,
			    size_t idx)
{
	/* each trie node's node in @f (0: not under event @idx) */
	uint32_t *map = calloc(st->nr, sizeof(*map));
	int err = 0;

	if (!map)
		return -ENOMEM;
	/* a node is always made after its parent: parents are mapped first */
	for (size_t i = 1; i < st->nr && !err; i++) {
		const struct stk_node *n = &st->nodes[i];
		const char *name;
		uint32_t parent;

		if (n->type == STK_EVENT) {
			map[i] = n->key == idx ? 0 : UINT32_MAX;
			continue;
		}
		parent = map[n->parent];
		if (parent == UINT32_MAX) {
			map[i] = UINT32_MAX;
			continue;
		}
		switch (n->type) {
		case STK_UNKNOWN:
			name = "[unknown]";
			break;
		case STK_TEXT:
			name = (const char *)n->key;
			break;
		default:
			name = ((const struct pulse_symbol *)n->key)->name;
			break;
		}
		name = pulse_flame__intern(f, name, strlen(name));
		if (!name) {
			err = -ENOMEM;
			break;
		}
		map[i] = pulse_flame__get_child(f, parent, name, kind_of(n->type));
		if (!map[i])
			err = f->nr >= UINT32_MAX - 1 ? -E2BIG : -ENOMEM;
		else
			f->nodes[map[i]].self += n->self;
	}
	free(map);
	f->finished = false;
	return err;
}
