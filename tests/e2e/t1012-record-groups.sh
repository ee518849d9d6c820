#!/bin/bash
# Event groups: pulse record takes "{a,b}" and "{a,b}:S" (t1040 compares
# them with perf 6.1); the same events without braces record as before.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'a group records' '
	record_ok err -e "{cpu-clock,task-clock}" -o x.data -- $WL/spin 10
	test -s x.data
'

test_expect_success 'a group with modifiers after a plain event records' '
	record_ok err2 -e "task-clock,{cpu-clock,page-faults}:S" -o y.data -- $WL/spin 10
	test -s y.data
'

test_expect_success 'the same events without braces record' '
	record_ok err3 -e cpu-clock,task-clock -o ok.data -- $WL/spin 10
	test -s ok.data
'

test_done
