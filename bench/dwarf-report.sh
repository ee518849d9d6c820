#!/bin/bash
# pulse report --stdio vs perf report --stdio on the two --call-graph dwarf
# files of bench/mkdata-dwarf.sh (a C program and python3, built without
# frame pointers, each >= 50K samples, recorded by perf): both tools
# unwind every sample. For each file, RUNS alternating fresh runs of each
# (page cache warm: the file is read once before), wall time and peak RSS
# from /usr/bin/time, the medians and the ratios pulse/perf against the
# issue's goals (time <= 0.1, RSS <= 0.5), then the top-level rows of the
# two outputs compared by position. A pulse that does not unwind yet says
# so ("not unwound") and its figures are marked as not comparable.
set -u
. "$(dirname "$0")/lib.sh"
bench_init dwarf-report
bench_need_perf
bench_need_time
files=$("$top/bench/mkdata-dwarf.sh") || exit 1
work=$(mktemp -d /tmp/pulse-bench-dwarf-report.XXXXXX)
trap 'rm -rf "$work"' EXIT

rows() { grep -E '^ +[0-9]+\.[0-9]+%' "$1"; }

for data in $files; do
	size=$(stat -c %s "$data")
	cat "$data" > /dev/null
	echo "# dwarf-report: $data, $(awk -v s="$size" 'BEGIN {printf "%.1f", s / 1e6}') MB," \
		"$(bench_samples "$data") samples"
	printf '%-6s %4s %8s %10s\n' tool run wall_s peak_kB
	: > "$work/pulse.t"; : > "$work/perf.t"; : > "$work/pulse.m"; : > "$work/perf.m"
	for i in $(seq 1 "$RUNS"); do
		for tool in perf pulse; do
			if [ $tool = perf ]; then cmd=("$PERF" report); else cmd=("$PULSE" report); fi
			$TIME -f '%e %M' -o "$work/time" "${cmd[@]}" -i "$data" --stdio \
				> "$work/$tool.out" 2> "$work/$tool.err"
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
		"time ratio $(ratio "$tp" "$tf") (goal <= 0.1), RSS ratio $(ratio "$mp" "$mf") (goal <= 0.5)$note"
	rows "$work/perf.out" > "$work/perf.rows"
	rows "$work/pulse.out" > "$work/pulse.rows"
	paste -d $'\x01' "$work/perf.rows" "$work/pulse.rows" |
		awk -F $'\x01' '{n++; if ($1 != $2) d++} END {print "# rows: " n + 0 ", differing by position " d + 0}'
	diff "$work/perf.rows" "$work/pulse.rows" | head -${DIFF_LINES:-6} | sed 's/^/#   /'
done
