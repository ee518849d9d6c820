#!/bin/bash
# pulse stat's start-up cost against perf stat's (issue 11): the wall time
# of `stat -e task-clock -- true`, RUNS runs of each, alternating, medians
# and the ratio pulse/perf (goal: <= 0.5).
set -u
. "$(dirname "$0")/lib.sh"
bench_init stat-start 50
bench_need_perf
work=$(mktemp -d /tmp/pulse-bench-stat.XXXXXX)
trap 'rm -rf "$work"' EXIT

now() { echo "${EPOCHREALTIME/./}"; }	# microseconds

for ((i = 0; i < RUNS; i++)); do
	for tool in pulse perf; do
		if [ "$tool" = pulse ]; then cmd=("$PULSE" stat); else cmd=("$PERF" stat); fi
		t0=$(now)
		"${cmd[@]}" -e task-clock -- true 2>/dev/null
		t1=$(now)
		echo $((t1 - t0)) >>"$work/$tool"
	done
done
p=$(median <"$work/pulse")
q=$(median <"$work/perf")
echo "stat-start: stat -e task-clock -- true, median of $RUNS runs (us)"
printf "  pulse %8s\n  perf  %8s\n  ratio pulse/perf %s (goal <= 0.50)\n" "$p" "$q" \
	"$(ratio "$p" "$q" 2)"
