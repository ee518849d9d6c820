// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation on threads (lib/hist/pool.c) must give what one thread
 * gives: the same entries, in the same order before and after sorting
 * (the output comparator is not a total order, so the order going in shows
 * in ties), the same totals and the same callchain trees, for every mode
 * that merges chains. Random chains with recursion, unresolved frames and
 * frames without a map, in several threads, comms and DSOs. Also built
 * under ThreadSanitizer by `make tsan`.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include <pulse/output-callchain.h>
#include <pulse/output-stdio.h>
#include "test.h"

#define NR_SYMS 600
#define NR_SAMPLES 20000

struct world {
	struct pulse_thread threads[4];
	struct pulse_dso dsos[3];
	struct pulse_symbol syms[3][NR_SYMS];
	char names[3][NR_SYMS][16];
	const char *comms[4];
};

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void world_init(struct world *w)
{
	static const char *const dso_names[] = { "app", "libc.so.6", "[kernel.kallsyms]" };
	static const char *const comms[] = { "app", "app", "worker", "zsh" };

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < 4; i++) {
		w->threads[i].pid = 100 + i / 2;
		w->threads[i].tid = 100 + i;
		w->threads[i].comm = comms[i];
		w->comms[i] = comms[i];
	}
	for (int d = 0; d < 3; d++) {
		w->dsos[d].short_name = (char *)dso_names[d];
		w->dsos[d].long_name = (char *)dso_names[d];
		w->dsos[d].short_name_len = strlen(dso_names[d]);
		w->dsos[d].short_name_hash = 0x1234567 * (d + 1);
		for (int s = 0; s < NR_SYMS; s++) {
			snprintf(w->names[d][s], sizeof(w->names[d][s]), "f%c%02d", 'a' + d, s);
			w->syms[d][s] = (struct pulse_symbol){
				0x1000 * (s + 1), 0x1000 * (s + 1) + 0x800, w->names[d][s],
				(uint32_t)strlen(w->names[d][s]), STB_GLOBAL, STT_FUNC,
			};
		}
	}
}

/* a frame: mostly resolved, some unresolved, a few without a map */
static void random_loc(struct world *w, struct pulse_cc_loc *l)
{
	int d = rnd() % 3, s = rnd() % NR_SYMS, kind = rnd() % 20;

	memset(l, 0, sizeof(*l));
	/* few distinct functions near the root, so that chains share prefixes */
	l->dso = &w->dsos[d];
	l->level = d == 2 ? 'k' : '.';
	l->ip = 0x1000 * (s + 1) + (rnd() % 4) * 0x10;
	if (kind == 0) {
		l->dso = NULL;
		l->level = 0;
		l->ip = 0x99000 + (rnd() % 3);
	} else if (kind == 1) {
		l->ip = 0x80000 + (rnd() % 3) * 8;
	} else {
		l->sym = &w->syms[d][s];
	}
}

struct sample {
	int thread;
	int cpu;
	uint64_t period;
	struct pulse_addr_loc al;
	struct pulse_cc_loc chain[24];
	size_t nr;
	char trace[16];
};

static struct sample *make_samples(struct world *w, size_t n)
{
	struct sample *v = calloc(n, sizeof(*v));

	for (size_t i = 0; v && i < n; i++) {
		struct sample *s = &v[i];

		s->thread = rnd() % 4;
		s->cpu = rnd() % 2;
		s->period = i % 2 ? 1000 : 1 + rnd() % 3 * 1000;
		s->nr = rnd() % 24;
		/* a common root, then random frames, some repeated (recursion) */
		for (size_t k = 0; k < s->nr; k++) {
			if (k < 3)
				s->chain[k] = (struct pulse_cc_loc){
					0x1000 * (k + 1), &w->dsos[0], &w->syms[0][k], '.',
				};
			else if (k > 4 && rnd() % 6 == 0)
				s->chain[k] = s->chain[rnd() % k];
			else
				random_loc(w, &s->chain[k]);
		}
		s->al.thread = &w->threads[s->thread];
		if (s->nr) {
			s->al.dso = s->chain[s->nr - 1].dso;
			s->al.sym = s->chain[s->nr - 1].sym;
			s->al.addr = s->chain[s->nr - 1].ip;
			s->al.level = s->chain[s->nr - 1].level ? s->chain[s->nr - 1].level : '.';
		} else {
			struct pulse_cc_loc l;

			random_loc(w, &l);
			s->al.dso = l.dso;
			s->al.sym = l.sym;
			s->al.addr = l.ip;
			s->al.level = l.level ? l.level : '.';
		}
		snprintf(s->trace, sizeof(s->trace), "t=%d", (int)(rnd() % 5));
	}
	return v;
}

