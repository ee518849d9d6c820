#!/bin/bash
# perf script -F srcline: after each ip (a sample's, each callchain
# frame's) a "  file.c:NN" line from the DSO's DWARF line table (libdw;
# a separate debug file found by build-id), or "  SHORT_NAME[addr]" where
# there is none (the kernel). Compared with perf 6.1 on the workloads'
# own DSOs: on glibc's dwz-compressed debug files binutils 2.40's
# addr2line, which perf 6.1 runs, names another file than the line table
# does (libc-start.c for libc_start_call_main.h), so those are left out.
. "$(dirname "$0")/lib/test-lib.sh"

same() {
	perf script "$@" >perf.out 2>/dev/null || return 1
	pulse script "$@" >pulse.out 2>pulse.err || { cat pulse.err >&2; return 1; }
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'set up' '
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf record -q -o spin.data -- "$WL/spin" >/dev/null 2>&1
'

test_expect_success PERF '-F +srcline under each callchain frame' '
	same -i cg.data -F +srcline --dsos calltree --max-stack 3 &&
	grep -q "^  calltree.c:[0-9]*$" pulse.out
'

test_expect_success PERF '-F +srcline after the ip; the kernel by address' '
	same -i spin.data -F +srcline --dsos "spin,[kernel.kallsyms]" &&
	grep -q "^  spin.c:[0-9]*$" pulse.out
'

test_expect_success PERF '-F ip,srcline alone' '
	same -i spin.data -F ip,srcline --dsos spin
'

test_expect_success PERF 'srcline needs ip, as in perf' '
	not perf script -i spin.data -F comm,srcline >/dev/null 2>&1 &&
	{ pulse script -i spin.data -F comm,srcline >/dev/null 2>err; test $? = 1; } &&
	grep -q "^error: Display of source line number requested but sample IP is not" err
'

test_done
