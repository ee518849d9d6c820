#!/bin/bash
# pulse report --sort srcline as perf 6.1's: "Source:Line", file:line from
# the DWARF line table (libdw), else perf's map__srcline() fallbacks: the
# symbol and the ip's distance from its start in decimal (for --children
# entries made from callchain frames, whose ip is the frame's address,
# a large number as perf prints it), "dso[addr]" without a symbol. The
# width is perf's: only the texts perf made before measuring the column
# count, the others are cut to it.
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data

test_expect_success 'srcline: file:line, the fallbacks' '
	record_ok err -g -o pcg.data -- "$WL/calltree" &&
	pulse report -i pcg.data --stdio -s srcline -g none >out 2>err &&
	grep -q "^# Children      Self  Source:Line  *\$" out &&
	grep -qE "^ +[0-9.]+% +[0-9.]+%  calltree\.c:[0-9]+\$" out &&
	grep -qE "^ +[0-9.]+% +0\.00%  main\+[0-9]{6,}\$" out &&
	pulse report -i pcg.data --stdio -s srcline --no-children --symbols leaf_a >out 2>err &&
	grep -qE "^ +[0-9.]+%  calltree\.c:2[0-9]\$" out &&
	pulse report -i "$DATA/perf-g.data" --stdio -s sym,srcline -g none >out 2>err &&
	grep -q "0x00005615c3438201      spin\[5615c3438201\]\$" out
'

test_expect_success PERF 'the same output as perf 6.1 (fresh recordings)' '
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf record -q -o flat.data -- "$WL/calltree" >/dev/null 2>&1 &&
	# the fresh ones without ld.so'\''s inlined lines, where perf names the caller'\''s file
	for f in "cg.data --symbols main,mid,leaf_a,leaf_b" "flat.data --symbols mid,leaf_a,leaf_b" \
		 "pcg.data --symbols main,mid,leaf_a,leaf_b"; do
		for a in "-s srcline" "--no-children -s srcline" "-s sym,srcline -g none" \
			 "-F srcline,overhead,sample" "-s dso,srcline -n" "-s comm,srcline,period" \
			 "-s sym,srcline --no-children" "-F sym,srcline -s dso"; do
			same_report / $f $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
