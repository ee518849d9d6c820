#!/bin/bash
# Builds, once, the report/script benchmark input: a system-wide recording
# with callchains (`perf record -a -g -F FREQ`) of a mixed workload that
# keeps both cores busy: gcc compiling some of pulse's own sources over and
# over, python3 in a CPU loop, xz and gzip compressing a generated file.
# The file is cached at build/bench/perf-mixed.data (out of git: build/ is
# ignored) and reused while its sample count is at least MIN_SAMPLES;
# FORCE=1 rebuilds it. Prints the path on stdout, the rest on stderr.
set -u
. "$(dirname "$0")/lib.sh"
bench_init mkdata
out=${BENCH_DATA:-$top/build/bench/perf-mixed.data}
FREQ=${FREQ:-25000}
SECS=${SECS:-30}
MIN_SAMPLES=${MIN_SAMPLES:-1000000}

if [ -z "${FORCE:-}" ] && [ -s "$out" ]; then
	n=$(bench_samples "$out")
	if [ "${n:-0}" -ge "$MIN_SAMPLES" ]; then
		echo "# cached $out: $n samples" >&2
		echo "$out"
		exit 0
	fi
fi
[ -x "$PERF" ] || { echo "mkdata: $PERF not found" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
work=$(mktemp -d /tmp/pulse-mkdata.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# the compressor's input: compressible but not trivial
head -c 24000000 /dev/urandom | base64 > "$work/blob"

stop=$((SECONDS + SECS + 2))
( while [ $SECONDS -lt $stop ]; do
	for f in lib/data/reader.c lib/symbols/symtab.c lib/session/machine.c; do
		gcc -O2 -std=gnu11 -D_GNU_SOURCE -Iinclude -Ilib $(pkg-config --cflags libdw 2>/dev/null) \
			-c -o "$work/x.o" "$top/$f" 2>/dev/null
	done
  done ) & pids+=($!)
python3 -c '
import time
end = time.time() + '"$((SECS + 2))"'
d = {}
i = 0
while time.time() < end:
    for j in range(2000):
        d[j] = str(i * j)[::-1]
    i += 1
' & pids+=($!)
( while [ $SECONDS -lt $stop ]; do
	xz -6 -T1 -c "$work/blob" > /dev/null
	gzip -6 -c "$work/blob" > /dev/null
  done ) & pids+=($!)

sleep 1
echo "# recording: perf record -a -g -F $FREQ, ${SECS}s, gcc + python3 + xz/gzip" >&2
"$PERF" record -q -a -g -F "$FREQ" -m 1024 -o "$out.tmp" -- sleep "$SECS" 2>"$work/rec.err"
rc=$?
[ $rc -eq 0 ] || { cat "$work/rec.err" >&2; exit 1; }
mv "$out.tmp" "$out"
n=$(bench_samples "$out")
echo "# $out: ${n:-0} samples, $(stat -c %s "$out") bytes" >&2
[ "${n:-0}" -ge "$MIN_SAMPLES" ] || echo "mkdata: only ${n:-0} samples (< $MIN_SAMPLES): raise FREQ or SECS" >&2
echo "$out"
