#!/bin/bash
# pulse report --stdio against perf report --stdio --no-children on files
# recorded by the real perf: the same rows, order, percentages, headers and
# column widths. Only perf's random "Tip" line is left out of the diff.
. "$(dirname "$0")/lib/test-lib.sh"

# compare FILE [SORT] [EXTRA...]: diff pulse's and perf's tables
compare() {
	local f=$1 sort=${2:-comm,dso,sym}
	shift 2 2>/dev/null || shift $#
	perf report -i "$f" --stdio --no-children --sort "$sort" "$@" 2>/dev/null |
		grep -v '^# (Tip:' >perf.out || return 1
	"$PULSE" report -i "$f" --stdio --sort "$sort" "$@" 2>pulse.err |
		grep -v '^# (Tip:' >pulse.out || return 1
	if ! diff -u perf.out pulse.out; then
		cat pulse.err
		return 1
	fi
	# the table is not empty
	grep -q '%' pulse.out
}

test_expect_success PERF 'user workload: rows and percentages equal perf report' '
	perf record -q -o user.data -- "$WL/spin" >/dev/null 2>&1 &&
	compare user.data
'

test_expect_success PERF 'shell script: unresolved addresses, PLT and libc symbols' '
	perf record -q -o sh.data -- sh -c "i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done" >/dev/null 2>&1 &&
	compare sh.data
'

test_expect_success PERF 'other sort keys, -n and --percent-limit' '
	compare user.data pid,dso,sym -n &&
	compare user.data sym,dso &&
	compare user.data dso &&
	compare sh.data comm,dso,sym --percent-limit 1
'

test_expect_success PERF 'fork and exec: comms and maps follow the processes' '
	perf record -q -o fork.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	compare fork.data
'

# Other processes run during a system-wide recording: compare the rows of
# the workload and the idle task exactly, the rest by count.
rows() {
	awk '$2 == "spin" || $2 == "swapper" { $1 = $1; print }' "$1"
}

test_expect_success PERF,ROOT 'system-wide: kernel symbols, idle task, every process' '
	perf record -q -a -o sys.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf report -i sys.data --stdio --no-children 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	"$PULSE" report -i sys.data --stdio | grep -v "^# (Tip:" >pulse.out &&
	diff -u <(rows perf.out) <(rows pulse.out) &&
	test $(grep -c "%" perf.out) = $(grep -c "%" pulse.out) &&
	diff <(head -11 perf.out | grep -v "^# [O.]") <(head -11 pulse.out | grep -v "^# [O.]")
'

test_expect_success PERF,ROOT 'two events: one table each' '
	perf record -q -e cpu-clock,page-faults -o two.data -- "$WL/spin" >/dev/null 2>&1 &&
	compare two.data &&
	test $(grep -c "^# Samples:" pulse.out) = 2
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoint: period 1 per sample' '
	perf record -q -e syscalls:sys_enter_getppid -a -o tp.data -- "$WL/getppid" 200 >/dev/null 2>&1 &&
	compare tp.data
'

test_expect_success PERF 'callchains: self rows equal perf -g none' '
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	compare cg.data comm,dso,sym -g none 2>/dev/null ||
	{ perf report -i cg.data --stdio --no-children -g none 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	  "$PULSE" report -i cg.data --stdio --no-children -g none | grep -v "^# (Tip:" >pulse.out &&
	  diff -u perf.out pulse.out; }
'

test_expect_success 'missing file: one error line, exit 1' '
	rc=0 &&
	{ "$PULSE" report -i does-not-exist.data >out 2>err || rc=$?; } &&
	test $rc = 1 &&
	test "$(cat err)" = "error: cannot open '"'"'does-not-exist.data'"'"': No such file or directory" &&
	! test -s out
'

test_expect_success 'empty file: nothing to do, exit 0' '
	: >empty.data &&
	"$PULSE" report -i empty.data >out 2>err &&
	grep -q "zero-sized file, nothing to do" err
'

test_expect_success 'unknown sort key is a usage error' '
	rc=0 &&
	{ "$PULSE" report -i empty.data --sort comm,bogus >out 2>err || rc=$?; } &&
	test $rc = 129 && grep -q "bogus" err
'

test_expect_success PERF 'file cut short: warns and reports what is there' '
	size=$(stat -c %s user.data) &&
	head -c $((size * 2 / 3)) user.data >cut.data &&
	"$PULSE" report -i cut.data --stdio >out 2>err &&
	grep -q "bytes unreadable at 0x" err &&
	grep -q "^# Samples:" out
'

test_done
