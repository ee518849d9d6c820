#!/bin/bash
# pulse record --threads[=spec], perf's parallel streaming: one reader
# thread per CPU (core, package, numa, or perf's masks), perf 6.1's
# directory (DIR/data with DIR_FORMAT, DIR/data.N per reader) that perf
# and pulse read with every sample; and, unlike perf 6.1 (which turns
# --switch-output off with --threads), flight snapshots work with it.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
ncpu=$(getconf _NPROCESSORS_ONLN)

test_expect_success PERF,TRACEFS '--threads: perfs directory, every sample read by perf and pulse alike' '
	record_ok err --threads -a -e $TP -o t.data -- $WL/getppid 100000
	test -d t.data && test -f t.data/data
	expect_eq "$(ls t.data | grep -c "^data\.[0-9]*$")" $ncpu
	perf_ok t.data report --header-only >hdr
	grep -q "^# directory data version : 1$" hdr
	expect_eq "$(count_samples t.data $TP)" 100000
	same_report / t.data
	perf_in t.data report --stdio >/dev/null 2>perr
	not grep -q "out of order" perr
	expect_eq "$(pulse script -i t.data -F event | grep -c .)" 100000
'

test_expect_success PERF,TRACEFS 'specs: package is one reader, masks as perf, an existing directory becomes .old' '
	record_ok err --threads=package -a -e $TP -o p.data -- $WL/getppid 1000
	expect_eq "$(ls p.data | grep -c "^data\.")" 1
	expect_eq "$(count_samples p.data $TP)" 1000
	record_ok err --threads=0/0 -a -e $TP -o p.data -- $WL/getppid 1000
	test -d p.data.old
	expect_eq "$(ls p.data | grep -c "^data\.")" 1
	expect_eq "$(count_samples p.data $TP)" 1000
'

test_expect_success 'bad specs and pipe mode: one error line, usage exit 129' '
	for spec in foo 9999/9999 0 0/; do
		expect_fail 129 err pulse record --threads=$spec -o x.data -- true &&
		one_error err "invalid --threads" || return 1
	done
	expect_fail 129 err pulse record --threads -o - -- true
	one_error err "pipe mode"
'

test_expect_success PERF,TRACEFS '-M with --threads: each snapshot holds its whole burst' '
	record_ok err --threads -M 16M --switch-output -a -g -e $TP -o fl.data -- \
		$WL/burst 20000 2 --signal 12 --gap-ms 100
	expect_eq "$(ls fl.data.2* | wc -l)" 2
	for f in fl.data.2*; do
		expect_eq "$(perf_in $f script -F comm 2>/dev/null | grep -c burst)" 20000 || return 1
	done
'

test_expect_success PERF,TRACEFS '--overwrite with --threads: a snapshot' '
	record_ok err --threads --overwrite --switch-output -a -e $TP -o ow.data -- \
		$WL/burst 3000 1 --signal 12 --gap-ms 100
	expect_eq "$(perf_in ow.data.2* script -F comm 2>/dev/null | grep -c burst)" 3000
'

test_done
