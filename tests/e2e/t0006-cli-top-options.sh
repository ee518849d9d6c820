#!/bin/bash
# The options before the command (perf's handle_options): -v and --version
# print the version as `pulse version` does, --no-pager goes with any
# command, -h and --help list the commands; an unknown one is a usage error.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'pulse -v and pulse --version: as pulse version' '
	pulse version >v
	grep -qE "^pulse version [0-9]+\.[0-9]+\.[0-9]+\$" v
	pulse -v >v1
	test_cmp v v1
	pulse --version >v2
	test_cmp v v2
'

test_expect_success PERF 'perf agrees: perf -v and perf --version print perf version' '
	perf version >pv
	perf -v >pv1
	test_cmp pv pv1
	perf --version >pv2
	test_cmp pv pv2
'

test_expect_success 'pulse --no-pager COMMAND runs the command' '
	pulse --no-pager version >v3
	test_cmp v v3
	pulse --no-pager list sw >l
	grep -q cpu-clock l
	pulse --no-pager -v >v4
	test_cmp v v4
'

test_expect_success 'pulse --no-pager COMMAND -h: the command sees -h' '
	expect_fail 129 err pulse --no-pager record -h
	grep -q "usage: pulse record" err
'

test_expect_success 'pulse -h and --help: the command list, exit 0' '
	pulse -h >h1
	grep -q "^ *record " h1
	grep -q -- "--no-pager" h1
	pulse --help >h2
	test_cmp h1 h2
	pulse help >h3
	test_cmp h1 h3
'

test_expect_success 'an unknown option before the command: one error, exit 129' '
	expect_fail 129 err pulse -P version
	one_error err "-P"
	expect_fail 129 err pulse --frobnicate
	one_error err "--frobnicate"
'

test_expect_success PERF 'perf agrees: an unknown option before the command exits 129' '
	rc=0; perf -P >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
'

test_expect_success 'pulse --no-pager and nothing else: usage, exit 129' '
	expect_fail 129 err pulse --no-pager
	grep -q "usage: pulse" err.out
'

test_done
