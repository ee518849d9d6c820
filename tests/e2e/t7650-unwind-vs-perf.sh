#!/bin/bash
# The DWARF unwinder (lib/unwind) against perf 6.1's (libunwind) on files
# perf records here with --call-graph dwarf: tests/tools/pulse-unwind
# unwinds every sample and prints the frames as perf script --no-inline
# -F ip,dso prints the callchain (DSO-relative addresses), so the two
# outputs compare line for line: a C program through libc's qsort built
# without frame pointers, threads, a signal handler, /usr/bin/python3 (through the
# vDSO too), and stack copies cut short
# (perf's chains then end in a frame of ip 0, printed ffffffffffffffff).
# Samples are compared in perf script's order (by time).
. "$(dirname "$0")/lib/test-lib.sh"

test_declare_prereq CC
test_declare_prereq PYTHON3
command -v gcc >/dev/null 2>&1 && test_set_prereq CC
[ -x /usr/bin/python3 ] && test_set_prereq PYTHON3

UNW=$TOOLS/pulse-unwind

# same FILE: pulse-unwind and perf script give the same callchains
same() {
	perf script --no-inline -F ip,dso -i "$1" 2>/dev/null | cat -s >"$1.perf" &&
	"$UNW" "$1" 2>"$1.err" | cat -s >"$1.pulse" &&
	test -s "$1.perf" &&
	diff "$1.perf" "$1.pulse" >"$1.diff" || { cat "$1.err"; head -20 "$1.diff"; return 1; }
}

# deep OUTPUT DSO N: some sample of OUTPUT (FILE.pulse or FILE.perf) has N frames or more in DSO
deep() {
	awk -v d="($2)" -v n="$3" 'BEGIN { RS = "" } { c = 0; for (i = 2; i <= NF; i += 2) if ($i == d) c++; if (c >= n) f = 1 } END { exit !f }' "$1"
}

# sigchain FILE EXE: a sample goes from EXE through libc (__restore_rt) back to EXE twice
sigchain() {
	awk -v d="($2)" 'BEGIN { RS = "" }
		{ for (i = 2; i + 6 <= NF; i += 2) if ($i == d && $(i + 2) ~ /libc/ && $(i + 4) == d && $(i + 6) == d) f = 1 }
		END { exit !f }' "$1.pulse"
}

test_expect_success PERF,CC 'a program without frame pointers through qsort: frames as perf' '
	gcc -O1 -g -fomit-frame-pointer -fno-inline -o qs "$PULSE_TOP/tests/workloads/unwind-qsort.c" &&
	perf record -q -e cpu-clock:u --call-graph dwarf -o qs.data ./qs 20 >/dev/null 2>&1 &&
	same qs.data &&
	# cmp, then sort_round, main and _start: the whole chain, not just the ip
	deep qs.data.pulse "$PWD/qs" 4 &&
	grep -q libc.so qs.data.pulse
'

test_expect_success PERF,CC 'stack copies cut short (dwarf,1024): frames as perf, ending as perf' '
	perf record -q -e cpu-clock:u --call-graph dwarf,1024 -o short.data ./qs 10 >/dev/null 2>&1 &&
	same short.data
'

test_expect_success PERF,CC 'samples in a signal handler, through __restore_rt: frames as perf' '
	gcc -O1 -g -fomit-frame-pointer -fno-inline -o sig "$PULSE_TOP/tests/workloads/unwind-signal.c" &&
	perf record -q -e cpu-clock:u --call-graph dwarf -o sig.data ./sig >/dev/null 2>&1 &&
	same sig.data &&
	# the handler, __restore_rt in libc, then the interrupted busy() and main
	sigchain sig.data "$PWD/sig"
'

test_expect_success PERF,CC 'threads, ending in start_thread and clone3: frames as perf' '
	gcc -O1 -g -fomit-frame-pointer -fno-inline -pthread -o thr \
		"$PULSE_TOP/tests/workloads/unwind-threads.c" &&
	perf record -q -e cpu-clock:u --call-graph dwarf -o thr.data ./thr >/dev/null 2>&1 &&
	same thr.data &&
	deep thr.data.pulse "$PWD/thr" 2 && grep -q libc.so thr.data.pulse
'

# Where pulse deliberately differs: Debian's libunwind reads no .debug_frame,
# so perf 6.1 stops at a binary without .eh_frame_hdr; pulse walks its
# .debug_frame (the README says so).
test_expect_success PERF,CC 'no .eh_frame_hdr: .debug_frame walks on where perf stops' '
	gcc -O1 -g -fomit-frame-pointer -fno-inline -fno-asynchronous-unwind-tables \
		-Wl,--no-eh-frame-hdr -o df "$PULSE_TOP/tests/workloads/unwind-qsort.c" &&
	perf record -q -e cpu-clock:u --call-graph dwarf -o df.data ./df 10 >/dev/null 2>&1 &&
	! same df.data >/dev/null &&
	deep df.data.pulse "$PWD/df" 4 && grep -q libc.so df.data.pulse &&
	! deep df.data.perf "$PWD/df" 2
'

test_expect_success PERF,PYTHON3 'python3 through libc: frames as perf' '
	cat >py.py <<-\PY &&
	def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
	import json, time
	for i in range(2):
	    fib(20); json.dumps([list(range(200))] * 200); sorted(range(50000), key=lambda x: -x)
	    for j in range(300000): time.time()
	PY
	perf record -q -e cpu-clock:u --call-graph dwarf -o py.data /usr/bin/python3 py.py >/dev/null 2>&1 &&
	same py.data &&
	deep py.data.pulse "$(readlink -f /usr/bin/python3)" 10 &&
	# clock_gettime in the vDSO, unwound from this process'"'"'s own copy as perf does
	grep -A1 "(\[vdso\])" py.data.pulse | grep -q libc.so

'

test_done
