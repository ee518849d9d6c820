#!/bin/bash
# pulse stat's cost while counting (issue 11): `stat -a -I 100` with the
# default events for SECS seconds (--interval-count), the counter's own CPU
# time (user + sys, bash's time), pulse against perf, RUNS runs each,
# alternating; medians and the ratio pulse/perf (goal: <= 0.5).
set -u
. "$(dirname "$0")/lib.sh"
bench_init stat-interval 1
SECS=${SECS:-10}
bench_need_perf
work=$(mktemp -d /tmp/pulse-bench-stat.XXXXXX)
trap 'rm -rf "$work"' EXIT

TIMEFORMAT='%U %S'

for ((i = 0; i < RUNS; i++)); do
	for tool in pulse perf; do
		if [ "$tool" = pulse ]; then cmd=("$PULSE" stat); else cmd=("$PERF" stat); fi
		{ time "${cmd[@]}" -a -I 100 --interval-count $((SECS * 10)) 2>/dev/null; } 2>"$work/t"
		awk '{printf "%.3f\n", $1 + $2}' "$work/t" >>"$work/$tool"
	done
done
p=$(median <"$work/pulse")
q=$(median <"$work/perf")
echo "stat-interval: stat -a -I 100 for ${SECS} s, default events, CPU seconds (median of $RUNS)"
printf "  pulse %8s\n  perf  %8s\n  ratio pulse/perf %s (goal <= 0.50)\n" "$p" "$q" \
	"$(ratio "$p" "$q" 2)"
