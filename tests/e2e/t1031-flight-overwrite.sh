#!/bin/bash
# The flight recorder's snapshots name what they hold: a process that
# started inside the window and exited before the trigger keeps its comm,
# DSOs and symbols (perf 6.1's overwrite snapshot shows it as ":PID
# [unknown]"), in overwrite mode (--overwrite, the kernel's rings) and deep
# mode (-M); and a snapshot taken in the middle of a tracepoint storm holds
# whole records only, read to the end by perf and pulse alike (a busy
# machine may lose events in the storm: perf's warning about them is fine).
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

# start_flight OUT ARGS...: a system-wide flight recorder in the background ($rp)
start_flight() {
	local out=$1; shift
	"$PULSE" record "$@" -a -o "$out" 2>flight.err &
	rp=$!
	track_bg $rp
	wait_for "grep -q . /proc/$rp/maps 2>/dev/null" 10
	sleep 1
}
# snap: SIGUSR2, and wait for the "Dump" line it brings
snap() {
	local n=$(grep -c "Dump" flight.err)
	kill -USR2 $rp
	wait_for "test \$(grep -c Dump flight.err) -gt $n" 20
}
stop_flight() { kill -INT $rp; wait_exit $rp 20 || true; }

for mode in "--overwrite -m 64" "-M 16M"; do
test_expect_success PERF "${mode%% *}: an exited process keeps its name, DSO and symbols in the snapshot" "
	rm -f ex.data.*
	start_flight ex.data $mode --switch-output -g -e cpu-clock
	\$WL/spin 400
	sleep 0.1
	snap
	stop_flight
	f=\$(ls ex.data.* | head -1)
	perf_ok \$f report --stdio --no-children --comm spin --sort comm,dso,sym >rep
	grep -qE '^ +[0-9.]+% +spin +\[\.\] spin_loop' rep
	not grep -q '\[unknown\]' rep
	pulse report -i \$f --stdio --no-children --comm spin --sort comm,dso,sym >prep
	grep -qE '^ +[0-9.]+% +spin +\[\.\] spin_loop' prep
"
done

for mode in "--overwrite -m 16" "-M 8M"; do
test_expect_success PERF,TRACEFS "${mode%% *}: snapshots in a storm hold whole records: perf and pulse read every one" "
	rm -f storm.data.*
	start_flight storm.data $mode --switch-output -e $TP
	\$WL/getppid 3000000 &
	wl=\$!
	sleep 0.3; snap; sleep 0.2; snap
	wait \$wl
	stop_flight
	for f in storm.data.*; do
		n=\$(count_samples \$f $TP) &&
		expect_gt \$n 500 samples &&
		perf_in \$f report --stdio >/dev/null 2>perr &&
		not grep -viE 'lost [0-9]+ chunks|Check IO|^Warning:|^ *\$' perr &&
		pulse report -i \$f -D >dump 2>derr && not grep -qiE 'damaged|corrupt|bad record' derr dump &&
		expect_eq \$(pulse script -i \$f -F event 2>/dev/null | grep -c .) \$n || return 1
	done
"
done

test_done
