#!/bin/bash
# pulse script on a stat file prints what perf 6.1's script prints: at each
# STAT_ROUND a CPU/THREAD/VAL/ENA/RUN/TIME/EVENT row per counter, thread and
# cpu (raw values in global mode; with -A the differences from the last
# round, scaled by ena/run), whatever -F asks; file and pipe mode, perf's
# files and pulse-mkstat's (counters that ran less than they were enabled,
# the other byte order).
. "$(dirname "$0")/lib/test-lib.sh"

# same ARGS...: perf script and pulse script print the same, stdout and stderr
same() {
	perf script "$@" >expect 2>&1
	pulse script "$@" >actual 2>&1
	cmp expect actual || { diff expect actual | head -20; false; }
}

test_expect_success PERF,ROOT 'perf stat record -- true, -a -I 100, -A' '
	perf stat record -o x.data -- true 2>/dev/null &&
	same -i x.data &&
	grep -q "^CPU   THREAD             VAL             ENA             RUN            TIME EVENT$" actual &&
	grep -q "^ -1 .* page-faults$" actual &&
	same -i x.data -F ip,sym &&
	perf stat record -a -I 100 -o y.data sleep 0.35 >/dev/null 2>&1 &&
	same -i y.data &&
	perf stat record -A -a -I 100 -o z.data -e task-clock sleep 0.25 >/dev/null 2>&1 &&
	same -i z.data
'

test_expect_success PERF,ROOT 'a pipe stream' '
	perf stat record -o - -- true >x.pipe 2>/dev/null &&
	perf script -i - <x.pipe >expect 2>&1 &&
	pulse script -i - <x.pipe >actual 2>&1 &&
	cmp expect actual &&
	grep -q " task-clock$" actual
'

test_expect_success PERF 'pulse-mkstat files: scaled per-cpu deltas (-A), global, swapped' '
	"$TOOLS"/pulse-mkstat -I 100:2 -c 0,1 -a 0 i.data \
		task-clock=50000000/100000000/50000000 page-faults=7/100/100 cycles=- &&
	same -i i.data &&
	grep -q "^  1 .* 100000000       100000000        50000000       200000000 task-clock$" actual &&
	"$TOOLS"/pulse-mkdata swap i.data is.data &&
	same -i is.data &&
	"$TOOLS"/pulse-mkstat -c 0,1,3 -m mask32 g.data task-clock=3000000/2000000/1000000 &&
	same -i g.data &&
	grep -q "^  3 .*         3000000         2000000         1000000         1000000 task-clock$" actual
'

test_done
