#!/bin/bash
# pulse data convert vs perf data convert --to-json on the bench/mkdata.sh
# recording (>= 1 M samples with callchains): RUNS alternating fresh runs
# of each side, wall time, CPU time (user + sys: steadier on a shared
# machine) and peak RSS from /usr/bin/time, medians, and the ratios against perf's --to-json:
#   pulse --to-json   (the same bytes as perf's: checked once with cmp)
#   pulse --to-pprof  (issue 13's goal: <= 0.2 of perf's --to-json), timed
#                     only when this pulse has it; skipped otherwise
# Outputs go to a temporary directory next to the input (a GB each for
# JSON), removed after each run.
set -u
. "$(dirname "$0")/lib.sh"
bench_init data-convert
bench_need_perf
bench_need_time
small=$top/tests/data/perf-g.data
work=$(mktemp -d "${TMPDIR:-/tmp}/pulse-bench-convert.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! "$PULSE" data convert --to-json "$work/probe.json" -i "$small" > /dev/null 2>&1; then
	echo "# data-convert: 'pulse data convert --to-json' is not available yet: skipping"
	exit 0
fi
# the sides that run (cmd_of below says how)
sides=(perf-json pulse-json)
if "$PULSE" data convert --to-pprof "$work/probe.pb.gz" -i "$small" > /dev/null 2>&1; then
	sides+=(pulse-pprof)
else
	echo "# data-convert: 'pulse data convert --to-pprof' does not work in this build: not timed"
fi
bench_data
size=$(stat -c %s "$data")

# cmd_of SIDE OUT: cmd=(one conversion of $data into OUT)
cmd_of() {
	case $1 in
	perf-json) cmd=("$PERF" data convert -f --to-json "$2" -i "$data") ;;
	pulse-json) cmd=("$PULSE" data convert -f --to-json "$2" -i "$data") ;;
	pulse-pprof) cmd=("$PULSE" data convert -f --to-pprof "$2" -i "$data") ;;
	esac
}

echo "# data-convert: $data, $(awk -v s="$size" 'BEGIN {printf "%.1f", s / 1e6}') MB"
printf '%-12s %4s %8s %8s %10s %10s\n' side run wall_s cpu_s peak_kB out_MB
for s in "${sides[@]}"; do : > "$work/$s.t"; : > "$work/$s.c"; : > "$work/$s.m"; done
for i in $(seq 1 "$RUNS"); do
	for s in "${sides[@]}"; do
		out=$work/out.$s
		cmd_of "$s" "$out"
		$TIME -f '%e %M %U %S' -o "$work/time" "${cmd[@]}" > /dev/null 2> "$work/$s.err"
		rc=$?
		read -r t m u k < <(tail -1 "$work/time")
		c=$(awk -v u="$u" -v k="$k" 'BEGIN {printf "%.2f", u + k}')
		[ $rc -eq 0 ] || { echo "# $s failed ($rc):"; tail -3 "$work/$s.err"; }
		osz=$(stat -c %s "$out" 2>/dev/null || echo 0)
		printf '%-12s %4d %8s %8s %10s %10s\n' "$s" "$i" "$t" "$c" "$m" \
			"$(awk -v s="$osz" 'BEGIN {printf "%.1f", s / 1048576}')"
		echo "$t" >> "$work/$s.t"; echo "$c" >> "$work/$s.c"; echo "$m" >> "$work/$s.m"
		# the last run's JSON outputs stay for the comparison below
		if [ "$i" -lt "$RUNS" ] || [ "$s" = pulse-pprof ]; then rm -f "$out"; fi
	done
done
tf=$(median < "$work/perf-json.t"); cf=$(median < "$work/perf-json.c")
mf=$(median < "$work/perf-json.m")
for s in "${sides[@]}"; do
	[ "$s" = perf-json ] && continue
	t=$(median < "$work/$s.t"); c=$(median < "$work/$s.c"); m=$(median < "$work/$s.m")
	goal=""
	[ "$s" = pulse-pprof ] && goal=" (goal <= 0.2)"
	echo "# data-convert median: $s ${t}s (cpu ${c}s) ${m} kB, perf --to-json ${tf}s (cpu ${cf}s)" \
		"${mf} kB; time ratio $(ratio "$t" "$tf")$goal, cpu ratio $(ratio "$c" "$cf")," \
		"RSS ratio $(ratio "$m" "$mf")"
done
if cmp -s "$work/out.perf-json" "$work/out.pulse-json"; then
	echo "# data-convert: pulse's JSON is perf's, byte for byte"
else
	echo "# data-convert: pulse's JSON differs from perf's: $(cmp "$work/out.perf-json" "$work/out.pulse-json" 2>&1 | head -1)"
fi
