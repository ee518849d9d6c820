#!/bin/bash
# pulse record --mmap-flush N as perf 6.1: a pass leaves a ring alone while
# it holds fewer than N bytes (perf's mmap flush), the last pass takes
# everything; the value is parsed as perf's record__mmap_flush_parse()
# (B/K/M/G, else strtol base 0, never refused, capped at a quarter of the
# ring's mapping).
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
rounds() { perf_ok "$1" report -D | grep -c "PERF_RECORD_FINISHED_ROUND" || true; }

test_expect_success PERF 'a large --mmap-flush holds the data to the last pass, as perf' '
	record_ok err -o plain.data -- $WL/spin 500 &&
	record_ok err.f --mmap-flush=128K -o flush.data -- $WL/spin 500 &&
	perf record -q --mmap-flush=128K -o perf.data -- $WL/spin 500 2>/dev/null &&
	echo "# rounds: plain $(rounds plain.data), flush $(rounds flush.data), perf $(rounds perf.data)" &&
	expect_gt "$(rounds plain.data)" 1 "rounds without --mmap-flush" &&
	expect_eq "$(rounds flush.data)" "$(rounds perf.data)" &&
	expect_eq "$(rounds flush.data)" 1 &&
	expect_gt "$(count_samples flush.data)" 1000 samples
'

test_expect_success PERF,ROOT,TRACEFS 'the last pass takes everything: N calls, N samples (with -z too)' '
	record_ok err -q --mmap-flush=100K -e $TP -o n.data -- $WL/getppid 1000 &&
	expect_eq "$(count_samples n.data $TP)" 1000 &&
	record_ok err -q -z --mmap-flush=100K -e $TP -o - -- $WL/getppid 1000 >n.pipe &&
	expect_eq "$(count_samples n.pipe $TP)" 1000
'

for v in 1 0 4096 4K 64K 1M 1G abc 5x 0x100 10k 2b 4KB ""; do
	test_expect_success PERF "--mmap-flush=$v: accepted, as perf" '
		rc=0; perf record -q --mmap-flush="'"$v"'" -o p.data -- $WL/spin 20 >/dev/null 2>&1 || rc=$?
		rc2=0; pulse record -q --mmap-flush="'"$v"'" -o q.data -- $WL/spin 20 >/dev/null 2>q.err || rc2=$?
		cat q.err
		expect_eq "$rc2" "$rc" && expect_eq "$rc2" 0 && test -s q.data
	'
done

test_expect_success 'record -h lists --mmap-flush' '
	expect_fail 129 help.err pulse record -h &&
	grep -q "^ *--mmap-flush <number>" help.err
'

test_done
