#!/bin/bash
# pulse stat report prints what perf 6.1's stat report prints on the same
# stat file: perf's files (task counts, -a -I 100, -A, pipe), pulse's, and
# pulse-mkstat's counters that ran less than they were enabled (scaled, with
# the (xx.xx%) column); the file's aggregation, or -A/--per-*.
. "$(dirname "$0")/lib/test-lib.sh"

# same ARGS...: perf stat report and pulse stat report, stdout and stderr apart, exit code
same() {
	perf stat report "$@" >expect 2>expect.err; echo "rc $?" >>expect
	pulse stat report "$@" >actual 2>actual.err; echo "rc $?" >>actual
	cmp expect actual || { diff expect actual | head -20; false; }
	cmp expect.err actual.err || { diff expect.err actual.err | head; false; }
}

test_expect_success PERF,ROOT 'perf stat record files: task, -a -I 100, -A, pipe' '
	perf stat record -o f1.data -- true 2>/dev/null &&
	same -i f1.data && grep -q " page-faults " actual.err &&
	same -i f1.data -A && grep -q "processing task data" actual.err &&
	perf stat record -o f2.data -a -I 100 sleep 0.35 >/dev/null 2>&1 &&
	same -i f2.data && test $(grep -c " context-switches " actual.err) -ge 3 &&
	same -i f2.data -A && same -i f2.data --per-socket &&
	perf stat record -A -a -o f3.data -e task-clock,cs sleep 0.1 >/dev/null 2>&1 &&
	same -i f3.data && grep -q "^CPU1 " actual.err && same -i f3.data --per-core &&
	perf stat record -o - -e page-faults -- true >f4.pipe 2>/dev/null &&
	perf stat report -i - <f4.pipe >expect 2>&1 &&
	pulse stat report -i - <f4.pipe >actual 2>&1 && cmp expect actual &&
	grep -q " page-faults " actual
'

test_expect_success PERF,ROOT 'pulse stat record files' '
	pulse stat record -o p.data -a -I 100 -e task-clock,context-switches -- sleep 0.25 2>/dev/null &&
	same -i p.data && same -i p.data -A &&
	pulse stat record -o q.data -e page-faults -- true 2>/dev/null && same -i q.data
'

test_expect_success PERF 'pulse-mkstat: scaled counters and (xx.xx%), -I rounds' '
	"$TOOLS"/pulse-mkstat m1.data task-clock=50000000/100000000/50000000 \
		page-faults=7/100/40 cycles=- &&
	same -i m1.data && grep -q " 17 .*page-faults .*(40.00%)" actual.err &&
	grep -q "<not supported> *cycles" actual.err &&
	"$TOOLS"/pulse-mkstat -I 100:3 -c 0,1 -a 0 m2.data task-clock=50000000/100000000/50000000 \
		page-faults=7/100/100 && same -i m2.data && grep -q "^ *0.300000000 CPU1 .*(50.00%)" actual.err &&
	"$TOOLS"/pulse-mkstat -c 0,1 m3.data task-clock=50000000/100000000/50000000 \
		context-switches=9/100/30 && same -i m3.data && same -i m3.data -A
'

test_expect_success PERF 'bad input' '
	rc=0 && pulse stat report -i nothere 2>err || rc=$? && expect_eq $rc 1 &&
	grep -q "^error: cannot read .nothere.: No such file" err &&
	rc=0 && pulse stat report -x, 2>/dev/null || rc=$? && expect_eq $rc 129 &&
	rc=0 && perf stat report -x, 2>/dev/null || rc=$? && expect_eq $rc 129
'

test_done
