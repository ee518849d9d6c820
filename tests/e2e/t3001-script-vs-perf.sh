#!/bin/bash
# pulse script against perf script (6.1) on the same files, freshly
# recorded by perf and by pulse: cpu-clock (a command, -a), -g (callchain
# lines), several events (the name column's width), tracepoints (fields
# decoded from the file's own TRACING_DATA: sched_switch, sched_wakeup,
# openat's pointers, irq, a sched:* glob), pipe mode, and -F selections.
# The outputs are compared byte for byte: nothing is normalised.
. "$(dirname "$0")/lib/test-lib.sh"


test_expect_success PERF 'cpu-clock of a command (perf record)' '
	perf record -q -o user.data -- "$WL/spin" >/dev/null 2>&1 &&
	same_script user.data
'

test_expect_success PERF 'cpu-clock of a command (pulse record)' '
	pulse record -q -o puser.data -- "$WL/spin" >/dev/null 2>&1 &&
	same_script puser.data
'

test_expect_success PERF 'system wide: [cpu] column, idle and kernel samples' '
	perf record -q -a -o sys.data -- "$WL/spin" >/dev/null 2>&1 &&
	grep -q "\[00[01]\]" <(pulse script -i sys.data) &&
	same_script sys.data
'

test_expect_success PERF 'system wide by pulse record' '
	pulse record -q -a -o psys.data -- "$WL/spin" >/dev/null 2>&1 &&
	same_script psys.data
'

test_expect_success PERF '-g: callchain lines under each sample' '
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same_script cg.data &&
	grep -q "^	 *[0-9a-f]* [^ ]*+0x[0-9a-f]* (/.*calltree)$" cg.data.pulse
'

test_expect_success PERF '-g -a: kernel chains, [unknown], init text' '
	perf record -q -g -a -o cga.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same_script cga.data
'

test_expect_success PERF '-g by pulse record' '
	pulse record -q -g -o pcg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same_script pcg.data
'

test_expect_success PERF 'two events: the name column is as wide as the widest' '
	perf record -q -e cpu-clock,task-clock -o two.data -- "$WL/spin" >/dev/null 2>&1 &&
	same_script two.data
'

test_expect_success PERF,TRACEFS 'sched_switch and sched_wakeup fields' '
	perf record -q -a -e sched:sched_switch,sched:sched_wakeup -o sched.data -- sleep 0.2 >/dev/null 2>&1 &&
	same_script sched.data &&
	grep -q "prev_comm=.* ==> next_comm=" sched.data.pulse
'

test_expect_success PERF,TRACEFS 'a sched:* glob' '
	perf record -q -a -e "sched:*" -o glob.data -- sleep 0.2 >/dev/null 2>&1 &&
	same_script glob.data
'

test_expect_success PERF,TRACEFS 'openat (pointer fields), irq, getppid' '
	perf record -q -a -e syscalls:sys_enter_openat,syscalls:sys_exit_openat,"irq:*",syscalls:sys_enter_getppid \
		-o sys2.data -- "$WL/getppid" 100 >/dev/null 2>&1 &&
	same_script sys2.data &&
	grep -q "filename: 0x" sys2.data.pulse
'

test_expect_success PERF,TRACEFS 'tracepoints recorded by pulse' '
	pulse record -q -a -e sched:sched_switch,syscalls:sys_enter_getppid -o ptp.data -- "$WL/getppid" 100 >/dev/null 2>&1 &&
	same_script ptp.data
'

test_expect_success PERF,TRACEFS 'tracepoints with callchains' '
	perf record -q -g -e sched:sched_switch -a -o tpg.data -- sleep 0.2 >/dev/null 2>&1 &&
	same_script tpg.data
'

test_expect_success PERF 'pipe mode (perf record -o -)' '
	perf record -q -g -o - -- "$WL/calltree" >pipe.data 2>/dev/null &&
	same_script pipe.data
'

test_expect_success PERF,TRACEFS 'pipe mode with tracepoints' '
	perf record -q -a -e sched:sched_switch -o - -- sleep 0.2 >ptp2.data 2>/dev/null &&
	same_script ptp2.data
'

test_expect_success PERF 'pipe mode by pulse record' '
	pulse record -q -o - -- "$WL/spin" >ppipe.data 2>/dev/null &&
	same_script ppipe.data
'

test_expect_success PERF '-F selections and --ns' '
	same_script user.data -F comm,tid,time &&
	same_script user.data -F comm,pid,tid,time,ip,sym,dso &&
	same_script user.data -F +pid &&
	same_script user.data -F -period,-dso &&
	same_script user.data --ns &&
	same_script sys.data -F cpu,event,ip,sym &&
	same_script cg.data -F comm,ip,sym &&
	same_script sched.data -F trace &&
	same_script sched.data -F comm,tid,cpu,time,event,trace
'

test_expect_success PERF '-F a field the samples lack: error, non-zero exit' '
	test_must_fail() { "$@" && return 1 || return 0; } &&
	test_must_fail pulse script -i user.data -F comm,cpu >out 2>err &&
	grep -q "^error: Samples for .* do not have CPU attribute set" err &&
	[ $(wc -l <err) = 1 ] &&
	test_must_fail pulse script -i user.data -F bogus 2>err &&
	grep -q "^error: .*invalid field" err
'

test_done
