#!/bin/bash
# KDAB hotspot's hotspot-perfparser on pulse record -z files: it reads them
# as it reads perf 6.1's own -z recordings of the same workload (same exit
# status, same sample count), file and pipe mode. Debian's hotspot 1.3
# perfparser is built without zstd ("zstd decompression support not
# available"): it skips every COMPRESSED record, so it sees 0 samples in
# both; a perfparser with zstd sees them all in both.
. "$(dirname "$0")/lib/test-lib.sh"

PP=$(command -v hotspot-perfparser 2>/dev/null ||
	ls /usr/lib/*/libexec/hotspot-perfparser /usr/libexec/hotspot-perfparser 2>/dev/null | head -1)
test_declare_prereq PERFPARSER
[ -n "$PP" ] && [ -x "$PP" ] && test_set_prereq PERFPARSER

TP=syscalls:sys_enter_getppid

# pp FILE: "rc=N samples=M" of perfparser --print-stats on FILE
pp() {
	local rc=0
	timeout -k 5 "$TMO" "$PP" --input "$1" --print-stats >"$1.stats" 2>"$1.pperr" || rc=$?
	echo "rc=$rc samples=$(awk '$1 == "samples:" { print $2 }' "$1.stats")"
}

test_expect_success PERF,ROOT,TRACEFS,PERFPARSER 'file mode: perfparser reads pulse -z as perf -z' '
	record_ok err -q -z -e $TP -o pulse.data -- $WL/getppid 1000 &&
	perf record -q -z -e $TP -o perf.data -- $WL/getppid 1000 2>/dev/null &&
	a=$(pp perf.data) && b=$(pp pulse.data) &&
	echo "# perf -z: $a; pulse -z: $b" &&
	expect_eq "$b" "$a" &&
	expect_eq "${b%% *}" rc=0
'

# perfparser 1.3 refuses any pipe with a tracepoint (exit 5): cpu-clock
# here, whose sample count varies from run to run, so "some" or "none".
test_expect_success PERF,ROOT,PERFPARSER 'pipe mode: perfparser reads pulse -z as perf -z' '
	pulse record -q -z -o - -- $WL/spin 100 >pulse.pipe 2>err &&
	perf record -q -z -o - -- $WL/spin 100 >perf.pipe 2>/dev/null &&
	a=$(pp perf.pipe | sed "s/samples=[1-9][0-9]*/samples=some/") &&
	b=$(pp pulse.pipe | sed "s/samples=[1-9][0-9]*/samples=some/") &&
	echo "# perf -z: $a; pulse -z: $b" &&
	expect_eq "$b" "$a" &&
	expect_eq "${b%% *}" rc=0
'

test_done
