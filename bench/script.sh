#!/bin/bash
# pulse script vs perf script on the bench/mkdata.sh recording: RUNS
# alternating fresh runs each, output to /dev/null, wall time and peak RSS
# from /usr/bin/time, medians, the ratio pulse/perf (goal <= 0.2) and MB/s
# of the input next to `cat FILE > /dev/null`; then one run of each to a
# file and a line-by-line comparison by position.
set -u
. "$(dirname "$0")/lib.sh"
bench_init script
bench_need_perf
bench_need_time
if ! "$PULSE" script -i "$top/tests/data/perf-cpuclock.data" > /dev/null 2>&1; then
	echo "# script: 'pulse script' is not available yet: skipping"
	exit 0
fi
bench_data
work=$(mktemp -d /tmp/pulse-bench-script.XXXXXX)
trap 'rm -rf "$work"' EXIT
size=$(stat -c %s "$data")

mbps() { awk -v s="$size" -v t="$1" 'BEGIN {printf "%.0f", (t > 0) ? s / 1e6 / t : 0}'; }

cat "$data" > /dev/null
: > "$work/cat.t"
for i in $(seq 1 "$RUNS"); do bench_timed "$work/cat.t" cat "$data"; done
tcat=$(median < "$work/cat.t")
echo "# script: $data, $(awk -v s="$size" 'BEGIN {printf "%.1f", s / 1e6}') MB;" \
	"cat FILE > /dev/null: ${tcat}s, $(mbps "$tcat") MB/s"
printf '%-6s %4s %8s %10s %7s\n' tool run wall_s peak_kB MB/s
: > "$work/pulse.t"; : > "$work/perf.t"; : > "$work/pulse.m"; : > "$work/perf.m"
for i in $(seq 1 "$RUNS"); do
	for tool in perf pulse; do
		if [ $tool = perf ]; then cmd=("$PERF" script); else cmd=("$PULSE" script); fi
		$TIME -f '%e %M' -o "$work/time" "${cmd[@]}" -i "$data" > /dev/null 2> "$work/$tool.err"
		rc=$?
		read -r t m < <(tail -1 "$work/time")
		[ $rc -eq 0 ] || { echo "# $tool failed ($rc):"; tail -3 "$work/$tool.err"; }
		printf '%-6s %4d %8s %10s %7s\n' $tool "$i" "$t" "$m" "$(mbps "$t")"
		echo "$t" >> "$work/$tool.t"; echo "$m" >> "$work/$tool.m"
	done
done
tp=$(median < "$work/pulse.t"); tf=$(median < "$work/perf.t")
mp=$(median < "$work/pulse.m"); mf=$(median < "$work/perf.m")
echo "# script median: pulse ${tp}s $(mbps "$tp") MB/s ${mp} kB, perf ${tf}s $(mbps "$tf") MB/s ${mf} kB;" \
	"time ratio $(ratio "$tp" "$tf") (goal <= 0.2), RSS ratio $(ratio "$mp" "$mf"), cat $(mbps "$tcat") MB/s"
"$PERF" script -i "$data" > "$work/perf.out" 2>/dev/null
"$PULSE" script -i "$data" > "$work/pulse.out" 2>/dev/null
# \001 joins the two lines: paste -d would read "\0" as "no delimiter"
paste -d $'\x01' "$work/perf.out" "$work/pulse.out" |
	awk -F $'\x01' '{n++; if ($1 != $2) {d++; if (d <= 5) print "#   line " n ": perf: " $1 "\n#   line " n ": pulse: " $2}}
		END {print "# script lines: " n + 0 ", differing by position " d + 0}'
