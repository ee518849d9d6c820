// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined frames (pulse_symbol.inlined) in histograms, as perf 6.1 has
 * them: --children rows of inlined functions by name (_sort__sym_cmp()),
 * chain nodes matched by name (match_chain()), "NAME (inlined)" in chains
 * (callchain_list__sym_name()) and in the Symbol column.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>
#include <pulse/inline.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/output-callchain.h>
#include <pulse/output-stdio.h>
#include "test.h"

/* hot [0x100, 0x200) with add_up and scale inlined in it; main after */
static const struct pulse_symbol hot = { 0x100, 0x200, "hot", 3, STB_GLOBAL, STT_FUNC };
static const struct pulse_symbol main_ = { 0x300, 0x400, "main", 4, STB_GLOBAL, STT_FUNC };
/*
 * one name's fake symbols in two copies, as two symbols inlining it have
 * (pulse_inlines__find() shares one per enclosing symbol): found by name
 */
static const struct pulse_symbol add_up[2] = {
	{ 0x100, 0x200, "add_up", 6, STB_GLOBAL, STT_FUNC, 1 },
	{ 0x100, 0x200, "add_up", 6, STB_GLOBAL, STT_FUNC, 1 },
};
static const struct pulse_symbol scale[2] = {
	{ 0x100, 0x200, "scale", 5, STB_GLOBAL, STT_FUNC, 1 },
	{ 0x100, 0x200, "scale", 5, STB_GLOBAL, STT_FUNC, 1 },
};

struct fix {
	struct pulse_machine m;
	struct pulse_dso *app;
	struct pulse_thread *t;
	struct pulse_hists h;
};

/* @chain in callee order; handed over in the cursor's order */
static int add(struct fix *f, uint64_t period, struct pulse_cc_loc *chain, size_t nr)
{
	struct pulse_addr_loc al = { .thread = f->t, .dso = f->app, .sym = chain[0].sym,
				     .addr = chain[0].ip, .level = '.' };
	size_t i;

	/* the sample's own symbol is the real one, as the machine resolves it */
	for (i = 0; i < nr && chain[i].sym->inlined; i++)
		;
	al.sym = chain[i].sym;
	if (f->h.cc.order == PULSE_CC_CALLER) {
		for (size_t j = 0; j < nr / 2; j++) {
			struct pulse_cc_loc t = chain[j];

			chain[j] = chain[nr - 1 - j];
			chain[nr - 1 - j] = t;
		}
	}
	return pulse_hists__add_chain(&f->h, &al, f->t->comm, period, chain, nr);
}

static void fix_init(struct fix *f, enum pulse_cc_order order, enum pulse_cc_mode mode,
		     bool children)
{
	enum pulse_sort_key keys[] = { PULSE_SORT_COMM, PULSE_SORT_DSO, PULSE_SORT_SYM };
	struct pulse_callchain_param p;

	memset(f, 0, sizeof(*f));
	ASSERT_EQ(pulse_machine__init(&f->m, NULL), 0);
	f->app = pulse_dsos__findnew(&f->m.dsos, "/usr/bin/app", PULSE_DSO_NOSYMS);
	f->t = pulse_machine__findnew_thread(&f->m, 10, 10);
	f->t->comm = pulse_machine__intern(&f->m, "app");
	pulse_callchain_param__init(&p);
	p.order = order;
	p.order_set = true;
	p.mode = mode;
	ASSERT_EQ(pulse_hists__init(&f->h, keys, 3), 0);
	pulse_hists__set_callchain(&f->h, &p, children);
}

/* callee order: add_up, scale, hot at one ip, then main */
static void samples(struct fix *f)
{
	struct pulse_cc_loc a[] = { { 0x110, f->app, &add_up[0], '.' },
				    { 0x110, f->app, &scale[0], '.' },
				    { 0x110, f->app, &hot, '.' },
				    { 0x310, f->app, &main_, '.' } };
	struct pulse_cc_loc b[] = { { 0x120, f->app, &add_up[1], '.' },
				    { 0x120, f->app, &scale[1], '.' },
				    { 0x120, f->app, &hot, '.' },
				    { 0x310, f->app, &main_, '.' } };
	/* scale alone: same start as add_up, another function */
	struct pulse_cc_loc c[] = { { 0x130, f->app, &scale[1], '.' },
				    { 0x130, f->app, &hot, '.' },
				    { 0x310, f->app, &main_, '.' } };

	ASSERT_EQ(add(f, 100, a, 4), 0);
	ASSERT_EQ(add(f, 100, b, 4), 0);
	ASSERT_EQ(add(f, 50, c, 3), 0);
	ASSERT_EQ(pulse_hists__sort(&f->h), 0);
	ASSERT_EQ(pulse_hists__sort_chains(&f->h), 0);
}

static const struct pulse_hist_entry *entry(struct fix *f, const char *name)
{
	for (size_t i = 0; i < f->h.nr_entries; i++)
		if (f->h.entries[i].sym && !strcmp(f->h.entries[i].sym->name, name))
			return &f->h.entries[i];
	return NULL;
}

static char *chain_text(struct fix *f, const struct pulse_hist_entry *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	pulse_callchain__fprintf(fp, e->callchain, &f->h.cc, f->h.total_period, e->acc_period,
				 false);
	fclose(fp);
	return buf;
}

