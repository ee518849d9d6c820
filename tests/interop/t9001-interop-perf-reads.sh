#!/bin/bash
# Every kind of file pulse record writes (file and pipe mode, tracepoints,
# callchains, system-wide, inherited children, several events) is read by
# the real perf 6.1 -- report, script, report -D, report --header-only --
# with exit status 0 and no warning on stderr.
. "$(dirname "$0")/../e2e/lib/test-lib.sh"

test_expect_success PERF,ROOT,TRACEFS 'record the corpus' '
	record_corpus
'

for name in $(cut -d"|" -f1 <<<"$CORPUS"); do
	test_expect_success PERF,ROOT,TRACEFS "$name: perf report --stdio reads it cleanly" '
		f=$(corpus_file '"$name"')
		test -s $f
		perf_ok $f report --stdio >/dev/null
		perf_ok $f report --stdio --no-children --sort comm,dso,sym >rep
		expect_gt "$(report_event_count <rep)" 0 "event count"
	'
	test_expect_success PERF,ROOT,TRACEFS "$name: perf script reads it cleanly" '
		f=$(corpus_file '"$name"')
		perf_ok $f script >out
		test -s out
		perf_ok $f script -F comm,tid,time,event,ip,sym >/dev/null
	'
	test_expect_success PERF,ROOT,TRACEFS "$name: perf report -D and --header-only read it cleanly" '
		f=$(corpus_file '"$name"')
		perf_ok $f report -D >dump
		not grep -qiE "failed to process|unknown (sample|event|record)|unexpected|invalid|broken|unprocessable" dump
		case $f in *.pipe) ;; *) perf_ok $f report --header-only >hdr ;; esac
	'
done

test_done
