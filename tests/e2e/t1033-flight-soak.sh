#!/bin/bash
# A soak: the flight recorder armed for 60 s (PULSE_SOAK_SECS) over a churn
# of thousands of short-lived processes keeps its memory bounded (RSS stops
# growing: at the end within 4 MiB of RSS half-way, and within the side-band
# state's cap, 8 MiB at -M 16M, plus 4 MiB of RSS after the first 10 s: how
# soon the state fills depends on how fast the machine forks) and a snapshot still names
# the last of them (their samples sorted by time, the last 1000 all named). Sanitizer builds run it for 15 s and do not hold their
# RSS to the bound (ASan keeps freed memory in quarantine).
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
SECS=${PULSE_SOAK_SECS:-60}
san=
if pulse_sanitized; then
	san=1
	SECS=15
fi
rss() { awk '/^VmRSS:/ { print $2 }' /proc/$1/status; }

test_expect_success PERF,TRACEFS "armed ${SECS} s over a process churn: bounded memory, the last kids named" '
	"$PULSE" record -a -M 16M --switch-output -e $TP -o soak.data 2>err &
	rp=$!; track_bg $rp
	wait_for "grep -q . /proc/$rp/maps 2>/dev/null" 10
	sleep 1
	$WL/churn $SECS last &
	wl=$!; track_bg $wl
	sleep 10
	rss10=$(rss $rp)
	sleep $((SECS / 2 > 10 ? SECS / 2 - 10 : 0))
	rss_half=$(rss $rp)
	wait $wl
	rss_end=$(rss $rp)
	kill -USR2 $rp
	wait_for "grep -q Dump err" 30
	kill -INT $rp; wait_exit $rp 30 || true
	kids=$(sed -n 2p last)
	echo "kids: $kids, RSS after 10 s: $rss10 kB, half-way: $rss_half kB, at the end: $rss_end kB"
	expect_gt "$kids" 1000 "kids started"
	if [ -z "$san" ]; then
		expect_gt $((rss_half + 4096)) "$rss_end" "RSS at the end (kB), against half-way" &&
		expect_gt $((rss10 + 8192 + 4096)) "$rss_end" "RSS at the end (kB), against 10 s"
	fi
	f=$(ls soak.data.2*)
	last=$(sed -n 1p last)
	perf_in $f script -F comm,event 2>/dev/null >script
	grep -q "^ *$last " script
	# the newest kids before it too: named, not :PID (the state is bounded:
	# kids whose names were dropped to stay within it are the oldest)
	tail -1000 script >newest
	expect_eq "$(grep -c "^ *kid[0-9]* " newest)" 1000
'

test_done
