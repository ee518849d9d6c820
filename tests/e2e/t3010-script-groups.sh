#!/bin/bash
# pulse script against perf script (6.1) on perf's files with event groups:
# '{task-clock,page-faults}' (each member sampled on its own) and ':S'
# (leader sampling: PERF_SAMPLE_READ with PERF_FORMAT_GROUP|ID|LOST, one
# line per member and value, the value's growth as the period), file and
# pipe mode, default fields and -F with period; script -D dumps a read
# sample once and prints its lines after.
. "$(dirname "$0")/lib/test-lib.sh"

work() { sh -c 'for i in 1 2 3 4 5 6; do ls /usr/bin >/dev/null; done'; }

test_expect_success PERF 'perf record with groups: file, pipe, :S' '
	perf record -q -o g.data -e "{task-clock,page-faults}" -- sh -c "$(declare -f work); work" >/dev/null 2>&1 &&
	perf record -q -o gs.data -e "{task-clock,page-faults}:S" -- sh -c "$(declare -f work); work" >/dev/null 2>&1 &&
	perf record -q -o - -e "{task-clock,page-faults}:S" -- sh -c "$(declare -f work); work" >gs.pipe 2>/dev/null &&
	perf record -q -o - -e "{task-clock,page-faults}" -- sh -c "$(declare -f work); work" >g.pipe 2>/dev/null &&
	perf evlist -v -i gs.data | grep -q "read_format: ID|GROUP|LOST"
'

test_expect_success PERF 'a group: the same lines as perf' '
	same_script g.data && same_script g.pipe
'

test_expect_success PERF ':S: a line per member and value, as perf' '
	same_script gs.data &&
	grep -q " page-faults: " gs.data.pulse &&
	same_script gs.pipe
'

test_expect_success PERF ':S: -F with period, as perf' '
	same_script gs.data -F period,event,ip,sym &&
	same_script gs.data -F comm,tid,time,period,event &&
	same_script gs.pipe -F period,event
'

test_expect_success PERF ':S: --per-event-dump puts each value in its event file' '
	pulse script -i gs.data --per-event-dump >out &&
	grep -q " page-faults: " gs.data.page-faults.dump &&
	! grep -q " task-clock: " gs.data.page-faults.dump
'

test_expect_success PERF ':S: script -D dumps the sample once' '
	perf script -D -i gs.data 2>/dev/null | grep -c "PERF_RECORD_SAMPLE" >n.perf &&
	pulse script -D -i gs.data | grep -c "PERF_RECORD_SAMPLE" >n.pulse &&
	test_cmp n.perf n.pulse
'

test_done
