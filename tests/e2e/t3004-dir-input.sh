#!/bin/bash
# A `perf record --threads` output is a directory: DIR/data (header,
# attrs, features, the records written before the threads) and one
# DIR/data.N file of bare records per thread. pulse reads it as perf 6.1
# does (the header file, then each data.N file, all sorted by time) for
# report, script and report -D, whose "offset@file" names each file.
# Outputs are compared with perf's, byte for byte (report: the Tip line
# aside).
. "$(dirname "$0")/lib/test-lib.sh"

same() {
	perf "$@" >perf.out 2>perf.err || return 1
	pulse "$@" >pulse.out 2>pulse.err || { cat pulse.err >&2; return 1; }
	grep -v "^# (Tip:" perf.out >perf.cmp
	grep -v "^# (Tip:" pulse.out >pulse.cmp
	test_cmp perf.cmp pulse.cmp
}

test_expect_success PERF 'record --threads writes a directory' '
	perf record -q --threads -o thr.data -- "$WL/spin" >/dev/null 2>&1 &&
	test -d thr.data && test -f thr.data/data &&
	ls thr.data | grep -q "^data\.[0-9]"
'

test_expect_success PERF 'report of a directory is perf'"'"'s' '
	same report -i thr.data --stdio &&
	grep -q "spin" pulse.out
'

test_expect_success PERF 'report --sort of a directory' '
	same report -i thr.data --stdio --sort comm,dso
'

test_expect_success PERF 'script of a directory is perf'"'"'s' '
	same script -i thr.data &&
	test -s pulse.out
'

test_expect_success PERF 'report -D names each file after the offset' '
	same report -D -i thr.data &&
	grep -q "@thr.data/data \[" pulse.out &&
	grep -q "@thr.data/data\.[0-9]* \[" pulse.out
'

test_expect_success PERF 'a system-wide directory (-a, one file per cpu thread)' '
	perf record -q --threads -a -o sys.data -- sleep 0.3 >/dev/null 2>&1 &&
	test -d sys.data &&
	same script -i sys.data &&
	same report -i sys.data --stdio --sort comm,dso &&
	same report -D -i sys.data
'

test_expect_success PERF '--header-only prints the directory version' '
	pulse report --header-only -i thr.data >hdr.out &&
	grep -q "^# directory data version : 1$" hdr.out
'

test_expect_success 'a directory without a header file fails with one error line' '
	mkdir empty.data &&
	{ pulse report -i empty.data --stdio 2>err.out; test $? = 1; } &&
	grep -q "^error: cannot open .empty.data.: No such file" err.out &&
	grep -c "^error:" err.out >n && expect_eq "$(cat n)" 1
'

test_done
