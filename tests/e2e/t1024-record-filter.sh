#!/bin/bash
# pulse record --filter and --exclude-perf, as perf 6.1: the filter goes on
# the events of the preceding -e (PERF_EVENT_IOC_SET_FILTER on each fd), so
# a workload of N getppid calls leaves exactly N raw_syscalls samples with
# 'id == 110' (getppid on x86_64), the same count perf records.
. "$(dirname "$0")/lib/test-lib.sh"

N=1000
ENTER=raw_syscalls:sys_enter
EXIT=raw_syscalls:sys_exit
GETPPID=110

test_expect_success PERF,ROOT,TRACEFS '--filter: exactly the N getppid calls, as perf' '
	record_ok err -e $ENTER --filter "id == $GETPPID" -o f.data -- $WL/getppid $N
	expect_eq "$(count_samples f.data $ENTER)" $N
	expect_eq "$(count_samples f.data)" $N
	perf record -q -e $ENTER --filter "id == $GETPPID" -o p.data -- $WL/getppid $N
	expect_eq "$(count_samples p.data $ENTER)" $N
	# unfiltered, the loader and libc add their own system calls
	record_ok err -e $ENTER -o all.data -- $WL/getppid $N
	expect_gt "$(count_samples all.data $ENTER)" $N
'

test_expect_success PERF,ROOT,TRACEFS 'two -e/--filter pairs: each filter on its own event' '
	record_ok err -e $ENTER --filter "id == $GETPPID" \
		-e $EXIT --filter "id == $GETPPID && ret < 0" -o two.data -- $WL/getppid $N
	expect_eq "$(count_samples two.data $ENTER)" $N
	expect_eq "$(count_samples two.data $EXIT)" 0
	perf record -q -e $ENTER --filter "id == $GETPPID" \
		-e $EXIT --filter "id == $GETPPID && ret < 0" -o ptwo.data -- $WL/getppid $N
	expect_eq "$(count_samples ptwo.data $ENTER)" $N
	expect_eq "$(count_samples ptwo.data $EXIT)" 0
'

test_expect_success PERF,ROOT,TRACEFS 'a comma list: the filter goes on every event of the last -e' '
	record_ok err -e $ENTER,$EXIT --filter "id == $GETPPID" -o both.data -- $WL/getppid $N
	expect_eq "$(count_samples both.data $ENTER)" $N
	expect_eq "$(count_samples both.data $EXIT)" $N
'

test_expect_success PERF,ROOT,TRACEFS 'two --filter on one event join with &&, as perf' '
	record_ok err -e $ENTER --filter "id >= $GETPPID" --filter "id <= $GETPPID" \
		-o and.data -- $WL/getppid $N
	expect_eq "$(count_samples and.data $ENTER)" $N
	perf record -q -e $ENTER --filter "id >= $GETPPID" --filter "id <= $GETPPID" \
		-o pand.data -- $WL/getppid $N
	expect_eq "$(count_samples pand.data $ENTER)" $N
'

test_expect_success PERF '--filter before any -e: perf'"'"'s message, usage exit 129' '
	expect_fail 129 err pulse record --filter "id == 1" -- true
	one_error err "^error: --filter option should follow a -e tracepoint or HW tracer option$"
	expect_fail 129 perr perf record --filter "id == 1" -- true
	grep -q "^--filter option should follow a -e tracepoint or HW tracer option$" perr
'

test_expect_success PERF '--filter after a software event: perf'"'"'s message, exit 129' '
	expect_fail 129 err pulse record -e cpu-clock --filter "id == 1" -- true
	one_error err "^error: This CPU does not support address filtering$"
	expect_fail 129 perr perf record -e cpu-clock --filter "id == 1" -- true
	grep -q "^This CPU does not support address filtering$" perr
	# the last -e decides, as perf: a tracepoint given earlier does not help
	expect_fail 129 err pulse record -e $ENTER -e cpu-clock --filter "id == 1" -- true
'

test_expect_success PERF,ROOT,TRACEFS 'a filter the kernel refuses: perf'"'"'s line, a runtime error' '
	expect_fail 1 err pulse record -e $ENTER --filter "bogus == 1" -o bad.data -- $WL/getppid 1
	one_error err "^error: failed to set filter \"bogus == 1\" on event $ENTER with 22 \(Invalid argument\)$"
	has_hint err "raw_syscalls/sys_enter/format"
	not grep -q "Captured and wrote" err
	# perf prints the same line and exits 255 (pulse: 1, its runtime-error code)
	expect_fail 255 perr perf record -e $ENTER --filter "bogus == 1" -o pbad.data -- $WL/getppid 1
	grep -q "^failed to set filter \"bogus == 1\" on event $ENTER with 22 (Invalid argument)$" perr
'

test_expect_success PERF,ROOT,TRACEFS '--exclude-perf: none of the recorder'"'"'s own system calls' '
	# the recorder by its pid: other pulse processes may run system wide
	"$PULSE" record -a -e $ENTER --exclude-perf -o ex.data -- $WL/getppid 10 --delay-ms 200 2>err &
	rp=$!; wait $rp
	"$PULSE" record -a -e $ENTER -o nex.data -- $WL/getppid 10 --delay-ms 200 2>err &
	np=$!; wait $np
	perf_ok nex.data script -F comm,pid,trace | awk -v p=$np "\$1 == \"pulse\" && \$2 == p" >own
	expect_gt "$(grep -c . own)" 0 "the recorder'"'"'s system calls without --exclude-perf"
	perf_ok ex.data script -F comm,pid,trace | awk -v p=$rp "\$1 == \"pulse\" && \$2 == p" >own
	test_must_be_empty own
'

test_expect_success PERF '--exclude-perf after a software event: perf'"'"'s message, exit 129' '
	expect_fail 129 err pulse record -e cpu-clock --exclude-perf -- true
	one_error err "^error: --exclude-perf option should follow a -e tracepoint option$"
	expect_fail 129 perr perf record -e cpu-clock --exclude-perf -- true
	grep -q "^--exclude-perf option should follow a -e tracepoint option$" perr
'

test_done
