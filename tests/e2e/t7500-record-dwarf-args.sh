#!/bin/bash
# pulse record --call-graph dwarf[,size] parsed as perf 6.1's
# parse_callchain_record()/get_stack_size() parse it: 8192 by default, the
# size read with strtoul (hex too), rounded up to a multiple of 8,
# 8..65528, more comma tokens ignored, empty ones skipped; a bad size or
# mode is one error line and exit 129 in both tools. --user-regs with a
# subset under dwarf: perf's warning, and IP,SP forced into the mask.
. "$(dirname "$0")/lib/test-lib.sh"

# size TOOL ARG: the sample_stack_user TOOL records for --call-graph ARG
size() {
	rm -f s.data
	if [ $1 = perf ]; then
		perf record -q --call-graph "$2" -o s.data -- true 2>perr >/dev/null || { cat perr >&2; return 1; }
	else
		record_ok err -q --call-graph "$2" -o s.data -- true
	fi
	perf_ok s.data evlist -v | grep -v "^#" | grep -o "sample_stack_user: [0-9]*" | cut -d" " -f2
}

test_expect_success PERF 'stack sizes: the default, rounding, hex, extra and empty tokens, as perf' '
	for a in dwarf dwarf,100 dwarf,0x100 dwarf,65528 dwarf,65525 dwarf,1,2 dwarf, ,dwarf dwarf,,16 dwarf,+24; do
		pu=$(size pulse $a) && pf=$(size perf $a) &&
		echo "$a: pulse $pu perf $pf" &&
		test -n "$pu" && expect_eq "$pu" "$pf" || return 1
	done
	expect_eq "$(size pulse dwarf)" 8192
	expect_eq "$(size pulse dwarf,100)" 104
'

test_expect_success PERF 'bad sizes and modes: one error line, exit 129, as perf' '
	for a in dwarf,0 dwarf,65529 dwarf,65536 dwarf,abc dwarf,-8 dwarf,16k dwarfx lbr,1 ""; do
		expect_fail 129 err pulse record --call-graph "$a" -o x.data -- true &&
		one_error err "." &&
		expect_fail 129 perr perf record --call-graph "$a" -o x.data -- true || return 1
	done
	expect_fail 129 err pulse record --call-graph dwarf,65529 -o x.data -- true
	one_error err "^error: incorrect stack dump size \(max 65528\): 65529$"
	expect_fail 129 perr perf record --call-graph dwarf,65529 -o x.data -- true
	grep -q "^callchain: Incorrect stack dump size (max 65528): 65529$" perr
	test ! -e x.data
'

test_expect_success 'lbr (no such PMU here): one error line, exit 129' '
	expect_fail 129 err pulse record --call-graph lbr -o x.data -- true
	one_error err "cannot record lbr"
'

test_expect_success PERF '--user-regs subset with dwarf: perf warning, IP and SP forced' '
	record_ok err --call-graph dwarf --user-regs=ax -o r.data -- true
	grep -q "^warning: the use of --call-graph=dwarf may require all the user registers, .*minimal registers set (IP, SP) is explicitly forced\.$" err
	perf_ok r.data evlist -v | grep -q "sample_regs_user: 0x181, sample_stack_user: 8192$"
	perf record --call-graph dwarf --user-regs=ax -o p.data -- true 2>perr
	grep -q "^WARNING: The use of --call-graph=dwarf may require all the user registers" perr
	record_ok err -q --call-graph dwarf --user-regs=ax -o r.data -- true
	test_must_be_empty err
	record_ok err --call-graph dwarf -o r.data -- true
	not grep -q "^warning:" err
'

test_expect_success PERF '--user-regs=? with dwarf lists the registers, exit 129, as perf' '
	expect_fail 129 err pulse record --call-graph dwarf --user-regs=? -- true
	grep -qx "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 " err
	expect_fail 129 perr perf record --call-graph dwarf --user-regs=? -- true
'

test_done
