// SPDX-License-Identifier: GPL-2.0
/*
 * A symbol table's own rules, in memory: the fix-ups and alias choice as
 * perf 6.1 makes them (symbols__fixup_end(), symbols__fixup_duplicate(),
 * choose_best_symbol()), the plain fix-up path against perf's tree, and
 * demangling as perf prints it. Tables read from files are
 * tests/unit/test-symbols.c's.
 */
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "symbols/symtab-int.h"
#include "test.h"

static void test_symbols__fixup_end_and_find(void)
{
	struct pulse_symtab st;
	const struct pulse_symbol *s;

	pulse_symtab__init(&st);
	/* out of order, one without a size */
	ASSERT_EQ(pulse_symtab__add(&st, 0x2000, 0x10, STB_GLOBAL, STT_FUNC, "b"), 0);
	ASSERT_EQ(pulse_symtab__add(&st, 0x1000, 0, STB_GLOBAL, STT_FUNC, "a"), 0);
	ASSERT_EQ(pulse_symtab__add(&st, 0x3000, 0, STB_GLOBAL, STT_FUNC, "c"), 0);
	pulse_symtab__fixup(&st, false);
	ASSERT_EQ(st.nr, 3);
	s = pulse_symtab__find(&st, 0x1fff);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "a");		/* sized up to the next symbol */
	ASSERT_TRUE(pulse_symtab__find(&st, 0x2010) == NULL);	/* gap after b's size */
	s = pulse_symtab__find(&st, 0x3fff);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "c");		/* last: to the end of the next page */
	ASSERT_EQ(s->end, 0x4000);
	ASSERT_TRUE(pulse_symtab__find(&st, 0x4000) == NULL);
	ASSERT_TRUE(pulse_symtab__find(&st, 0xfff) == NULL);
	pulse_symtab__exit(&st);
}

static const char *alias_winner(uint64_t size_a, int bind_a, const char *a,
				uint64_t size_b, int bind_b, const char *b)
{
	static char out[64];
	struct pulse_symtab st;

	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x1000, size_a, bind_a, STT_FUNC, a);
	pulse_symtab__add(&st, 0x1000, size_b, bind_b, STT_FUNC, b);
	pulse_symtab__add(&st, 0x1000 + 0x100, 8, STB_GLOBAL, STT_FUNC, "next");
	pulse_symtab__fixup(&st, false);
	snprintf(out, sizeof(out), "%s", st.nr == 2 ? st.syms[0].name : "?");
	pulse_symtab__exit(&st);
	return out;
}

static void test_symbols__alias_choice(void)
{
	/* a sized symbol beats one without size... */
	ASSERT_STREQ(alias_winner(0x10, STB_WEAK, "x", 0, STB_GLOBAL, "y"), "y");
	/* ...but fix-ups size the later alias, so the last sizeless one wins */
	ASSERT_STREQ(alias_winner(0, STB_GLOBAL, "first", 0, STB_GLOBAL, "second"), "second");
	/* global beats weak beats... */
	ASSERT_STREQ(alias_winner(8, STB_WEAK, "memcpy", 8, STB_GLOBAL, "__memcpy"), "__memcpy");
	ASSERT_STREQ(alias_winner(8, STB_LOCAL, "loc", 8, STB_GLOBAL, "glob"), "glob");
	/* fewer leading underscores, then the longer name, then the first */
	ASSERT_STREQ(alias_winner(8, STB_GLOBAL, "__libc_malloc", 8, STB_GLOBAL, "malloc"), "malloc");
	ASSERT_STREQ(alias_winner(8, STB_GLOBAL, "free", 8, STB_GLOBAL, "cfree"), "cfree");
	ASSERT_STREQ(alias_winner(8, STB_GLOBAL, "abc", 8, STB_GLOBAL, "xyz"), "abc");
}

/*
 * The fix-up's plain path (a table in start order whose fixed-up symbols
 * do not overlap, as kallsyms) gives the table perf's tree gives: random
 * tables, sorted or not, with sizeless symbols, aliases, overlaps and
 * module names, fixed up both ways.
 */
