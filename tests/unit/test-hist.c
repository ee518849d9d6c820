// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms, their perf-compatible output order and stdio formatting, and
 * time ordering of records (FINISHED_ROUND semantics).
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/hist.h>
#include <pulse/ordering.h>
#include <pulse/output-callchain.h>
#include <pulse/output-stdio.h>
#include "test.h"

/* a queue, or NULL */
static struct pulse_ordered *ordered_new(pulse_ordered_fn fn, void *arg)
{
	struct pulse_ordered *q;

	return pulse_ordered__new(&q, fn, arg) ? NULL : q;
}

struct fixture {
	struct pulse_machine m;
	struct pulse_dso *libc, *app;
	struct pulse_thread *t1, *t2;
	struct pulse_symbol syms[3];
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	pulse_machine__init(&f->m, NULL);
	f->libc = pulse_dsos__findnew(&f->m.dsos, "/lib/libc.so.6", PULSE_DSO_NOSYMS);
	f->app = pulse_dsos__findnew(&f->m.dsos, "/usr/bin/app", PULSE_DSO_NOSYMS);
	f->t1 = pulse_machine__findnew_thread(&f->m, 10, 10);
	f->t1->comm = pulse_machine__intern(&f->m, "app");
	f->t2 = pulse_machine__findnew_thread(&f->m, 20, 20);
	f->t2->comm = pulse_machine__intern(&f->m, "zsh");
	f->syms[0] = (struct pulse_symbol){ 0x100, 0x200, "memcpy", 6, STB_GLOBAL, STT_FUNC };
	f->syms[1] = (struct pulse_symbol){ 0x200, 0x300, "aaa_first", 9, STB_GLOBAL, STT_FUNC };
	f->syms[2] = (struct pulse_symbol){ 0x300, 0x400, "main", 4, STB_GLOBAL, STT_FUNC };
}

static int add(struct pulse_hists *h, struct fixture *f, struct pulse_thread *t,
	       struct pulse_dso *dso, int sym, uint64_t ip, uint64_t period)
{
	struct pulse_addr_loc al = {
		.thread = t, .dso = dso, .sym = sym >= 0 ? &f->syms[sym] : NULL,
		.addr = ip, .level = '.',
	};

	return pulse_hists__add(h, &al, t->comm, period);
}

static void test_hist__aggregate_and_order(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM };
	struct pulse_hists h;
	struct fixture f;

	fixture_init(&f);
	ASSERT_EQ(pulse_hists__init(&h, keys, 3), 0);
	add(&h, &f, f.t1, f.app, 2, 0x310, 100);	/* app main: 100 + 100 */
	add(&h, &f, f.t1, f.app, 2, 0x320, 100);
	add(&h, &f, f.t2, f.libc, 0, 0x110, 50);	/* ties at 50 */
	add(&h, &f, f.t1, f.libc, 1, 0x210, 50);
	add(&h, &f, f.t1, f.libc, 0, 0x150, 50);
	add(&h, &f, f.t1, f.app, -1, 0x900, 50);	/* unresolved */
	add(&h, &f, f.t1, f.app, -1, 0x800, 50);
	add(&h, &f, f.t1, NULL, -1, 0x42, 50);		/* no map */
	ASSERT_EQ(h.nr_entries, 7);
	ASSERT_EQ(h.total_period, 500);
	ASSERT_EQ(h.nr_samples, 8);
	ASSERT_EQ(pulse_hists__sort(&h), 0);
	ASSERT_EQ(h.entries[0].period, 200);
	ASSERT_STREQ(h.entries[0].sym->name, "main");
	/* 50s: comm app first; dso "app" < "libc.so.6" < unknown; resolved before
	 * unresolved; names alphabetically; unresolved by address */
	ASSERT_TRUE(h.entries[1].dso == f.app && h.entries[1].ip == 0x800);
	ASSERT_TRUE(h.entries[2].dso == f.app && h.entries[2].ip == 0x900);
	ASSERT_STREQ(h.entries[3].sym->name, "aaa_first");
	ASSERT_STREQ(h.entries[4].sym->name, "memcpy");
	ASSERT_TRUE(h.entries[4].comm == f.t1->comm);
	ASSERT_TRUE(h.entries[5].dso == NULL);
	ASSERT_STREQ(h.entries[6].comm, "zsh");
	pulse_hists__exit(&h);
	pulse_machine__exit(&f.m);
}

