#!/bin/bash
# pulse report and script --inline / --no-inline (perf 6.1's
# symbol_conf.inline_name, on by default) on frame-pointer recordings of a
# workload whose hot loop is inlined twice (add_up into scale into hot):
# perf 6.1 makes inline frames only for the frames a DWARF unwinder finds
# (unwind_entry() -> append_inlines()), never for a recorded callchain
# (add_callchain_ip()), so with -g the reports have no "(inlined)" frame,
# with either option: pulse's equal perf's byte for byte (graph, folded,
# caller, --children), its random Tip line aside.
. "$(dirname "$0")/lib/test-lib.sh"

normalise() { grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/'; }

same() { # FILE ARGS...
	local f=$1; shift
	perf_in "$f" report --stdio "$@" 2>/dev/null | normalise >perf.out &&
	pulse_in "$f" report --stdio "$@" 2>pulse.err | normalise >pulse.out &&
	test_must_be_empty pulse.err &&
	grep -q "hot" perf.out &&
	test_cmp perf.out pulse.out
}

test_expect_success 'record the inlined workload with -g' '
	record_ok rec.err -g -o pulse.data -- "$WL/inlined" 200
'

test_expect_success '--inline and --no-inline are accepted; -g chains stay as recorded' '
	pulse report -i pulse.data --stdio -g folded --inline >in.out 2>err &&
	test_must_be_empty err &&
	pulse report -i pulse.data --stdio -g folded --no-inline >noin.out 2>err &&
	test_must_be_empty err &&
	grep -q "main;hot" in.out &&
	! grep -q "(inlined)" in.out &&
	grep -v "^# (Tip:" in.out >a && grep -v "^# (Tip:" noin.out >b && test_cmp a b &&
	pulse script -i pulse.data --inline >s1 && pulse script -i pulse.data --no-inline >s2 &&
	test_cmp s1 s2 && ! grep -q "(inlined)" s1
'

test_expect_success PERF 'the same reports as perf 6.1 (pulse and perf recordings)' '
	perf record -q -g -o perf.data -- "$WL/inlined" 200 >/dev/null 2>&1 &&
	for f in pulse.data perf.data; do
		for o in "" --inline --no-inline; do
			same $f -g $o &&
			same $f -g folded $o &&
			same $f -g caller $o &&
			same $f --no-children -g caller $o &&
			same $f --children -g folded,caller $o || exit 1
		done
	done
'

test_expect_success PERF 'script: the same callchains as perf 6.1' '
	for o in --inline --no-inline; do
		perf script -i perf.data $o 2>/dev/null >perf.s &&
		pulse script -i perf.data $o >pulse.s 2>err &&
		test_cmp perf.s pulse.s || exit 1
	done
'

test_done
