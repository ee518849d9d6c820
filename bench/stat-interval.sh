#!/bin/bash
# pulse stat's cost while counting (issue 11): `stat -a -I 100` with the
# default events for SECS seconds (--interval-count), the counter's own CPU
# time (user + sys, bash's time), pulse against perf, RUNS runs each,
# alternating; medians and the ratio pulse/perf (goal: <= 0.5).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
RUNS=${RUNS:-1}
SECS=${SECS:-10}
PULSE=$BUILD/pulse
command -v perf >/dev/null || { echo "# stat-interval: perf not installed: skipping"; exit 0; }
work=$(mktemp -d /tmp/pulse-bench-stat.XXXXXX)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
TIMEFORMAT='%U %S'

for ((i = 0; i < RUNS; i++)); do
	for tool in pulse perf; do
		if [ "$tool" = pulse ]; then cmd=("$PULSE" stat); else cmd=(perf stat); fi
		{ time "${cmd[@]}" -a -I 100 --interval-count $((SECS * 10)) 2>/dev/null; } 2>"$work/t"
		awk '{printf "%.3f\n", $1 + $2}' "$work/t" >>"$work/$tool"
	done
done
p=$(median <"$work/pulse")
q=$(median <"$work/perf")
echo "stat-interval: stat -a -I 100 for ${SECS} s, default events, CPU seconds (median of $RUNS)"
printf "  pulse %8s\n  perf  %8s\n  ratio pulse/perf %.2f (goal <= 0.50)\n" "$p" "$q" \
	"$(awk -v a="$p" -v b="$q" 'BEGIN {print (b > 0) ? a / b : 0}')"