static void test_hist__keys_decide_identity(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_DSO };
	enum pulse_sort_key pid_keys[] = { PULSE_SORT_PID, PULSE_SORT_SYM };
	struct pulse_hists h;
	struct fixture f;

	fixture_init(&f);
	pulse_hists__init(&h, keys, 1);
	add(&h, &f, f.t1, f.libc, 0, 0x110, 1);
	add(&h, &f, f.t2, f.libc, 1, 0x210, 2);
	add(&h, &f, f.t2, f.app, 2, 0x310, 4);
	ASSERT_EQ(h.nr_entries, 2);
	ASSERT_EQ(pulse_hists__sort(&h), 0);
	ASSERT_TRUE(h.entries[0].dso == f.app);
	ASSERT_EQ(h.entries[1].period, 3);
	pulse_hists__exit(&h);

	pulse_hists__init(&h, pid_keys, 2);
	add(&h, &f, f.t2, f.libc, 0, 0x110, 5);
	add(&h, &f, f.t1, f.libc, 0, 0x120, 5);
	add(&h, &f, f.t1, f.libc, 0, 0x130, 5);
	ASSERT_EQ(h.nr_entries, 2);
	ASSERT_EQ(pulse_hists__sort(&h), 0);
	ASSERT_EQ(h.entries[0].thread->tid, 10);
	pulse_hists__exit(&h);
	pulse_machine__exit(&f.m);
}

/*
 * The parent key: names ascending, then [other] (perf's
 * sort__parent_cmp()); a filtered entry keeps the verdict of its first
 * sample, stays out of the table and of the relative totals.
 */
static void test_hist__parent_and_filtered(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_PARENT, PULSE_SORT_DSO };
	struct pulse_hists h;
	struct fixture f;
	FILE *fp;
	char *out = NULL;
	size_t len = 0;

	fixture_init(&f);
	ASSERT_EQ(pulse_sort_keys__parse("parent", keys, 1, NULL, NULL), 1);
	ASSERT_EQ(keys[0], PULSE_SORT_PARENT);
	ASSERT_STREQ(pulse_sort_key__title(PULSE_SORT_PARENT), "Parent symbol");
	keys[0] = PULSE_SORT_PARENT;
	pulse_hists__init(&h, keys, 2);
	pulse_hists__set_parent(&h, &f.syms[1], false);		/* aaa_first */
	add(&h, &f, f.t1, f.app, 2, 0x310, 10);
	pulse_hists__set_parent(&h, &f.syms[2], false);		/* main */
	add(&h, &f, f.t1, f.app, 2, 0x310, 10);
	pulse_hists__set_parent(&h, NULL, false);
	add(&h, &f, f.t1, f.app, 2, 0x310, 10);
	/* hidden first: the entry stays hidden when a later sample is not */
	pulse_hists__set_parent(&h, NULL, true);
	add(&h, &f, f.t1, f.libc, 0, 0x110, 30);
	pulse_hists__set_parent(&h, NULL, false);
	add(&h, &f, f.t1, f.libc, 0, 0x120, 10);
	ASSERT_EQ(h.nr_entries, 4);
	pulse_hists__use_relative(&h);
	ASSERT_EQ(h.total_period, 30);
	ASSERT_EQ(h.nr_samples, 3);
	ASSERT_EQ(pulse_hists__sort(&h), 0);
	fp = open_memstream(&out, &len);
	pulse_hists__fprintf(&h, fp, NULL);
	fclose(fp);
	ASSERT_STREQ(out, "# Overhead  Parent symbol  Shared Object\n"
			  "# ........  .............  .............\n"
			  "#\n"
			  "    33.33%  aaa_first      app          \n"
			  "    33.33%  main           app          \n"
			  "    33.33%  [other]        app          \n");
	free(out);
	pulse_hists__exit(&h);
	pulse_machine__exit(&f.m);
}

