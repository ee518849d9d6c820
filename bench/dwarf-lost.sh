#!/bin/bash
# Does the recorder keep up with --call-graph dwarf? Both CPUs are kept
# busy by two copies of the dwarf-rec workload (tests/workloads/dwarf-rec/,
# no frame pointers, so every sample copies 8 KiB of stack), and
# `record -a --call-graph dwarf -F 999 -- sleep DURATION` runs with pulse
# and with perf in turn, each with its own default ring size (MMAP=pages:
# the same -m for both), RUNS runs each. Prints per run the samples, the
# LOST records and the events they lost, the file size and what each
# tool's own summary said about losses, then the totals. Both files are
# counted by perf itself (perf script --show-lost-events), so the same
# reader judges both.
set -u
. "$(dirname "$0")/lib.sh"
bench_init dwarf-lost 3
bench_need_perf
DURATION=${DURATION:-10}
FREQ=${FREQ:-999}
MMAP=${MMAP:-}
work=$(mktemp -d /tmp/pulse-bench.XXXXXX)
trap 'kill $load1 $load2 2>/dev/null; rm -rf "$work"' EXIT
load1=; load2=
sh "$top/tests/workloads/dwarf-rec/build.sh" "$work/wl" || exit 1

# counts FILE -> "samples lost_records lost_events", perf's reading
# (-F event: no unwinding, seconds rather than minutes)
counts() {
	local s r e ls
	s=$(bench_samples "$1")
	read -r r e < <("$PERF" script -i "$1" -F event --show-lost-events 2>/dev/null |
		awk '/PERF_RECORD_LOST lost/ { r++; e += $NF } END { print r + 0, e + 0 }')
	echo "${s:-0} $r $e"
}

run_one() { # tool out -> prints one line
	local tool=$1 out=$2 said
	local -a cmd=("$PULSE" record)
	[ "$tool" = perf ] && cmd=("$PERF" record)
	[ -n "$MMAP" ] && cmd+=(-m "$MMAP")
	"${cmd[@]}" -a --call-graph dwarf -F "$FREQ" -o "$out" -- sleep "$DURATION" \
		>/dev/null 2>"$work/$tool.err"
	# what each said: perf's "Processed N samples and lost P%!", pulse's "Lost N events in M chunks"
	said=$(grep -iE "lost" "$work/$tool.err" | sed 's/^\[ [a-z]* record: //; s/ \]$//' | tr '\n' ';')
	read -r s r e < <(counts "$out")
	printf '%-6s %4d %8d %8d %10d %12d  %s\n' "$tool" "$i" "$s" "$r" "$e" \
		"$(stat -c %s "$out")" "${said:--}"
	echo "$s $r $e" >>"$work/$tool.tot"
}

"$work/wl/dwarf-rec" $(( (DURATION + 3) * 1000 * (2 * RUNS + 1) )) & load1=$!
"$work/wl/dwarf-rec" $(( (DURATION + 3) * 1000 * (2 * RUNS + 1) )) & load2=$!
sleep 1
echo "# dwarf-lost: -a --call-graph dwarf -F $FREQ -- sleep $DURATION${MMAP:+ -m $MMAP}, both CPUs busy, $RUNS runs each"
printf '%-6s %4s %8s %8s %10s %12s  %s\n' tool run samples LOST lost_evts bytes "summary"
for i in $(seq 1 "$RUNS"); do
	for tool in pulse perf; do
		run_one $tool "$work/$tool.data"
	done
done
for tool in pulse perf; do
	awk -v t=$tool '{ s += $1; r += $2; e += $3 }
		END { printf "# %s total: %d samples, %d LOST records losing %d events\n", t, s, r, e }' \
		"$work/$tool.tot"
done