struct mode {
	const char *name;
	enum pulse_sort_key keys[4];
	size_t nr_keys;
	enum pulse_cc_mode cc;
	enum pulse_cc_order order;
	bool cumulate;
	bool trace;
	double min_percent;	/* 0: 0.01 */
	bool relative;		/* --percentage relative */
};

static const struct mode modes[] = {
	{ "children graph", { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM }, 3,
	  PULSE_CC_GRAPH_ABS, PULSE_CC_CALLER, true, false },
	{ "self graph", { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM }, 3,
	  PULSE_CC_GRAPH_ABS, PULSE_CC_CALLEE, false, false },
	{ "children fractal pid", { PULSE_SORT_PID, PULSE_SORT_SYM }, 2,
	  PULSE_CC_GRAPH_REL, PULSE_CC_CALLER, true, false },
	{ "flat cpu", { PULSE_SORT_CPU, PULSE_SORT_DSO }, 2,
	  PULSE_CC_FLAT, PULSE_CC_CALLEE, false, false },
	{ "children folded trace", { PULSE_SORT_TRACE, PULSE_SORT_SYM }, 2,
	  PULSE_CC_FOLDED, PULSE_CC_CALLER, true, true },
	/* perf's default threshold: most entries get no tree (two passes) */
	{ "children graph 0.5", { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM }, 3,
	  PULSE_CC_GRAPH_ABS, PULSE_CC_CALLEE, true, false, 0.5 },
	{ "self graph 0.5 relative", { PULSE_SORT_COMM, PULSE_SORT_SYM }, 2,
	  PULSE_CC_GRAPH_ABS, PULSE_CC_CALLEE, false, false, 0.5, true },
	{ "children flat 1 relative", { PULSE_SORT_SYM }, 1,
	  PULSE_CC_FLAT, PULSE_CC_CALLER, true, false, 1, true },
};

/* the table as pulse report prints it (rows formatted on two threads) */
static char *table(struct pulse_hists *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	pulse_hists__fprintf(h, fp, NULL);
	fclose(fp);
	return buf;
}

/* the table's rows are the entries in order: their first column */
static bool table_in_order(const struct pulse_hists *h, const char *t)
{
	size_t i = 0;

	for (const char *l = t; *l;) {
		const char *nl = strchr(l, '\n');
		char *end;
		double pct = strtod(l, &end), want;

		/* a row: blanks, the first percentage, then more columns on the line */
		if (l[0] == ' ' && end != l && end[0] == '%' && end[1] == ' ' && end[2] == ' ' &&
		    (!nl || end + 3 < nl)) {
			while (i < h->nr_entries && h->entries[i].filtered)
				i++;
			if (i == h->nr_entries)
				return false;
			want = 100.0 * (h->cumulate ? h->entries[i].acc_period :
					h->entries[i].period) / h->total_period;
			if (pct < want - 0.006 || pct > want + 0.006)
				return false;
			i++;
		}
		l = nl ? nl + 1 : l + strlen(l);
	}
	while (i < h->nr_entries && h->entries[i].filtered)
		i++;
	return i == h->nr_entries;
}

/* everything a report shows of a hists, as text (@chains: sorted trees too) */
static char *render(struct pulse_hists *h, bool chains)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	fprintf(fp, "total %llu samples %llu entries %zu\n", (unsigned long long)h->total_period,
		(unsigned long long)h->nr_samples, h->nr_entries);
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct pulse_hist_entry *e = &h->entries[i];

		fprintf(fp, "%s%s %d %s %s %#llx %d %s %llu %llu %llu\n", e->filtered ? "hidden " : "",
			e->comm, e->thread->tid,
			e->dso ? e->dso->short_name : "-", e->sym ? e->sym->name : "-",
			(unsigned long long)e->ip, e->cpu, e->trace ? e->trace : "-",
			(unsigned long long)e->period, (unsigned long long)e->acc_period,
			(unsigned long long)e->nr_samples);
		if (chains)
			pulse_callchain__fprintf(fp, e->callchain, &h->cc, h->total_period,
						 h->cumulate ? e->acc_period : e->period, false);
	}
	fclose(fp);
	return buf;
}

static void setup(struct pulse_hists *h, const struct mode *m)
{
	struct pulse_callchain_param p;

	pulse_callchain_param__init(&p);
	p.mode = m->cc;
	p.order = m->order;
	p.min_percent = m->min_percent ? m->min_percent : 0.01;
	ASSERT_EQ(pulse_hists__init(h, m->keys, m->nr_keys), 0);
	pulse_hists__set_callchain(h, &p, m->cumulate);
}

