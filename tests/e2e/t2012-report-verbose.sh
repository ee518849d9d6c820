#!/bin/bash
# pulse report -v as perf 6.1's: DSOs by their long names, symbols after
# the entry's address and where their symbols came from (perf's
# dso__symtab_origin(): 'd' a DSO's own file, '!' none), the column widths
# perf computes for them; -q wins over -v. perf's debug lines on stderr
# are not printed.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

test_expect_success '-v: long names, addresses and origins' '
	pulse report -i "$G/calls.data" --symfs "$G/root" --stdio -v >out 2>err &&
	grep -qx "    78.57%  gl-calls  /tmp/pulse-golden/bin/gl-calls  0x1033             d \[.\] leaf_spin" out &&
	grep -q "^# Overhead  Command   Shared Object                   Symbol                            \$" out &&
	pulse report -i "$DATA/perf-2ev.data" --stdio --verbose >out &&
	grep -q "  0x11b6             ! \[.\] 0x00000000000011b6\$" out &&
	pulse report -i "$G/calls.data" --symfs "$G/root" --stdio -q -v >out &&
	grep -qx "    78.57%  gl-calls  gl-calls       \[.\] leaf_spin" out
'

test_expect_success PERF 'the same output as perf 6.1' '
	for f in "$G/calls.data" "$G/calls-g.data" "$G/fork-tp.data" "$DATA/perf-2ev.data" \
		 "$DATA/perf-g.data" "$DATA/perf-tp.data"; do
		for a in "-v" "-v --no-children" "-v --sort dso,sym" "-vv -n" "-q -v" "-v --sort sym"; do
			same_report "$G/root" "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
