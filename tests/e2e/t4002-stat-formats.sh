#!/bin/bash
# pulse stat's other layouts and run options against perf 6.1's: -x SEP
# (CSV, empty fields kept), -j (JSON lines), -r N (means, "( +- x.xx% )"),
# -o FILE / --append, -q, -n, -B, --no-scale, --timeout, -D.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/stat-lib.sh"

test_expect_success PERF '-x,: perf'"'"'s fields, empty ones kept' '
	both -x, -- true
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	grep -q "^<not supported>,,cycles,N,N,,\$" b
	grep -qE "^[0-9.]+,msec,task-clock,[0-9]+,100.00,[0-9.]+,CPUs utilized\$" pulse.out
'

test_expect_success PERF,TRACEFS '-x";" with a tracepoint and no clock: empty metric fields' '
	both -x";" -e syscalls:sys_enter_getppid -- $WL/getppid 10
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	expect_eq "$(cut -d";" -f1-3,5- pulse.out)" "10;;syscalls:sys_enter_getppid;100.00;;"
	expect_eq "$(cut -d";" -f1-3,5- perf.out)" "10;;syscalls:sys_enter_getppid;100.00;;"
'

test_expect_success PERF '-j: perf 6.1'"'"'s JSON lines' '
	both -j -- true
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both -j -e page-faults -- true
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	grep -q "\"metric-unit\" : \"(null)\"" pulse.out
'

test_expect_success PERF '-r 3: "(3 runs)", noise, the mean +- stddev footer' '
	both -r 3 -- true
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	grep -q "for '"'"'true'"'"' (3 runs):" pulse.out
	grep -qE "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- +[0-9.]+% \)\$" pulse.out
	grep -qE "task-clock .*CPUs utilized +\( \+- +[0-9.]+% \)\$" pulse.out
'

test_expect_success PERF '-r 2 with -x, and -j: the noise field' '
	both -r 2 -x, -e page-faults,cycles -- true
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	both -r 2 -j -e page-faults,cycles -- true
	fields perf.out >a; fields pulse.out >b; test_cmp a b
	grep -q "\"variance\" : " pulse.out
'

test_expect_success 'the -r mean is the mean of the runs' '
	pulse stat -r 4 -x, -e syscalls:sys_enter_getppid -- $WL/getppid 500 2>out
	expect_eq "$(cut -d, -f1,4 out)" "500,0.00%"
'

test_expect_success PERF '-o FILE: "# started on", then the table; --append adds a second' '
	pulse stat -o o.txt -e page-faults -- true 2>err
	test_must_be_empty err
	head -1 o.txt | grep -qE "^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]+ [0-9:]{8} [0-9]{4}\$"
	perf stat -o p.txt -e page-faults -- true
	shape p.txt | tail -n +2 >a; shape o.txt | tail -n +2 >b; test_cmp a b
	pulse stat -o o.txt --append -e page-faults -- true
	expect_eq "$(grep -c "started on" o.txt)" 2
	expect_eq "$(grep -c page-faults o.txt)" 2
'

test_expect_success PERF '-q/--quiet prints nothing, as perf'"'"'s --quiet; -n: the time only' '
	pulse stat -q -e page-faults -- true 2>err
	test_must_be_empty err
	pulse stat --quiet -- true 2>err
	test_must_be_empty err
	both -n -- true
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	not grep -q "page-faults" pulse.out
	both -n -x, -- true
	test_must_be_empty pulse.out
'

test_expect_success PERF '-B and --no-scale: same layout' '
	both -B -e page-faults -- true
	shape perf.out >a; shape pulse.out >b; test_cmp a b
	both --no-scale -e page-faults -- true
	shape perf.out >a; shape pulse.out >b; test_cmp a b
'

test_expect_success '--timeout: the workload is stopped, exit 0, elapsed near the timeout' '
	rc=0; pulse stat -e task-clock --timeout 200 -- $WL/spin 5000 2>err || rc=$?
	expect_eq $rc 0
	grep -q "Terminated" err
	s=$(awk "/seconds time elapsed/ {print int(\$1 * 1000)}" err)
	expect_ge "$s" 190 elapsed
	expect_gt 1500 "$s" elapsed
'

test_expect_success PERF '--timeout: perf exits 0 too' '
	rc=0; perf stat -e task-clock --timeout 200 -- $WL/spin 5000 2>err || rc=$?
	expect_eq $rc 0
'

test_expect_success TRACEFS '-D: the calls before the delay are not counted; perf'"'"'s lines' '
	pulse stat -D 300 -x, -e syscalls:sys_enter_getppid -- $WL/getppid 1000 --delay-ms 600 2>err
	grep -q "^1000,,syscalls" err
	grep -q "^Events disabled" err
	grep -q "^Events enabled" err
	pulse stat -D 500 -x, -e syscalls:sys_enter_getppid -- sh -c "$WL/getppid 300; sleep 1; $WL/getppid 20" 2>err
	grep -q "^20,,syscalls" err
'

test_done
