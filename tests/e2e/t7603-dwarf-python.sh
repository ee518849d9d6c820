#!/bin/bash
# DWARF unwinding through a real program: Debian's /usr/bin/python3 (no
# frame pointers) running a CPU-bound script, recorded by perf with
# --call-graph dwarf. Its C frames unwind through the interpreter and libc
# down to __libc_start_call_main and _start in as many samples as perf's,
# with no [unknown] between main and the sampled function where perf has
# none, and pulse script prints perf's callchains byte for byte.
. "$(dirname "$0")/lib/test-lib.sh"

PY=/usr/bin/python3
test -x "$PY" && test_set_prereq PYTHON3

# reached FILE: the samples whose chain gets down to __libc_start_call_main
# with no [unknown] frame in the libc part or above the interpreter's main
reached() {
	awk 'BEGIN { RS = "" } / __libc_start_call_main\+/ && !/\[unknown\] \(\/usr\/lib/ { n++ }
	     END { print n + 0 }' "$1"
}

test_expect_success PERF,PYTHON3 'record python3 with perf --call-graph dwarf' '
	perf record -q --call-graph dwarf -o py.data -- "$PY" "$PULSE_TOP/tests/workloads/fib.py" >/dev/null 2>&1 &&
	if pulse script -i py.data --no-inline >/dev/null 2>&1; then
		echo --no-inline >noinl
	else
		: >noinl
	fi
'

test_expect_success PERF,PYTHON3 'pulse script prints perf'"'"'s callchains' '
	perf script -i py.data --no-inline >perf.out 2>/dev/null &&
	pulse script -i py.data $(cat noinl) >pulse.out 2>pulse.err &&
	test_must_be_empty pulse.err &&
	test_cmp perf.out pulse.out
'

test_expect_success PERF,PYTHON3 'the C stacks reach libc'"'"'s start as often as perf'"'"'s' '
	samples=$(awk "BEGIN { RS = \"\" } END { print NR }" pulse.out) &&
	p=$(reached perf.out) && q=$(reached pulse.out) &&
	expect_eq "$q" "$p" &&
	expect_gt "$((q * 10))" "$((samples * 7))" "samples reaching __libc_start_call_main"
'

test_expect_success PERF,PYTHON3 'report: the interpreter loop under Py_BytesMain, as perf' '
	perf report -i py.data --stdio --no-inline --children 2>/dev/null |
		grep -v "^# (Tip:" >perf.rep &&
	pulse report -i py.data --stdio $(cat noinl) --children 2>/dev/null |
		grep -v "^# (Tip:" >pulse.rep &&
	test_cmp perf.rep pulse.rep &&
	grep -q "Py_BytesMain" pulse.rep
'

test_done
