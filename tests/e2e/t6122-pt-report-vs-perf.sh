#!/bin/bash
# pulse report on Intel PT recordings (tests/tools/pulse-mkpt) is perf 6.1's
# report: the default (instructions every 100us, cbr and psb, callchains from
# the decoder's thread stacks, Children), --itrace=i with periods, with g,
# b with --sort, e; a missing binary, transactions and an interrupt. And
# pulse script --itrace=ig prints perf's synthesized callchains.
. "$(dirname "$0")/lib/test-lib.sh"

MKPT=$TOOLS/pulse-mkpt
PT=$WL/pt-loop

# same_rep FILE ARGS...: perf report and pulse report --stdio, Tip lines dropped
same_rep() {
	local f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v "^# (Tip" >perf.out
	pulse report -i "$f" --stdio "$@" 2>pulse.err | grep -v "^# (Tip" >pulse.out
	[ -s perf.out ] || { echo "perf report $* printed nothing" >&2; return 1; }
	test_cmp perf.out pulse.out
}

each_rep() {
	local f=$1
	same_rep "$f" &&
	same_rep "$f" --itrace=i100us &&
	same_rep "$f" --itrace=i10usg &&
	same_rep "$f" --itrace=i10usg --no-children &&
	same_rep "$f" --itrace=b --sort dso,sym &&
	same_rep "$f" --itrace=e &&
	same_rep "$f" --itrace=pg
}

test_expect_success PERF 'the default report and --itrace variants, 20000 iterations' '
	"$MKPT" -n 20000 big.data "$PT" && each_rep big.data
'

test_expect_success PERF 'a short trace: cbr and psb only, with callchains' '
	"$MKPT" -n 2000 small.data "$PT" && each_rep small.data
'

test_expect_success PERF 'a missing binary; transactions and an interrupt' '
	"$MKPT" -n 3000 --missing miss.data "$PT" && each_rep miss.data &&
	"$MKPT" -n 3000 --tsx --intr 5 tsx.data "$PT" && each_rep tsx.data
'

test_expect_success PERF 'pulse script --itrace=g: perf'"'"'s synthesized callchains' '
	for o in --itrace=i1ig --itrace=i100nsg --itrace=pg --itrace=i1ig3 --itrace=bg; do
		same_script small.data $o || return 1
	done
'

test_done
