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

# same_group FILE ARGS...: perf's and pulse's reports, tips left out
same_group() {
	local f=$1; shift
	perf_in "$f" report --stdio "$@" 2>/dev/null | grep -v "^# (Tip:" >"$f.perf" &&
	if is_pipe_file "$f"; then
		pulse report -i - --stdio "$@" <"$f"
	else
		pulse report -i "$f" --stdio "$@"
	fi 2>"$f.err" | grep -v "^# (Tip:" >"$f.pulse" &&
	[ -s "$f.perf" ] && diff -u "$f.perf" "$f.pulse"
}

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
	same_group g.data &&
	grep -q "^# Samples: .* of events .anon group { task-clock, page-faults }.$" g.data.pulse &&
	grep -q "^    *[0-9.]*%  *[0-9.]*%  " g.data.pulse &&
	same_group gsys.data
'

test_expect_success PERF 'pipe mode' '
	same_group g.pipe && same_group gs.pipe
'

test_expect_success PERF ':S: periods from the read values' '
	same_group gs.data && same_group gs.data -n --show-total-period
'

test_expect_success PERF '-n, --show-total-period, --sort' '
	same_group g.data -n --show-total-period &&
	same_group g.data --sort comm,dso &&
	same_group gsys.data --sort sym -n
'

test_expect_success PERF '--no-group: a table per event, "of events" for the leader' '
	same_group g.data --no-group &&
	grep -q "^# Samples: .* of events .task-clock.$" g.data.pulse &&
	same_group gs.data --no-group
'

test_expect_success PERF '--group on a file without groups' '
	same_group two.data --group &&
	grep -q "of events .task-clock, page-faults.$" two.data.pulse &&
	same_group two.data
'

test_expect_success PERF '-g: Children and Self per member' '
	same_group gg.data && same_group gg.data --no-children
'

test_expect_success PERF '-t SEP: the members joined in their column' '
	same_group g.data -t , &&
	same_group g.data -t , -n --show-total-period &&
	same_group gg.data -t :
'

test_expect_success PERF '-F and hpp sort keys: a column per member, the order perf gives' '
	same_group gsys.data -F overhead,sample,period,comm &&
	same_group g.data -F overhead_children,overhead,sym &&
	same_group g.data -F overhead_children,overhead,sym -t , &&
	same_group gsys.data --sort sample,sym &&
	same_group gg.data -F +period
'

test_done
