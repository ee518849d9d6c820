#!/bin/bash
# pulse stat record writes what perf 6.1's stat record writes (attrs with
# ids, the stat features, THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT per
# counter/cpu/thread, STAT_ROUND FINAL or INTERVAL) and prints the counts
# as pulse stat does: perf stat report on pulse's file prints the same rows.
. "$(dirname "$0")/lib/test-lib.sh"

# the count rows (no header, footer or -I time column noise): "value unit event"
rows() {
	grep -E "^ *(CPU[0-9]+ +)?[0-9.,]+ +(msec )?[a-z:_-]+" "$1" | grep -v " seconds " | sed "s/ *#.*//; s/  */ /g"
}

test_expect_success PERF,ROOT 'perf stat report reads pulse.data: the same rows and elapsed time' '
	pulse stat record -o pulse.data -e task-clock,page-faults,context-switches -- \
		$WL/getppid 4321 2>pulse.out &&
	perf stat report -i pulse.data >perf.out 2>&1 &&
	rows pulse.out >expect && rows perf.out >actual &&
	test $(wc -l <expect) = 3 && cmp expect actual &&
	grep "seconds time elapsed" pulse.out >expect &&
	grep "seconds time elapsed" perf.out >actual && cmp expect actual
'

# perf 6.1 reads no stat file with a tracepoint, its own neither ("incompatible
# file format"): the exact count is checked through pulse script's VAL column
test_expect_success PERF,ROOT,TRACEFS 'exact getppid count in the STAT record' '
	pulse stat record -o tp.data -e syscalls:sys_enter_getppid -- $WL/getppid 4321 2>tp.out &&
	grep -Eq " 4,?321 +syscalls:sys_enter_getppid" tp.out &&
	pulse script -i tp.data >script.out &&
	grep -Eq "^ *-1 +-1 +4321 .* syscalls:sys_enter_getppid$" script.out &&
	pulse stat report -i tp.data 2>report.out &&
	grep -Eq " 4,?321 +syscalls:sys_enter_getppid" report.out &&
	perf stat record -o ptp.data -e syscalls:sys_enter_getppid -- true 2>/dev/null &&
	! perf stat report -i ptp.data >perf.out 2>&1 &&
	! perf stat report -i tp.data >pulse-perf.out 2>&1 &&
	cmp perf.out pulse-perf.out
'

test_expect_success PERF,ROOT 'perf report -D and --header-only parse it' '
	perf report -D -i pulse.data >dump 2>err &&
	! grep -i "error\|invalid\|unknown" err &&
	grep -q "PERF_RECORD_THREAD_MAP nr: 1" dump &&
	grep -q "PERF_RECORD_CPU_MAP: -1" dump &&
	grep -q "PERF_RECORD_STAT_CONFIG" dump &&
	test $(grep -c "PERF_RECORD_STAT$" dump) = 3 &&
	grep -q "type FINAL" dump &&
	perf report --header-only -i pulse.data >hdr &&
	grep -q "contains stat data" hdr &&
	grep -q "^# event : name = page-faults, .*id = { [0-9]" hdr
'

test_expect_success PERF,ROOT '-a -I 100: INTERVAL rounds, the same interval rows' '
	pulse stat record -o i.data -a -I 100 -e context-switches,task-clock -- sleep 0.35 2>pulse.out &&
	perf stat report -i i.data >perf.out 2>&1 &&
	grep -v "^#" pulse.out | awk "{print \$1, \$2, \$3}" >expect &&
	grep -v "^#" perf.out | grep . | awk "{print \$1, \$2, \$3}" >actual &&
	test $(wc -l <expect) -ge 6 && cmp expect actual &&
	perf report -D -i i.data 2>/dev/null | grep -c "type INTERVAL" >n && test $(cat n) -ge 3 &&
	! perf report -D -i i.data 2>/dev/null | grep -q "type FINAL"
'

test_expect_success PERF,ROOT '-a -A: a STAT per cpu, perf stat report -A shows them' '
	pulse stat record -o a.data -a -A -e context-switches -- true 2>pulse.out &&
	perf stat report -i a.data -A >perf.out 2>&1 &&
	rows pulse.out >expect && rows perf.out >actual &&
	test $(wc -l <expect) = $(grep -c ^processor /proc/cpuinfo) && cmp expect actual &&
	perf report -D -i a.data 2>/dev/null | grep -q "aggr_mode 0"
'

test_expect_success PERF,ROOT 'pipe mode: -o -' '
	pulse stat record -o - -e page-faults -- true >p.pipe 2>pulse.out &&
	perf stat report -i - <p.pipe >perf.out 2>&1 &&
	rows pulse.out >expect && rows perf.out >actual && test -s expect && cmp expect actual
'

test_done
