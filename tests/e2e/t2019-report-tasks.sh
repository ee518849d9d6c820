#!/bin/bash
# pulse report --tasks as perf 6.1's tasks__print(): "# pid tid ppid comm",
# then each thread under its parent (FORK's ppid), a column further in a
# level, in the order perf's walk of its threads table (256 trees by
# tid % 256) hangs them; no report.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden

test_expect_success '--tasks: the threads under their parents' '
	pulse report -i "$G/fork-tp.data" --tasks >out &&
	printf "%s\n" "#      pid      tid     ppid  comm" \
		"         0        0       -1 |swapper" \
		"      1356     1356       -1 |gl-fork" \
		"      1363     1363     1356 | gl-child" >expect &&
	test_cmp expect out
'

test_expect_success PERF,ROOT 'a system-wide file: the same tree as perf 6.1' '
	perf record -q -a -o a.data -- sh -c "for i in 1 2 3; do (sleep 0.05 &); ls >/dev/null; done; sleep 0.2" \
		>/dev/null 2>&1 &&
	perf report -i a.data --tasks 2>/dev/null >perf.out &&
	test $(wc -l <perf.out) -gt 20 &&
	pulse report -i a.data --tasks >pulse.out &&
	diff -u perf.out pulse.out &&
	perf report -i "$G/calls.data" --tasks 2>/dev/null >perf.out &&
	pulse report -i "$G/calls.data" --tasks >pulse.out &&
	diff -u perf.out pulse.out
'

test_done
