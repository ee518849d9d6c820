#!/bin/bash
# pulse stat --control (perf 6.1's): enable/disable by commands on a fifo
# or an fd, each acknowledged with "ack\n" on the ack fifo/fd; -D -1 starts
# disabled; "Events disabled"/"Events enabled" lines as perf prints them.
# A burst workload makes 1000 getppid calls every 600 ms: the count is
# exactly the calls made while enabled, the same as perf 6.1 counts.
# Bad specs: one error: line, exit 129 as perf.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

# ack: one ack on fd 7 within 5 s (pulse writes "ack\n"; perf also a NUL)
ack() { expect_eq "$(timeout 5 head -c3 <&7)" ack; }
# drain fd 7 of perf's "\n\0" or pulse's "\n" after an ack
drain() { timeout 0.2 cat <&7 >/dev/null || true; }

# window TOOL OUT: -D -1, enable at 0.3 s, disable at 0.9 s (the burst at
# 0.6 s only), ping; the tool's stderr in OUT
window() {
	rm -f ctl ack && mkfifo ctl ack && exec 7<>ack || return 1
	$1 stat --control fifo:ctl,ack -D -1 -x, -e $TP -- $WL/burst 1000 3 --gap-ms 600 \
		2>"$2" & local p=$!; track_bg $p
	sleep 0.3; echo enable >ctl; ack || return 1; drain
	sleep 0.6; echo disable >ctl; ack || return 1; drain
	echo ping >ctl; ack || return 1
	wait_exit $p 20 || return 1
	exec 7>&-
}

test_expect_success TRACEFS '--control fifo:ctl,ack with -D -1: counts only while enabled, acks each' '
	window "$PULSE" err &&
	expect_eq "$(grep -c "^Events disabled$" err)" 2 &&
	expect_eq "$(grep -c "^Events enabled$" err)" 1 &&
	expect_eq "$(grep -v "^Events" err | cut -d, -f1)" 1000 &&
	expect_eq "$(head -1 err)" "Events disabled"
'

test_expect_success PERF,TRACEFS 'perf 6.1 the same: the same count and lines' '
	window "$PULSE" err && window "perf" perr &&
	grep "^Events" err >ev && grep "^Events" perr >pev && test_cmp pev ev &&
	expect_eq "$(grep -v "^Events" perr | cut -d, -f1)" 1000
'

test_expect_success TRACEFS '--control fd:ctl,ack: disable then enable skips one burst; unknown commands are not acked' '
	rm -f ctl ack && mkfifo ctl ack && exec 8<>ctl 7<>ack
	"$PULSE" stat --control fd:8,7 -x, -e $TP -- $WL/burst 1000 3 --gap-ms 600 2>err &
	p=$!; track_bg $p
	sleep 0.3; echo disable >&8; ack; drain
	echo no-such-command >&8
	sleep 0.6; echo enable >&8; ack; drain
	wait_exit $p 20 &&
	expect_eq "$(timeout 0.3 cat <&7 | wc -c)" 0 &&
	exec 7>&- 8>&- &&
	expect_eq "$(grep -v "^Events" err | cut -d, -f1)" 2000 &&
	expect_eq "$(grep "^Events" err | tr "\n" " ")" "Events disabled Events enabled "
'

test_expect_success TRACEFS '-D -1 and no enable: <not counted>, as perf' '
	pulse stat -D -1 -x, -e $TP -- $WL/getppid 10 2>err &&
	grep -q "^<not counted>,,$TP" err &&
	expect_eq "$(head -1 err)" "Events disabled"
'

test_expect_success 'bad --control: one error line, exit 129 as perf' '
	for spec in bogus fd:abc fifo: fd:0,x fifo:/nonexistent/ctl; do
		expect_fail 129 err pulse stat --control "$spec" -e task-clock -- true &&
		one_error err "control" || return 1
	done
'

test_expect_success PERF 'perf 6.1 exits 129 for those too' '
	for spec in bogus fd:abc fifo: fifo:/nonexistent/ctl; do
		rc=0; perf stat --control "$spec" -e task-clock -- true 2>/dev/null || rc=$?
		expect_eq $rc 129 || return 1
	done
'

test_done
