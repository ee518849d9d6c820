#!/bin/bash
# pulse stat -A (a row per cpu, "CPU3") and --per-thread (a row per thread,
# "comm-tid", by count) against perf 6.1's layouts, default, -x and -j;
# the sums of the rows are the aggregated count.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/stat-lib.sh"

test_expect_success PERF '-A -a: CPUn rows, evsel by evsel' '
	both -A -a -e cpu-clock,page-faults,cycles -- $WL/spin 100
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	grep -q "^CPU0 .* cpu-clock " pulse.out
	grep -q "^CPU1 .*<not supported>      cycles" pulse.out
'

test_expect_success PERF '-A with -x, -j, -I' '
	both -A -a -x, -e cpu-clock,page-faults -- $WL/spin 100
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both -A -a -j -e cpu-clock,page-faults -- $WL/spin 100
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both -A -a -I 100 --interval-count 2 -e cpu-clock
	shape perf.out >a; shape pulse.out >b; test_cmp a b
'

test_expect_success PERF '--per-thread -p: comm-tid rows, default, -x, -j' '
	$WL/spin 5000 & sp=$!; track_bg $sp
	both --per-thread -p $sp -e task-clock,page-faults,cycles --timeout 200
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	grep -qE "^ +spin-$sp +[0-9.]+ msec task-clock" pulse.out
	both --per-thread -p $sp -x, -e task-clock,page-faults --timeout 200
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	grep -q "^spin-$sp,[0-9.]*,msec,task-clock," pulse.out
	both --per-thread -p $sp -j -e task-clock --timeout 200
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both --per-thread -p $sp -I 100 --interval-count 2 -e task-clock
	shape perf.out >a; shape pulse.out >b; test_cmp a b
'

test_expect_success TRACEFS '--per-thread -t A,B: one row each, highest count first' '
	$WL/getppid 300 --delay-ms 600 & a=$!; track_bg $a
	$WL/getppid 700 --delay-ms 600 & b=$!; track_bg $b
	pulse stat --per-thread -t $a,$b -x, -e syscalls:sys_enter_getppid 2>out
	expect_eq "$(cut -d, -f1,2 out | tr "\n" " ")" "getppid-$b,700 getppid-$a,300 "
'

test_expect_success TRACEFS '-A: the cpus'"'"' rows add up to the total' '
	pulse stat -A -a -x, -e syscalls:sys_enter_getppid -- $WL/getppid 4000 2>out
	expect_ge "$(awk -F, "{n += \$2} END {print n}" out)" 4000
	expect_eq "$(wc -l <out)" "$(grep -c "^CPU" out)"
'

test_expect_success '-A without -a/-C, --per-thread without -p/-t: usage errors' '
	expect_fail 129 err pulse stat -A -- true
	one_error err "-A needs -a or -C"
	expect_fail 129 err pulse stat --per-thread -- true
	one_error err "--per-thread needs -p or -t"
'

test_done
