#!/bin/bash
# The records of a stat file (THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT,
# STAT_ROUND, EVENT_UPDATE) in pulse report -D, --stats and --header-only,
# against perf 6.1 on the same files: files `perf stat record` makes here
# (a command; -a -I 100; -A; a pipe stream) and files the data writer makes
# (tests/tools/pulse-mkstat: each CPU_MAP layout, the other byte order, a
# pipe stream). perf warns on stderr about the pulse-mkstat files (they have
# no kernel MMAP, so "Kernel address maps ... were restricted"), so only
# stdout is compared for those; pulse must print nothing on stderr.
. "$(dirname "$0")/lib/test-lib.sh"

# same ARGS...: perf and pulse print the same with ARGS (stdout and stderr)
same() {
	perf "$@" >expect 2>&1
	pulse "$@" >actual 2>&1
	cmp expect actual || { diff expect actual | head -20; false; }
}

# same_out ARGS...: the same stdout, nothing on pulse's stderr
same_out() {
	perf "$@" >expect 2>/dev/null
	pulse "$@" >actual 2>err
	cmp expect actual || { diff expect actual | head -20; false; }
	test_must_be_empty err
}

test_expect_success PERF,ROOT 'perf stat record -- true: -D, --stats, --header-only' '
	perf stat record -o x.data -- true 2>/dev/null &&
	same report -D -i x.data &&
	grep -q "PERF_RECORD_STAT_CONFIG" actual &&
	grep -q "PERF_RECORD_CPU_MAP: -1" actual &&
	same report --stats -i x.data &&
	grep -q "STAT_ROUND events:" actual &&
	same report --header-only -i x.data &&
	grep -q "^# contains stat data" actual
'

test_expect_success PERF,ROOT 'perf stat record -a -I 100: rounds, a cpu range' '
	perf stat record -a -I 100 -o y.data sleep 0.5 >/dev/null 2>&1 &&
	same report -D -i y.data &&
	grep -q "PERF_RECORD_CPU_MAP: 0-" actual &&
	test "$(grep -c "type INTERVAL" actual)" -ge 3 &&
	same report --stats -i y.data
'

test_expect_success PERF,ROOT 'perf stat record -A -a -I 100 and a pipe stream' '
	perf stat record -A -a -I 100 -o z.data -e task-clock sleep 0.25 >/dev/null 2>&1 &&
	same report -D -i z.data &&
	grep -q "aggr_mode 0" actual &&
	perf stat record -o - -- true >x.pipe 2>/dev/null &&
	perf report -D -i - <x.pipe >expect 2>&1 &&
	pulse report -D -i - <x.pipe >actual 2>&1 &&
	cmp expect actual
'

for m in cpus mask mask32 range; do
	test_expect_success PERF "pulse-mkstat CPU_MAP as $m: -D, --stats" '
		"$TOOLS"/pulse-mkstat -c 0,1,2 -m $m -I 100:2 m.data \
			task-clock=5/10/5 page-faults=3/10/10 cycles=- &&
		same_out report -D -i m.data &&
		grep -q "PERF_RECORD_CPU_MAP: 0-2" actual &&
		same_out report --stats -i m.data
	'
done

test_expect_success PERF 'pulse-mkstat: a mask with holes, and any-cpu' '
	"$TOOLS"/pulse-mkstat -c 1,5,64,130 -m mask m.data task-clock=5/10/5 &&
	same_out report -D -i m.data &&
	grep -q "PERF_RECORD_CPU_MAP: 1,5,64,130" actual &&
	"$TOOLS"/pulse-mkstat -c -1,0,1 -m range m.data task-clock=5/10/5 &&
	same_out report -D -i m.data &&
	grep -q "PERF_RECORD_CPU_MAP: -1-1$" actual	# perf: -1,0,1 is a run
'

test_expect_success PERF 'pulse-mkstat: the other byte order, and a pipe stream' '
	"$TOOLS"/pulse-mkstat -c 0,1,3 -m mask32 -I 10:1 m.data task-clock=5/10/5 cycles=- &&
	"$TOOLS"/pulse-mkdata swap m.data ms.data &&
	same_out report -D -i ms.data &&
	grep -q "PERF_RECORD_CPU_MAP: 0-1,3" actual &&
	"$TOOLS"/pulse-mkstat -p - task-clock=5/10/5 >mp.data &&
	perf report -D -i - <mp.data >expect 2>/dev/null &&
	pulse report -D -i - <mp.data >actual 2>err &&
	cmp expect actual &&
	test_must_be_empty err
'

test_done
