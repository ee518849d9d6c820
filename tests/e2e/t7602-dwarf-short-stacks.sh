#!/bin/bash
# DWARF unwinding of user stacks that cannot be walked to the end: a stack
# copy cut short (recorded with a small size, or a dyn_size made smaller
# than the room), a copy the kernel could not make (dyn_size 0: perf 6.1
# takes it as "nothing copied", not "all"), an ip in no map. pulse unwinds
# as far as perf does, prints the same, and does not crash.
. "$(dirname "$0")/lib/test-lib.sh"

patch() { # FILE WHAT VALUE: tests/e2e/lib/ustack-patch.py on FILE, samples changed
	perf report -D -i "$1" >"$1.dump" 2>/dev/null &&
	python3 "$PULSE_TOP/tests/e2e/lib/ustack-patch.py" "$1.dump" "$@"
}

# Where the copy ends before a return address, perf's libunwind walk reads
# it as 0 (access_mem() fails with *valp = 0), still takes the step and
# subtracts one: a last frame "ffffffffffffffff [unknown] ([unknown])"
# (0xffffffffffffffff in report). lib/unwind gives the same frame, so the
# outputs are compared as they are.
same_dw_script() { # FILE ARGS...
	local f=$1; shift
	perf script -i "$f" --no-inline "$@" >perf.out 2>/dev/null &&
	pulse script -i "$f" $(cat noinl) "$@" >pulse.out 2>pulse.err &&
	test_must_be_empty pulse.err &&
	test -s perf.out &&
	test_cmp perf.out pulse.out
}

same_dw_report() { # FILE ARGS...
	local f=$1; shift
	perf report -i "$f" --stdio --no-inline "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out &&
	pulse report -i "$f" --stdio $(cat noinl) "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out &&
	test_must_be_empty pulse.err &&
	grep -q "%" perf.out &&
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'record dwarf-tree with perf: 8 KB stacks and 64-byte ones' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/dwarf-tree" 200 >/dev/null 2>&1 &&
	perf record -q --call-graph dwarf,64 -o small.data -- "$WL/dwarf-tree" 200 >/dev/null 2>&1 &&
	if pulse script -i dw.data --no-inline >/dev/null 2>&1; then
		echo --no-inline >noinl
	else
		: >noinl
	fi
'

test_expect_success PERF 'a 64-byte stack copy: as far as it goes, as perf' '
	same_dw_script small.data &&
	same_dw_report small.data --no-children &&
	same_dw_report small.data --children -g caller &&
	grep -q "leaf_a" pulse.out
'

test_expect_success PERF 'dyn_size 0 is an empty copy: -D says size 0, nothing is unwound' '
	cp dw.data dyn0.data &&
	n=$(patch dyn0.data dyn 0) && expect_gt "$n" 10 &&
	perf report -D -i dyn0.data 2>/dev/null | grep "ustack:" >perf.ustack &&
	pulse report -D -i dyn0.data 2>/dev/null | grep "ustack:" >pulse.ustack &&
	test_cmp perf.ustack pulse.ustack &&
	grep -q "ustack: size 0," pulse.ustack &&
	same_dw_script dyn0.data &&
	not grep -q " mid+" pulse.out
'

test_expect_success PERF 'a copy cut short (dyn_size 40): the frames it holds, as perf' '
	cp dw.data dyn40.data &&
	n=$(patch dyn40.data dyn 40) && expect_gt "$n" 10 &&
	same_dw_script dyn40.data &&
	same_dw_report dyn40.data --no-children -g caller &&
	grep -q "0xffffffffffffffff" pulse.out
'

test_expect_success PERF 'an ip in no map: that frame, unresolved, as perf' '
	cp dw.data ip.data &&
	n=$(patch ip.data ip 0x10) && expect_gt "$n" 10 &&
	same_dw_script ip.data &&
	same_dw_report ip.data --no-children
'

test_done