static void test_symbols__fixup_plain_is_tree(void)
{
	static const char *const names[] = { "a", "__b", "cc", "d\t[mod]", "e\t[mod]", "ff" };
	static const uint8_t binds[] = { STB_GLOBAL, STB_WEAK, STB_LOCAL };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int plain = 0;

	for (int round = 0; round < 3000; round++) {
		struct pulse_symtab a, b;
		int n = 1 + round % 40;
		bool sorted = round % 3 != 0, ks = round % 2;
		uint64_t at = 0x1000;

		pulse_symtab__init(&a);
		pulse_symtab__init(&b);
		for (int i = 0; i < n; i++) {
			uint64_t r, start, size;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r = x;
			if (sorted)
				start = at += (r % 4 == 0) ? 0 : (r >> 8) % 0x40;	/* aliases too */
			else
				start = 0x1000 + (r >> 8) % 0x400;
			/* mostly sizeless or short, now and then long enough to overlap */
			size = (r >> 20) % 5 == 0 ? 0 : (r >> 24) % ((r >> 40) % 7 == 0 ? 0x100 : 0x20);
			pulse_symtab__add(&a, start, size, binds[(r >> 32) % 3], STT_FUNC,
					  names[(r >> 36) % 6]);
			pulse_symtab__add(&b, start, size, binds[(r >> 32) % 3], STT_FUNC,
					  names[(r >> 36) % 6]);
		}
		pulse_symtab__fixup(&a, ks);
		pulse_symtab__fixup_tree(&b, ks);
		ASSERT_EQ(a.nr, b.nr);
		for (size_t i = 0; i < a.nr; i++) {
			ASSERT_EQ(a.syms[i].start, b.syms[i].start);
			ASSERT_EQ(a.syms[i].end, b.syms[i].end);
			ASSERT_STREQ(a.syms[i].name, b.syms[i].name);
			ASSERT_EQ(a.syms[i].binding, b.syms[i].binding);
		}
		for (uint64_t addr = 0xff0; addr < at + 0x200; addr += 3) {
			const struct pulse_symbol *sa = pulse_symtab__find(&a, addr);
			const struct pulse_symbol *sb = pulse_symtab__find(&b, addr);

			ASSERT_TRUE(sa ? sb && !strcmp(sa->name, sb->name) : !sb);
		}
		/* how many took the plain path: both paths must be met */
		plain += sorted && a.nr == (size_t)n;
		pulse_symtab__exit(&a);
		pulse_symtab__exit(&b);
	}
	ASSERT_TRUE(plain > 100);
}

static void test_symbols__demangle(void)
{
	char *d = pulse_demangle("_ZN2ns3BoxIlE4spinEi");

	ASSERT_STREQ(d, "ns::Box<long>::spin");	/* no parameters, as perf 6.1 */
	free(d);
	d = pulse_demangle("_Z4workRSt6vectorIlSaIlEEi");
	ASSERT_STREQ(d, "work");
	free(d);
	ASSERT_TRUE(pulse_demangle("main") == NULL);
}

/* Rust, both schemes, as perf 6.1 prints them: no hash, no parameters. */
static void test_symbols__demangle_rust(void)
{
	char *d = pulse_demangle("_ZN4core3fmt5write17h0123456789abcdefE");

	ASSERT_STREQ(d, "core::fmt::write");	/* legacy: the ::h<hash> goes */
	free(d);
	d = pulse_demangle("_ZN71_$LT$Test$u20$$u2b$$u20$$u27$static$u20$as$u20$foo..Bar$LT$Test$GT$$GT$3bar17h930b740aa94f1d3aE");
	ASSERT_STREQ(d, "<Test + 'static as foo::Bar<Test>>::bar");
	free(d);
	d = pulse_demangle("_RNvCs15kBYyAo9fc_7mycrate7example");	/* v0 */
	ASSERT_STREQ(d, "mycrate::example");
	free(d);
	d = pulse_demangle("_RNvMsr_NtCs3ssYzQotkvD_3std4pathNtB5_7PathBuf3new");
	ASSERT_STREQ(d, "<std::path::PathBuf>::new");
	free(d);
}

TEST_MAIN(TEST(test_symbols__fixup_end_and_find), TEST(test_symbols__alias_choice),
	  TEST(test_symbols__fixup_plain_is_tree), TEST(test_symbols__demangle),
	  TEST(test_symbols__demangle_rust))
