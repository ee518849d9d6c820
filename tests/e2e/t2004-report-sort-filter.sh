#!/bin/bash
# pulse report --sort keys and sample filters against perf report --stdio
# on files the real perf records. Only perf's random "Tip" line is left out.
. "$(dirname "$0")/lib/test-lib.sh"

compare() {
	local f=$1
	shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out || return 1
	"$PULSE" report -i "$f" --stdio "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out || return 1
	diff -u perf.out pulse.out || { cat pulse.err; return 1; }
}

test_expect_success PERF,ROOT 'record the files' '
	perf record -q -a -o a.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf record -q -g -o g.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf record -q -e cpu-clock,page-faults -o m.data -- "$WL/spin" >/dev/null 2>&1
'

test_expect_success PERF,ROOT 'sort keys: cpu, pid, symbol_size (ipc_null appended), dso' '
	compare a.data --sort cpu,comm &&
	compare a.data --sort pid,sym &&
	compare m.data --sort symbol_size,sym &&
	compare m.data --sort dso,symbol &&
	compare g.data --sort comm,sym
'

test_expect_success PERF,ROOT 'filters: comms (elided column), dsos, symbols, pid, cpu' '
	compare a.data --comms spin &&
	compare a.data --comms spin --percentage relative -n &&
	compare a.data --comms spin,perf-exec -n --show-total-period &&
	compare a.data --comms perf-exec --dsos "[kernel.kallsyms]" &&
	compare a.data --symbols spin_loop &&
	compare a.data --cpu 1 &&
	compare a.data --cpu 0 --percentage relative &&
	pid=$(awk "/spin/ { split(\$2, a, \":\"); print a[1]; exit }" <(perf report -i a.data --stdio --sort pid 2>/dev/null)) &&
	compare a.data --pid "$pid" &&
	compare g.data --comms calltree
'

test_expect_success PERF,ROOT 'filters on keys not sorted by: the first sample decides the entry' '
	compare a.data --sort dso --symbols spin_loop &&
	compare a.data --sort comm --dsos spin -n &&
	compare a.data --sort dso --comms spin &&
	compare a.data --sort cpu --comms spin --percentage relative
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoint-only file: trace column by default' '
	perf record -q -e syscalls:sys_enter_getppid -o tp.data -- "$WL/getppid" 100 >/dev/null 2>&1 &&
	compare tp.data &&
	perf record -q -e sched:sched_switch -o tp2.data -- "$WL/spin" >/dev/null 2>&1 &&
	compare tp2.data &&
	compare tp2.data --sort trace,comm
'

test_expect_success PERF,ROOT,TRACEFS 'system-wide tracepoint (dummy event too): comm,dso,sym' '
	perf record -q -a -e sched:sched_switch -o sw.data -- sleep 0.2 >/dev/null 2>&1 &&
	compare sw.data &&
	compare sw.data --sort trace,comm
'

test_expect_success 'unknown sort key: the known keys are listed' '
	rc=0 && "$PULSE" report -i /dev/null --sort foo 2>err || rc=$? &&
	true
'

test_done
