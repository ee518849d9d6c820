#!/bin/bash
# pulse stat on bad input: one error: line that names what was wrong (at
# most one hint:), and a non-zero exit; perf 6.1's exit codes alongside
# (it exits 0 for an unclosed group, and 234 for a pid that does not exist).
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'unknown event: exit 129, names it, hints pulse list' '
	expect_fail 129 err pulse stat -e no-such-event -- true
	one_error err "unknown event .no-such-event."
	has_hint err "pulse list"
	test_must_be_empty err.out
'

test_expect_success 'empty group {}: exit 129' '
	expect_fail 129 err pulse stat -e "{}" -- true
	one_error err "empty group"
'

test_expect_success 'unclosed group: exit 129 (perf 6.1 exits 0)' '
	expect_fail 129 err pulse stat -e "{task-clock" -- true
	one_error err "missing .\}."
'

test_expect_success 'unknown PMU: exit 129' '
	expect_fail 129 err pulse stat -e nosuchpmu/foo/ -- true
	one_error err "unknown PMU .nosuchpmu."
'

test_expect_success '-I abc, -r abc: not a number, exit 129' '
	expect_fail 129 err pulse stat -I abc -- true
	one_error err "-I.*abc"
	expect_fail 129 err pulse stat -r abc -- true
	one_error err "-r.*abc"
'

test_expect_success 'a pid or tid that does not exist: exit 1, names it' '
	expect_fail 1 err pulse stat -p 999999
	one_error err "no such process .999999."
	expect_fail 1 err pulse stat -t 999999
	one_error err "no such thread .999999."
	expect_fail 129 err pulse stat -p abc
	one_error err "invalid pid list .abc."
'

test_expect_success 'a cpu that is not online: exit 129 (perf prints <not supported> rows)' '
	expect_fail 129 err pulse stat -C 999 -- true
	one_error err "cpu 999 is not online"
'

test_expect_success '-o into a directory that does not exist: exit 1' '
	expect_fail 1 err pulse stat -o /nonexistent/dir/out -- true
	one_error err "cannot open ./nonexistent/dir/out."
'

test_expect_success PERF 'perf 6.1: 129 for an unknown event, {} and -I abc; 0 for {task-clock' '
	rc=0; perf stat -e no-such-event -- true >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
	rc=0; perf stat -e "{}" -- true >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
	rc=0; perf stat -I abc -- true >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
	rc=0; perf stat -e "{task-clock" -- true >/dev/null 2>&1 || rc=$?
	expect_eq $rc 0
	rc=0; perf stat -p 999999 >/dev/null 2>&1 || rc=$?
	expect_eq $rc 234
'

test_done
