#!/bin/bash
# pulse stat -I MS, --interval-count N, --interval-clear against perf 6.1:
# the "#  time  counts unit events" header, each row prefixed with the
# time, interval deltas (not totals), the workload's short last interval,
# -x and -j rows, no footer.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/stat-lib.sh"

test_expect_success PERF '-I 100 --interval-count 3 -a: header, three intervals, no footer' '
	both -I 100 --interval-count 3 -a -e cpu-clock,page-faults,cycles
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	expect_eq "$(grep -c cpu-clock pulse.out)" 3
	not grep -q "elapsed" pulse.out
'

test_expect_success PERF '-I with -x, and -j' '
	both -I 100 --interval-count 2 -a -x, -e cpu-clock,page-faults
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both -I 100 --interval-count 2 -a -j -e cpu-clock,page-faults
	fields perf.out >a; fields pulse.out >b; test_cmp a b
'

test_expect_success PERF '-I with a workload: the last short interval too, exit 0' '
	both -I 200 -e task-clock,page-faults -- $WL/spin 500
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	expect_eq "$(grep -c task-clock pulse.out)" 3
'

test_expect_success TRACEFS '-I counts each interval'"'"'s calls, not the totals' '
	pulse stat -I 300 -x, -e syscalls:sys_enter_getppid -- \
		sh -c "$WL/getppid 100; sleep 0.45; $WL/getppid 20; sleep 0.45" 2>out
	# sh makes one getppid call of its own; a sleeping interval is <not counted>
	cut -d, -f2 out >v
	head -1 v | grep -qE "^10[01]\$"
	sed -n 2p v | grep -qx 20
'

test_expect_success PERF '--interval-count stops the workload, exit 0; --interval-clear' '
	rc=0; pulse stat -I 100 --interval-count 2 -e page-faults -- $WL/spin 5000 2>err || rc=$?
	expect_eq $rc 0
	expect_eq "$(grep -c page-faults err)" 2
	not grep -q Terminated err
	both -I 100 --interval-count 2 --interval-clear -a -e page-faults
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	test_cmp perf.stdout pulse.stdout
'

test_expect_success '-I abc, -I 5, --interval-count without -I: usage errors' '
	expect_fail 129 err pulse stat -I abc -- true
	one_error err "-I.*abc"
	expect_fail 129 err pulse stat -I 5 -- true
	one_error err "at least 10 ms"
	expect_fail 129 err pulse stat --interval-count 2 -- true
	one_error err "need -I"
'

test_done
