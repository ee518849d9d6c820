#!/bin/bash
# examples/count-self: a program that counts itself with <pulse/counter.h>
# (lib/counter/): a group read at once and each member alone, with the
# page faults and sleeps it made, and one error line for a bad event.
. "$(dirname "$0")/lib/test-lib.sh"

ex=$PULSE_BUILD/examples/count-self

test_expect_success 'count-self: the default group, counts of its own work' '
	"$ex" >out
	cat out
	test "$(wc -l <out)" = 3
	grep -q "^task-clock [1-9]" out
	pf=$(awk "/^page-faults /{print \$2}" out)
	cs=$(awk "/^context-switches /{print \$2}" out)
	expect_ge "$pf" 1000 page-faults && test "$pf" -le 1016
	expect_ge "$cs" 10 context-switches && test "$cs" -le 26
	# software events: never on a PMU counter, so read(2) both ways
	grep -c "(group: read, alone: read " out | grep -qx 3
'

test_expect_success 'count-self: one event, a given number of pages' '
	"$ex" page-faults:u 300 >out
	pf=$(awk "/^page-faults:u /{print \$2}" out)
	expect_ge "$pf" 300 && test "$pf" -le 316
'

test_expect_success PERF 'count-self: perf stat sees at least what it counted of itself' '
	perf stat -x, -e page-faults -o perf.out -- "$ex" page-faults 500 >out
	mine=$(awk "/^page-faults /{print \$2}" out)
	theirs=$(grep ",page-faults" perf.out | cut -d, -f1)
	expect_ge "$theirs" "$mine" "perf page-faults"
'

test_expect_success 'count-self: a bad event, one error line and exit 1' '
	expect_fail 1 err "$ex" no-such-event
	grep -q "^error: cannot open .no-such-event." err
'

test_done
