#!/bin/bash
# pulse stat's start-up cost against perf stat's (issue 11): the wall time
# of `stat -e task-clock -- true`, RUNS runs of each, alternating, medians
# and the ratio pulse/perf (goal: <= 0.5).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
RUNS=${RUNS:-50}
PULSE=$BUILD/pulse
command -v perf >/dev/null || { echo "# stat-start: perf not installed: skipping"; exit 0; }
work=$(mktemp -d /tmp/pulse-bench-stat.XXXXXX)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
now() { echo "${EPOCHREALTIME/./}"; }	# microseconds

for ((i = 0; i < RUNS; i++)); do
	for tool in pulse perf; do
		if [ "$tool" = pulse ]; then cmd=("$PULSE" stat); else cmd=(perf stat); fi
		t0=$(now)
		"${cmd[@]}" -e task-clock -- true 2>/dev/null
		t1=$(now)
		echo $((t1 - t0)) >>"$work/$tool"
	done
done
p=$(median <"$work/pulse")
q=$(median <"$work/perf")
echo "stat-start: stat -e task-clock -- true, median of $RUNS runs (us)"
printf "  pulse %8s\n  perf  %8s\n  ratio pulse/perf %.2f (goal <= 0.50)\n" "$p" "$q" \
	"$(awk -v a="$p" -v b="$q" 'BEGIN {print (b > 0) ? a / b : 0}')"
