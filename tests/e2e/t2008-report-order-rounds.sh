#!/bin/bash
# Time ordering across FINISHED_ROUNDs as perf 6.1's ordered_events does it:
# once a round has delivered everything, the next round's limit starts
# again from the next record queued, so a late COMM still comes before a
# sample perf holds back. The file is built record by record
# (tests/tools/pulse-mkorder); then a real system-wide recording, whose
# every sample's comm, tid and time must read as perf's.
. "$(dirname "$0")/lib/test-lib.sh"

# tid 100 is "early" at t=10; its sample at t=7 is read a round before the
# COMM "late" at t=6, but perf's limit for that round is 5 (the newest
# record queued since the queue emptied), so the COMM goes first.
test_expect_success 'a round after an emptied queue flushes only up to its own records' '
	"$TOOLS/pulse-mkorder" o.data C200@1=other C100@10=early R R S200@5 R \
		S200@4 S100@7 R C100@6=late &&
	"$PULSE" script -i o.data -F comm,tid | sed "s/ *\$//" >out &&
	cat >expect <<-\EOF &&
	           other   200
	           other   200
	            late   100
	EOF
	diff -u expect out
'

test_expect_success PERF 'the same file: perf report and perf script agree' '
	perf report -i o.data --stdio --sort comm,pid -n 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	"$PULSE" report -i o.data --stdio --sort comm,pid -n 2>/dev/null | grep -v "^# (Tip:" >pulse.out &&
	diff -u perf.out pulse.out &&
	perf script -i o.data -F comm,tid,time 2>/dev/null >perf.out &&
	"$PULSE" script -i o.data -F comm,tid,time >pulse.out &&
	diff -u perf.out pulse.out
'

test_expect_success PERF,ROOT 'system-wide recording: every sample has perf'"'"'s comm' '
	perf record -q -a -o a.data -- "$WL/spin" 300 >/dev/null 2>&1 &&
	perf script -i a.data -F comm,tid,time 2>/dev/null >perf.out &&
	"$PULSE" script -i a.data -F comm,tid,time >pulse.out &&
	diff -u perf.out pulse.out &&
	perf report -i a.data --stdio --sort comm,pid 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	"$PULSE" report -i a.data --stdio --sort comm,pid 2>/dev/null | grep -v "^# (Tip:" >pulse.out &&
	diff -u perf.out pulse.out
'

# perf's filters hide entries, not samples: an entry's first sample decides,
# and later samples of another pid join a shown entry (the sort keys have no
# pid). Two processes named spin, as when another spin runs during -a.
test_expect_success '--pid: the first sample of an entry decides whether it shows' '
	"$TOOLS/pulse-mkorder" pa.data C100@1=spin C200@1=spin S100@2 S200@3 S200@4 &&
	"$TOOLS/pulse-mkorder" pb.data C100@1=spin C200@1=spin S200@2 S100@3 S100@4 &&
	"$PULSE" report -i pa.data --stdio --pid 100 -n >out &&
	grep -Eq "^ +100\.00% +3  spin " out &&
	"$PULSE" report -i pb.data --stdio --pid 100 -n >out &&
	not grep -q "spin " out
'

test_expect_success PERF '--pid on those files: perf agrees' '
	for f in pa pb; do
		perf report -i $f.data --stdio --pid 100 -n 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
		"$PULSE" report -i $f.data --stdio --pid 100 -n 2>/dev/null | grep -v "^# (Tip:" >pulse.out &&
		diff -u perf.out pulse.out || return 1
	done
'

# A record older than what a round already delivered: perf counts it and
# says so on stderr after reading (report and script alike).
test_expect_success 'records older than a flushed round: the out-of-order warning' '
	"$TOOLS/pulse-mkorder" late.data C100@1=a S100@5 R S100@3 R S100@2 S100@1 R &&
	"$PULSE" report -i late.data --stdio >/dev/null 2>err &&
	grep -A1 "^Warning:$" err | grep -qx "2 out of order events recorded." &&
	"$PULSE" script -i late.data >/dev/null 2>err &&
	grep -qx "2 out of order events recorded." err &&
	"$PULSE" report -i pa.data --stdio >/dev/null 2>err &&
	not grep -q "out of order" err
'

test_expect_success PERF 'the out-of-order count: perf agrees' '
	perf report -i late.data --stdio 2>&1 >/dev/null | grep "out of order" >perf.out &&
	"$PULSE" report -i late.data --stdio 2>&1 >/dev/null | grep "out of order" >pulse.out &&
	diff -u perf.out pulse.out
'

test_done