static void test_pool__same_as_one_thread(void)
{
	struct world w;
	struct sample *v;

	world_init(&w);
	v = make_samples(&w, NR_SAMPLES);
	ASSERT_TRUE(v != NULL);
	for (size_t mi = 0; mi < sizeof(modes) / sizeof(modes[0]); mi++) {
		const struct mode *m = &modes[mi];
		struct pulse_hists one;
		char *want, *want_unsorted, *want_table;

		setup(&one, m);
		for (size_t i = 0; i < NR_SAMPLES; i++) {
			struct sample *s = &v[i];

			pulse_hists__set_sample(&one, s->cpu, m->trace ? s->trace : NULL);
			pulse_hists__set_parent(&one, NULL, i % (m->relative ? 2 : 7) == 0);
			ASSERT_EQ(pulse_hists__add_chain(&one, &s->al, w.comms[s->thread], s->period,
							 s->chain, s->nr), 0);
		}
		/* the order of creation shows through the sort's ties */
		want_unsorted = render(&one, false);
		if (m->relative)
			pulse_hists__use_relative(&one);
		ASSERT_EQ(pulse_hists__sort(&one), 0);
		ASSERT_EQ(pulse_hists__sort_chains(&one), 0);
		want = render(&one, true);
		ASSERT_TRUE(want != NULL);
		want_table = table(&one);
		ASSERT_TRUE(want_table != NULL);
		ASSERT_TRUE(one.nr_entries > 5);
		/* the children table is big enough to be formatted on two threads */
		if (mi == 0)
			ASSERT_TRUE(one.nr_entries >= 4096);

		for (unsigned int nt = 2; nt <= 3; nt++) {
			struct pulse_hist_pool *pool;
			struct pulse_hists h;
			char *got;

			setup(&h, m);
			ASSERT_EQ(pulse_hist_pool__new(&pool, nt), 0);
			for (size_t i = 0; i < NR_SAMPLES; i++) {
				struct sample *s = &v[i];

				pulse_hists__set_sample(&h, s->cpu, m->trace ? s->trace : NULL);
				/* perf's first-sample rule for hidden entries */
				pulse_hists__set_parent(&h, NULL, i % (m->relative ? 2 : 7) == 0);
				ASSERT_EQ(pulse_hist_pool__add(pool, &h, &s->al, w.comms[s->thread],
							       s->period, s->chain, s->nr), 0);
			}
			ASSERT_EQ(pulse_hist_pool__finish(pool, &h, 1), 0);
			ASSERT_EQ(pulse_hists__merge_shards(&h), 0);
			/* with 3 threads the trees still grow while the entries are sorted */
			if (nt == 2)
				pulse_hist_pool__delete(pool);
			got = render(&h, false);
			ASSERT_TRUE(got != NULL);
			if (strcmp(want_unsorted, got))
				TEST_FAIL("%s, %u threads: entries not in creation order", m->name, nt);
			free(got);
			if (m->relative)
				pulse_hists__use_relative(&h);
			ASSERT_EQ(pulse_hists__sort(&h), 0);
			ASSERT_EQ(pulse_hists__sort_chains(&h), 0);
			if (nt == 3)
				pulse_hist_pool__delete(pool);
			/* two passes: trees for some entries, not all */
			if (m->min_percent >= 0.5) {
				size_t trees = 0;

				for (size_t i = 0; i < h.nr_entries; i++)
					trees += h.entries[i].callchain != NULL;
				if (!trees || trees * 2 > h.nr_entries)
					TEST_FAIL("%s: %zu trees for %zu entries", m->name, trees,
						  h.nr_entries);
			}
			got = render(&h, true);
			ASSERT_TRUE(got != NULL);
			if (strcmp(want, got))
				TEST_FAIL("%s, %u threads: not what one thread makes", m->name, nt);
			free(got);
			got = table(&h);
			ASSERT_TRUE(got != NULL);
			if (strcmp(want_table, got))
				TEST_FAIL("%s, %u threads: another table", m->name, nt);
			free(got);
			pulse_hists__exit(&h);
		}
		/* every entry that is not hidden has its row, in order */
		ASSERT_TRUE(table_in_order(&one, want_table));
		free(want);
		free(want_unsorted);
		free(want_table);
		pulse_hists__exit(&one);
	}
	free(v);
}

