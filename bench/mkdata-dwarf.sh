#!/bin/bash
# Builds, once, the inputs of the dwarf report/script benchmarks
# (bench/dwarf-report.sh, bench/dwarf-script.sh): two `--call-graph dwarf`
# recordings of at least MIN_SAMPLES (50000) samples each,
#  - C: bench/dwarf-rec-tree.c and its shared library, built without frame
#    pointers into build/bench/dwarf-rec-tree/ (kept: the unwinders read
#    their CFI from there), two threads on both CPUs;
#  - Python: /usr/bin/python3 (Debian's, no frame pointers) running a
#    CPU-bound script, one process for twice the time;
# each thread runs SECS (8) seconds of CPU time, so that about
# 2 * SECS * FREQ samples (64000) come however busy the machine is.
# Recorded with perf, not pulse: the benchmarks measure reading, so both
# readers get the very file perf users have, and nothing pulse's recorder
# does (or gets wrong) can flatter pulse's figures.
# Cached at build/bench/perf-dwarf-c.data and perf-dwarf-py.data (build/
# is ignored by git) and reused while they hold MIN_SAMPLES samples and the
# program they sampled is still there; FORCE=1 rebuilds them. Prints the two
# paths (C, then Python), one a line, on stdout; the rest on stderr.
set -u
. "$(dirname "$0")/lib.sh"
bench_init mkdata-dwarf
dir=${BENCH_DIR:-$top/build/bench}
FREQ=${FREQ:-4000}
SECS=${SECS:-8}
MIN_SAMPLES=${MIN_SAMPLES:-50000}
SIZE=${SIZE:-8192}
c_out=$dir/perf-dwarf-c.data
py_out=$dir/perf-dwarf-py.data
prog=$dir/dwarf-rec-tree/dwarf-rec-tree

cached() { # FILE: it holds MIN_SAMPLES samples
	local n
	[ -z "${FORCE:-}" ] && [ -s "$1" ] || return 1
	n=$(bench_samples "$1")
	[ "${n:-0}" -ge "$MIN_SAMPLES" ] && echo "# cached $1: $n samples" >&2
}

# record OUT CMD...: perf record --call-graph dwarf of CMD into OUT
record() {
	local out=$1 n
	shift
	echo "# recording: perf record --call-graph dwarf,$SIZE -F $FREQ -- $*" >&2
	"$PERF" record -q --call-graph "dwarf,$SIZE" -F "$FREQ" -o "$out.tmp" -- "$@" \
		>/dev/null 2>"$dir/rec.err" || { cat "$dir/rec.err" >&2; exit 1; }
	mv "$out.tmp" "$out"
	n=$(bench_samples "$out")
	echo "# $out: ${n:-0} samples, $(stat -c %s "$out") bytes" >&2
	[ "${n:-0}" -ge "$MIN_SAMPLES" ] ||
		echo "mkdata-dwarf: only ${n:-0} samples (< $MIN_SAMPLES): raise FREQ or SECS" >&2
}

[ -x "$PERF" ] || { echo "mkdata-dwarf: $PERF not found" >&2; exit 1; }
mkdir -p "$dir/dwarf-rec-tree"

if ! { [ -x "$prog" ] && cached "$c_out"; }; then
	flags="-O1 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls -I$top/bench"
	gcc $flags -shared -fPIC -o "$dir/dwarf-rec-tree/libdwarf-rec-tree.so" \
		"$top/bench/dwarf-rec-treelib.c" &&
	gcc $flags -o "$prog" "$top/bench/dwarf-rec-tree.c" -L"$dir/dwarf-rec-tree" \
		-ldwarf-rec-tree -lpthread -Wl,-rpath,'$ORIGIN' || exit 1
	record "$c_out" "$prog" "$SECS" 2
fi

if ! cached "$py_out"; then
	cat > "$dir/dwarf-busy.py" <<'PY'
import sys, time

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def words(i):
    d = {}
    for j in range(300):
        d[str(i * j)[::-1]] = j
    return sorted(d)[:3]

end = time.process_time() + float(sys.argv[1])
while time.process_time() < end:
    fib(18)
    words(int(time.process_time() * 1000))
PY
	# one process, twice the time: a shell exec'ing python3 during the
	# recording trips perf 6.1's unwinder (it keeps the shell's maps
	# across the exec; README, "DWARF unwinding"), and the benchmark wants
	# rows both tools agree on
	record "$py_out" /usr/bin/python3 "$dir/dwarf-busy.py" $((2 * SECS))
fi
rm -f "$dir/rec.err"
echo "$c_out"
echo "$py_out"
