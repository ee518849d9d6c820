#!/bin/bash
# pulse record's sampling options, as the real perf evlist -v and perf
# script see them in the file: -F, -c, -R, -T, --sample-cpu, -m, -q, -e
# modifiers.
. "$(dirname "$0")/lib/test-lib.sh"

# evlist FILE: perf evlist -v, comment lines dropped.
evlist() { perf_ok "$1" evlist -v | grep -v "^#"; }
# attr_has FILE FIELD-REGEX: the (first) event's attrs match.
attr_has() {
	evlist "$1" | head -1 | grep -qE -- "$2" || { echo "no '$2' in:" >&2; evlist "$1" >&2; return 1; }
}

test_expect_success PERF 'default: cpu-clock at 4000 Hz' '
	record_ok err -o def.data -- $WL/spin 100
	attr_has def.data "^cpu-clock[:a-zA-Z]*: type: 1, "
	attr_has def.data "sample_freq \}: 4000, "
	attr_has def.data ", freq: 1, "
	attr_has def.data "sample_type: IP\|TID\|TIME\|PERIOD, "
	attr_has def.data "disabled: 1, inherit: 1, "
	attr_has def.data "enable_on_exec: 1"
	attr_has def.data "sample_id_all: 1"
'

test_expect_success PERF '-F 1000: frequency 1000' '
	record_ok err -F 1000 -o f.data -- $WL/spin 100
	attr_has f.data "sample_freq \}: 1000, "
	attr_has f.data ", freq: 1, "
'

test_expect_success PERF '-c 100000: a fixed period, no PERIOD in the samples' '
	record_ok err -c 100000 -o c.data -- $WL/spin 300
	attr_has c.data "sample_freq \}: 100000, "
	not attr_has c.data "freq: 1" 2>/dev/null
	attr_has c.data "sample_type: IP\|TID\|TIME, "
	# 300 ms of CPU at one sample per 100 us of cpu-clock: about 3000
	n=$(count_samples c.data)
	expect_gt "$n" 1000 samples
	expect_gt 6000 "$n" samples
'

test_expect_success PERF '-R -T --sample-cpu: RAW, TIME and CPU in the samples' '
	record_ok err -R -T --sample-cpu -o rtc.data -- $WL/spin 100
	attr_has rtc.data "sample_type: [A-Z|]*TIME"
	attr_has rtc.data "sample_type: [A-Z|]*CPU"
	attr_has rtc.data "sample_type: [A-Z|]*RAW"
	perf_ok rtc.data script -F cpu,time >/dev/null
'

test_expect_success PERF '--sample-cpu: perf script prints the CPU of each sample' '
	record_ok err --sample-cpu -o sc.data -- $WL/spin 100
	perf_ok sc.data script -F cpu >cpus
	expect_gt "$(grep -c "^\[[0-9]\{3\}\]" cpus)" 0 "samples with a cpu"
'

test_expect_success PERF '-m 8 and -m 256 both record' '
	record_ok err8 -m 8 -o m8.data -- $WL/spin 100
	expect_gt "$(count_samples m8.data)" 0 samples
	record_ok err256 -m 256 -o m256.data -- $WL/spin 100
	expect_gt "$(count_samples m256.data)" 0 samples
'

test_expect_success '-q: nothing on stderr' '
	record_ok errq -q -o q.data -- $WL/spin 100
	test_must_be_empty errq
'

test_expect_success PERF '-e cpu-clock:u: user space only' '
	record_ok err -e cpu-clock:u -o u.data -- $WL/spin 100
	attr_has u.data "^cpu-clock:u: "
	attr_has u.data "exclude_kernel: 1"
	perf_ok u.data script -F ip,sym >u.out
	not grep -q "\[kernel" u.out
'

test_expect_success PERF '-e task-clock,page-faults: two events, both named' '
	record_ok err -e task-clock,page-faults -o tp.data -- $WL/spin 100
	evlist tp.data >ev
	cat ev
	grep -q "^task-clock: type: 1, size: 128, config: 0x1, " ev
	grep -q "^page-faults: type: 1, size: 128, config: 0x2, " ev
	grep -qE "sample_type: [A-Z|]*(ID|IDENTIFIER)" ev
	expect_gt "$(count_samples tp.data task-clock)" 0 task-clock
'

test_expect_success PERF 'the summary reports the file size and sample count perf sees' '
	record_ok errs -o s.data -- $WL/spin 200
	n=$(summary_samples errs)
	expect_eq "$n" "$(count_samples s.data)"
'

test_done
