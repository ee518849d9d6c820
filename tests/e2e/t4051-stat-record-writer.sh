#!/bin/bash
# Stat files written by the library (the data writer and the stat record
# builders, through tests/tools/pulse-mkstat) read by perf 6.1's
# `perf stat report` with the numbers put in. This machine has no PMU and
# never multiplexes, so the files carry counters that ran for less time
# than they were enabled: perf scales them (val * ena / run) and prints the
# (run/ena) percentage column; a counter that never ran is <not counted>,
# one without a STAT record <not supported>. perf stat report prints on
# stderr; it must print nothing else (no warning about the file).
. "$(dirname "$0")/lib/test-lib.sh"

# report FILE: perf stat report -i FILE into out, exit 0
report() {
	perf stat report -i "$1" >out 2>&1 </dev/null
}

# has REGEX: a line of out matches
has() {
	grep -qE "$1" out || { echo "no line like: $1"; cat out; false; }
}

test_expect_success PERF 'scaled counters, the percentage column, not counted/supported' '
	"$TOOLS"/pulse-mkstat -t 2000000 s.data task-clock=3000000/2000000/1000000 \
		context-switches=10/2000000/500000 page-faults=49/2000000/2000000 \
		cpu-migrations=5/2000000/0 cycles=- &&
	report s.data &&
	has "^ +6\.00 msec task-clock +# +3\.000 CPUs utilized +\(50\.00%\) *$" &&
	has "^ +40 +context-switches +# +6\.667 K/sec +\(25\.00%\) *$" &&
	has "^ +49 +page-faults +# +8\.167 K/sec *$" &&
	has "^ +<not counted> +cpu-migrations +\(0\.00%\) *$" &&
	has "^ +<not supported> +cycles *$" &&
	has "^ +0\.002000000 seconds time elapsed$" &&
	has "Performance counter stats for .*pulse-mkstat stat record -- true" &&
	! grep -qiE "warning|error|fail|invalid" out
'

test_expect_success PERF 'a counter that ran a third of the time' '
	"$TOOLS"/pulse-mkstat s.data page-faults=100/3000/1000 &&
	report s.data &&
	has "^ +300 +page-faults +\(33\.33%\) *$"
'

test_expect_success PERF 'per-cpu counters are summed over the CPU_MAP (mask32, byte-swapped)' '
	"$TOOLS"/pulse-mkstat -c 0,1,3 -m mask32 s.data task-clock=3000000/2000000/1000000 &&
	report s.data &&
	has "^ +18\.00 msec task-clock .*\(50\.00%\) *$" &&
	"$TOOLS"/pulse-mkdata swap s.data sw.data &&
	report sw.data &&
	has "^ +18\.00 msec task-clock .*\(50\.00%\) *$"
'

test_expect_success PERF 'interval rounds, global and per cpu (-A)' '
	"$TOOLS"/pulse-mkstat -I 100:2 s.data task-clock=50000000/100000000/50000000 \
		page-faults=7/100/100 &&
	report s.data &&
	has "^ +0\.100000000 +100\.00 msec task-clock .*\(50\.00%\) *$" &&
	has "^ +0\.200000000 +100\.00 msec task-clock .*\(50\.00%\) *$" &&
	has "^ +0\.200000000 +7 +page-faults +# +70\.000 /sec *$" &&
	"$TOOLS"/pulse-mkstat -I 100:2 -c 0,1 -a 0 s.data task-clock=50000000/100000000/50000000 &&
	report s.data &&
	test "$(grep -cE "^ +0\.200000000 CPU[01] +100\.00 msec task-clock .*\(50\.00%\) *$" out)" = 2
'

test_expect_success PERF 'a pipe stream' '
	"$TOOLS"/pulse-mkstat -p - task-clock=3000000/2000000/1000000 >p.data &&
	perf stat report -i - <p.data >out 2>&1 &&
	has "^ +6\.00 msec task-clock .*\(50\.00%\) *$"
'

test_done
