#!/bin/bash
# A DSO gone from its recorded path, or rebuilt there since: perf record
# keeps a copy in the build-id cache ($HOME/.debug), and perf 6.1's
# unwinder reads that copy's CFI (dso__data_open() tries the cache first).
# pulse's unwinder does the same when the file at the path is missing or
# has another build-id, so the stacks stay whole and perf's, byte for byte.
# HOME is the test's directory: the cache is the test's own.
. "$(dirname "$0")/lib/test-lib.sh"

test_declare_prereq CC
command -v gcc >/dev/null 2>&1 && test_set_prereq CC
export HOME=$PWD

same() { # FILE: perf script and pulse script print the same
	perf script -i "$1" >perf.out 2>/dev/null &&
	pulse script -i "$1" >pulse.out 2>pulse.err &&
	test -s perf.out &&
	test_cmp perf.out pulse.out
}

test_expect_success PERF,CC 'record a program without frame pointers; perf caches it' '
	mkdir -p bin &&
	gcc -O1 -g -fomit-frame-pointer -fno-inline -o bin/qs "$PULSE_TOP/tests/workloads/unwind-qsort.c" &&
	perf record -q -e cpu-clock:u --call-graph dwarf -o qs.data bin/qs 10 >/dev/null 2>&1 &&
	test -d .debug/.build-id &&
	same qs.data &&
	grep -q " sort_round+0x[0-9a-f]* (.*/bin/qs)$" pulse.out
'

test_expect_success PERF,CC 'the binary deleted: its cached copy is unwound' '
	mv bin/qs bin/qs.gone &&
	same qs.data &&
	grep -q " sort_round+0x[0-9a-f]* (.*/bin/qs)$" pulse.out
'

test_expect_success PERF,CC 'the binary rebuilt differently: the cached copy, not the new file' '
	gcc -O2 -fomit-frame-pointer -DREBUILT -o bin/qs "$PULSE_TOP/tests/workloads/unwind-qsort.c" &&
	same qs.data &&
	grep -q " sort_round+0x[0-9a-f]* (.*/bin/qs)$" pulse.out
'

test_done
