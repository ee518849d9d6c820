#!/bin/bash
# A recorder killed with SIGKILL mid-run leaves a file whose header (as
# last rewritten while recording) describes only whole, readable records:
# pulse report and the real perf read it and find samples.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid


# check_header FILE: data.size > 0 and the data it promises is all there.
check_header() {
	local size end fsize
	size=$(header_data_size "$1")
	end=$(header_data_end "$1")
	fsize=$(stat -c %s "$1")
	echo "# data.size $size, data ends at $end, file size $fsize"
	expect_gt "$size" 0 "data.size"
	expect_ge "$fsize" "$end" "file size"
}

test_expect_success 'cpu-clock: SIGKILL mid-run leaves a readable header' '
	kill_mid_run k.data -- $WL/spin 4000
	check_header k.data
'

# 2.2 s of spin at 4000 Hz: ~8800 samples, more than 4000 of them before
# the last rewrite. 500 leaves ample slack for a slow machine.
test_expect_success PERF 'cpu-clock: pulse report reads the killed file' '
	pulse report -i k.data --stdio >rep 2>rep.err
	cat rep.err
	n=$(grep "^# Samples: " rep | head -1)
	echo "# $n"
	expect_gt "$(report_event_count <rep)" 0 "event count"
	report_rows <rep | grep -q "spin_loop$"
	expect_ge "$(count_samples k.data)" 500 "samples kept"
'

test_expect_success PERF 'cpu-clock: perf script and perf report read the killed file' '
	perf_ok k.data script -F comm,pid,ip,sym >script.out
	n=$(grep -c . script.out)
	expect_gt "$n" 0 "perf script samples"
	perf_ok k.data report --stdio >prep
	expect_gt "$(report_event_count <prep)" 0 "perf report event count"
'

# spin's 500 getppid calls (36 KB of samples, less than the 64 KB ring)
# come first: their samples are written long before the recorder is
# killed, so all of them are in the file.
test_expect_success ROOT,TRACEFS 'tracepoint: pulse report reads the killed file, every early sample kept' '
	kill_mid_run kt.data -e $TP,cpu-clock -- $WL/spin 4000 --getppid 500
	check_header kt.data
	pulse report -i kt.data --stdio >rept 2>rept.err
	cat rept.err
	grep "^# Total Lost" rept
	# without the closing features the tracepoint may have no name
	# ("unknown tracepoint", "unknown-2-0x131"): take the table that is
	# not cpu-clock
	n=$(awk "/^# Samples: / && !/of event .cpu-clock.\$/ { t = 1; next }
		t && /^# Event count/ { print \$NF; exit }" rept)
	expect_eq "$n" 500 || { cat rept; false; }
	expect_gt "$(report_event_count cpu-clock <rept)" 0 "cpu-clock event count"
'

test_done
