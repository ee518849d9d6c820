#!/bin/bash
# pulse report --no-demangle as perf 6.1's: C++ symbol names of ELF files
# as they are in the symbol table (_ZN2ns1K4spinEl), in rows and chains;
# --demangle (the default) demangles them; with -v, perf 6.1 demangles
# with the parameters (DMGL_PARAMS | DMGL_ANSI).
. "$(dirname "$0")/lib/test-lib.sh"


test_expect_success ROOT 'build and record a C++ program' '
	command -v g++ >/dev/null || { echo "no g++" >&2; return 0; }
	cat >cx.cc <<-\EOC &&
	#include <cstdio>
	namespace ns { struct K { static long spin(long n); };
	long K::spin(long n) { volatile long x = 0; for (long i = 0; i < n; i++) x += i; return x; } }
	template <typename T> T twice(T n) { return ns::K::spin(n) + ns::K::spin(n); }
	int main() { long s = 0; for (int i = 0; i < 20; i++) s += twice<long>(3000000); printf("%ld\n", s); }
	EOC
	g++ -O0 -o cx cx.cc &&
	record_ok rec.err -g -o cx.data -- ./cx >/dev/null
'

test_expect_success ROOT '--no-demangle: mangled names in rows and chains' '
	test -f cx.data || return 0
	pulse report -i cx.data --stdio --no-children >out &&
	grep -q "\[.\] ns::K::spin\$" out && grep -q "twice<long>" out &&
	pulse report -i cx.data --stdio --no-children --no-demangle >out &&
	grep -q "\[.\] _ZN2ns1K4spinEl\$" out && grep -q "^ *_Z5twiceIlET_S0_\$" out &&
	! grep -q "ns::K::spin" out &&
	pulse report -i cx.data --stdio --no-children --no-demangle --demangle >out &&
	grep -q "\[.\] ns::K::spin\$" out
'

test_expect_success ROOT '-v: names with their parameters, as perf 6.1 demangles them then' '
	test -f cx.data || return 0
	pulse report -i cx.data --stdio --no-children -v >out &&
	grep -q "\[.\] ns::K::spin(long)\$" out && grep -q "^ *long twice<long>(long)\$" out &&
	pulse report -i cx.data --stdio --no-children -v --no-demangle >out &&
	grep -q "\[.\] _ZN2ns1K4spinEl\$" out
'

test_expect_success PERF,ROOT 'the same output as perf 6.1' '
	test -f cx.data || return 0
	for a in "--no-demangle" "--no-demangle --no-children" "--demangle" "--no-demangle -g caller"; do
		compare_report cx.data $a || { echo "$a" >&2; return 1; }
	done
'

test_done
