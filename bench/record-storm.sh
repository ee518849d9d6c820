#!/bin/bash
# Tracepoint storm: 2 million getppid calls recorded system-wide with
# `-a -e syscalls:sys_enter_getppid`, the workload started separately (not
# the recorder's child). pulse record and perf record alternate, RUNS runs
# each, same -m. Prints per-run CPU time of the recorder process itself
# (user+sys), samples of the workload, lost events and file size, then the
# medians and the ratio pulse/perf.
set -u
. "$(dirname "$0")/lib.sh"
bench_init record-storm 5
CALLS=${CALLS:-2000000}
PAGES=${PAGES:-256}
WL=$BUILD/workloads/getppid
bench_need_perf
work=$(mktemp -d /tmp/pulse-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/cputime" "$top/bench/cputime.c" || exit 1

run_one() { # tool out -> "cpu samples lost bytes"
	local tool=$1 out=$2 rec wpid
	local -a cmd
	if [ "$tool" = pulse ]; then cmd=("$PULSE" record); else cmd=("$PERF" record); fi
	"$work/cputime" "${cmd[@]}" -q -a -m "$PAGES" -e syscalls:sys_enter_getppid -o "$out" \
		3>"$work/cpu" 2>"$work/rec.err" &
	rec=$!
	sleep 1 # synthesis of existing tasks done, events enabled
	"$WL" "$CALLS" & wpid=$!
	wait $wpid
	sleep 0.3
	kill -INT $rec
	wait $rec
	local cpu samples lost size
	cpu=$(awk '{printf "%.3f", $1 + $2}' "$work/cpu")
	samples=$("$PERF" script -i "$out" -F pid 2>/dev/null | awk -v p=$wpid '$1 == p' | wc -l)
	lost=$("$PERF" report -i "$out" --stats 2>/dev/null | awk '/LOST events:/ {s += $3} END {print s + 0}')
	size=$(stat -c %s "$out")
	echo "$cpu $samples $lost $size"
}

echo "# record storm: $CALLS getppid calls, -a -e syscalls:sys_enter_getppid -m $PAGES, $RUNS runs each"
printf '%-6s %4s %9s %9s %6s %12s\n' tool run cpu_s samples lost bytes
: > "$work/pulse.cpu"; : > "$work/perf.cpu"
for i in $(seq 1 "$RUNS"); do
	for tool in pulse perf; do
		read -r cpu samples lost size < <(run_one $tool "$work/$tool.data")
		printf '%-6s %4d %9s %9s %6s %12s\n' $tool "$i" "$cpu" "$samples" "$lost" "$size"
		echo "$cpu" >> "$work/$tool.cpu"
		[ "$i" = 1 ] && [ "$tool" = pulse ] && "$PERF" evlist -v -i "$work/pulse.data" > "$work/pulse.evlist" 2>&1
		[ "$i" = 1 ] && [ "$tool" = perf ] && "$PERF" evlist -v -i "$work/perf.data" > "$work/perf.evlist" 2>&1
	done
done
mp=$(median < "$work/pulse.cpu"); mf=$(median < "$work/perf.cpu")
echo "# median recorder CPU: pulse ${mp}s, perf ${mf}s, ratio $(ratio "$mp" "$mf" 2)"
echo "# attrs (perf evlist -v), pulse then perf:"
sed 's/^/#   /' "$work/pulse.evlist" "$work/perf.evlist"
