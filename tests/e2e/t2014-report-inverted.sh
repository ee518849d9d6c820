#!/bin/bash
# pulse report -G/--inverted as perf 6.1's: callchains in caller order,
# whatever -g said (perf sets the order after parsing the options).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

test_expect_success '-G: the caller order, also after -g callee' '
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --no-children -g caller >expect &&
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --no-children -G >out &&
	test_cmp expect out &&
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --no-children -g callee --inverted >out &&
	test_cmp expect out &&
	pulse report -i "$G/calls.data" --symfs "$G/root" --stdio -G >out &&
	grep -q "leaf_spin" out
'

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls-g.data" "$DATA/perf-g.data" "$G/calls.data"; do
		for a in "-G --no-children" "-G" "-G -g callee" "-G -g callee --no-children" \
			 "-G -g flat --no-children" "-G -g folded --no-children" "--inverted --no-children"; do
			case "$f $a" in *calls.data*-g*) continue ;; esac
			same_report "$G/root" "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
