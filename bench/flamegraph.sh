#!/bin/bash
# pulse flamegraph end to end against `perf script` alone, the first stage
# of every perf flame-graph pipeline (perf script | stackcollapse-perf.pl |
# flamegraph.pl), its output to /dev/null, on the >= 1M-sample callchain
# recording (bench/mkdata.sh builds and caches it). RUNS alternating runs
# of each (page cache warm: the file is read once before), the medians of
# wall time, the ratio pulse/perf (goal <= 0.1) and the SVG's size (goal
# <= 5 MB). The floor beside it: `pulse report -g none --no-children`, report's
# walk (read, parse, resolve the samples) without resolving callchains.
set -u
. "$(dirname "$0")/lib.sh"
bench_init flamegraph
bench_need_perf
bench_data
work=$(mktemp -d /tmp/pulse-bench-flame.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat "$data" >/dev/null
echo "# flamegraph: $data, $(awk -v s="$(stat -c %s "$data")" 'BEGIN {printf "%.1f", s / 1e6}') MB," \
	"$(bench_samples "$data") samples"
: >"$work/perf.t"; : >"$work/pulse.t"; : >"$work/floor.t"
for i in $(seq 1 "$RUNS"); do
	bench_timed "$work/perf.t" "$PERF" script -i "$data"
	bench_timed "$work/pulse.t" "$PULSE" flamegraph -q -i "$data" -o "$work/g.svg"
	bench_timed "$work/floor.t" "$PULSE" report -g none --no-children -q -i "$data"
done
tperf=$(median <"$work/perf.t")
tpulse=$(median <"$work/pulse.t")
tfloor=$(median <"$work/floor.t")
size=$(stat -c %s "$work/g.svg")
frames=$(grep -o '<g class="f">' "$work/g.svg" | wc -l)
echo "# perf script > /dev/null:    ${tperf}s"
echo "# pulse flamegraph (to SVG):  ${tpulse}s"
echo "# floor: pulse report -g none --no-children > /dev/null: ${tfloor}s"
echo "flamegraph ratio pulse/perf-script: $(ratio "$tpulse" "$tperf") (goal <= 0.1)"
echo "flamegraph floor ratio report-walk/perf-script: $(ratio "$tfloor" "$tperf")"
awk -v s="$size" -v f="$frames" 'BEGIN {printf "flamegraph svg: %.2f MB, %d frames (goal <= 5 MB)\n", s / 1e6, f}'