static void test_hist__sort_keys_parse(void)
{
	enum pulse_sort_key k[8];
	const char *bad = NULL;
	size_t len = 0;

	ASSERT_EQ(pulse_sort_keys__parse("comm,dso,sym", k, 8, &bad, &len), 3);
	ASSERT_EQ(k[2], PULSE_SORT_SYM);
	ASSERT_EQ(pulse_sort_keys__parse("pid,symbol", k, 8, &bad, &len), 2);
	ASSERT_EQ(k[0], PULSE_SORT_PID);
	ASSERT_EQ(pulse_sort_keys__parse("comm,bogus", k, 8, &bad, &len), -EINVAL);
	ASSERT_EQ(len, 5);
	ASSERT_TRUE(!strncmp(bad, "bogus", len));
}

static char *print(struct pulse_hists *h, const struct pulse_stdio_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (pulse_hists__sort(h))
		return NULL;
	fp = open_memstream(&buf, &len);
	pulse_hists__fprintf(h, fp, o);
	fclose(fp);
	return buf;
}

static void test_hist__stdio_format(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM };
	struct pulse_stdio_opts o = { .sz = sizeof(o), .percent_limit = 10 };
	struct pulse_hists h;
	struct fixture f;
	char *out, hdr[256];
	FILE *fp;

	fixture_init(&f);
	pulse_hists__init(&h, keys, 3);
	add(&h, &f, f.t1, f.app, 2, 0x310, 3);
	add(&h, &f, f.t1, f.libc, -1, 0x4a9e, 1);
	out = print(&h, NULL);
	ASSERT_STREQ(out,
		     "# Overhead  Command  Shared Object     Symbol                \n"
		     "# ........  .......  ................  ......................\n"
		     "#\n"
		     "    75.00%  app      app               [.] main\n"
		     "    25.00%  app      libc.so.6         [.] 0x0000000000004a9e\n");
	free(out);
	pulse_hists__exit(&h);

	/* widths count hidden entries; -n adds a right-aligned Samples column */
	pulse_hists__init(&h, keys, 3);
	add(&h, &f, f.t2, f.app, 2, 0x310, 99);
	add(&h, &f, f.t2, f.app, 1, 0x210, 1);
	o.show_nr_samples = true;
	out = print(&h, &o);
	ASSERT_STREQ(out,
		     "# Overhead       Samples  Command  Shared Object  Symbol       \n"
		     "# ........  ............  .......  .............  .............\n"
		     "#\n"
		     "    99.00%             1  zsh      app            [.] main\n");
	free(out);
	pulse_hists__exit(&h);

	fp = fmemopen(hdr, sizeof(hdr), "w");
	pulse_stdio__event_header(fp, "cpu-clock", 4321, 1080250000, NULL);
	fputc('\0', fp);
	fclose(fp);
	ASSERT_STREQ(hdr, "# Samples: 4K of event 'cpu-clock'\n"
			  "# Event count (approx.): 1080250000\n#\n");
	pulse_machine__exit(&f.m);
}

/*
 * Rows format their percentages without printf where it is safe: every
 * one must read as printf's "%7.2f%%", ties (0.125%, 2.675%) included.
 */
static void test_hist__stdio_percentages(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_SYM };
	static const uint64_t cases[][2] = {
		{ 1, 800 }, { 3, 800 }, { 5, 800 }, { 7, 800 }, { 2675, 100000 },
		{ 1005, 100000 }, { 99995, 100000 }, { 1, 3 }, { 2, 3 }, { 1, 7 },
		{ 5, 1000000 }, { 49999, 10000000 }, { 50001, 10000000 }, { 1, 1 },
		{ 12345678, 87654321 }, { 999, 1000 }, { 1, 200000 }, { 3, 200000 },
	};
	struct fixture f;

	fixture_init(&f);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t p = cases[c][0], total = cases[c][1];
		struct pulse_hists h;
		char want[2][32];
		char *out;

		pulse_hists__init(&h, keys, 1);
		add(&h, &f, f.t1, f.app, 2, 0x310, p);
		if (total > p)
			add(&h, &f, f.t1, f.app, 1, 0x210, total - p);
		snprintf(want[0], sizeof(want[0]), "  %7.2f%%  [.] main\n", 100.0 * p / total);
		snprintf(want[1], sizeof(want[1]), "  %7.2f%%  [.] aaa_first\n",
			 100.0 * (total - p) / total);
		out = print(&h, NULL);
		if (!strstr(out, want[0]) || (total > p && !strstr(out, want[1])))
			TEST_FAIL("%llu/%llu: want '%s' and '%s' in:\n%s", (unsigned long long)p,
				  (unsigned long long)total, want[0], want[1], out);
		free(out);
		pulse_hists__exit(&h);
	}
	pulse_machine__exit(&f.m);
}

