#!/bin/bash
# pulse record -p PID / -t TID: attaching to a running process; SIGINT ends
# the recording cleanly (summary printed, readable file, then pulse dies of
# SIGINT as perf does: 130); the recorder also stops by itself (exit 0) when
# the target exits.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

# rec_bg ERRFILE ARGS...: `pulse record ARGS` in the background; $! is it.
# (A non-interactive shell starts background jobs with SIGINT ignored; like
# perf, pulse installs its own handler, so kill -INT still reaches it.)
rec_bg() {
	local errf=$1; shift
	"$PULSE" record "$@" 2>"$errf" >/dev/null </dev/null &
	track_bg $!
}

test_expect_success PERF '-p PID, ended by SIGINT: dies of SIGINT (130, as perf) and the target is sampled' '
	start_bg $WL/spin 20000; spid=$!
	rec_bg err -p $spid -o p.data; rp=$!
	wait_started p.data
	sleep 0.7
	kill -INT $rp
	rc=0; wait_exit $rp 20 || rc=$?
	cat err
	expect_eq $rc 130
	proc_alive $spid || { echo "the target died with the recorder"; false; }
	grep -q "^\[ pulse record: Captured and wrote [0-9.]\+ MB p.data ([0-9]\+ samples) \]$" err
	n=$(count_pid_samples p.data $spid)
	expect_gt "$n" 0 "samples of $spid"
	expect_eq "$(count_samples p.data)" "$n"
	expect_eq "$(summary_samples err)" "$n"
'

test_expect_success PERF 'pulse report reads the -p recording' '
	pulse report -i p.data --stdio >rep
	report_rows <rep >rows
	cat rows
	grep -q "% spin spin \[\.\] spin_loop$" rows
'

test_expect_success PERF '-p PID, pipe mode, ended by SIGINT' '
	start_bg $WL/spin 20000; spid=$!
	"$PULSE" record -p $spid -o - 2>err.pipe >p.pipe </dev/null & rp=$!
	track_bg $rp
	wait_started p.pipe
	sleep 0.7
	kill -INT $rp
	rc=0; wait_exit $rp 20 || rc=$?
	cat err.pipe
	expect_eq $rc 130
	expect_gt "$(count_pid_samples p.pipe $spid)" 0 "samples of $spid"
'

test_expect_success PERF '-p PID: the recorder stops when the target exits' '
	start_bg $WL/spin 1500; spid=$!
	rec_bg err.exit -p $spid -o exit.data; rp=$!
	rc=0; wait_exit $rp 20 || rc=$?
	cat err.exit
	expect_eq $rc 0
	expect_gt "$(count_pid_samples exit.data $spid)" 0 "samples of $spid"
'

test_expect_success PERF,ROOT,TRACEFS '-p PID -e getppid: exactly the N calls made after attaching' '
	start_bg $WL/getppid 2000 --delay-ms 1000; gpid=$!
	rec_bg err.tp -p $gpid -e $TP -o tp.data; rp=$!
	rc=0; wait_exit $rp 20 || rc=$?
	cat err.tp
	expect_eq $rc 0
	expect_eq "$(count_samples tp.data $TP)" 2000
	expect_eq "$(count_pid_samples tp.data $gpid)" 2000
'

test_expect_success PERF '-t TID, ended by SIGINT' '
	start_bg $WL/spin 20000; spid=$!
	rec_bg err.t -t $spid -o t.data; rp=$!
	wait_started t.data
	sleep 0.5
	kill -INT $rp
	rc=0; wait_exit $rp 20 || rc=$?
	cat err.t
	expect_eq $rc 130
	expect_gt "$(count_pid_samples t.data $spid)" 0 "samples of $spid"
'

test_expect_success PERF 'a command ended by SIGINT: the recorder ends it and writes a readable file' '
	rec_bg err.cmd -o cmd.data -- $WL/spin 20000; rp=$!
	wait_started cmd.data
	cpid=$(pgrep -P $rp | head -1)
	test -n "$cpid" && track_bg $cpid
	sleep 0.5
	kill -INT $rp
	rc=0; wait_exit $rp 20 || rc=$?
	cat err.cmd
	# as perf, it SIGTERMs the workload and dies of that signal (143)
	expect_eq $rc 143
	wait_for "! proc_alive $cpid" 5
	expect_gt "$(count_samples cmd.data)" 0 "samples"
'

test_expect_success '-p of a process that does not exist: one error, non-zero exit' '
	$WL/getppid 0 & dead=$!; wait $dead
	expect_fail nonzero err.dead pulse record -p $dead -o dead.data
	one_error err.dead "$dead|process|pid"
'

test_done
