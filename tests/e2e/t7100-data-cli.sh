#!/bin/bash
# pulse data: perf 6.1's `perf data` with its convert subcommand. The usage
# on stderr and exit 129 for no subcommand, -h, an unknown subcommand or
# option, no output format or two of them; --to-ctf refused with a hint
# naming perf's; --to-json refuses --all and --tod as perf does; --to-pprof
# is another engineer's (a weak data_convert_pprof()): without it, one
# error line and exit 1. The manual documents every option of the usage.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'pulse data, pulse data -h, pulse data convert -h: the usage, exit 129' '
	for args in "" "-h" "convert -h" "convert --help"; do
		expect_fail 129 err pulse data $args &&
		grep -q "usage: pulse data convert \[<options>\]" err &&
		not grep -q "^error:" err || return 1
	done &&
	for o in -f --force -i --input -v --verbose --all --to-ctf --to-json --to-pprof --tod; do
		grep -q -- "$o\b" err || { echo "no $o"; return 1; }
	done
'

test_expect_success PERF 'every option of perf data convert -h is in pulse data convert -h' '
	rc=0; perf data convert -h 2>perr || rc=$?
	expect_eq $rc 129 &&
	expect_fail 129 err pulse data convert -h &&
	for o in $(grep -oE -- "--[a-z][a-z-]+" perr | sort -u); do
		grep -q -- "$o\b" err || { echo "$o missing"; return 1; }
	done
'

test_expect_success 'an unknown subcommand: one error line and the usage, exit 129' '
	expect_fail 129 err pulse data frob &&
	one_error err "unknown subcommand .frob." &&
	grep -q "usage: pulse data convert" err
'

test_expect_success 'unknown options, a stray argument, a missing value: exit 129' '
	expect_fail 129 err pulse data --bogus &&
	grep -q "^error:" err &&
	expect_fail 129 err pulse data convert --bogus &&
	grep -q "^error:" err &&
	expect_fail 129 err pulse data convert x &&
	grep -q "usage: pulse data convert" err &&
	expect_fail 129 err pulse data convert --to-json &&
	grep -q "^error:" err
'

test_expect_success 'no output format, or two: one error line, exit 129' '
	expect_fail 129 err pulse data convert &&
	one_error err "must specify one of --to-json, --to-ctf or --to-pprof" &&
	expect_fail 129 err pulse data convert --to-json a.json --to-pprof b.pb.gz &&
	one_error err "more than one of" &&
	expect_fail 129 err pulse data convert --to-json a.json --to-ctf d &&
	one_error err "more than one of" &&
	[ ! -e a.json ]
'

test_expect_success '--to-ctf: pulse has no CTF; the hint names perf data convert --to-ctf' '
	expect_fail 129 err pulse data convert --to-ctf ctf.dir -i nothing.data &&
	one_error err "no CTF" &&
	has_hint err "perf data convert --to-ctf" &&
	expect_eq "$(wc -l <err)" 2 &&
	[ ! -e ctf.dir ]
'

test_expect_success '--to-json with --all or --tod: refused as perf refuses them' '
	expect_fail 129 err pulse data convert --to-json a.json --all &&
	one_error err "--all is not supported for JSON" &&
	expect_fail 129 err pulse data convert --to-json a.json --tod &&
	one_error err "--tod is not supported for JSON" &&
	[ ! -e a.json ]
'

test_expect_success '--to-pprof: converted, or one error line when this build has none' '
	rc=0; pulse data convert --to-pprof p.pb.gz -i missing.data 2>err || rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 129 ] &&
	one_error err "pprof|missing.data"
'

test_expect_success 'the manual: pulse data --help and pulse help data; every option documented' '
	pulse data --help >m1 &&
	grep -q "PULSE-DATA(1)" m1 &&
	pulse help data >m2 &&
	test_cmp m1 m2 &&
	expect_fail 129 err pulse data convert -h &&
	for o in $(grep -oE -- "--[a-z][a-z-]+" err | sort -u); do
		grep -q -- "$o" m1 || { echo "$o not in the page"; return 1; }
	done
'

test_done
