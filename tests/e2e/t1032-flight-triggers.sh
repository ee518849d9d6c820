#!/bin/bash
# Flight recorder triggers besides SIGUSR2: an event (--switch-output-event),
# perf's control protocol on fifos (--control fifo:ctl,ack: snapshot, ping,
# stop, each acknowledged), and --switch-output alone, perf's rotating
# files; and bad input: one error: line each, non-zero exit.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

test_expect_success PERF,TRACEFS '--switch-output-event: a snapshot per event (kill), each holding its burst' '
	record_ok err -M 4M --switch-output --switch-output-event syscalls:sys_enter_kill -e $TP \
		-o ev.data -- $WL/burst 1000 2 --signal 28 --gap-ms 100
	expect_eq "$(ls ev.data.* | wc -l)" 2
	for f in ev.data.*; do
		expect_eq "$(count_samples $f $TP)" 1000 || return 1
	done
'

test_expect_success PERF,TRACEFS '--control fifo:ctl,ack: snapshot, ping and stop, each acknowledged' '
	mkfifo ctl ack
	"$PULSE" record -M 4M --switch-output --control fifo:ctl,ack -e $TP -o c.data -- \
		$WL/burst 1000 3 --gap-ms 500 2>cerr &
	rp=$!; track_bg $rp
	exec 7<>ack
	sleep 0.3
	echo snapshot >ctl
	expect_eq "$(timeout 10 head -c4 <&7)" ack
	echo ping >ctl
	expect_eq "$(timeout 10 head -c4 <&7)" ack
	echo stop >ctl
	expect_eq "$(timeout 10 head -c4 <&7)" ack
	wait_exit $rp 20 || true
	exec 7>&-
	expect_eq "$(ls c.data.* | wc -l)" 1
	expect_eq "$(count_samples $(ls c.data.*) $TP)" 1000
'

test_expect_success PERF,TRACEFS '--switch-output alone: perfs rotating files, every sample in exactly one' '
	record_ok err --switch-output -e $TP -o rot.data -- $WL/burst 1000 3 --signal 12 --gap-ms 100
	n=$(ls rot.data.* | wc -l)
	expect_ge $n 3 files
	total=0
	for f in rot.data.*; do
		n=$(count_samples $f $TP) && total=$((total + n)) &&
		pulse script -i $f >/dev/null 2>perr && test_must_be_empty perr || return 1
	done
	expect_eq $total 3000
	not ls rot.data.*.tmp rot.data.tmp 2>/dev/null
'

test_expect_success 'bad input: one error line each, non-zero exit' '
	expect_fail 129 err pulse record -M 1K -e cpu-clock -o x.data -- true
	one_error err "invalid -M"
	expect_fail 129 err pulse record -M 4M --overwrite -e cpu-clock -o x.data -- true
	one_error err "give one"
	expect_fail 129 err pulse record --switch-output-event no_such:event -e cpu-clock -o x.data -- true
	one_error err "switch-output-event"
	expect_fail nonzero err pulse record -M 4M --control fifo:/nonexistent/ctl -e cpu-clock -o x.data -- true
	one_error err "control fifo"
	expect_fail 129 err pulse record -M 4M -o - -e cpu-clock -- true
	one_error err "pipe"
	expect_fail 129 err pulse record --switch-output=12Q -e cpu-clock -o x.data -- true
	one_error err "switch-output"
'

test_done
