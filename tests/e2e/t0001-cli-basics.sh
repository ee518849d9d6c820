#!/bin/bash
# The pulse command line: dispatch, version, help, usage errors (exit 129),
# pulse list, and a failed write of the output (exit 1).
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'no command: usage, exit 129' '
	expect_fail 129 err pulse
	grep -qi "usage: pulse" err.out err
'

test_expect_success 'pulse version and --version' '
	pulse version >v
	grep -qE "^pulse version [0-9]+\.[0-9]+\.[0-9]+" v
	pulse --version >v2
	test_cmp v v2
'

test_expect_success 'pulse help lists the commands' '
	pulse help >h
	for c in record report list; do grep -q "^ *$c " h || { echo "no $c"; false; }; done
'

test_expect_success 'unknown command: one error naming it, exit 129' '
	expect_fail 129 err pulse frobnicate
	one_error err "frobnicate"
'

test_expect_success 'pulse list: the software events' '
	pulse list >list
	for e in cpu-clock task-clock page-faults context-switches; do
		grep -q "^ *$e\b" list || { echo "no $e"; false; }
	done
'

test_expect_success TRACEFS 'pulse list: tracepoints' '
	grep -q "^ *syscalls:sys_enter_getppid\b" list
	grep -q "^ *sched:sched_switch\b" list
'

test_expect_success 'pulse list to a full device: error, exit 1' '
	rc=0; pulse list >/dev/full 2>err || rc=$?
	expect_eq $rc 1
	one_error err "write|No space"
'

test_expect_success 'pulse record -h: usage listing the options' '
	rc=0; pulse record -h >rh 2>&1 || rc=$?
	case $rc in 0|129) ;; *) echo "exit $rc"; false ;; esac
	for o in -e -o -a -C -p -t -F -c -g -R -T -m -q --no-inherit --sample-cpu; do
		grep -q -- "$o\b" rh || { echo "no $o in:"; cat rh; false; }
	done
'

test_expect_success 'pulse report on a missing file: one error naming it' '
	expect_fail nonzero err pulse report -i no-such.data --stdio
	one_error err "no-such.data"
'

test_expect_success 'pulse report on a file that is not perf.data: one error' '
	echo "not a perf.data file" >junk.data
	expect_fail nonzero err pulse report -i junk.data --stdio
	one_error err "junk.data|perf.data|magic|format"
'

test_done
