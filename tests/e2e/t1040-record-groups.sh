#!/bin/bash
# pulse record -e '{a,b}' and '{a,b}:S': the members opened in their
# leader's group (group_fd), following it (not disabled, not enabled on
# exec: perf 6.1's evsel__config()), leader sampling with PERF_SAMPLE_READ
# and PERF_FORMAT_GROUP|ID|LOST, no inherit and no period on the members,
# and GROUP_DESC; perf report and perf script read pulse's files with the
# same group view and lines as pulse, file and pipe, command and -a.
. "$(dirname "$0")/lib/test-lib.sh"

work() { sh -c 'for i in 1 2 3 4 5 6; do ls /usr/bin >/dev/null; done'; }
prec() { pulse record -q "$@" -- sh -c "$(declare -f work); work" 2>rec.err; }

test_expect_success PERF 'a group records: GROUP_DESC, members follow the leader' '
	prec -o g.data -e "{task-clock,page-faults}" &&
	perf report -i g.data --header-only 2>/dev/null | grep -qx "# group: {task-clock,page-faults}" &&
	perf evlist -v -i g.data >ev &&
	grep "^task-clock:" ev | grep -q "disabled: 1.*enable_on_exec: 1" &&
	grep "^page-faults:" ev >m && ! grep -q "disabled\|enable_on_exec" m &&
	grep -q "inherit: 1" m
'

test_expect_success PERF 'perf report reads it with the group view, as pulse' '
	same_report_in g.data &&
	grep -q "of events .anon group { task-clock, page-faults }" g.data.pulse &&
	same_report_in g.data --no-group
'

test_expect_success PERF ':S: leader sampling as perf 6.1 sets it' '
	prec -o gs.data -e "{task-clock,page-faults}:S" &&
	perf evlist -v -i gs.data >evs &&
	test $(grep -c "READ.*read_format: ID|GROUP|LOST" evs) = 2 &&
	grep "^page-faults:" evs >ms && ! grep -q "sample_freq\|inherit\|disabled" ms &&
	grep "^task-clock:" evs | grep -q "sample_freq }: 4000" &&
	! grep "^task-clock:" evs | grep -q "inherit"
'

test_expect_success PERF ':S: perf report and perf script read it as pulse' '
	same_report_in gs.data && same_report_in gs.data -n &&
	same_script gs.data && grep -q " page-faults: " gs.data.pulse &&
	same_script gs.data -F period,event,ip
'

test_expect_success PERF 'pipe mode' '
	prec -o - -e "{task-clock,page-faults}:S" >gs.pipe &&
	same_report_in gs.pipe && same_script gs.pipe
'

test_expect_success PERF 'system wide' '
	pulse record -q -a -o gsys.data -e "{cpu-clock,context-switches}" -- sleep 0.3 &&
	same_report_in gsys.data
'

test_expect_success PERF 'an empty group: a usage error, as perf' '
	expect_fail 129 err pulse record -e "{}" -o e.data -- true &&
	grep -q "{}" err
'

test_done
