#!/bin/bash
# The DWARF unwinder (lib/unwind) on perf-recorded --call-graph dwarf files:
# a C program through libc's qsort built without frame pointers, and
# /usr/bin/python3 (deeper stacks, more DSOs); recorded once with perf at
# -F 5000 and cached in $BUILD/bench/unwind-*.data. For each file: perf
# report --stdio's wall time (perf 6.1 unwinds with libunwind: the whole
# report, reading included), then tests/tools/pulse-unwind -q timing the
# unwinds alone (the file read and the stack copies kept in memory first):
# cold (the CFI opened and each pc's row found), warm (each sample unwound
# twice: the second from the row cache) and on 2 threads; unwinds per
# second and the unwind time as a share of perf report's.
set -u
. "$(dirname "$0")/lib.sh"
bench_init unwind
bench_need_perf
bench_need_time
UNW=$BUILD/tools/pulse-unwind
[ -x "$UNW" ] || { echo "# unwind: $UNW not built (make build-tests): skipping"; exit 0; }
dir=$BUILD/bench
mkdir -p "$dir"
work=$(mktemp -d /tmp/pulse-bench-unwind.XXXXXX)
trap 'rm -rf "$work"' EXIT

# record NAME CMD...: $dir/unwind-NAME.data, unless already there
record() {
	local out=$dir/unwind-$1.data
	shift
	[ -s "$out" ] && return 0
	"$PERF" record -q -F 5000 -e cpu-clock:u --call-graph dwarf -o "$out" "$@" >/dev/null 2>&1 ||
		{ echo "# unwind: perf record failed for $out"; rm -f "$out"; return 1; }
}

gcc -O1 -g -fomit-frame-pointer -fno-inline -o "$dir/unwind-qsort" "$top/tests/workloads/unwind-qsort.c" &&
	record qsort "$dir/unwind-qsort" 1200
cat >"$work/py.py" <<'PY'
import json, re, time
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
t = time.time()
while time.time() - t < 12:
    fib(20); json.dumps([list(range(200))] * 200); sorted(range(50000), key=lambda x: -x); re.findall(r'\w+', 'ab cd ' * 5000)
PY
[ -x /usr/bin/python3 ] && record python /usr/bin/python3 "$work/py.py"

printf '%-8s %8s %8s %10s %10s %10s %10s %8s\n' file samples MB perf_s cold_u/s warm_u/s 2thr_u/s share
for name in qsort python; do
	f=$dir/unwind-$name.data
	[ -s "$f" ] || continue
	: >"$work/perf.t"; : >"$work/cold"; : >"$work/warm"; : >"$work/thr"
	for i in $(seq 1 "$RUNS"); do
		bench_timed "$work/perf.t" "$PERF" report -i "$f" --stdio
		"$UNW" -q "$f" 2>&1 | awk '{print $6, $8}' >>"$work/cold"
		"$UNW" -q -n "$f" 2>&1 | awk '{print $8}' >>"$work/warm"
		"$UNW" -q -t 2 "$f" 2>&1 | awk '{print $8}' >>"$work/thr"
	done
	n=$("$UNW" -q "$f" 2>&1 | awk '{print $2}')
	tperf=$(median <"$work/perf.t")
	tcold=$(awk '{print $1}' "$work/cold" | median)
	printf '%-8s %8s %8s %10s %10s %10s %10s %8s\n' "$name" "$n" \
		"$(awk -v s="$(stat -c %s "$f")" 'BEGIN {printf "%.0f", s / 1e6}')" "$tperf" \
		"$(awk '{print $2}' "$work/cold" | median)" "$(median <"$work/warm")" \
		"$(median <"$work/thr")" "$(ratio "$tcold" "$tperf")"
done
echo "# share: the cold unwind time of every sample / perf report --stdio's wall time"
