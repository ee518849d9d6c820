#!/bin/bash
# The flight recorder against perf's (issue 10), on the 2-million-call
# getppid storm, system wide, RUNS runs each, alternating:
#  - armed cost: the recorder's CPU time (all threads, /proc/PID/task/*/schedstat) over a
#    10 s armed window holding the storm, start-up included, with
#    `-a --overwrite --switch-output=signal -m 32M -e syscalls:sys_enter_getppid`;
#  - trigger latency: SIGUSR2 right after the storm until the snapshot file
#    is there under its final name; the storm fills the ring of the CPU it
#    runs on, and in "full" mode one storm per CPU fills every ring (two
#    CPUs: 64 MiB to write);
#  - depth: storm samples in that snapshot, perf's 32M x CPUs of kernel
#    rings against pulse's -M 64M (DEPTH_MEM).
# Prints each run, the medians and the ratios pulse/perf.
set -u
. "$(dirname "$0")/lib.sh"
bench_init flight
CALLS=${CALLS:-2000000}
WINDOW=${WINDOW:-10}
DEPTH_MEM=${DEPTH_MEM:-64M}
WL=$BUILD/workloads/getppid
TP=syscalls:sys_enter_getppid
bench_need_perf
work=$(mktemp -d /tmp/pulse-bench-flight.XXXXXX)
trap 'kill $rec 2>/dev/null; rm -rf "$work"' EXIT
rec=

# CPU time of every thread so far, in ns from schedstat (stat's ticks are 10 ms)
cpu_of() { cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{n += $1} END {printf "%.3f", n / 1e9}'; }
now() { echo "${EPOCHREALTIME/./}"; }	# microseconds

# one run: tool mode -> "cpu latency_ms samples"
run_one() {
	local tool=$1 mode=$2 out=$work/$tool-$mode t0 t1 cpu lat n start
	local -a cmd
	rm -rf "$out"; mkdir "$out"
	if [ "$tool" = pulse ]; then cmd=("$PULSE" record); else cmd=("$PERF" record); fi
	if [ "$mode" = armed ] || [ "$mode" = full ]; then
		cmd+=(-q -a --overwrite --switch-output=signal -m 32M)
	elif [ "$tool" = pulse ]; then
		cmd+=(-q -a -M "$DEPTH_MEM" --switch-output)
	else
		cmd+=(-q -a --overwrite --switch-output=signal -m 32M)
	fi
	start=$(now)
	"${cmd[@]}" -e $TP -o "$out/f.data" 2>"$out/err" & rec=$!
	sleep 1
	if [ "$mode" = full ]; then
		local -a storms=()
		for c in $(seq 0 $(($(nproc) - 1))); do
			taskset -c "$c" "$WL" "$CALLS" & storms+=($!)
		done
		wait "${storms[@]}"
	else
		"$WL" "$CALLS"
	fi
	if [ "$mode" = armed ]; then
		# the rest of the window, then the recorder's CPU so far
		sleep "$(awk -v s="$start" -v n="$(now)" -v w="$WINDOW" 'BEGIN {d = w - (n - s) / 1e6; print (d > 0) ? d : 0}')"
		cpu=$(cpu_of $rec)
	else
		cpu=0
	fi
	t0=$(now)
	kill -USR2 $rec
	until compgen -G "$out/f.data.2*[0-9]" >/dev/null; do :; done
	t1=$(now)
	sleep 0.5
	kill -INT $rec; wait $rec 2>/dev/null; rec=
	lat=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b - a) / 1000}')
	n=$("$PERF" script -i "$(ls "$out"/f.data.2* | head -1)" -F event 2>/dev/null | grep -c "$TP")
	echo "$cpu $lat $n"
}

printf "# flight recorder, %s getppid calls, system wide, %s runs (CPU: %s s window)\n" \
	"$CALLS" "$RUNS" "$WINDOW"
for mode in armed full depth; do
	: >"$work/pulse.$mode"; : >"$work/perf.$mode"
	for i in $(seq 1 "$RUNS"); do
		for tool in perf pulse; do
			r=$(run_one $tool $mode)
			echo "$r" >>"$work/$tool.$mode"
			printf "%-6s %-6s run %d: cpu %s s, trigger->file %s ms, samples %s\n" \
				$mode $tool $i $r
		done
	done
done
pc=$(cut -d' ' -f1 "$work/perf.armed" | median); uc=$(cut -d' ' -f1 "$work/pulse.armed" | median)
pl=$(cut -d' ' -f2 "$work/perf.armed" | median); ul=$(cut -d' ' -f2 "$work/pulse.armed" | median)
pd=$(cut -d' ' -f3 "$work/perf.depth" | median); ud=$(cut -d' ' -f3 "$work/pulse.depth" | median)
echo "armed CPU (median):       perf $pc s, pulse $uc s, ratio $(ratio "$uc" "$pc" 2)"
fl=$(cut -d' ' -f2 "$work/perf.full" | median); ufl=$(cut -d' ' -f2 "$work/pulse.full" | median)
echo "trigger latency (median): perf $pl ms, pulse $ul ms, ratio $(ratio "$ul" "$pl" 2)"
echo "  every ring full:        perf $fl ms, pulse $ufl ms, ratio $(ratio "$ufl" "$fl" 2)"
echo "depth (median samples):   perf $pd (-m 32M kernel rings), pulse $ud (-M $DEPTH_MEM), ratio $(ratio "$ud" "$pd" 2)"
