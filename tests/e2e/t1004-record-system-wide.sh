#!/bin/bash
# pulse record -a / -C: processes that are not the recorder's children are
# recorded (a spin started separately; a getppid run started separately
# gives exactly its N samples).
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
N=3000

test_expect_success PERF,ROOT 'file mode: -a samples a separately started process' '
	start_bg $WL/spin 2000; spid=$!
	record_ok err -a -o sw.data -- $WL/spin 800
	n=$(count_pid_samples sw.data $spid)
	expect_gt "$n" 0 "samples of the separate spin ($spid)"
	perf_in sw.data script -F comm,pid >comms
	awk -v p=$spid "\$1 == \"spin\" && \$2 == p" comms | grep -q .
'

# A spin pinned to each CPU this test may use: each of them must show up
# (whether an idle CPU takes a sample depends on the machine, not on -a).
test_expect_success PERF,ROOT 'file mode: -a samples carry their CPU, every busy CPU is seen' '
	perf_in sw.data evlist -v >evlist
	grep -q "sample_type: [A-Z|]*CPU" evlist
	cpus=$(taskset -cp $$ | sed "s/.*: //" | tr , "\n" |
		awk -F- "{ for (c = \$1; c <= (NF > 1 ? \$2 : \$1); c++) print c }")
	echo "# CPUs: " $cpus
	pins=""
	for c in $cpus; do pins="$pins taskset -c $c $WL/spin 300 &"; done
	record_ok err.pin -a -o pin.data -- sh -c "$pins wait"
	perf_in pin.data script -F comm,cpu >seen
	for c in $cpus; do
		awk -v c=$c "\$1 == \"spin\" && \$2 == sprintf(\"[%03d]\", c)" seen | grep -q . ||
			{ echo "no spin sample on CPU $c"; sort seen | uniq -c; false; } || return 1
	done
'

test_expect_success PERF,ROOT 'pipe mode: -a samples a separately started process' '
	start_bg $WL/spin 2000; spid=$!
	record_ok err.pipe -a -o - -- $WL/spin 800 >sw.pipe
	n=$(count_pid_samples sw.pipe $spid)
	expect_gt "$n" 0 "samples of the separate spin ($spid)"
'

# getppid waits 500 ms before its calls so that the recorder is surely on.
test_expect_success PERF,ROOT,TRACEFS 'file mode: -a -e getppid counts exactly N for the separate process' '
	start_bg $WL/getppid $N --delay-ms 500; gpid=$!
	record_ok err.tp -a -e $TP -o tp.data -- $WL/spin 1500
	proc_alive $gpid && { echo "getppid still running after the recording"; false; }
	expect_eq "$(count_pid_samples tp.data $gpid)" $N
'

test_expect_success PERF,ROOT,TRACEFS 'pipe mode: -a -e getppid counts exactly N for the separate process' '
	start_bg $WL/getppid $N --delay-ms 500; gpid=$!
	record_ok err.tpp -a -e $TP -o - -- $WL/spin 1500 >tp.pipe
	expect_eq "$(count_pid_samples tp.pipe $gpid)" $N
'

test_expect_success PERF,ROOT '-a -C 0: every sample is on CPU 0' '
	start_bg $WL/spin 1000
	record_ok err.c0 -a -C 0 -o c0.data -- $WL/spin 500
	perf_in c0.data script -F cpu 2>/dev/null | sort -u >cpus
	cat cpus
	expect_eq "$(cat cpus | tr -d " ")" "[000]"
'

test_expect_success PERF,ROOT '-C 1 alone is system-wide on CPU 1' '
	test "$(nproc)" -ge 2 || { echo "# one CPU: nothing to check"; exit 0; }
	start_bg $WL/spin 1000
	record_ok err.c1 -C 1 -o c1.data -- $WL/spin 500
	perf_in c1.data script -F cpu 2>/dev/null | sort -u >cpus1
	expect_eq "$(cat cpus1 | tr -d " ")" "[001]"
'

test_done
