#!/bin/bash
# pulse report on -g files against perf report: the callchain trees under
# each entry (graph, fractal, flat, folded; caller and callee order; the
# percent, period and count values) and the Children/Self columns of
# --children, byte for byte. perf's random "Tip" line and its "[...]
# (inlined)" (an uninitialised flag in perf 6.1, see the README) are the
# only things normalised.
. "$(dirname "$0")/lib/test-lib.sh"

normalise() {
	grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/'
}

# same FILE ARGS...: the whole report of pulse and perf with ARGS
same() {
	local f=$1; shift
	perf_in "$f" report --stdio "$@" 2>/dev/null | normalise >perf.out
	pulse_in "$f" report --stdio "$@" 2>pulse.err | normalise >pulse.out
	test_must_be_empty pulse.err
	grep -q '%' perf.out
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'record calltree with perf -g' '
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf_in cg.data evlist -v | grep -q "sample_type: [A-Z|]*CALLCHAIN"
'

test_expect_success PERF '--no-children: callee graphs under the self rows' '
	same cg.data --no-children &&
	grep -q "^            ---leaf_a$" pulse.out &&
	grep -q "^               mid$" pulse.out
'

test_expect_success PERF '--children: Children and Self columns, caller graphs' '
	same cg.data --children &&
	grep -q "^# Children      Self  Command" pulse.out &&
	grep -q "|--[0-9.]*%--leaf_a$" pulse.out
'

for g in graph flat folded fractal fractal,0.05 graph,0,callee flat,0,count \
	 graph,0,period folded,0.1,caller graph,0.5,2 none; do
	test_expect_success PERF "-g $g, with and without --children" '
		same cg.data --no-children -g '"$g"' &&
		same cg.data --children -g '"$g"'
	'
done

test_expect_success PERF 'a bare -g is graph,0.5,caller; "-g x" takes x' '
	same cg.data --no-children -g &&
	grep -q "^            ---__libc_start_call_main$\|^            ---main$" pulse.out &&
	same cg.data --no-children -g caller &&
	same cg.data --no-children --call-graph=callee
'

test_expect_success PERF '--sort sym leaves out the entry'"'"'s own frame' '
	same cg.data --no-children --sort sym &&
	same cg.data --children --sort sym,dso &&
	same cg.data --no-children --sort dso,sym
'

test_expect_success PERF 'pipe mode -g file' '
	perf record -q -g -o - -- "$WL/calltree" >cg.pipe 2>/dev/null &&
	same cg.pipe --no-children &&
	same cg.pipe --children
'

test_expect_success PERF '-g on a file without callchains is an error, as in perf' '
	perf record -q -o nocg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	expect_fail nonzero err pulse report -i nocg.data --stdio -g &&
	one_error err callchain &&
	pulse report -i nocg.data --stdio --children >out 2>err &&
	test_must_be_empty err &&
	grep -q "^# Overhead  Command" out
'

test_expect_success PERF 'an invalid -g argument is a usage error' '
	expect_fail 129 err pulse report -i cg.data --stdio -g graph,xyz,1,2 &&
	one_error err "call-graph"

'

test_done
