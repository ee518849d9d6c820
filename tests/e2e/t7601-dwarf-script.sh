#!/bin/bash
# pulse script on --call-graph dwarf files (recorded by perf): the unwound
# user frames print as perf 6.1's sample__fprintf_callchain() prints them:
# the address in the DSO (map_ip of the caller's return address less one,
# as perf's libunwind walk gives it, e.g. "1ab77 _start+0x7 (ld.so)"), then
# the symbol and offset and the DSO. The whole output is perf's byte for
# byte with every -F of the callchain; a frame-pointer file prints as
# before. Inline frames ("NAME+OFF (inlined)", from libdw where perf runs
# addr2line -i) are perf's too, and --no-inline leaves them out in both.
. "$(dirname "$0")/lib/test-lib.sh"

same_dw_script() { # FILE ARGS...
	local f=$1; shift
	perf script -i "$f" "$@" >perf.out 2>/dev/null &&
	pulse script -i "$f" "$@" >pulse.out 2>pulse.err &&
	test_must_be_empty pulse.err &&
	test -s perf.out &&
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'record dwarf-tree with perf --call-graph dwarf' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/dwarf-tree" 300 >/dev/null 2>&1
'

test_expect_success PERF 'the callchains are perf'"'"'s, byte for byte' '
	same_dw_script dw.data &&
	grep -q "^	 *[0-9a-f]* leaf_a+0x[0-9a-f]* (.*/libdwarf-tree.so)$" pulse.out &&
	grep -q "^	 *[0-9a-f]* mid+0x[0-9a-f]* (.*/dwarf-tree)$" pulse.out &&
	grep -q "^	 *[0-9a-f]* main+0x[0-9a-f]* (.*/dwarf-tree)$" pulse.out
'

test_expect_success PERF 'inline frames as perf'"'"'s, and none with --no-inline' '
	same_dw_script dw.data &&
	grep -q "^	 *[0-9a-f]* __libc_start_main_impl+0x[0-9a-f]* (inlined)$" pulse.out &&
	same_dw_script dw.data --no-inline &&
	not grep -q "(inlined)" pulse.out
'

test_expect_success PERF 'a caller'"'"'s address is its return address less one' '
	# mid calls leaf_a: the frame under leaf_a is the byte before the
	# instruction after the call, in the file (objdump) addresses
	ret=$(objdump -d --no-show-raw-insn "$WL/dwarf-tree" |
	      awk "/<mid>:/ { m = 1 } m && /call.*<leaf_a@plt>/ { getline; sub(\":\", \"\", \$1); print \$1; exit }") &&
	test -n "$ret" &&
	want=$(printf "%x" $((0x$ret - 1))) &&
	grep -A1 " leaf_a+" pulse.out | grep -q "^	 *$want mid+"
'

# -F srcline is left out: pulse's source lines of inlined code name the
# inlined function's file (dl-cacheinfo.h:321 where perf says
# dl-get-cpu-features.c:321, frame pointers or not), and _start, which has
# no line, prints "dwarf-tree[10a0]" where perf's addr2line says ??:0
for f in ip,sym ip,sym,dso ip,sym,symoff,dso comm,tid,ip,sym,symoff,dso \
	 ip,dso sym,symoff; do
	test_expect_success PERF "-F $f" '
		same_dw_script dw.data -F '"$f"'
	'
done

test_expect_success PERF '--max-stack and -G (no callchain) as perf' '
	same_dw_script dw.data --max-stack 2 &&
	same_dw_script dw.data --max-stack 0 &&
	same_dw_script dw.data -G
'

test_expect_success PERF 'a frame-pointer file prints as perf too' '
	perf record -q -g -o fp.data -- "$WL/dwarf-tree-fp" 200 >/dev/null 2>&1 &&
	same_dw_script fp.data &&
	grep -q " mid+" pulse.out
'

test_done
