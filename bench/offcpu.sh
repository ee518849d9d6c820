#!/bin/bash
# Off-CPU recording cost: a pipe ping-pong (two processes passing a byte
# back and forth N times: 4 N context switches, each one a blocked read())
# recorded by `pulse record --off-cpu -g` (cpu-clock plus offcpu-time, made
# from a hidden sched_switch event whose records pulse consumes) and by
# `perf record -e sched:sched_switch -g` (the switches themselves, written
# to the file: what one records with perf 6.1 when its --off-cpu has no
# BPF). RUNS runs each, alternating. Prints per run the CPU time of the
# recorder process (user+sys, bench/cputime.c), the workload's wall time,
# lost events and the file size; then the medians and the ratios pulse/perf.
# The workload is started first and attached with -p (its forked partner is
# inherited), so that the recorder's CPU time is its own: a recorder's
# rusage would otherwise include its child's.
set -u
. "$(dirname "$0")/lib.sh"
bench_init offcpu
N=${N:-200000}
WL=$BUILD/workloads/offcpu
bench_need_perf
work=$(mktemp -d /tmp/pulse-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/cputime" "$top/bench/cputime.c" || exit 1
[ -x "$WL" ] || { echo "build the workloads first (make build-tests)"; exit 1; }

run_one() { # tool out -> "cpu wall lost bytes"
	local tool=$1 out=$2 t0 t1 wpid rec
	local -a cmd
	if [ "$tool" = pulse ]; then
		cmd=("$PULSE" record --off-cpu -g)
	else
		cmd=("$PERF" record -e sched:sched_switch -g)
	fi
	"$WL" pingpong "$N" 500 & wpid=$!
	"$work/cputime" "${cmd[@]}" -q -p $wpid -o "$out" 3>"$work/cpu" 2>"$work/rec.err" \
		>/dev/null & rec=$!
	sleep 0.5
	t0=$(date +%s.%N)
	wait $wpid
	t1=$(date +%s.%N)
	wait $rec
	local cpu lost size
	cpu=$(awk '{printf "%.3f", $1 + $2}' "$work/cpu")
	lost=$("$PERF" report -i "$out" --stats 2>/dev/null | awk '/LOST events:/ {s += $3} END {print s + 0}')
	size=$(stat -c %s "$out")
	echo "$cpu $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}') $lost $size"
}

echo "# off-CPU: pipe ping-pong of $N round trips; pulse record --off-cpu -g vs perf record -e sched:sched_switch -g; $RUNS runs each"
printf '%-6s %4s %8s %8s %6s %12s\n' tool run cpu_s wall_s lost bytes
for t in pulse perf; do : >"$work/$t.cpu"; : >"$work/$t.size"; : >"$work/$t.wall"; done
start=$(date +%s)
"$WL" pingpong "$N"
echo "# the workload alone: $(( $(date +%s) - start )) s (whole seconds)"
for i in $(seq 1 "$RUNS"); do
	for tool in pulse perf; do
		read -r cpu wall lost size < <(run_one $tool "$work/$tool.data")
		printf '%-6s %4d %8s %8s %6s %12s\n' $tool "$i" "$cpu" "$wall" "$lost" "$size"
		echo "$cpu" >>"$work/$tool.cpu"
		echo "$size" >>"$work/$tool.size"
		echo "$wall" >>"$work/$tool.wall"
	done
done
cp_=$(median <"$work/pulse.cpu"); cf=$(median <"$work/perf.cpu")
sp=$(median <"$work/pulse.size"); sf=$(median <"$work/perf.size")
wp=$(median <"$work/pulse.wall"); wf=$(median <"$work/perf.wall")
echo "# median recorder CPU: pulse ${cp_}s, perf ${cf}s, ratio $(ratio "$cp_" "$cf" 2)"
echo "# median file size: pulse $sp B, perf $sf B, ratio $(ratio "$sp" "$sf" 2)"
echo "# median workload wall time under the recorder (from 0.5 s after the start, roughly): pulse ${wp}s, perf ${wf}s"
echo "# offcpu-time samples in pulse's file: $("$PULSE" script -i "$work/pulse.data" -F event 2>/dev/null | grep -c offcpu-time)"
