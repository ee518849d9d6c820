#!/bin/bash
# Inline frames: what perf 6.1 pays for them and what pulse pays. perf
# finds them with an `addr2line -i -f` subprocess per DSO, one address at
# a time, for the frames a DWARF unwinder finds; pulse reads the DWARF with
# libdw, once per compile unit (lib/symbols/inline.c). Until pulse unwinds
# DWARF itself, the comparison is on the addresses: a `perf record
# --call-graph dwarf` of python3, perf report --inline less --no-inline
# (perf's inline cost), against pulse finding the inline frames of every
# distinct user address of that file (tests/tools/pulse-inlines, the
# machine's expand pass, one process per DSO). Medians of RUNS runs.
set -u
. "$(dirname "$0")/lib.sh"
bench_init inline
bench_need_perf
TOOL=$BUILD/tools/pulse-inlines
[ -x "$TOOL" ] || { echo "# inline: $TOOL not built (make build-tests): skipping"; exit 0; }
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "# inline: no $PY: skipping"; exit 0; }
work=$(mktemp -d /tmp/pulse-bench-inline.XXXXXX)
trap 'rm -rf "$work"' EXIT

"$PERF" record -q --call-graph dwarf -o "$work/dw.data" -- "$PY" -c 'sum(range(30000000)); import json; json.dumps(list(range(300000)))' \
	>/dev/null 2>&1 || { echo "# inline: perf record --call-graph dwarf failed: skipping"; exit 0; }
# the distinct user addresses, per DSO ("addr (dso)" lines of every frame)
"$PERF" script -i "$work/dw.data" --no-inline -F ip,dso 2>/dev/null |
	awk 'NF == 2 && $2 ~ /^\(\// {gsub(/[()]/, "", $2); print $2, $1}' | sort -u >"$work/addrs"
nr=$(wc -l <"$work/addrs")
echo "# inline: $("$PERF" report -i "$work/dw.data" --stats 2>/dev/null |
	awk '$1 == "SAMPLE" {print $3; exit}') samples, $nr distinct user addresses," \
	"$(cut -d' ' -f1 "$work/addrs" | sort -u | wc -l) DSOs"

pulse_all() { # [--no-inline]
	for d in $(cut -d' ' -f1 "$work/addrs" | sort -u); do
		"$TOOL" "$@" "$d" $(awk -v d="$d" '$1 == d {print $2}' "$work/addrs") || return 1
	done
}

: >"$work/in.t"; : >"$work/noin.t"; : >"$work/pulse.t"; : >"$work/pulse-no.t"
for i in $(seq 1 "$RUNS"); do
	bench_timed "$work/in.t" "$PERF" report -i "$work/dw.data" --stdio --inline
	bench_timed "$work/noin.t" "$PERF" report -i "$work/dw.data" --stdio --no-inline
	bench_timed "$work/pulse.t" pulse_all
	bench_timed "$work/pulse-no.t" pulse_all --no-inline
done
tin=$(median <"$work/in.t"); tno=$(median <"$work/noin.t")
tp=$(median <"$work/pulse.t"); tpno=$(median <"$work/pulse-no.t")
cost=$(awk -v a="$tin" -v b="$tno" 'BEGIN {printf "%.3f", a - b}')
pcost=$(awk -v a="$tp" -v b="$tpno" 'BEGIN {printf "%.3f", a - b}')
frames=$(pulse_all | wc -l)
echo "perf report --inline:         ${tin}s"
echo "perf report --no-inline:      ${tno}s"
echo "perf's inline cost:           ${cost}s"
echo "pulse, the same addresses:    ${tp}s ($frames frames), --no-inline ${tpno}s"
echo "pulse's inline cost:          ${pcost}s"
echo "pulse/perf inline cost:       $(ratio "$pcost" "$cost")"