/* a pool that is deleted without finishing stops its threads; bad sizes fail */
static void test_pool__lifecycle(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM };
	struct pulse_hist_pool *pool;
	struct pulse_hists h;
	struct world w;
	struct sample *v;

	ASSERT_EQ(pulse_hist_pool__new(&pool, 1), -EINVAL);
	ASSERT_TRUE(pool == NULL);
	world_init(&w);
	v = make_samples(&w, 100);
	ASSERT_TRUE(v != NULL);
	ASSERT_EQ(pulse_hists__init(&h, keys, 1), 0);
	ASSERT_EQ(pulse_hist_pool__new(&pool, 2), 0);
	for (size_t i = 0; i < 100; i++)
		ASSERT_EQ(pulse_hist_pool__add(pool, &h, &v[i].al, "app", 1, NULL, 0), 0);
	pulse_hist_pool__delete(pool);
	/* unmerged shards are freed with the hists */
	ASSERT_EQ(h.nr_samples, 100);
	pulse_hists__exit(&h);
	/* finishing twice is harmless; adding after finishing is refused */
	ASSERT_EQ(pulse_hists__init(&h, keys, 1), 0);
	ASSERT_EQ(pulse_hist_pool__new(&pool, 2), 0);
	ASSERT_EQ(pulse_hist_pool__finish(pool, &h, 1), 0);
	ASSERT_EQ(pulse_hist_pool__finish(pool, &h, 1), 0);
	ASSERT_EQ(pulse_hist_pool__add(pool, &h, &v[0].al, "app", 1, NULL, 0), -EINVAL);
	ASSERT_EQ(pulse_hists__merge_shards(&h), 0);
	ASSERT_EQ(h.nr_entries, 0);
	pulse_hist_pool__delete(pool);
	pulse_hists__exit(&h);
	free(v);
}

/*
 * Two events, as perf report has them: the caller's array of hists grows
 * when the second event's first sample comes, so it moves; the pool is told
 * where the hists are at the end. Each hists gets the trees one thread makes.
 */
static void test_pool__hists_array_moves(void)
{
	const struct mode *m = &modes[5];	/* children graph 0.5: two passes */
	struct pulse_hists one[2], *h, *moved;
	struct pulse_hist_pool *pool;
	char *want[2], *got;
	struct world w;
	struct sample *v;

	world_init(&w);
	v = make_samples(&w, NR_SAMPLES);
	ASSERT_TRUE(v != NULL);
	ASSERT_TRUE(strstr(m->name, "0.5") != NULL);
	for (int e = 0; e < 2; e++) {
		setup(&one[e], m);
		for (size_t i = e; i < NR_SAMPLES; i += 2) {
			pulse_hists__set_sample(&one[e], v[i].cpu, NULL);
			ASSERT_EQ(pulse_hists__add_chain(&one[e], &v[i].al, w.comms[v[i].thread],
							 v[i].period, v[i].chain, v[i].nr), 0);
		}
		ASSERT_EQ(pulse_hists__sort(&one[e]), 0);
		ASSERT_EQ(pulse_hists__sort_chains(&one[e]), 0);
		want[e] = render(&one[e], true);
	}
	ASSERT_EQ(pulse_hist_pool__new(&pool, 2), 0);
	h = calloc(1, sizeof(*h));
	ASSERT_TRUE(h != NULL);
	setup(&h[0], m);
	for (size_t i = 0; i < NR_SAMPLES; i++) {
		int e = i % 2;

		if (i == 1) {
			/* the second event: the array grows somewhere else */
			moved = calloc(2, sizeof(*moved));
			ASSERT_TRUE(moved != NULL);
			memcpy(moved, h, sizeof(*h));
			memset(h, 0xa5, sizeof(*h));
			free(h);
			h = moved;
			setup(&h[1], m);
		}
		pulse_hists__set_sample(&h[e], v[i].cpu, NULL);
		ASSERT_EQ(pulse_hist_pool__add(pool, &h[e], &v[i].al, w.comms[v[i].thread],
					       v[i].period, v[i].chain, v[i].nr), 0);
	}
	ASSERT_EQ(pulse_hist_pool__finish(pool, h, 2), 0);
	for (int e = 0; e < 2; e++) {
		ASSERT_EQ(pulse_hists__merge_shards(&h[e]), 0);
		ASSERT_EQ(pulse_hists__sort(&h[e]), 0);
		ASSERT_EQ(pulse_hists__sort_chains(&h[e]), 0);
		got = render(&h[e], true);
		ASSERT_TRUE(got != NULL);
		if (strcmp(want[e], got))
			TEST_FAIL("event %d: not what one thread makes", e);
		free(got);
		free(want[e]);
		pulse_hists__exit(&one[e]);
	}
	pulse_hist_pool__delete(pool);
	pulse_hists__exit(&h[0]);
	pulse_hists__exit(&h[1]);
	free(h);
	free(v);
}

TEST_MAIN(TEST(test_pool__same_as_one_thread), TEST(test_pool__lifecycle),
	  TEST(test_pool__hists_array_moves))
