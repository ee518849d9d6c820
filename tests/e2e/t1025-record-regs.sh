#!/bin/bash
# pulse record --user-regs and -I/--intr-regs, as perf 6.1: perf's x86_64
# register names (any case, '?' lists them), REGS_USER/REGS_INTR with the
# same sample_regs_user/_intr masks perf sets (perf evlist -v of both
# files); pulse script -F uregs,iregs prints what perf script prints.
. "$(dirname "$0")/lib/test-lib.sh"

# attrs FILE: perf evlist -v, comment lines dropped
attrs() { perf_ok "$1" evlist -v | grep -v "^#"; }

# same_attrs ARGS...: pulse and perf record ARGS; the attrs are the same
same_attrs() {
	rm -f pu.data pp.data
	record_ok err -q "$@" -o pu.data -- $WL/spin 30
	perf record -q "$@" -o pp.data -- $WL/spin 30 2>perr || { cat perr >&2; return 1; }
	attrs pu.data >pu.attrs
	attrs pp.data >pp.attrs
	test_cmp pp.attrs pu.attrs
}

test_expect_success PERF '--user-regs=AX,BX,IP: the attr perf writes' '
	same_attrs --user-regs=AX,BX,IP
	grep -q "sample_type: IP|TID|TIME|PERIOD|REGS_USER, .*sample_regs_user: 0x103$" pu.attrs
'

test_expect_success PERF '--user-regs without a list, lower case names, -I, both' '
	same_attrs --user-regs
	grep -q "sample_regs_user: 0xff0fff$" pu.attrs
	same_attrs --user-regs=sp,ip,r15
	same_attrs -I
	grep -q "sample_regs_intr: 0xff0fff$" pu.attrs
	same_attrs --user-regs=ax -Ir8,flags
	grep -q "REGS_USER|REGS_INTR, .*sample_regs_user: 0x1, sample_regs_intr: 0x10200$" pu.attrs
'

test_expect_success PERF,ROOT '-a --user-regs: not on the dummy, as perf' '
	same_attrs -a --user-regs=AX
	grep "^dummy" pu.attrs | not grep -q REGS_USER
'

test_expect_success PERF '--user-regs=? and -I?: the list on stderr, exit 129, as perf' '
	expect_fail 129 err pulse record --user-regs=?
	grep -qx "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 " err
	expect_fail 129 perr perf record --user-regs=?
	grep -qx "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 " perr
	expect_fail 129 err pulse record -I?
	grep -qx "available registers: .* R15 " err
	expect_fail 129 perr perf record -I?
'

test_expect_success PERF 'an unknown register, or the option twice: exit 129, as perf' '
	expect_fail 129 err pulse record --user-regs=FOO -- true
	one_error err "^error: unknown register \"FOO\", check man page or run \"pulse record --user-regs=\?\"$"
	expect_fail 129 perr perf record --user-regs=FOO -- true
	grep -q "^Unknown register \"FOO\", check man page or run \"perf record --user-regs=?\"$" perr
	expect_fail 129 err pulse record -IDS -- true
	one_error err "run \"pulse record -I\?\""
	expect_fail 129 perr perf record -IDS -- true
	expect_fail 129 err pulse record --user-regs=ax --user-regs=sp -- true
	one_error err "given twice"
	expect_fail 129 perr perf record --user-regs=ax --user-regs=sp -- true
'

test_expect_success PERF 'pulse script -F uregs,iregs: perf script'"'"'s lines on pulse'"'"'s file' '
	record_ok err -q --user-regs -I -o r.data -- $WL/spin 50
	for f in ip,sym,uregs ip,sym,iregs comm,tid,period,ip,sym,iregs,uregs uregs; do
		pulse script -i r.data -F $f >pulse.out &&
		perf_ok r.data script -F $f >perf.out &&
		test_cmp perf.out pulse.out || return 1
	done
	expect_gt "$(grep -c " ABI:2    AX:0x" pulse.out)" 0 "samples with registers"
'

test_expect_success PERF 'pulse script -F uregs on perf'"'"'s file, and on one with no registers' '
	perf record -q --user-regs=ax,r15 -Isp -o p.data -- $WL/spin 50 2>perr
	pulse script -i p.data -F ip,sym,iregs,uregs >pulse.out
	perf_ok p.data script -F ip,sym,iregs,uregs >perf.out
	test_cmp perf.out pulse.out
	record_ok err -q -o none.data -- $WL/spin 20
	expect_fail 1 err pulse script -i none.data -F ip,uregs
	one_error err "^error: Samples for .cpu-clock:ppp. event do not have UREGS attribute set. Cannot print .uregs. field.$"
'

test_done
