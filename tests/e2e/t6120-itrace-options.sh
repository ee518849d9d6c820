#!/bin/bash
# --itrace=OPTS for pulse script and pulse report, parsed as perf 6.1 parses
# it: the same strings accepted, the same refused (perf's words as the one
# error line, usage, exit 129), --no-itrace and a bare --itrace; on a file
# without AUX data it changes nothing.
. "$(dirname "$0")/lib/test-lib.sh"

GOOD='i i100us i10i i1ms i,10,us i10 i0 ix b c r x w p o I e d e-o+l d+a+e g g5 G l L64 l1024 s10 f m t a M q qq A Z cre "b,,c" "e +o" "i 5" "g 5" "s 5"'
BAD='z i10x i10u i10m e+ d+A g0 g1025 l1025 s sx T y y10i u'

test_expect_success PERF 'a file to read: cpu-clock samples, no AUX data' '
	record_ok err -o plain.data -- $WL/spin 50 &&
	pulse script -i plain.data >plain.out
'

test_expect_success PERF 'the strings perf 6.1 accepts, pulse accepts, printing the same lines' '
	eval "set -- $GOOD"
	for o in "$@"; do
		perf script -i plain.data --itrace="$o" >perf.out 2>/dev/null ||
			{ echo "perf refused $o" >&2; return 1; }
		pulse script -i plain.data --itrace="$o" >pulse.out 2>pulse.err ||
			{ echo "pulse refused $o" >&2; cat pulse.err >&2; return 1; }
		test_cmp pulse.out plain.out || return 1
	done
'

# refused OPT: perf and pulse (script and report) refuse it alike
refused() {
	local rc=0
	perf script -i plain.data --itrace="$1" >/dev/null 2>perf.err || rc=$?
	expect_eq "$rc" 129 || return 1
	grep -qF "Bad Instruction Tracing options '$1'" perf.err || return 1
	expect_fail 129 err pulse script -i plain.data --itrace="$1" || return 1
	grep '^error: ' err | grep -qxF "error: Bad Instruction Tracing options '$1'" ||
		{ cat err >&2; return 1; }
	one_error err "Bad Instruction Tracing options" || return 1
	expect_fail 129 err pulse report -i plain.data --stdio --itrace="$1" || return 1
	one_error err "Bad Instruction Tracing options"
}

test_expect_success PERF 'the strings perf 6.1 refuses, pulse refuses: exit 129, perf'"'"'s words' '
	for o in $BAD; do refused "$o" || { echo "on $o" >&2; return 1; }; done
'

test_expect_success 'a bare --itrace, an empty one and --no-itrace are accepted' '
	pulse script -i plain.data --itrace >o1 &&
	pulse script -i plain.data --itrace= >o2 &&
	pulse script -i plain.data --no-itrace >o3 &&
	test_cmp o1 plain.out && test_cmp o2 plain.out && test_cmp o3 plain.out &&
	pulse report -i plain.data --stdio --itrace=i100us >/dev/null
'

test_done
