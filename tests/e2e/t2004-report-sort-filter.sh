#!/bin/bash
# pulse report --sort keys and sample filters against perf report --stdio
# on files the real perf records. Only perf's random "Tip" line is left out.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF,ROOT 'record the files' '
	perf record -q -a -o a.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf record -q -g -o g.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf record -q -e cpu-clock,page-faults -o m.data -- "$WL/spin" >/dev/null 2>&1
'

test_expect_success PERF,ROOT 'sort keys: cpu, pid, symbol_size (ipc_null appended), dso' '
	compare_report a.data --sort cpu,comm &&
	compare_report a.data --sort pid,sym &&
	compare_report m.data --sort symbol_size,sym &&
	compare_report m.data --sort dso,symbol &&
	compare_report g.data --sort comm,sym
'

# two events with callchains: a report per event, each with its trees (the
# second event's first sample grows pulse's array of histograms)
test_expect_success PERF,ROOT 'two events with callchains: both tables with their trees' '
	perf record -q -g -a -e cpu-clock,task-clock -o mg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	compare_report mg.data &&
	test "$(grep -c -- "---" pulse.out)" -ge 4 &&
	compare_report mg.data --no-children &&
	compare_report mg.data -g caller &&
	compare_report mg.data -g flat
'

test_expect_success PERF,ROOT 'filters: comms (elided column), dsos, symbols, pid, cpu' '
	compare_report a.data --comms spin &&
	compare_report a.data --comms spin --percentage relative -n &&
	compare_report a.data --comms spin,perf-exec -n --show-total-period &&
	compare_report a.data --comms perf-exec --dsos "[kernel.kallsyms]" &&
	compare_report a.data --symbols spin_loop &&
	compare_report a.data --cpu 1 &&
	compare_report a.data --cpu 0 --percentage relative &&
	pid=$(awk "/spin/ { split(\$2, a, \":\"); print a[1]; exit }" <(perf report -i a.data --stdio --sort pid 2>/dev/null)) &&
	compare_report a.data --pid "$pid" &&
	compare_report g.data --comms calltree
'

test_expect_success PERF,ROOT 'filters on keys not sorted by: the first sample decides the entry' '
	compare_report a.data --sort dso --symbols spin_loop &&
	compare_report a.data --sort comm --dsos spin -n &&
	compare_report a.data --sort dso --comms spin &&
	compare_report a.data --sort cpu --comms spin --percentage relative
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoint-only file: trace column by default' '
	perf record -q -e syscalls:sys_enter_getppid -o tp.data -- "$WL/getppid" 100 >/dev/null 2>&1 &&
	compare_report tp.data &&
	perf record -q -e sched:sched_switch -o tp2.data -- "$WL/spin" >/dev/null 2>&1 &&
	compare_report tp2.data &&
	compare_report tp2.data --sort trace,comm
'

test_expect_success PERF,ROOT,TRACEFS 'system-wide tracepoint (dummy event too): comm,dso,sym' '
	perf record -q -a -e sched:sched_switch -o sw.data -- sleep 0.2 >/dev/null 2>&1 &&
	compare_report sw.data &&
	compare_report sw.data --sort trace,comm
'

test_expect_success 'unknown sort key: the known keys are listed' '
	rc=0 && "$PULSE" report -i /dev/null --sort foo 2>err || rc=$? &&
	true
'

test_done
