#!/bin/bash
# pulse report's hpp sort keys (overhead, overhead_children, sample,
# period) and -F/--fields as perf 6.1's: perf's sort list (the overhead
# keys before a --sort that does not name them, unless -F is given) and
# output list (the default columns or -F's, then every sort key not yet a
# column), its titles and widths. An unknown or invalid field is a usage
# error (129: perf prints its error and usage and exits 0).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

rep() { pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio "$@" 2>err; }

test_expect_success '-s period: Children, Self and Period columns' '
	rep -s period >out &&
	grep -qx "# Children      Self        Period" out &&
	grep -qx "   100.00%   100.00%      68000000" out &&
	rep --no-children -s sym,overhead -g none >out &&
	grep -q "^# Overhead  Symbol" out &&
	rep -n -s sample >out &&
	grep -qx "# Children      Self       Samples" out
'

test_expect_success '-F: the fields, the sort keys after them' '
	rep -F sym,overhead -g none >out &&
	grep -q "^# Symbol  *Overhead\$" out &&
	rep -F overhead,sample,period -s dso -g none >out &&
	grep -q "^# Overhead       Samples        Period  Shared Object" out &&
	rep -F +period -g none >out &&
	grep -q "^# Children      Self        Period  Command" out
'

test_expect_success '-F: unknown and invalid fields are usage errors' '
	expect_fail 129 err rep -F foo &&
	grep -q "^error: unknown --fields key .foo." err &&
	expect_fail 129 err rep -F + &&
	grep -q "^error: invalid --fields key .+." err &&
	expect_fail 129 err rep -F mem &&
	expect_fail 129 err rep -s period,foo
'

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls.data" "$G/calls-g.data" "$G/calls-pipe.data" "$DATA/perf-2ev.data" \
		 "$DATA/perf-g.data" "$DATA/perf-tp.data"; do
		for a in "-s period" "-s overhead" "-n -s sample" "--no-children -s period" \
			 "--no-children -s sym,overhead" "-s overhead_children" \
			 "--no-children -s overhead_children" "-s sym,period --show-total-period" \
			 "-s dso,period,comm -n" "-F sym,overhead" "-F overhead,sample,period,dso" \
			 "-F sym -s dso" "-F +sym" "-F +overhead_children" "-F overhead,sym -t ," \
			 "-s period -t :" "-F comm,pid,overhead" "-F overhead,sym -s sample" \
			 "-F sym --percent-limit 5" "-F sym -q" "-F overhead,sym -v" \
			 "-s sym,overhead_children -F +period"; do
			same_report "$G/root" "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