/*
 * A data symbol prints perf's "+0x" offset of the first sample, taken
 * between the DSO offset and the symbol's address in the process (perf's
 * map->unmap_ip()), so a load address shows through; kernel ones are
 * plain offsets.
 */
static void test_hist__stdio_data_symbol(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM };
	struct pulse_symbol obj = { 0x3000, 0x3040, "some_table", 10, STB_LOCAL, STT_OBJECT };
	struct pulse_map map = { .start = 0x555555554000ULL, .end = 0x555555558000ULL };
	struct pulse_addr_loc al = { .level = '.' };
	struct pulse_hists h;
	struct fixture f;
	char *out;

	fixture_init(&f);
	map.dso = f.app;
	ASSERT_EQ(pulse_maps__insert(f.t1->maps, &map), 0);
	pulse_hists__init(&h, keys, 3);
	al.thread = f.t1;
	al.dso = f.app;
	al.sym = &obj;
	al.addr = 0x3008;
	ASSERT_EQ(pulse_hists__add(&h, &al, f.t1->comm, 1), 0);
	al.addr = 0x3010;	/* the same entry: the first sample's offset stays */
	ASSERT_EQ(pulse_hists__add(&h, &al, f.t1->comm, 1), 0);
	al.dso = pulse_dsos__findnew(&f.m.dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	al.level = 'k';
	ASSERT_EQ(pulse_hists__add(&h, &al, f.t1->comm, 2), 0);
	out = print(&h, NULL);
	ASSERT_STREQ(out,
		     "# Overhead  Command  Shared Object      Symbol        \n"
		     "# ........  .......  .................  ..............\n"
		     "#\n"
		     "    50.00%  app      [kernel.kallsyms]  [k] some_table+0x10\n"
		     "    50.00%  app      app                [.] some_table+0xffffaaaaaaaac008\n");
	free(out);
	pulse_hists__exit(&h);
	pulse_machine__exit(&f.m);
}

struct order_log {
	uint64_t seen[16];
	int n;
};

static int log_rec(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct order_log *log = arg;

	log->seen[log->n++] = file_offset;
	return 0;
}

static void test_ordering__rounds(void)
{
	struct order_log log = { 0 };
	struct pulse_ordered *q = ordered_new(log_rec, &log);
	struct perf_event_header rec = { PERF_RECORD_SAMPLE, 0, 8 };

	/* round 1: t=30,10,20; offset = timestamp to check the order */
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 30, 30), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 10, 10), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 20, 20), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 0, 0), -ETIME);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(log.n, 0);		/* nothing is old enough after one round */
	/* round 2 brings an older record from another CPU */
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 25, 25), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 40, 40), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(log.n, 4);		/* up to round 1's newest: 30 */
	ASSERT_EQ(log.seen[0], 10);
	ASSERT_EQ(log.seen[1], 20);
	ASSERT_EQ(log.seen[2], 25);
	ASSERT_EQ(log.seen[3], 30);
	ASSERT_EQ(pulse_ordered__nr_queued(q), 1);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 40, 41), 0);	/* equal times keep their order */
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 35, 35), 0);
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	ASSERT_EQ(log.n, 7);
	ASSERT_EQ(log.seen[4], 35);
	ASSERT_EQ(log.seen[5], 40);
	ASSERT_EQ(log.seen[6], 41);
	pulse_ordered__delete(q);
}

struct many_state {
	uint64_t last;
	int n;
	int bad;
};

static int many_cb(const struct perf_event_header *r, uint64_t off, void *arg)
{
	struct many_state *st = arg;

	if (off < st->last || r->size != 256 || ((const char *)r)[100] != 7)
		st->bad++;
	st->last = off;
	st->n++;
	return 0;
}

