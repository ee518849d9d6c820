#!/bin/bash
# pulse record's errors: one `error:` line naming what is wrong, at most
# one `hint:` line, exit 1 for runtime errors and 129 for usage errors.
# This machine has no hardware PMU: cycles falls back to cpu-clock (one
# warning), instructions is an error.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'unknown event: error names it, hint names cpu-clock' '
	expect_fail nonzero err pulse record -e cpu-clok -o x.data -- $WL/spin 10
	one_error err "cpu-clok"
	has_hint err "cpu-clock"
	not grep -q "^\[ pulse record" err
'

test_expect_success 'unknown event in a comma list: error names that one' '
	expect_fail nonzero err2 pulse record -e cpu-clock,task-clok -o x.data -- $WL/spin 10
	one_error err2 "task-clok"
'

test_expect_success TRACEFS 'unknown tracepoint: error names it' '
	expect_fail nonzero err3 pulse record -e syscalls:sys_enter_nosuchcall -o x.data -- $WL/spin 10
	one_error err3 "sys_enter_nosuchcall"
'

test_expect_success 'unknown option: error names it, exit 129' '
	expect_fail 129 err4 pulse record --frobnicate -o x.data -- $WL/spin 10
	one_error err4 "frobnicate"
'

test_expect_success 'unknown short option: exit 129' '
	expect_fail 129 err5 pulse record -Z -o x.data -- $WL/spin 10
	grep -q "^error: .*Z" err5
'

test_expect_success 'missing option argument: exit 129' '
	expect_fail 129 err6 pulse record -e
	one_error err6 "'e'|-e|event"
'

test_expect_success 'non-numeric -F: exit 129' '
	expect_fail 129 err7 pulse record -F fast -o x.data -- $WL/spin 10
	one_error err7 "fast|-F|freq"
'

# perf rounds -m up to a power of two (with a note); an error is fine too.
test_expect_success '-m not a power of two: rounded up, or an error' '
	rc=0; pulse record -m 3 -o m3.data -- $WL/spin 10 2>err8 || rc=$?
	cat err8
	if [ $rc -eq 0 ]; then
		not grep -q "^error: " err8
		perf_ok m3.data script >/dev/null
	else
		expect_fail nonzero err8 pulse record -m 3 -o m3.data -- $WL/spin 10
		one_error err8 "-m|mmap|power of (2|two)"
	fi
'

test_expect_success 'no PMU: -e instructions is an error hinting a software event' '
	expect_fail nonzero err9 pulse record -e instructions -o x.data -- $WL/spin 10
	one_error err9 "instructions"
	has_hint err9 "cpu-clock|task-clock|software"
'

test_expect_success PERF 'no PMU: -e cycles falls back to cpu-clock with one warning' '
	record_ok err10 -e cycles -o cy.data -- $WL/spin 200
	cat err10
	expect_eq "$(grep -c "^warning: " err10)" 1
	grep "^warning: " err10 | grep -q cycles
	grep "^warning: " err10 | grep -q cpu-clock
	not grep -q "^error: " err10
	perf_ok cy.data evlist -v >evlist
	cat evlist
	grep -q "^cpu-clock: type: 1, " evlist
	expect_gt "$(count_samples cy.data cpu-clock)" 0 "cpu-clock samples"
'

test_expect_success 'a command that does not exist: error names it' '
	expect_fail nonzero err11 pulse record -o nc.data -- ./no-such-command
	one_error err11 "no-such-command"
'

test_expect_success 'an output file that cannot be created: error names it' '
	expect_fail nonzero err12 pulse record -o no/such/dir/x.data -- $WL/spin 10
	one_error err12 "no/such/dir/x.data"
'

test_expect_success 'a failed recording leaves no output file behind' '
	rm -f gone.data
	expect_fail nonzero err13 pulse record -e cpu-clok -o gone.data -- $WL/spin 10
	test ! -e gone.data
'

# perf exits with its workload's exit status (t1014 has the signals).
test_expect_success PERF 'a failing workload still gives a complete recording' '
	rc=0; pulse record -o ws.data -- sh -c "exit 3" 2>err14 || rc=$?
	cat err14
	expect_eq $rc 3
	grep -q "^\[ pulse record: Captured and wrote .* ws.data" err14
	not grep -q "^error: " err14
	perf_ok ws.data script >/dev/null
'

test_done
