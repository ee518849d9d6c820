#!/bin/bash
# pulse report --stats: perf 6.1's "Aggregated stats" block and per-event
# counts, the same counts -D closes with.
. "$(dirname "$0")/lib/test-lib.sh"
DATA=$PULSE_TOP/tests/data

test_expect_success 'golden file: the exact counts, without perf' '
	"$PULSE" report --stats -i "$DATA/perf-2ev.data" >out &&
	cat >expect <<-\EOF &&

	Aggregated stats:
	           TOTAL events:         67
	            MMAP events:          1  ( 1.5%)
	            COMM events:          2  ( 3.0%)
	            EXIT events:          1  ( 1.5%)
	          SAMPLE events:         50  (74.6%)
	           MMAP2 events:          4  ( 6.0%)
	  FINISHED_ROUND events:          1  ( 1.5%)
	        ID_INDEX events:          1  ( 1.5%)
	      THREAD_MAP events:          1  ( 1.5%)
	         CPU_MAP events:          1  ( 1.5%)
	    EVENT_UPDATE events:          4  ( 6.0%)
	   FINISHED_INIT events:          1  ( 1.5%)
	cpu-clock stats:
	          SAMPLE events:         25
	task-clock stats:
	          SAMPLE events:         25
	EOF
	test_cmp expect out
'

for f in perf-cpuclock perf-g perf-tp perf-z perf-2ev; do
	test_expect_success PERF "$f: the same as perf report --stats" '
		perf report --stats -i "$DATA/'$f'.data" 2>/dev/null >perf.out &&
		"$PULSE" report --stats -i "$DATA/'$f'.data" >pulse.out &&
		test_cmp perf.out pulse.out
	'
done

test_expect_success PERF 'a fresh pulse recording: the same as perf report --stats' '
	"$PULSE" record -q -e cpu-clock,page-faults -o two.data -- "$WL/calltree" 100 &&
	perf report --stats -i two.data 2>/dev/null >perf.out &&
	"$PULSE" report --stats -i two.data >pulse.out &&
	test_cmp perf.out pulse.out
'

test_expect_success 'bad input: one error line, exit 1' '
	printf "not a perf file, not at all, nothing here to read........" >bad.data &&
	expect_fail 1 err "$PULSE" report --stats -i bad.data &&
	test "$(grep -c "^error:" err)" = 1
'

test_done
