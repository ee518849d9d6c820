#!/bin/bash
# pulse diff vs perf diff on two >= 1M-sample system-wide callchain files:
# bench/mkdata.sh's recording (built once and cached) against itself, the
# second path a symlink so that the tools open two files. RUNS alternating
# runs of each tool (page cache warm), the medians of wall time and peak
# RSS, the ratio pulse/perf (the goal: <= 0.2), and whether the outputs
# are the same. The CPU time (user + system) is printed too: on a machine
# others load, wall time says more about them than about the tools.
set -u
. "$(dirname "$0")/lib.sh"
bench_init diff
bench_need_perf
bench_need_time
bench_data
work=$(mktemp -d /tmp/pulse-bench-diff.XXXXXX)
trap 'rm -rf "$work"' EXIT
ln -s "$data" "$work/new.data"
old=$data new=$work/new.data

cat "$data" > /dev/null
echo "# diff: $data against itself, $(awk -v s="$(stat -c %s "$data")" 'BEGIN {printf "%.1f", s / 1e6}') MB each"
: > "$work/perf.t"; : > "$work/pulse.t"; : > "$work/perf.m"; : > "$work/pulse.m"
: > "$work/perf.c"; : > "$work/pulse.c"
for i in $(seq 1 "$RUNS"); do
	for tool in perf pulse; do
		if [ $tool = perf ]; then cmd=("$PERF" diff "$old" "$new"); else cmd=("$PULSE" diff "$old" "$new"); fi
		"$TIME" -f "%e %M %U %S" -o "$work/$tool.tm" "${cmd[@]}" > "$work/$tool.out" 2>/dev/null
		read -r t m u s < "$work/$tool.tm"
		echo "$t" >> "$work/$tool.t"; echo "$m" >> "$work/$tool.m"
		awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f\n", u + s}' >> "$work/$tool.c"
	done
done
tp=$(median < "$work/perf.t"); tu=$(median < "$work/pulse.t")
mp=$(median < "$work/perf.m"); mu=$(median < "$work/pulse.m")
cp=$(median < "$work/perf.c"); cu=$(median < "$work/pulse.c")
echo "# perf diff:  ${tp}s wall, ${cp}s CPU, $((mp / 1024)) MB peak RSS"
echo "# pulse diff: ${tu}s wall, ${cu}s CPU, $((mu / 1024)) MB peak RSS"
echo "diff: ratio pulse/perf wall $(ratio "$tu" "$tp") (goal <= 0.2), CPU $(ratio "$cu" "$cp"), RSS $(ratio "$mu" "$mp")"
if cmp -s "$work/perf.out" "$work/pulse.out"; then
	echo "# outputs: the same ($(wc -l < "$work/pulse.out") lines)"
else
	echo "# outputs differ: $(diff "$work/perf.out" "$work/pulse.out" | grep -c '^[<>]') lines"
fi
