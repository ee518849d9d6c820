#!/bin/bash
# Runs the reader's libFuzzer target for SECONDS (default 60) on a corpus
# (then the Intel PT decoder's, fuzz-pt, as long; pulse data convert's,
# fuzz-convert, and the off-CPU bookkeeping's, fuzz-offcpu, a third as long),
# seeded from the golden perf 6.1 files and pulse-mkdata variants of them
# (byte-swapped, AUXTRACE, pipe mode); then the AUX dump's target
# (fuzz-aux: Intel PT packets and report -D of AUX records) for a third of
# that on files made by pulse-mkaux, and the DWARF unwinder's (fuzz-unwind) a
# third as long. Exits 77 when clang's libFuzzer is
# not available, 0 when no crash was found, 1 otherwise (the crashing
# input is left in build-fuzz/ as NAME-crash-*).
#   tests/fuzz/run-fuzz.sh [SECONDS] [extra libFuzzer options]
set -u
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}; shift || true
out=build-fuzz

probe=$(mktemp -d /tmp/pulse-fuzz.XXXXXX)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){return 0;}\n' >"$probe/t.c"
if ! ${FUZZ_CC:-clang} -fsanitize=fuzzer,address,undefined -o "$probe/t" "$probe/t.c" >/dev/null 2>&1 ||
	! "$probe/t" -runs=1 >/dev/null 2>&1; then
	echo "fuzz: skipped (clang's libFuzzer is unavailable)"
	exit 77
fi
make --no-print-directory fuzz >/dev/null || exit 1

