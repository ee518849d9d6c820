#!/bin/bash
# pulse script --itrace=b vs perf script --itrace=b on a large synthetic
# Intel PT recording (tests/tools/pulse-mkpt, ITERS iterations of pt-loop;
# 300000: 2.4 MB of trace, 2.25 million branches): RUNS alternating runs
# each, output to /dev/null, wall time and peak RSS from /usr/bin/time,
# medians and the ratio pulse/perf (goal <= 0.5); then one run of each to
# a file and a line-by-line comparison.
set -u
. "$(dirname "$0")/lib.sh"
bench_init pt-script
ITERS=${ITERS:-300000}
ITRACE=${ITRACE:-b}
bench_need_perf
bench_need_time
make -C "$top" --no-print-directory "$BUILD/tools/pulse-mkpt" "$BUILD/workloads/pt-loop" \
	>/dev/null || exit 1
work=$(mktemp -d /tmp/pulse-bench-pt.XXXXXX)
trap 'rm -rf "$work"' EXIT
data=$work/pt.data
"$BUILD/tools/pulse-mkpt" -n "$ITERS" "$data" "$BUILD/workloads/pt-loop" || exit 1

echo "# pt-script: pulse-mkpt -n $ITERS, $(stat -c %s "$data") bytes; --itrace=$ITRACE"
printf '%-6s %4s %8s %10s\n' tool run wall_s peak_kB
: > "$work/pulse.t"; : > "$work/perf.t"
for i in $(seq 1 "$RUNS"); do
	for tool in perf pulse; do
		if [ $tool = perf ]; then cmd=("$PERF" script); else cmd=("$PULSE" script); fi
		$TIME -f '%e %M' -o "$work/time" "${cmd[@]}" -i "$data" --itrace="$ITRACE" \
			> /dev/null 2> "$work/$tool.err"
		rc=$?
		read -r t m < <(tail -1 "$work/time")
		[ $rc -eq 0 ] || { echo "# $tool failed ($rc):"; tail -3 "$work/$tool.err"; }
		printf '%-6s %4d %8s %10s\n' $tool "$i" "$t" "$m"
		echo "$t" >> "$work/$tool.t"
	done
done
tp=$(median < "$work/pulse.t"); tf=$(median < "$work/perf.t")
echo "# pt-script median: pulse ${tp}s, perf ${tf}s; time ratio $(ratio "$tp" "$tf") (goal <= 0.5)"
"$PERF" script -i "$data" --itrace="$ITRACE" > "$work/perf.out" 2>/dev/null
"$PULSE" script -i "$data" --itrace="$ITRACE" > "$work/pulse.out" 2>/dev/null
echo "# pt-script lines: perf $(wc -l < "$work/perf.out"), pulse $(wc -l < "$work/pulse.out")," \
	"$(cmp -s "$work/perf.out" "$work/pulse.out" && echo identical || echo DIFFERENT)"
