#!/bin/bash
# pulse script vs perf script on the two --call-graph dwarf files of
# bench/mkdata-dwarf.sh (a C program and python3 without frame pointers,
# >= 50K samples each, recorded by perf): both unwind every sample. For
# each file, RUNS alternating fresh runs of each, output to /dev/null, wall
# time and peak RSS from /usr/bin/time, the medians and the ratio
# pulse/perf (goal <= 0.2); then one run of each to a file, compared line
# by line by position. A pulse that does not unwind yet says so ("not
# unwound") and its figures are marked as not comparable.
set -u
. "$(dirname "$0")/lib.sh"
bench_init dwarf-script
bench_need_perf
bench_need_time
files=$("$top/bench/mkdata-dwarf.sh") || exit 1
work=$(mktemp -d /tmp/pulse-bench-dwarf-script.XXXXXX)
trap 'rm -rf "$work"' EXIT

for data in $files; do
	size=$(stat -c %s "$data")
	cat "$data" > /dev/null
	echo "# dwarf-script: $data, $(awk -v s="$size" 'BEGIN {printf "%.1f", s / 1e6}') MB," \
		"$(bench_samples "$data") samples"
	printf '%-6s %4s %8s %10s\n' tool run wall_s peak_kB
	: > "$work/pulse.t"; : > "$work/perf.t"; : > "$work/pulse.m"; : > "$work/perf.m"
	for i in $(seq 1 "$RUNS"); do
		for tool in perf pulse; do
			if [ $tool = perf ]; then cmd=("$PERF" script); else cmd=("$PULSE" script); fi
			$TIME -f '%e %M' -o "$work/time" "${cmd[@]}" -i "$data" > /dev/null 2> "$work/$tool.err"
			rc=$?
			read -r t m < <(tail -1 "$work/time")
			[ $rc -eq 0 ] || { echo "# $tool failed ($rc):"; tail -3 "$work/$tool.err"; }
			printf '%-6s %4d %8s %10s\n' $tool "$i" "$t" "$m"
			echo "$t" >> "$work/$tool.t"; echo "$m" >> "$work/$tool.m"
		done
	done
	note=""
	grep -q "not unwound" "$work/pulse.err" &&
		note=" (pulse does not unwind yet: not comparable)"
	tp=$(median < "$work/pulse.t"); tf=$(median < "$work/perf.t")
	mp=$(median < "$work/pulse.m"); mf=$(median < "$work/perf.m")
	echo "# median: pulse ${tp}s ${mp} kB, perf ${tf}s ${mf} kB;" \
		"time ratio $(ratio "$tp" "$tf") (goal <= 0.2), RSS ratio $(ratio "$mp" "$mf")$note"
	"$PERF" script -i "$data" > "$work/perf.out" 2>/dev/null
	"$PULSE" script -i "$data" > "$work/pulse.out" 2>/dev/null
	# \001 joins the two lines: paste -d would read "\0" as "no delimiter"
	paste -d $'\x01' "$work/perf.out" "$work/pulse.out" |
		awk -F $'\x01' '{n++; if ($1 != $2) {d++; if (d <= 3) print "#   line " n ": perf: " $1 "\n#   line " n ": pulse: " $2}}
			END {print "# script lines: " n + 0 ", differing by position " d + 0}'
done
