#!/bin/bash
# -D START-END,...: perf 6.1's time windows, ms after the command starts:
# the events are on only inside them, with perf's "Events enabled" and
# "Events disabled" lines. burst makes 1000 getppid calls every 200 ms, so
# the windows 100-300 and 500-700 hold exactly the second and the fourth.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

test_expect_success PERF,TRACEFS '-D 100-300,500-700: exactly the bursts inside the windows, as perf' '
	record_ok err -D 100-300,500-700 -e $TP -o d.data -- $WL/burst 1000 4 --gap-ms 200
	expect_eq "$(count_samples d.data $TP)" 2000
	grep "^Events" err >lines
	# perf 6.1 then dies of a SIGTERM it sends itself (exit 143); pulse exits 0
	perf record -D 100-300,500-700 -e $TP -o p.data -- $WL/burst 1000 4 --gap-ms 200 2>perr || true
	expect_eq "$(count_samples p.data $TP)" 2000
	grep "^Events" perr >plines
	test_cmp plines lines
	expect_eq "$(head -1 lines)" "Events disabled"
	expect_eq "$(grep -c "^Events enabled$" lines)" 2
'

test_expect_success PERF 'bad windows: usage error 129, as perf' '
	for a in 20-10 10-20,15-30 10-20,30 10- abc; do
		expect_fail 129 err pulse record -D "$a" -o x.data -- true &&
		grep -q "^error: invalid -D" err &&
		expect_fail 129 perr perf record -D "$a" -o p.data -- true || return 1
	done
'

test_done
