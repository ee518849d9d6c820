#!/bin/bash
# The attrs of pulse record --call-graph dwarf are perf 6.1's (perf
# evlist -v of both files, every line the same): evsel__config_callchain()
# adds REGS_USER|STACK_USER, the x86_64 register mask, sample_stack_user and
# exclude_callchain_user on every event (the dummy too), and record's
# sample_address adds ADDR|DATA_SRC and mmap_data, which stay after a later
# fp or --no-call-graph; --user-callchains and --kernel-callchains set
# exclude_callchain_kernel/_user; fp's max_stack outlives a later dwarf.
. "$(dirname "$0")/lib/test-lib.sh"

attrs() { perf_ok "$1" evlist -v | grep -v "^#"; }

# same_attrs ARGS... [-- CMD...]: pulse and perf record the same; same attrs
same_attrs() {
	rm -f pu.data pp.data
	record_ok err -q -o pu.data "$@"
	perf record -q -o pp.data "$@" 2>perr >/dev/null || { cat perr >&2; return 1; }
	attrs pu.data >pu.attrs
	attrs pp.data >pp.attrs
	test_cmp pp.attrs pu.attrs
}

test_expect_success PERF 'a command: perfs attr' '
	same_attrs --call-graph dwarf -- $WL/spin 20
	grep -q "sample_type: IP|TID|TIME|ADDR|CALLCHAIN|PERIOD|REGS_USER|STACK_USER|DATA_SRC, .*mmap_data: 1, .*exclude_callchain_user: 1, .*sample_regs_user: 0xff0fff, sample_stack_user: 8192$" pu.attrs
	same_attrs --call-graph dwarf,4096 -e cpu-clock:u -- $WL/spin 20
	same_attrs --call-graph=dwarf,64 -F 999 -- $WL/spin 20
'

test_expect_success PERF 'sticky parts: fp after dwarf, --no-call-graph, fp,N then dwarf, -g after dwarf' '
	same_attrs --call-graph dwarf --call-graph fp -- $WL/spin 20
	grep -q "ADDR|CALLCHAIN|PERIOD|DATA_SRC" pu.attrs
	same_attrs --call-graph dwarf --no-call-graph -- $WL/spin 20
	not grep -q CALLCHAIN pu.attrs
	same_attrs --call-graph fp,10 --call-graph dwarf -- $WL/spin 20
	grep -q "sample_stack_user: 8192, sample_max_stack: 10$" pu.attrs
	same_attrs --call-graph dwarf -g -- $WL/spin 20
	grep -q STACK_USER pu.attrs
'

test_expect_success PERF '--user-callchains, --kernel-callchains, with fp and dwarf' '
	same_attrs -g --user-callchains -- $WL/spin 20
	grep -q "exclude_callchain_kernel: 1" pu.attrs
	same_attrs -g --kernel-callchains -- $WL/spin 20
	grep -q "exclude_callchain_user: 1" pu.attrs
	same_attrs --call-graph dwarf --user-callchains --kernel-callchains -- $WL/spin 20
	same_attrs --user-callchains -- $WL/spin 20
	not grep -q exclude_callchain pu.attrs
'

test_expect_success PERF,ROOT '-a and -D: the dummy takes the stack too, as perf' '
	same_attrs -a --call-graph dwarf -- $WL/spin 50
	grep "^dummy" pu.attrs | grep -q "REGS_USER|STACK_USER"
	same_attrs -a --call-graph dwarf --user-regs=ax -- $WL/spin 50
	grep "^dummy" pu.attrs | grep -q "sample_regs_user: 0x180,"
	same_attrs --call-graph dwarf -D 10 -- $WL/spin 50
'

test_expect_success PERF,TRACEFS 'a tracepoint' '
	same_attrs --call-graph dwarf -e sched:sched_switch -- $WL/spin 20
'

test_expect_success PERF '-p: perfs attr' '
	$WL/spin 3000 & sp=$!
	track_bg $sp
	timeout -s INT 0.5 "$PULSE" record -q --call-graph dwarf -p $sp -o pu.data 2>err || true
	timeout -s INT 0.5 perf record -q --call-graph dwarf -p $sp -o pp.data 2>perr || true
	attrs pu.data >pu.attrs
	attrs pp.data >pp.attrs
	test_cmp pp.attrs pu.attrs
'

test_done