static void test_hist_inline__children_rows(void)
{
	const struct pulse_hist_entry *e;
	struct fix f;

	fix_init(&f, PULSE_CC_CALLER, PULSE_CC_FOLDED, true);
	samples(&f);
	/* hot, main, and one row each for scale and add_up */
	ASSERT_EQ(f.h.nr_entries, 4);
	e = entry(&f, "add_up");
	ASSERT_TRUE(e && e->sym->inlined);
	ASSERT_EQ(e->acc_period, 200);
	ASSERT_EQ(e->period, 0);
	e = entry(&f, "scale");
	ASSERT_TRUE(e && e->sym->inlined);
	ASSERT_EQ(e->acc_period, 250);
	e = entry(&f, "hot");
	ASSERT_TRUE(e && !e->sym->inlined);
	ASSERT_EQ(e->period, 250);
	pulse_hists__exit(&f.h);
	pulse_machine__exit(&f.m);
}

static void test_hist_inline__chains_by_name(void)
{
	struct fix f;
	char *s;

	/* hot's own chains: the two add_up copies are one node */
	fix_init(&f, PULSE_CC_CALLER, PULSE_CC_FOLDED, false);
	samples(&f);
	s = chain_text(&f, entry(&f, "hot"));
	ASSERT_STREQ(s, "80.00% main;hot;scale (inlined);add_up (inlined)\n"
			"20.00% main;hot;scale (inlined)\n");
	free(s);
	pulse_hists__exit(&f.h);
	pulse_machine__exit(&f.m);

	/* callee order: scale alone is not add_up, though they start alike */
	fix_init(&f, PULSE_CC_CALLEE, PULSE_CC_FOLDED, false);
	samples(&f);
	s = chain_text(&f, entry(&f, "hot"));
	ASSERT_STREQ(s, "80.00% add_up (inlined);scale (inlined);hot;main\n"
			"20.00% scale (inlined);hot;main\n");
	free(s);
	pulse_hists__exit(&f.h);
	pulse_machine__exit(&f.m);
}

static void test_hist_inline__symbol_column(void)
{
	char *buf = NULL;
	size_t len = 0;
	struct fix f;
	FILE *fp;

	fix_init(&f, PULSE_CC_CALLER, PULSE_CC_NONE, true);
	samples(&f);
	fp = open_memstream(&buf, &len);
	ASSERT_EQ(pulse_hists__fprintf(&f.h, fp, NULL), 0);
	fclose(fp);
	ASSERT_TRUE(strstr(buf, "[.] add_up (inlined)\n") != NULL);
	ASSERT_TRUE(strstr(buf, "[.] scale (inlined)\n") != NULL);
	ASSERT_TRUE(strstr(buf, "[.] hot\n") != NULL);
	free(buf);
	pulse_hists__exit(&f.h);
	pulse_machine__exit(&f.m);
}

/* the inline cache's own test: a loop inlined into a function of this binary */
static volatile unsigned long inl_sink;

static inline __attribute__((always_inline)) void inl_inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		inl_sink += i * i;
}

__attribute__((noinline)) void inl_outer(unsigned long n)
{
	inl_inner(n);
	inl_sink ^= n;
	inl_inner(n + inl_sink);
}

/*
 * Every address of inl_outer inside its inlined copies of inl_inner gets
 * inl_inner's frame from pulse_inlines__find(), and one symbol for all of
 * them (a chain merge compares them by pointer), a copy of inl_outer but
 * for its name.
 */
static void test_hist_inline__one_symbol_per_function(void)
{
	const struct pulse_symbol *outer = NULL, *inner = NULL;
	struct pulse_inlines *in;
	struct pulse_machine m;
	struct pulse_dso *dso;
	char exe[4096];
	size_t hits = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	inl_outer(3);
	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	ASSERT_EQ(pulse_machine__init(&m, NULL), 0);
	dso = pulse_dsos__findnew(&m.dsos, exe, PULSE_DSO_USER);
	ASSERT_TRUE(dso != NULL);
	ASSERT_TRUE(pulse_dso__load(&m.dsos, dso) > 0);
	for (size_t i = 0; i < dso->symtab.nr; i++)
		if (!strcmp(dso->symtab.syms[i].name, "inl_outer"))
			outer = &dso->symtab.syms[i];
	ASSERT_TRUE(outer != NULL);
	ASSERT_EQ(pulse_inlines__new(&in, NULL), 0);
	for (uint64_t a = outer->start; a < outer->end; a++) {
		const struct pulse_symbol *const *frames;
		size_t nr = pulse_inlines__find(in, dso, outer, a, &frames);

		for (size_t i = 0; i < nr; i++) {
			if (strcmp(frames[i]->name, "inl_inner"))
				continue;
			if (!inner)
				inner = frames[i];
			ASSERT_TRUE(frames[i] == inner);
			hits++;
		}
	}
	ASSERT_TRUE(hits >= 2);
	ASSERT_TRUE(inner->inlined && inner->start == outer->start && inner->end == outer->end);
	pulse_inlines__delete(in);
	pulse_machine__exit(&m);
}

TEST_MAIN(TEST(test_hist_inline__children_rows), TEST(test_hist_inline__chains_by_name),
	  TEST(test_hist_inline__symbol_column), TEST(test_hist_inline__one_symbol_per_function))
