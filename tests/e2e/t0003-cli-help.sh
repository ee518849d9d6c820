#!/bin/bash
# -h, --help and pulse help: -h prints the command's usage and options on
# stderr and exits 129 (perf's parse_options); `pulse CMD --help` and
# `pulse help CMD` show the manual page pulse-CMD(1) from doc/ (through
# man, or as plain text when man is missing), as perf help does.
. "$(dirname "$0")/lib/test-lib.sh"

# nopath CMD...: pulse with a PATH where man (and any pager) cannot be found
nopath() { timeout -k 5 "$TMO" env PATH=/nonexistent "$PULSE" "$@"; }

for c in record report script list; do
	test_expect_success "pulse $c -h: usage and options, no error line, exit 129" '
		expect_fail 129 err pulse '"$c"' -h
		grep -q "usage: pulse '"$c"'" err
		not grep -q "^error:" err
		test_must_be_empty err.out
	'
done

test_expect_success 'pulse record -h lists the options' '
	expect_fail 129 err pulse record -h
	for o in -e -o -a -C -p -F -c -g --call-graph; do
		grep -q -- "$o\b" err || { echo "no $o"; false; }
	done
'

test_expect_success 'an option with a wide argument has its help on the next line' '
	expect_fail 129 err pulse record -h
	grep -A1 -- "--call-graph <record_mode[^ ]*>\$" err | grep -q "fp.*: frame-pointer"
'

test_expect_success '-h after other options and --help not first: usage, exit 129' '
	expect_fail 129 err pulse report --stdio -h
	grep -q "usage: pulse report" err
	expect_fail 129 err pulse record -a --help
	grep -q "usage: pulse record" err
	not grep -q "^error:" err
'

test_expect_success '--hel is not --help: an unknown option' '
	expect_fail 129 err pulse report --hel
	one_error err "--hel"
'

test_expect_success PERF 'perf agrees: -h exits 129, --help not first too' '
	rc=0; perf record -h >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
	rc=0; perf record -a --help >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
'

for c in record report script list; do
	C=$(tr a-z A-Z <<<"$c")
	test_expect_success "pulse $c --help and pulse help $c: the manual page" '
		pulse '"$c"' --help >m1
		grep -q "PULSE-'"$C"'(1)" m1
		grep -q "^NAME" m1
		grep -q "pulse-'"$c"' - " m1
		pulse help '"$c"' >m2
		test_cmp m1 m2
	'
	test_expect_success "pulse help $c without man: the page as plain text" '
		nopath help '"$c"' >t
		grep -q "^PULSE-'"$C"'(1)" t
		grep -q "^NAME" t
		grep -q "^OPTIONS" t
		grep -q "pulse-'"$c"' - " t
		not grep -q "^\\." t
		not grep -q "\\\\f" t
	'
done

test_expect_success 'the record page documents every option of record -h' '
	expect_fail 129 err pulse record -h
	pulse help record >m
	for o in $(grep -oE -- "--[a-z][a-z-]+" err | sort -u); do
		grep -q -- "$o" m || { echo "$o not in the page"; false; }
	done
'

test_expect_success 'pulse help: the command list, exit 0; pulse help version: pulse(1)' '
	pulse help >h
	grep -q "^ *record " h
	grep -q "pulse help <command>" h
	pulse help version >v
	grep -q "^PULSE(1)" v || grep -q "PULSE(1) " v
'

test_expect_success 'pulse help on an unknown command: one error, exit 129' '
	expect_fail 129 err pulse help frobnicate
	one_error err "frobnicate"
'

test_done
