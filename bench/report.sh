#!/bin/bash
# pulse report vs perf report on a >= 1M-sample system-wide callchain
# recording (bench/mkdata.sh builds and caches it). For each mode, RUNS
# alternating fresh runs of each tool (page cache warm for both: the file
# is read once before), wall time and peak RSS from /usr/bin/time, the
# medians, the ratios pulse/perf and the throughput in MB/s next to
# `cat FILE > /dev/null`, the read limit. Then the two outputs are diffed
# row by row: the top-level rows (those starting with a percentage) by
# position, and, in the callchain mode, every other line too.
#
# Modes: "children" is both tools' default (--stdio: children, callchains);
# "flat" is --stdio --no-children -g none. A pulse that does not take an
# option yet runs without it and the figures say so.
set -u
. "$(dirname "$0")/lib.sh"
bench_init report
MODES=${MODES:-"flat children"}
bench_need_perf
bench_need_time
bench_data
work=$(mktemp -d /tmp/pulse-bench-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
size=$(stat -c %s "$data")
mb=$(awk -v s="$size" 'BEGIN {printf "%.1f", s / 1e6}')

mbps() { awk -v s="$size" -v t="$1" 'BEGIN {printf "%.0f", (t > 0) ? s / 1e6 / t : 0}'; }

# the read limit: cat, page cache warm
cat "$data" > /dev/null
: > "$work/cat.t"
for i in $(seq 1 "$RUNS"); do bench_timed "$work/cat.t" cat "$data"; done
tcat=$(median < "$work/cat.t")
echo "# report: $data, $mb MB, $(bench_samples "$data") samples"
echo "# cat FILE > /dev/null: ${tcat}s, $(mbps "$tcat") MB/s"

# does pulse take these options? (probe on a small file)
pulse_args() { # perf's args -> the subset pulse takes, else fewer
	if "$PULSE" report -i "$top/tests/data/perf-g.data" --stdio "$@" > /dev/null 2>&1; then
		echo "$*"
	else
		echo ""
	fi
}

rows() { # report output -> its top-level rows (a percentage first)
	grep -E '^ +[0-9]+\.[0-9]+%' "$1"
}

positional_diff() { # a b -> "rows_a rows_b differing"
	awk 'NR == FNR {a[FNR] = $0; na = FNR; next}
	     {b[FNR] = $0; nb = FNR}
	     END {n = na > nb ? na : nb; d = 0
		  for (i = 1; i <= n; i++) if (a[i] != b[i]) d++
		  print na + 0, nb + 0, d}' "$1" "$2"
}

for mode in $MODES; do
	case $mode in
	flat) perf_opts="--no-children -g none" ;;
	children) perf_opts="" ;;
	*) echo "# unknown mode $mode"; continue ;;
	esac
	# shellcheck disable=SC2086
	pulse_opts=$(pulse_args $perf_opts)
	note=""
	[ "$pulse_opts" != "$perf_opts" ] && note=" (pulse does not take '$perf_opts' yet: ran without)"
	echo "# mode $mode: perf report --stdio $perf_opts | pulse report --stdio $pulse_opts$note"
	printf '%-6s %4s %8s %10s %7s\n' tool run wall_s peak_kB MB/s
	: > "$work/pulse.t"; : > "$work/perf.t"; : > "$work/pulse.m"; : > "$work/perf.m"
	for i in $(seq 1 "$RUNS"); do
		for tool in perf pulse; do
			if [ $tool = perf ]; then
				cmd=("$PERF" report); opts=$perf_opts
			else
				cmd=("$PULSE" report); opts=$pulse_opts
			fi
			# shellcheck disable=SC2086
			$TIME -f '%e %M' -o "$work/time" "${cmd[@]}" -i "$data" --stdio $opts \
				> "$work/$tool.$mode.out" 2> "$work/$tool.err"
			rc=$?
			read -r t m < <(tail -1 "$work/time")
			[ $rc -eq 0 ] || { echo "# $tool failed ($rc):"; tail -3 "$work/$tool.err"; }
			printf '%-6s %4d %8s %10s %7s\n' $tool "$i" "$t" "$m" "$(mbps "$t")"
			echo "$t" >> "$work/$tool.t"; echo "$m" >> "$work/$tool.m"
		done
	done
	tp=$(median < "$work/pulse.t"); tf=$(median < "$work/perf.t")
	mp=$(median < "$work/pulse.m"); mf=$(median < "$work/perf.m")
	echo "# $mode median: pulse ${tp}s $(mbps "$tp") MB/s ${mp} kB, perf ${tf}s $(mbps "$tf") MB/s ${mf} kB;" \
		"time ratio $(ratio "$tp" "$tf") (goal <= 0.1), RSS ratio $(ratio "$mp" "$mf") (goal <= 0.5)," \
		"cat $(mbps "$tcat") MB/s"
	rows "$work/perf.$mode.out" > "$work/perf.rows"
	rows "$work/pulse.$mode.out" > "$work/pulse.rows"
	read -r na nb nd < <(positional_diff "$work/perf.rows" "$work/pulse.rows")
	echo "# $mode rows: perf $na, pulse $nb, differing by position $nd"
	if [ "$nd" != 0 ]; then
		diff "$work/perf.rows" "$work/pulse.rows" | head -${DIFF_LINES:-10} | sed 's/^/#   /'
	fi
	if [ $mode = children ]; then
		grep -v '^#' "$work/perf.$mode.out" > "$work/perf.all"
		grep -v '^#' "$work/pulse.$mode.out" > "$work/pulse.all"
		read -r na nb nd < <(positional_diff "$work/perf.all" "$work/pulse.all")
		echo "# $mode all lines (rows and callchains): perf $na, pulse $nb, differing by position $nd"
	fi
done
