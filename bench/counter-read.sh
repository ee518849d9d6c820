#!/bin/bash
# The counting library's read of one counter (bench/counter-read.c): ns per
# read through read(2) and through the mmap page, READS reads each way
# (default 1000000), RUNS runs (default 3), each line's median printed.
# On a machine without a PMU the page path of a real event falls back to
# read(2) (software events have index 0); the model line is the page
# reader itself on a page that allows it, rdpmc stubbed.
set -u
. "$(dirname "$0")/lib.sh"
bench_init counter-read
READS=${READS:-1000000}
EVENT=${EVENT:-task-clock}
bin=$BUILD/bench/counter-read
[ -x "$bin" ] || make -C "$top" --no-print-directory "$bin" >/dev/null || exit 1
work=$(mktemp -d /tmp/pulse-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$RUNS"); do
	"$bin" "$READS" "$EVENT" >"$work/run.$r" || exit 1
done
head -1 "$work/run.1" | sed "s/\$/, median of $RUNS runs/"
# each line: the label, then the median of its ns/read over the runs
n=$(wc -l <"$work/run.1")
for i in $(seq 2 "$n"); do
	line=$(sed -n "${i}p" "$work/run.1")
	med=$(for r in $(seq "$RUNS"); do sed -n "${i}p" "$work/run.$r"; done |
		awk '{for (f = 1; f <= NF; f++) if ($f == "ns/read") print $(f - 1)}' |
		sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
	# "  %-40s %8.1f ns/read ...": the number is at columns 44-51
	awk -v m="$med" '{print substr($0, 1, 43) sprintf("%8.1f", m) substr($0, 52)}' <<<"$line"
done
