#!/bin/bash
# pulse flamegraph -h, --help and its manual page pulse-flamegraph(1),
# which documents every option -h lists; usage errors exit 129.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'pulse flamegraph -h: usage and options, exit 129' '
	expect_fail 129 err pulse flamegraph -h &&
	grep -q "usage: pulse flamegraph" err &&
	not grep -q "^error:" err
'

test_expect_success 'pulse flamegraph --help and pulse help flamegraph: the manual' '
	pulse flamegraph --help >m1 &&
	grep -q "PULSE-FLAMEGRAPH(1)" m1 &&
	grep -q "pulse-flamegraph - " m1 &&
	pulse help flamegraph >m2 &&
	test_cmp m1 m2 &&
	pulse help >h &&
	grep -q "^ *flamegraph " h
'

test_expect_success 'the page documents every option of flamegraph -h' '
	expect_fail 129 err pulse flamegraph -h &&
	pulse help flamegraph >m &&
	for o in $(grep -oE -- "--[a-z][a-z-]+" err | sort -u); do
		grep -q -- "$o" m || { echo "$o not in the page"; false; }
	done
'

test_expect_success 'usage errors: one error line, exit 129' '
	expect_fail 129 err pulse flamegraph extra.data &&
	one_error err "unexpected argument" &&
	expect_fail 129 err pulse flamegraph --diff one.data &&
	one_error err "two files" &&
	expect_fail 129 err pulse flamegraph --width 10 &&
	one_error err "width" &&
	expect_fail 129 err pulse flamegraph --minwidth abc &&
	one_error err "minwidth" &&
	expect_fail 129 err pulse flamegraph --sort nosuchkey &&
	one_error err "nosuchkey"
'

test_done
