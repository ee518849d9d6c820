#!/bin/bash
# The flight recorder's deep mode, -M SIZE (seed 003): the past is kept in
# a ring of compressed chunks in pulse's memory and written only on a
# trigger. The workload (burst) makes exactly N getppid calls per burst and
# sends SIGUSR2 to its parent, the recorder, after each, so every count is
# exact.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
test_have_prereq TRACEFS || true

# first and last sample time of FILE, as perf script prints them
times_of() { perf_in "$1" script -F time 2>/dev/null | tr -d ' :' | sed -n '1p;$p' | tr '\n' ' '; }

test_expect_success PERF,TRACEFS 'no signal: no samples on disk, and a line that says so (seed 003, example 1)' '
	record_ok err -M 4M -e $TP -o none.data -- $WL/burst 1000 2 --gap-ms 10
	grep -q "no snapshot was asked for (SIGUSR2): no samples written" err
	expect_eq "$(count_samples none.data)" 0
	record_ok err2 -M 4M --switch-output -e $TP -o sw.data -- $WL/burst 1000 2 --gap-ms 10
	grep -q "no snapshot was asked for" err2
	expect_eq "$(ls sw.data* 2>/dev/null | wc -l)" 0
'

test_expect_success PERF,TRACEFS 'three signals: one file holding each dump once (seed 003, example 2)' '
	record_ok err -M 4M -e $TP -o three.data -- $WL/burst 1000 3 --signal 12 --gap-ms 100
	expect_eq "$(grep -c "^\[ pulse record: Dump three.data: 1000 samples \]$" err)" 3
	perf_ok three.data report --stdio >rep
	grep -q "^# Samples: 3K of event .$TP.$" rep
	expect_eq "$(count_samples three.data $TP)" 3000
	pulse report -i three.data --stdio >prep 2>perr
	test_must_be_empty perr
	grep -q "^# Samples: 3K of event .$TP.$" prep
'

test_expect_success PERF,TRACEFS '--switch-output: three files, each read by perf and pulse, time ranges increasing and apart' '
	record_ok err -M 4M --switch-output -e $TP -o sw.data -- $WL/burst 1000 3 --signal 12 --gap-ms 100
	ls sw.data.* >files
	expect_eq "$(wc -l <files)" 3
	grep -qE "^sw\.data\.[0-9]{16}$" files
	prev=0
	for f in $(cat files); do
		expect_eq "$(count_samples $f $TP)" 1000 &&
		perf_ok $f report --stdio >/dev/null &&
		pulse report -i $f --stdio >/dev/null 2>perr && test_must_be_empty perr &&
		set -- $(times_of $f) &&
		awk -v p=$prev -v a=$1 -v b=$2 "BEGIN { exit !(p < a && a <= b) }" &&
		prev=$2 || return 1
	done
	not ls sw.data.*.tmp 2>/dev/null
'

test_expect_success PERF,TRACEFS '--switch-max-files 2: three snapshots leave the newest two' '
	record_ok err -M 4M --switch-output --switch-max-files 2 -e $TP -o mx.data -- \
		$WL/burst 500 3 --signal 12 --gap-ms 100
	expect_eq "$(ls mx.data.* | wc -l)" 2
	grep -q "Removed mx.data.[0-9]*" err
'

test_expect_success PERF,TRACEFS 'a command that fails leaves its last moments (on by default with -M)' '
	rc=0; pulse record -M 4M -e $TP -o crash.data -- $WL/burst 700 1 --gap-ms 10 --exit 3 2>err || rc=$?
	expect_eq $rc 3
	grep -q "the command failed" err
	expect_eq "$(count_samples crash.data $TP)" 700
	rc=0; pulse record -M 4M --no-crash-snapshot -e $TP -o nocrash.data -- $WL/burst 700 1 --gap-ms 10 --exit 3 2>err || rc=$?
	expect_eq $rc 3
	expect_eq "$(count_samples nocrash.data $TP)" 0
'

test_expect_success PERF,TRACEFS 'a command killed by a signal leaves its last moments too' '
	rc=0; pulse record -M 4M -e $TP -o segv.data -- sh -c "$WL/burst 400 1 --gap-ms 10; kill -SEGV \$\$" 2>err || rc=$?
	expect_eq $rc 139
	expect_eq "$(perf_in segv.data script -F comm 2>/dev/null | grep -c burst)" 400
'

test_expect_success PERF,TRACEFS 'the window: a small -M keeps the newest whole chunks, drops the oldest, and says so' '
	record_ok err -M 256K -e $TP -o small.data -- $WL/burst 100000 1 --signal 12 --gap-ms 100
	n=$(count_samples small.data $TP)
	expect_gt "$n" 1000 "kept"
	expect_gt 100000 "$n" "kept"
	grep -q "older samples left the -M window" err
	# 100000 events in a burst can overflow the kernel ring of a loaded
	# machine: perf then warns of the LOST record the recorder wrote, an
	# honest count, not damage; anything else it says fails the test
	perf_in small.data report --stdio >/dev/null 2>perf.err
	grep -vE "^[[:space:]]*$|^Warning:$|^Processed [0-9]+ events and lost [0-9]+ chunks!$|^Check IO/CPU overload!$" perf.err >other || :
	test_must_be_empty other
'

test_expect_success PERF,TRACEFS 'a snapshot that cannot be written: a warning, the recording goes on, the next one holds both' '
	mkdir out
	record_ok err -M 4M --switch-output -e $TP -o out/x.data -- sh -c "
		rmdir out; $WL/burst 1000 1 --gap-ms 10; kill -USR2 \$PPID; sleep 0.3
		mkdir out; $WL/burst 1000 1 --gap-ms 10; kill -USR2 \$PPID; sleep 0.3"
	grep -q "^warning: snapshot not written to out/x.data.tmp: No such file or directory (the recording goes on)$" err
	grep -q "1 snapshot could not be written" err
	expect_eq "$(ls out/x.data.* | wc -l)" 1
	expect_eq "$(perf_in out/x.data.2* script -F comm 2>/dev/null | grep -c burst)" 2000
'

test_done
