#!/bin/bash
# pulse stat's default table against perf 6.1's on the same commands: the
# same rows, columns, units and shadow metrics (values normalised), the
# header for each target, the footer, the exit status of the workload, and
# exact counts of a tracepoint.
. "$(dirname "$0")/lib/test-lib.sh"

# norm FILE: numbers to N, rate prefixes and -r noise dropped, widths kept
# apart as the length of each line (values differ, columns must not).
norm() {
	sed -E 's/  \( \+- *[0-9.]+% \)//; s/[KMG]\/sec/\/sec /; s/ \/sec  /\/sec  /' "$1" |
		awk '{ l = length($0); gsub(/[0-9][0-9.,]*/, "N"); gsub(/ +/, " "); print l ": " $0 }'
}
# same_layout ARGS...: pulse stat and perf stat with ARGS print the same layout
same_layout() {
	local rc=0
	perf stat "$@" 2>perf.out >/dev/null || rc=$?
	pulse stat "$@" 2>pulse.out >/dev/null || rc=$?
	norm perf.out >perf.norm
	norm pulse.out >pulse.norm
	test_cmp perf.norm pulse.norm
}

test_expect_success 'pulse stat -h: usage, exit 129; the manual documents every option' '
	expect_fail 129 err pulse stat -h
	grep -q "usage: pulse stat" err
	pulse help stat >m
	grep -q "PULSE-STAT(1)" m
	for o in $(grep -oE -- "--[a-z][a-z-]+" err | sort -u); do
		grep -q -- "$o" m || { echo "$o not in the page"; false; }
	done
'

test_expect_success 'no command and no target: usage, exit 129' '
	expect_fail 129 err pulse stat
	grep -q "usage: pulse stat" err
'

test_expect_success 'default events: task-clock, sw events, then hardware as <not supported>' '
	pulse stat -- $WL/spin 10 2>out
	grep -q "^ Performance counter stats for '"'"'$WL/spin 10'"'"':\$" out
	sed -n 4p out | grep -qE "^ +[0-9]+\.[0-9]{2} msec task-clock +#  +[0-9.]+ CPUs utilized +\$"
	grep -qE "^ +[0-9]+      context-switches +# +[0-9.]+ [KMG]?/sec +\$" out
	grep -qE "^ +[0-9]+      page-faults +# +[0-9.]+ [KMG]?/sec" out
	grep -q "^   <not supported>      cycles  " out
	grep -qE "^ +[0-9.]+ seconds time elapsed\$" out
	grep -qE "^ +[0-9.]+ seconds user\$" out
	grep -qE "^ +[0-9.]+ seconds sys\$" out
'

test_expect_success PERF 'default table: the layout of perf stat -- true' '
	same_layout -- true
'

test_expect_success PERF 'default table system wide: cpu-clock, no user/sys' '
	same_layout -a -- $WL/spin 50
	grep -q "msec cpu-clock" pulse.out
	grep -q "'"'"'system wide'"'"'" pulse.out
	not grep -q "seconds user" pulse.out
'

test_expect_success PERF 'one event without a clock: no metric, blanks to the column' '
	same_layout -e page-faults -- true
'

test_expect_success PERF,TRACEFS '<not supported> rows, tracepoints, modifiers, long names' '
	same_layout -e syscalls:sys_enter_getppid,cycles:u,L1-dcache-prefetch-misses,cs:k -- true
'

test_expect_success PERF 'groups and group modifiers name their members as perf does' '
	same_layout -e "{task-clock,page-faults}:u" -e cs -- true
'

test_expect_success PERF '-C and -p headers' '
	same_layout -C 0 -e cpu-clock -- $WL/spin 20
	grep -q "'"'"'CPU(s) 0'"'"'" pulse.out
	$WL/spin 3000 & sp=$!; track_bg $sp
	same_layout -p $sp -e task-clock --timeout 200
	grep -q "process id '"'"'$sp'"'"'" pulse.out
	grep -qE " +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized" pulse.out
'

test_expect_success TRACEFS 'exact count: N getppid calls are N sys_enter_getppid' '
	pulse stat -x, -e syscalls:sys_enter_getppid -- $WL/getppid 12345 2>out
	expect_eq "$(cut -d, -f1,3 out)" "12345,syscalls:sys_enter_getppid"
	pulse stat -e syscalls:sys_enter_getppid -- $WL/getppid 777 2>out
	grep -qE "^ +777      syscalls:sys_enter_getppid " out
'

test_expect_success TRACEFS '-p: counts the process until it exits, exactly' '
	$WL/getppid 5000 --delay-ms 700 & gp=$!; track_bg $gp
	pulse stat -p $gp -x, -e syscalls:sys_enter_getppid 2>out
	expect_eq "$(cut -d, -f1 out)" 5000
'

test_expect_success PERF,TRACEFS 'exact count: perf counts the same' '
	perf stat -x, -e syscalls:sys_enter_getppid -- $WL/getppid 12345 2>out
	expect_eq "$(cut -d, -f1 out)" 12345
'

test_expect_success 'exit status: the command'"'"'s' '
	rc=0; pulse stat -e page-faults -- sh -c "exit 3" 2>err || rc=$?
	expect_eq $rc 3
	rc=0; pulse stat -e page-faults -- false 2>err || rc=$?
	expect_eq $rc 1
	grep -q "page-faults" err
'

# perf 6.1 passes the command's status on, but under load it sometimes
# exits 0 instead (seen in 2 of 3 runs while other tests ran): one of five
# runs exiting 3 is taken as its answer
test_expect_success PERF 'perf agrees on the exit status' '
	for i in 1 2 3 4 5; do
		rc=0; perf stat -e page-faults -- sh -c "exit 3" 2>/dev/null || rc=$?
		echo $rc
	done >rcs
	grep -qx 3 rcs
'

test_expect_success 'a command killed by a signal: counts printed, pulse dies of it' '
	rc=0; pulse stat -e page-faults -- sh -c "kill -TERM \$\$" 2>err || rc=$?
	expect_eq $rc 143
	grep -q "page-faults" err
'

test_expect_success PERF '-a until SIGINT: the counts, then exit 130, as perf' '
	"$PULSE" stat -a -e cpu-clock 2>out & sp=$!; track_bg $sp
	sleep 0.5; kill -INT $sp
	rc=0; wait $sp || rc=$?
	expect_eq $rc 130
	grep -qE "msec cpu-clock +# +[0-9.]+ CPUs utilized" out
	perf stat -a -e cpu-clock 2>out & sp=$!; track_bg $sp
	sleep 0.5; kill -INT $sp
	rc=0; wait $sp || rc=$?
	expect_eq $rc 130
'

test_expect_success 'a command that cannot run: one error line, exit 1' '
	expect_fail 1 err pulse stat -- /nonexistent/cmd
	one_error err "cannot run .*/nonexistent/cmd.*No such file"
'

test_done
