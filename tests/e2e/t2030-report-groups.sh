#!/bin/bash
# pulse report against perf report (6.1) on perf's files with event
# groups: the group view (one table per group, "anon group { a, b }", a
# column per member, the order by each member's period after the
# leader's), perf's default on a file with GROUP_DESC; --group on a file
# without groups (one group of all, no "anon group"); --no-group (a table
# per event, "of events" for a leader); ':S' leader sampling (the read
# values' growth as periods); file and pipe mode; -n, --show-total-period,
# --sort, -g (Children and Self columns), system wide.
. "$(dirname "$0")/lib/test-lib.sh"

work() { sh -c 'for i in 1 2 3 4 5 6; do ls /usr/bin >/dev/null; done'; }
rec() { perf record -q "$@" -- sh -c "$(declare -f work); work" 2>/dev/null; }

test_expect_success PERF 'perf record with groups' '
	rec -o g.data -e "{task-clock,page-faults}" &&
	rec -o gs.data -e "{task-clock,page-faults}:S" &&
	rec -o - -e "{task-clock,page-faults}" >g.pipe &&
	rec -o - -e "{task-clock,page-faults}:S" >gs.pipe &&
	rec -o gg.data -g -e "{task-clock,page-faults}" &&
	rec -o two.data -e task-clock,page-faults &&
	perf record -q -a -o gsys.data -e "{cpu-clock,context-switches}" -- sleep 0.5 >/dev/null 2>&1
'

test_expect_success PERF 'the group view by default: one table, a column per member' '
	same_report_in g.data &&
	grep -q "^# Samples: .* of events .anon group { task-clock, page-faults }.$" g.data.pulse &&
	grep -q "^    *[0-9.]*%  *[0-9.]*%  " g.data.pulse &&
	same_report_in gsys.data
'

test_expect_success PERF 'pipe mode' '
	same_report_in g.pipe && same_report_in gs.pipe
'

test_expect_success PERF ':S: periods from the read values' '
	same_report_in gs.data && same_report_in gs.data -n --show-total-period
'

test_expect_success PERF '-n, --show-total-period, --sort' '
	same_report_in g.data -n --show-total-period &&
	same_report_in g.data --sort comm,dso &&
	same_report_in gsys.data --sort sym -n
'

test_expect_success PERF '--no-group: a table per event, "of events" for the leader' '
	same_report_in g.data --no-group &&
	grep -q "^# Samples: .* of events .task-clock.$" g.data.pulse &&
	same_report_in gs.data --no-group
'

test_expect_success PERF '--group on a file without groups' '
	same_report_in two.data --group &&
	grep -q "of events .task-clock, page-faults.$" two.data.pulse &&
	same_report_in two.data
'

test_expect_success PERF '-g: Children and Self per member' '
	same_report_in gg.data && same_report_in gg.data --no-children
'

test_expect_success PERF '-t SEP: the members joined in their column' '
	same_report_in g.data -t , &&
	same_report_in g.data -t , -n --show-total-period &&
	same_report_in gg.data -t :
'

test_expect_success PERF '-F and hpp sort keys: a column per member, the order perf gives' '
	same_report_in gsys.data -F overhead,sample,period,comm &&
	same_report_in g.data -F overhead_children,overhead,sym &&
	same_report_in g.data -F overhead_children,overhead,sym -t , &&
	same_report_in gsys.data --sort sample,sym &&
	same_report_in gg.data -F +period
'

test_done
