#!/bin/bash
# pulse report on --call-graph dwarf files (recorded by perf): the user
# stacks are unwound with DWARF CFI, so a program built without frame
# pointers (tests/workloads/dwarf-tree.c, its leaves in a shared library)
# shows its whole tree, as perf 6.1 does: the same report byte for byte in
# callee and caller order, with --max-stack and --children; the same
# program built with frame pointers and recorded with -g gives the same
# percentages. Inline frames are compared as perf shows them (addr2line -i
# there, libdw here) in --no-children reports; --children rows are compared
# without them: perf 6.1.y orders and relabels its rows of inlined symbols
# by accidents of its rbtrees (README, "What does not work yet").
. "$(dirname "$0")/lib/test-lib.sh"

# perf's random tip; its "[...] (inlined)" (an uninitialised flag in perf
# 6.1, as in t2003)
normalise() {
	grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/'
}

same_dw() { # FILE ARGS...: perf report and pulse report print the same
	local f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | normalise >perf.out &&
	pulse report -i "$f" --stdio "$@" 2>pulse.err | normalise >pulse.out &&
	test_must_be_empty pulse.err &&
	grep -q "%" perf.out &&
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'record dwarf-tree with perf --call-graph dwarf, the fp build with -g' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/dwarf-tree" 400 >/dev/null 2>&1 &&
	perf record -q -g -o fp.data -- "$WL/dwarf-tree-fp" 400 >/dev/null 2>&1 &&
	perf evlist -v -i dw.data 2>/dev/null | grep -q "sample_type: [A-Z|]*REGS_USER|STACK_USER"
'

test_expect_success PERF 'the whole tree: leaf_a <- mid <- main <- libc <- _start' '
	pulse report -i dw.data --stdio --no-children --no-inline >out 2>err &&
	test_must_be_empty err &&
	grep -A6 "\[\.\] leaf_a" out >tree &&
	grep -q "^            ---leaf_a$" tree &&
	grep -q "^               mid$" tree &&
	grep -q "^               main$" tree &&
	grep -q "^               __libc_start_call_main$" tree &&
	not grep -q "\[unknown\]" tree
'

test_expect_success PERF 'report --no-children is perf'"'"'s, byte for byte' '
	same_dw dw.data --no-children
'

for g in caller callee graph,0,callee folded,0,caller flat fractal; do
	test_expect_success PERF "-g $g: perf's, with and without --children" '
		same_dw dw.data --no-children -g '"$g"' &&
		same_dw dw.data --children --no-inline -g '"$g"'
	'
done

test_expect_success PERF '--max-stack 3 and 1 cut the unwound stack as perf does' '
	same_dw dw.data --no-children --max-stack 3 &&
	same_dw dw.data --no-children --max-stack 3 -g caller &&
	same_dw dw.data --children --no-inline --max-stack 1
'

test_expect_success PERF '--children: mid and main carry their callees'"'"' time' '
	same_dw dw.data --children --no-inline &&
	mid=$(awk "\$NF == \"mid\" && \$2 ~ /%/ { sub(\"%\", \"\", \$1); print int(\$1); exit }" pulse.out) &&
	expect_ge "$mid" 90 "mid children"
'

# leaf_a and leaf_b: the self percentages of one report
shares() {
	pulse report -i "$1" --stdio --no-children -g none --sort sym --no-inline 2>/dev/null |
		awk '$NF == "leaf_a" || $NF == "leaf_b" { sub("%", "", $1); print $NF, $1 }' | sort
}

test_expect_success PERF 'the fp build recorded with -g: the same tree and shares within noise' '
	pulse report -i fp.data --stdio --no-children >fp.out 2>err &&
	grep -A4 "\[\.\] leaf_a" fp.out | grep -q "^               mid$" &&
	shares dw.data >dw.sh && shares fp.data >fp.sh &&
	test $(wc -l <dw.sh) = 2 &&
	join dw.sh fp.sh | awk "{ d = \$2 - \$3; if (d < 0) d = -d; if (d > 8) exit 1 }"
'

test_expect_success PERF 'flamegraph (which walks report) has the unwound frames' '
	pulse flamegraph -i dw.data -o fg.svg 2>err &&
	grep -q "<title>mid (" fg.svg &&
	grep -q "<title>main (" fg.svg
'

test_done