# run_target NAME SECONDS CORPUS MAX_LEN [libFuzzer options]: build-fuzz/NAME
# on CORPUS; its log in build-fuzz/NAME.log, a crash as build-fuzz/NAME-crash-*
run_target() {
	local name=$1 t=$2 dir=$3 max=$4 rc
	shift 4
	# the inputs that once crashed it (tests/fuzz/regress/NAME/) first
	if [ -d "tests/fuzz/regress/$name" ] &&
		! "$out/$name" tests/fuzz/regress/"$name"/* >"$out/$name.log" 2>&1; then
		tail -5 "$out/$name.log"
		echo "$name: FAILED on tests/fuzz/regress/$name (a crash came back)"
		exit 1
	fi
	"$out/$name" -max_total_time="$t" -max_len="$max" -rss_limit_mb=1024 -timeout=10 \
		-artifact_prefix="$out/$name-" -print_final_stats=1 "$@" "$dir" 2>"$out/$name.log"
	rc=$?
	tail -5 "$out/$name.log"
	if [ $rc -ne 0 ]; then
		echo "$name: FAILED (exit $rc); see $out/$name.log and $out/$name-crash-*"
		exit 1
	fi
	echo "$name: no crash in ${t}s"
}

corpus=$out/corpus-reader
mkdir -p "$corpus"
cp tests/data/*.data "$corpus/"
if make --no-print-directory build/tools/pulse-mkdata >/dev/null 2>&1; then
	for f in tests/data/perf-cpuclock.data tests/data/perf-2ev.data tests/data/perf-pipe-tp.data; do
		n=$(basename "$f" .data)
		build/tools/pulse-mkdata swap "$f" "$corpus/$n-swapped.data" 2>/dev/null
		build/tools/pulse-mkdata auxtrace "$f" "$corpus/$n-auxtrace.data" 100 2>/dev/null
	done
	build/tools/pulse-mkdata pipe tests/data/perf-z.data "$corpus/perf-z-pipe.data" 2>/dev/null
fi
# stat files (pulse-mkstat: each CPU_MAP layout, interval rounds, pipe mode)
if make --no-print-directory build/tools/pulse-mkstat >/dev/null 2>&1; then
	for m in cpus mask mask32 range; do
		build/tools/pulse-mkstat -c 0,1,3 -m "$m" -I 100:2 "$corpus/stat-$m.data" \
			task-clock=5/10/5 page-faults=3/10/10 cycles=- 2>/dev/null
	done
	build/tools/pulse-mkstat -p "$corpus/stat-pipe.data" task-clock=5/10/5 2>/dev/null
fi

# -rss_limit_mb (in run_target): the reader's memory is bounded by its input
run_target fuzz-reader "$secs" "$corpus" 65536 "$@"

# pulse data convert --to-json (tests/fuzz/fuzz-convert.c) on the reader's corpus, a third as long
run_target fuzz-convert $(( secs / 3 + 1 )) "$corpus" 65536 "$@"

# the AUX dump: intel_pt files of each AUXTRACE_INFO size, pipe mode, other PMUs
aux_secs=$(( secs / 3 + 1 ))
acorpus=$out/corpus-aux
mkdir -p "$acorpus"
if make --no-print-directory build/tools/pulse-mkaux >/dev/null 2>&1; then
	mk=build/tools/pulse-mkaux
	$mk -a -E "$acorpus/pt.data" && $mk -a -E -p -F "$acorpus/pt.pipe" &&
	$mk -w 10 "$acorpus/pt10.data" && $mk -w 17 -f "filter 0x1000/0x200@/bin/ls" -e 1 \
		"$acorpus/ptf.data" && $mk -x random:1:2048 "$acorpus/noise.data" &&
	$mk -x opcodes:1:4096 "$acorpus/opcodes.data" &&
	$mk -t 4 -w 2 -x spe:1:4096 "$acorpus/spe.data" &&
	$mk -t 3 -W 1,0x100000002,0,0x4040404040404040,0,7,1,2,3,4,5,6,7,0x3030303030303030,1,4,1,3,3,4 \
		"$acorpus/etm.data" &&
	$mk -x past "$acorpus/past.data" && $mk -t 2 -w 6 -a "$acorpus/bts.data" ||
		echo "fuzz: pulse-mkaux failed; the AUX corpus is short"
fi
run_target fuzz-aux "$aux_secs" "$acorpus" 65536 "$@"

# the Intel PT decoder (tests/fuzz/fuzz-pt.c): seeded with the traces of
# pulse-mkpt's recordings (a parameter byte, then the bytes from the first PSB)
ptc=$out/corpus-pt
mkdir -p "$ptc"
if make --no-print-directory build/tools/pulse-mkpt build/workloads/pt-loop >/dev/null 2>&1; then
	i=0
	for v in "-n 5" "-n 5 --mtc --cyc" "-n 5 --tsx --intr 2" "-n 5 --ovf 2" "-n 5 --noretcomp"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		build/tools/pulse-mkpt $v "$ptc/x.data" build/workloads/pt-loop 2>/dev/null || continue
		off=$(grep -obUaP '\x02\x82\x02\x82\x02\x82\x02\x82' "$ptc/x.data" | head -1 | cut -d: -f1)
		[ -n "$off" ] && { printf '\001'; tail -c +$((off + 1)) "$ptc/x.data" | head -c 4000; } >"$ptc/seed$i"
	done
	rm -f "$ptc/x.data"
fi
run_target fuzz-pt "$secs" "$ptc" 8192

# the off-CPU bookkeeping (tests/fuzz/fuzz-offcpu.c) on records libFuzzer
# makes up from nothing, a third as long
mkdir -p "$out/corpus-offcpu"
run_target fuzz-offcpu $(( secs / 3 + 1 )) "$out/corpus-offcpu" 8192

# the DWARF unwinder (tests/fuzz/fuzz-unwind.c): registers and stack bytes
# over this binary's and libc's CFI, seeded from its regress inputs, a third as long
mkdir -p "$out/corpus-unwind"
cp tests/fuzz/regress/fuzz-unwind/* "$out/corpus-unwind/"
run_target fuzz-unwind $(( secs / 3 + 1 )) "$out/corpus-unwind" 16584
