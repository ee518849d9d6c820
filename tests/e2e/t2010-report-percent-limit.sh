#!/bin/bash
# pulse report --percent-limit on callchain files: perf 6.1's
# parse_percent_limit() sets the callchain threshold too, so the call
# branches under the limit go as the entries do (a later -g resets it).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

# same_as_perf FILE ARGS...: pulse and perf report --stdio agree (no Tip)
same_as_perf() {
	local f=$1; shift
	perf report -i "$f" --symfs "$G/root" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out &&
	pulse report -i "$f" --symfs "$G/root" --stdio "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out &&
	diff -u perf.out pulse.out
}

test_expect_success '--percent-limit drops the call branches under it' '
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --percent-limit 30 >out &&
	grep -q -- "--55.88%--outer_b" out &&
	! grep -q -- "23.53%--outer_a" out &&
	! grep -q -- "20.59%--self_spin" out &&
	pulse report -i "$DATA/perf-g.data" --stdio --percent-limit 5 >out &&
	! grep -q -- "--4.00%--" out
'

test_expect_success 'a -g after --percent-limit sets the threshold again' '
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --percent-limit 30 -g graph,0.5 >out &&
	grep -q -- "23.53%--outer_a" out
'

test_expect_success PERF 'the same trees as perf 6.1' '
	for a in "--percent-limit 5" "--percent-limit 30" "--percent-limit 30 --no-children" \
		 "--percent-limit 30 -g caller" "--percent-limit 30 -g" "-g --percent-limit 30" \
		 "--percent-limit 30 -g fractal" "--percent-limit 30 -g flat" \
		 "--percent-limit 30 -g folded"; do
		same_as_perf "$G/calls-g.data" $a || return 1
		same_as_perf "$DATA/perf-g.data" $a || return 1
	done
'

test_done
