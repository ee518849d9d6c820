#!/bin/bash
# pulse data convert --to-pprof against perf data convert --to-json on the
# >= 1M-sample callchain recording (bench/mkdata.sh builds and caches it):
# RUNS alternating runs of each (page cache warm), wall time from
# /usr/bin/time, the medians and the ratio pulse/perf (the goal: <= 0.2),
# with peak RSS and the output sizes.
set -u
. "$(dirname "$0")/lib.sh"
bench_init pprof
bench_need_perf
bench_need_time
bench_data
work=$(mktemp -d /tmp/pulse-bench-pprof.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat "$data" > /dev/null
for i in $(seq 1 "$RUNS"); do
	rm -f "$work/out.json" "$work/out.pb.gz"
	"$TIME" -f "%e %M" -o "$work/perf.$i" "$PERF" data convert --to-json "$work/out.json" \
		-i "$data" > /dev/null 2>&1
	"$TIME" -f "%e %M" -o "$work/pulse.$i" "$PULSE" data convert --to-pprof "$work/out.pb.gz" \
		-i "$data" > /dev/null 2>&1 || { echo "# pprof: pulse failed"; exit 1; }
done
tperf=$(cat "$work"/perf.* | awk '{print $1}' | median)
tpulse=$(cat "$work"/pulse.* | awk '{print $1}' | median)
rperf=$(cat "$work"/perf.* | awk '{print $2}' | median)
rpulse=$(cat "$work"/pulse.* | awk '{print $2}' | median)
echo "# pprof: $data, $(stat -c %s "$data") bytes, $RUNS runs, medians"
echo "perf data convert --to-json:   ${tperf}s, ${rperf} KB RSS, $(stat -c %s "$work/out.json") bytes out"
echo "pulse data convert --to-pprof: ${tpulse}s, ${rpulse} KB RSS, $(stat -c %s "$work/out.pb.gz") bytes out"
echo "ratio pulse/perf: $(ratio "$tpulse" "$tperf") (goal <= 0.2)"
