#!/bin/bash
# pulse report -q/--quiet as perf 6.1's: the rows alone (no "#" lines: no
# header hint, lost count, event header, column titles or tip), no
# warnings; no file header (--header-only goes on to the report), but a
# pipe's in-band features are still printed (with --header-only, alone).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

q_report() {
	local f=$1; shift
	pulse report -i "$f" --symfs "$G/root" --stdio "$@"
}

test_expect_success '-q: the rows and the blank lines after each table' '
	q_report "$G/calls.data" -q >out &&
	printf "%s\n" "    78.57%  gl-calls  gl-calls       [.] leaf_spin" \
		"    21.43%  gl-calls  gl-calls       [.] self_spin" "" "" >expect &&
	test_cmp expect out &&
	q_report "$DATA/perf-2ev.data" --quiet >out &&
	! grep -q "^#" out && test $(grep -c "^$" out) = 4 &&
	q_report "$G/calls.data" -q --header-only >out &&
	test_cmp expect out
'

test_expect_success '-q on a pipe: its features with --header, alone with --header-only' '
	pulse report -i - --stdio -q --header <"$DATA/perf-pipe.data" >out &&
	grep -q "^# hostname" out && ! grep -q "^# ====" out && grep -q "%  spin" out &&
	pulse report -i - --stdio -q --header-only <"$DATA/perf-pipe.data" >out &&
	grep -q "^# hostname" out && ! grep -q "%  spin" out
'

same_as_perf() {
	local f=$1; shift
	perf_in "$f" report --symfs "$G/root" --stdio "$@" 2>/dev/null >perf.out &&
	pulse_in "$f" report --symfs "$G/root" --stdio "$@" 2>pulse.err >pulse.out &&
	diff -u perf.out pulse.out
}

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls.data" "$G/calls-g.data" "$G/fork-tp.data" "$DATA/perf-2ev.data" \
		 "$DATA/perf-pipe.data" "$DATA/perf-pipe-tp.data"; do
		for a in "-q" "-q --comms gl-calls" "-q -n --show-total-period" "-q --header" \
			 "-q -I" "-q --header-only" "-q --header-only -I" "-q --no-children"; do
			same_as_perf "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
