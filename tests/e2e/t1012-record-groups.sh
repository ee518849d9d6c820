#!/bin/bash
# Event groups: the parser reads "{a,b}" (tests/unit/test-evlist.c opens
# and reads them), but pulse record writes no groups yet (leader sampling
# and HEADER_GROUP_DESC): it refuses them exactly as before groups were
# parsed, a usage error naming the braced event. Outside braces nothing
# changes.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'a group: usage error naming it, hint to drop the braces' '
	expect_fail 129 err pulse record -e "{cpu-clock,task-clock}" -o x.data -- $WL/spin 10
	one_error err "event groups are not supported: .\{cpu-clock."
	has_hint err "without braces"
	test ! -s x.data
'

test_expect_success 'a group with modifiers after a plain event: same refusal' '
	expect_fail 129 err2 pulse record -e "task-clock,{cpu-clock,page-faults}:S" -o x.data -- $WL/spin 10
	one_error err2 "event groups are not supported"
'

test_expect_success 'the same events without braces record' '
	record_ok err3 -e cpu-clock,task-clock -o ok.data -- $WL/spin 10
	test -s ok.data
'

test_done
