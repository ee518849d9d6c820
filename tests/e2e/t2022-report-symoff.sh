#!/bin/bash
# pulse report --sort symoff: newer perf's key (6.8), which perf 6.1
# refuses: "Symbol Offset", "[.] sym+0xOFF" of the entry's address, an
# entry per address; the address without a symbol. A --children entry made
# from a callchain frame gets the frame's offset in its symbol, as perf
# script prints it (newer perf prints the frame's address less the
# symbol's start there).
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data

test_expect_success 'symoff: symbol+offset per address' '
	record_ok err -g -o cg.data -- "$WL/calltree" &&
	pulse report -i cg.data --stdio -s symoff -g none >out 2>err &&
	grep -q "^# Children      Self  Symbol Offset\$" out &&
	grep -qE "^ +[0-9.]+% +[0-9.]+%  \[\.\] leaf_a\+0x[0-9a-f]{1,3}\$" out &&
	grep -qE "^ +[0-9.]+% +0\.00%  \[\.\] main\+0x[0-9a-f]{1,3}\$" out &&
	! grep -qE "\+0x[0-9a-f]{8,}\$" out &&
	test $(grep -c "\[\.\] leaf_a+0x" out) -ge 2 &&
	pulse report -i "$DATA/perf-g.data" --stdio -s symoff --no-children >out 2>err &&
	grep -qx "    96.00%  \[\.\] 0x0000011b6" out &&
	pulse report -i cg.data --stdio -F symoff,overhead --no-children >out 2>err &&
	grep -q "^# Symbol Offset  Overhead\$" out
'

test_expect_success PERF 'perf 6.1 has no symoff key' '
	perf record -q -o p.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf report -i p.data --stdio -s symoff >out 2>err;
	grep -q "Unknown --sort key: .symoff" err &&
	pulse report -i p.data --stdio -s symoff >out 2>err &&
	grep -q "Symbol Offset" out
'

test_done
