#!/bin/bash
# pulse report -t SEP/--field-separator as perf 6.1's: the titles and
# columns joined by SEP, no dotted line, the numbers after one blank and
# padded to their width, SEP's first character made '.' inside a key's
# text. perf refuses '.' with a line on stderr but exits 0 printing no
# report; pulse makes it a usage error (129).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

rep() { local f=$1; shift; pulse report -i "$f" --symfs "$G/root" --stdio "$@"; }

test_expect_success '-t: joined columns' '
	rep "$G/calls.data" -t , >out &&
	grep -qx "# Overhead,Command ,Shared Object,Symbol       " out &&
	grep -qx " 78.57% ,gl-calls,gl-calls     ,\[.\] leaf_spin" out &&
	! grep -q "^# \.\.\." out &&
	rep "$G/calls-g.data" --field-separator "|" >out &&
	grep -qx "# Children|    Self|Command |Shared Object|Symbol       " out &&
	grep -qx " 100.00%| 0.00%  |gl-calls|gl-calls     |\[.\] _start" out &&
	rep "$G/calls.data" -t "-" --sort dso >out &&
	grep -qx " 100.00%-gl.calls     " out
'

test_expect_success '-t .: a usage error' '
	expect_fail 129 err rep "$G/calls.data" -t . &&
	one_error err "only non valid --field-separator"
'

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls-g.data" "$DATA/perf-g.data" "$G/calls.data" "$DATA/perf-2ev.data" \
		 "$G/fork-tp.data"; do
		for a in "-t ," "-t | --no-children" "-t ; -n --show-total-period --sort pid,dso,sym,cpu" \
			 "-t :: -n" "-t x --sort comm,dso" "-t - --sort dso"; do
			perf report -i "$f" --symfs "$G/root" --stdio $a 2>/dev/null |
				grep -v "^# (Tip:" >perf.out &&
			rep "$f" $a 2>pulse.err | grep -v "^# (Tip:" >pulse.out &&
			diff -u perf.out pulse.out || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