static void test_ordering__many(void)
{
	struct pulse_ordered *q;
	struct many_state st = { 0 };
	char big[256] = { 0 };
	struct perf_event_header *rec = (void *)big;

	big[100] = 7;
	q = ordered_new(many_cb, &st);
	rec->type = PERF_RECORD_SAMPLE;
	rec->size = sizeof(big);
	/* enough records to go through several slabs, in reverse time order */
	for (int i = 20000; i > 0; i--)
		ASSERT_EQ(pulse_ordered__queue(q, rec, i, i), 0);
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	ASSERT_EQ(st.n, 20000);
	ASSERT_EQ(st.bad, 0);
	pulse_ordered__delete(q);
}

/*
 * --children: a caller gets its callees' period once per sample, however
 * often it recurs; chains merge and split as perf's do, and print as
 * perf's graph.
 */
static void test_hist__children_and_chains(void)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM };
	struct pulse_callchain_param p;
	struct pulse_hists h;
	struct fixture f;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	fixture_init(&f);
	pulse_callchain_param__init(&p);
	p.order = PULSE_CC_CALLER;
	ASSERT_EQ(pulse_hists__init(&h, keys, 3), 0);
	pulse_hists__set_callchain(&h, &p, true);
	/* caller order: main -> memcpy (twice), main -> aaa_first -> main (recursion) */
	struct pulse_cc_loc main_ = { 0x310, f.app, &f.syms[2], '.' };
	struct pulse_cc_loc cpy = { 0x110, f.app, &f.syms[0], '.' };
	struct pulse_cc_loc first = { 0x210, f.app, &f.syms[1], '.' };
	struct pulse_cc_loc c1[] = { main_, cpy }, c2[] = { main_, first, main_ };
	struct pulse_addr_loc al = { .thread = f.t1, .dso = f.app, .sym = &f.syms[0],
				     .addr = 0x110, .level = '.' };

	ASSERT_EQ(pulse_hists__add_chain(&h, &al, f.t1->comm, 100, c1, 2), 0);
	ASSERT_EQ(pulse_hists__add_chain(&h, &al, f.t1->comm, 100, c1, 2), 0);
	al.sym = &f.syms[2];
	al.addr = 0x310;
	ASSERT_EQ(pulse_hists__add_chain(&h, &al, f.t1->comm, 200, c2, 3), 0);
	ASSERT_EQ(h.total_period, 400);
	ASSERT_EQ(h.nr_entries, 3);
	ASSERT_EQ(pulse_hists__sort(&h), 0);
	ASSERT_EQ(pulse_hists__sort_chains(&h), 0);
	/* main: self 200, children 400 (counted once for the recursion) */
	ASSERT_STREQ(h.entries[0].sym->name, "main");
	ASSERT_EQ(h.entries[0].period, 200);
	ASSERT_EQ(h.entries[0].acc_period, 400);
	/* 200 each, equal chain depths: the self period decides */
	ASSERT_STREQ(h.entries[1].sym->name, "memcpy");
	ASSERT_EQ(h.entries[1].period, 200);
	ASSERT_STREQ(h.entries[2].sym->name, "aaa_first");
	ASSERT_EQ(h.entries[2].acc_period, 200);
	ASSERT_EQ(h.entries[2].period, 0);
	/* main's tree: one "main" node split into memcpy (200) and aaa_first (200) */
	ASSERT_EQ(h.entries[0].callchain->node.nr_children, 1);
	ASSERT_EQ(h.entries[0].callchain->node.children[0]->nr_children, 2);
	fp = open_memstream(&buf, &len);
	ASSERT_TRUE(fp != NULL);
	pulse_callchain__fprintf(fp, h.entries[1].callchain, &h.cc, h.total_period,
				 h.entries[1].acc_period, false);
	fclose(fp);
	ASSERT_STREQ(buf, "            |\n"
			  "            ---main\n"
			  "               memcpy\n"
			  "\n");
	free(buf);
	pulse_hists__exit(&h);
	pulse_machine__exit(&f.m);
}

TEST_MAIN(TEST(test_hist__aggregate_and_order), TEST(test_hist__keys_decide_identity),
	  TEST(test_hist__stdio_data_symbol), TEST(test_hist__children_and_chains),
	  TEST(test_hist__sort_keys_parse), TEST(test_hist__stdio_format),
	  TEST(test_hist__stdio_percentages),
	  TEST(test_hist__parent_and_filtered),
	  TEST(test_ordering__rounds), TEST(test_ordering__many))
