#!/bin/bash
# pulse report --max-stack N as perf 6.1's: each callchain keeps its first
# N frames in the order perf walks them (the callee end with -g callee,
# the root end in caller order, children mode's default); 0 or less: none.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

rep() { pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio "$@"; }

test_expect_success '--max-stack: the first frames in the walk order' '
	rep --no-children --max-stack 2 >out &&
	grep -q -- "--23.53%--outer_a" out &&
	! grep -q "outer_b" out &&
	rep --max-stack 0 >out &&
	! grep -q -- "---" out && test $(grep -c "%  gl-calls" out) = 2 &&
	rep --max-stack 200 >out && rep >expect && test_cmp expect out
'

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls-g.data" "$DATA/perf-g.data" "$G/calls.data"; do
		for a in "--max-stack 0" "--max-stack 1" "--max-stack 2 --no-children" "--max-stack 2" \
			 "--max-stack 3 -g callee" "--max-stack 3 -g caller --no-children" \
			 "--max-stack=200" "--max-stack -1" "--max-stack 2 --sort parent,sym -p main"; do
			case "$f $a" in *calls.data*-[gp]\ *) continue ;; esac
			same_report "$G/root" "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
