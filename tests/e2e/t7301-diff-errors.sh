#!/bin/bash
# pulse diff on bad input and bad options: one error: line, a non-zero
# exit, no crash. perf 6.1 exits 255 on a missing or empty file, 0 after
# "Failed to process" on a damaged one, 129 on a bad -c or --percentage;
# pulse exits 1 on a file it cannot use, 129 on a usage error, and (as its
# report does) reads a file cut short up to the cut with a warning.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'record two small files' '
	record_ok err -o a.data -- "$WL/balance" 30 100 &&
	record_ok err -o b.data -- "$WL/balance" 70 100
'

test_expect_success 'a missing file, an empty file: one error, exit 1' '
	expect_fail 1 err pulse diff a.data nope.data &&
	one_error err "nope.data" &&
	: >empty.data &&
	expect_fail 1 err pulse diff a.data empty.data &&
	one_error err "empty.data" &&
	expect_fail 1 err pulse diff empty.data a.data &&
	one_error err "empty.data" &&
	mkdir -p none && (cd none && expect_fail 1 ../err pulse diff) &&
	one_error err "perf.data.old"
'

test_expect_success 'a file with none of the baseline events: one error, exit 1' '
	record_ok err -e task-clock -o tc.data -- "$WL/balance" 50 100 &&
	expect_fail 1 err pulse diff a.data tc.data &&
	one_error err "none of the events of .a.data. [(]cpu-clock" &&
	expect_fail 1 err pulse diff a.data b.data tc.data &&
	one_error err "tc.data" &&
	record_ok err -e cpu-clock,task-clock -o two.data -- "$WL/balance" 50 100 &&
	pulse diff two.data a.data >out 2>err &&
	grep -q "work_a" out && not grep -q "error" err &&
	pulse diff tc.data two.data >out 2>err &&
	grep -q "work_a" out
'

test_expect_success 'a damaged header: one error with the offset, exit 1' '
	cp b.data bad.data &&
	printf "\377\377\377\377\377\377\377\177" | dd of=bad.data bs=1 seek=24 conv=notrunc 2>/dev/null &&
	expect_fail 1 err pulse diff a.data bad.data &&
	one_error err "bad.data"
'

test_expect_success 'a file cut short: what it holds, a warning, exit 0; every cut: no crash' '
	size=$(stat -c %s b.data) &&
	head -c $((size * 2 / 3)) b.data >cut.data &&
	pulse diff a.data cut.data >out 2>err &&
	grep -q "work_a" out &&
	grep -qE "unreadable|past the end" err &&
	for n in 0 8 64 104 200 1000 3000 $((size / 2)) $((size - 8)); do
		head -c $n b.data >t.data
		rc=0; pulse diff a.data t.data >/dev/null 2>terr || rc=$?
		case $rc in 0|1) ;; *) echo "cut at $n: exit $rc"; cat terr; false ;; esac
		not grep -qE "$SANITIZER_REPORT" terr || { cat terr; false; }
	done
'

test_expect_success 'bad options: one error, exit 129' '
	expect_fail 129 err pulse diff -c foo a.data b.data &&
	one_error err "foo" &&
	expect_fail 129 err pulse diff -c wdiff:1 a.data b.data &&
	one_error err "wdiff" &&
	expect_fail 129 err pulse diff -c wdiff:0,1 a.data b.data &&
	one_error err "wdiff" &&
	expect_fail 129 err pulse diff -c ratio:1 a.data b.data &&
	one_error err "ratio" &&
	expect_fail 129 err pulse diff -o 2 a.data b.data &&
	one_error err "-o 2" &&
	expect_fail 129 err pulse diff --percentage foo a.data b.data &&
	one_error err "percentage" &&
	expect_fail 129 err pulse diff --sort nope a.data b.data &&
	one_error err "nope" &&
	expect_fail 129 err pulse diff --sort srcline a.data b.data &&
	one_error err "not supported"
'

test_expect_success PERF 'perf agrees on the usage errors: 129' '
	rc=0; perf diff -c foo a.data b.data >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129 &&
	rc=0; perf diff --percentage foo a.data b.data >/dev/null 2>&1 || rc=$?
	expect_eq $rc 129
'

test_expect_success 'an unwritable output: one error, exit 1' '
	expect_fail 1 err env PULSE="$PULSE" sh -c "\"\$PULSE\" diff a.data b.data >/dev/full" &&
	one_error err "write"
'

test_expect_success 'the manual documents every option of diff -h' '
	expect_fail 129 err pulse diff -h &&
	pulse help diff >m &&
	for o in $(grep -oE -- "--[a-z][a-z-]+" err | sort -u); do
		grep -q -- "$o" m || { echo "$o not in the page"; false; }
	done
'

test_done
