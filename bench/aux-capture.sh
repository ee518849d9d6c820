#!/bin/bash
# AUX area capture speed on the model PMU (no hardware here has Intel PT):
#  - bench/aux-capture.c: the consumer and the file output alone, MIB MiB
#    (default 512) from a 4 MiB area into a perf.data, against a memcpy
#    and a write(2) of the same pieces; RUNS runs (default 3), each printed;
#  - end to end: PULSE_AUX_MODEL=E2E_MIB (default 256M per CPU) pulse record
#    -e intel_pt// -m ,1024 on the fake intel_pt PMU: the AUX bytes in the
#    file over the wall time, the model PMU thread writing them meanwhile.
set -u
. "$(dirname "$0")/lib.sh"
bench_init aux-capture
MIB=${MIB:-512}
E2E_MIB=${E2E_MIB:-256}
bin=$BUILD/bench/aux-capture
[ -x "$bin" ] || make -C "$top" --no-print-directory BUILD="$BUILD" "$bin" >/dev/null || exit 1
work=$(mktemp -d /tmp/pulse-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$RUNS"); do
	echo "run $r:"
	"$bin" "$MIB" 4096 "$work" | sed 1d | tee -a "$work/runs" || exit 1
done
# the median of each line's MB/s over the runs, and the ratios of the medians
med() { grep -F "$1" "$work/runs" | awk '{print $(NF - 1)}' | sort -g |
	awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
cap=$(med "capture (") cpy=$(med "memcpy of") wr=$(med "write(2) of")
echo "medians of $RUNS runs: capture $cap MB/s, memcpy $cpy MB/s, write(2) $wr MB/s"
awk -v c="$cap" -v m="$cpy" -v w="$wr" \
	'BEGIN { printf "capture/memcpy %.3f, capture/write(2) %.2f\n", c / m, c / w }'
echo "end to end: pulse record -e intel_pt// -m ,1024 on the model PMU, ${E2E_MIB} MiB per CPU:"
for r in $(seq "$RUNS"); do
	t0=$(date +%s.%N)
	PULSE_TEST_SYSFS=$top/tests/data/sysfs-pt PULSE_AUX_MODEL=${E2E_MIB}M \
		"$PULSE" record -q -e intel_pt// -m ,1024 -o "$work/e2e.data" -- true || exit 1
	t1=$(date +%s.%N)
	size=$(stat -c %s "$work/e2e.data")
	awk -v s="$size" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "  %-44s %8.0f MB/s (%.0f MB in %.2f s)\n", "pulse record, file bytes / wall time", s / (b - a) / 1e6, s / 1e6, b - a }'
	rm -f "$work/e2e.data"
done
