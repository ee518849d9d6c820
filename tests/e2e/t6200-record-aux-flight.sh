#!/bin/bash
# AUX snapshot mode (-S) with the flight recorder, on the model PMU (the
# hidden PULSE_AUX_MODEL hook: no Intel PT here) and a fake sysfs intel_pt:
# every trigger (--switch-output=TIME, SIGUSR2 with -M, --overwrite or
# rotating files, --control snapshot, --switch-output-event, the crash
# snapshot, -Se at the end) writes a file
# perf 6.1 reads and decodes on its own: AUXTRACE_INFO, ITRACE_START, the
# side-band, one AUXTRACE per area with what the PMU wrote since the last
# snapshot (no byte twice, at most the area or the -S size), the AUXTRACE
# index. ",slow" has the model write 16 KiB into each area every 50 ms.
. "$(dirname "$0")/lib/test-lib.sh"

export PULSE_TEST_SYSFS=$PULSE_TOP/tests/data/sysfs-pt

# FILE...: the number of AUXTRACE records perf -D shows in them, and the sum of their sizes
aux_sum() {
	for f in "$@"; do perf report -D -i "$f" 2>/dev/null; done |
		sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\) .*/\1/p' |
		while read -r s; do echo $((s)); done | awk '{ n++; t += $1 } END { print n + 0, t + 0 }'
}
# FILE: the areas (one ITRACE_START each)
ncpu_of() { perf report -D -i "$1" 2>/dev/null | grep -c "PERF_RECORD_ITRACE_START"; }
# FILE: a whole AUX snapshot perf decodes: INFO, ITRACE_START, the index, a psb per 16 KiB, no error
perf_decodes() {
	perf report -D -i "$1" >d.out 2>/dev/null &&
	grep -q "PERF_RECORD_AUXTRACE_INFO type: 1" d.out &&
	grep -q "Snapshot mode       1" d.out &&
	grep -q "PERF_RECORD_ITRACE_START" d.out &&
	perf report --header-only -i "$1" | grep -q "contains AUX area data" &&
	perf script -i "$1" >s.out 2>s.err &&
	! grep -iE "error|failed|bad" s.err &&
	set -- $(aux_sum "$1") &&
	expect_eq "$(grep -c " psb: " s.out)" $(($2 / 16384))
}

test_expect_success PERF '--overwrite --switch-output=1s: each second'"'"'s new AUX bytes, none twice' '
	PULSE_AUX_MODEL=512K,slow pulse record -S -e intel_pt// -m ,128 --overwrite \
		--switch-output=1s -o t.data -- sleep 3.5 2>err &&
	ls t.data.* >files && expect_ge "$(wc -l <files)" 3 &&
	n=$(ncpu_of $(head -1 files)) && expect_ge "$n" 1 &&
	# the model wrote 512 KiB into each area, done by the second trigger:
	# every byte is in exactly one file (the area holds 512 KiB: none lost)
	set -- $(aux_sum $(cat files)) &&
	expect_eq "$2" $((n * 524288)) &&
	# the first two seconds split it; the last files have nothing new
	set -- $(aux_sum $(head -1 files)) && expect_gt "$2" 0 &&
	set -- $(aux_sum $(tail -1 files)) && expect_eq "$1" 0 &&
	for f in $(head -2 files); do
		set -- $(aux_sum $f) &&
		{ [ "$1" = 0 ] || perf_decodes $f; } || return 1
	done &&
	# the side-band: the workload named in each file
	perf report -D -i $(tail -1 files) 2>/dev/null | grep -q "PERF_RECORD_COMM.*sleep"
'

test_expect_success PERF '-M with -S: SIGUSR2 appends each snapshot to the one file, no byte twice' '
	PULSE_AUX_MODEL=256K,slow "$PULSE" record -S -e intel_pt// -m ,64 -M 1M -o m.data \
		-- sleep 2.6 2>err &
	rp=$!
	track_bg $rp
	sleep 0.4
	kill -USR2 $rp
	sleep 1.4
	kill -USR2 $rp
	sleep 0.3
	kill -USR2 $rp
	wait_exit $rp 20
	expect_eq "$(grep -c "Dump m.data:" err)" 3 &&
	n=$(ncpu_of m.data) &&
	# two snapshots had new bytes (one AUXTRACE per area each), the third none
	set -- $(aux_sum m.data) &&
	expect_eq "$1" $((2 * n)) && expect_eq "$2" $((n * 262144)) &&
	perf_decodes m.data
'

# PREFIX ARGS...: pulse record -S ARGS on the 1 MiB model into a 64 KiB area, one SIGUSR2
one_snapshot() {
	local prefix=$1
	shift
	PULSE_AUX_MODEL=1M "$PULSE" record "$@" -e intel_pt// -m ,16 --overwrite --switch-output \
		-o $prefix.data -- sleep 1 2>err &
	rp=$!
	track_bg $rp
	sleep 0.6
	kill -USR2 $rp
	wait_exit $rp 20
}

test_expect_success PERF '-S SIZE bounds each AUXTRACE' '
	one_snapshot z -S16384
	f=$(ls z.data.*) && n=$(ncpu_of $f) &&
	perf report -D -i $f 2>/dev/null | grep "PERF_RECORD_AUXTRACE size" >recs &&
	expect_eq "$(wc -l <recs)" "$n" &&
	! grep -v "size: 0x4000 " recs &&
	perf_decodes $f
'

test_expect_success PERF '-S alone: the area bounds each AUXTRACE' '
	one_snapshot a -S
	f=$(ls a.data.*) && n=$(ncpu_of $f) &&
	perf report -D -i $f 2>/dev/null | grep "PERF_RECORD_AUXTRACE size" >recs &&
	expect_eq "$(wc -l <recs)" "$n" &&
	! grep -v "size: 0x10000 " recs &&
	perf_decodes $f
'

test_expect_success PERF '--switch-output alone (rotating files): the file a trigger closes holds the AUX data' '
	PULSE_AUX_MODEL=256K,slow "$PULSE" record -S -e intel_pt// -m ,64 --switch-output \
		-o r.data -- sleep 1.5 2>err &
	rp=$!
	track_bg $rp
	sleep 1.2
	kill -USR2 $rp
	wait_exit $rp 20
	expect_eq "$(ls r.data.* | wc -l)" 2 &&
	f=$(ls r.data.* | head -1) && n=$(ncpu_of $f) &&
	set -- $(aux_sum $f) && expect_eq "$2" $((n * 262144)) &&
	perf_decodes $f
'

test_expect_success PERF '--control snapshot: a file with the AUX data, acknowledged' '
	mkfifo ctl ack
	PULSE_AUX_MODEL=256K,slow "$PULSE" record -S -e intel_pt// -m ,64 --overwrite --switch-output \
		--control fifo:ctl,ack -o c.data -- sleep 2.5 2>err &
	rp=$!
	track_bg $rp
	exec 7<>ack
	sleep 0.4
	echo snapshot >ctl
	expect_eq "$(timeout 10 head -c4 <&7)" ack
	sleep 1.4
	echo snapshot >ctl
	expect_eq "$(timeout 10 head -c4 <&7)" ack
	wait_exit $rp 20
	exec 7>&-
	expect_eq "$(ls c.data.* | wc -l)" 2 &&
	n=$(ncpu_of $(ls c.data.* | head -1)) &&
	set -- $(aux_sum c.data.*) && expect_eq "$2" $((n * 262144)) &&
	for f in c.data.*; do perf_decodes $f || return 1; done
'

test_expect_success PERF,TRACEFS '--switch-output-event: each snapshot holds its burst and the new AUX bytes' '
	PULSE_AUX_MODEL=256K,slow pulse record -S -e intel_pt// -e syscalls:sys_enter_getppid -m ,64 \
		--overwrite --switch-output --switch-output-event syscalls:sys_enter_kill \
		-o e.data -- $WL/burst 1000 3 --signal 28 --gap-ms 400 2>err &&
	expect_eq "$(ls e.data.* | wc -l)" 3 &&
	for f in e.data.*; do
		expect_eq "$(count_samples $f syscalls:sys_enter_getppid)" 1000 || return 1
	done &&
	f=$(ls e.data.* | tail -1) && n=$(ncpu_of $f) &&
	set -- $(aux_sum $f) && expect_gt "$2" 0 &&
	set -- $(aux_sum e.data.*) && test "$2" -le $((n * 262144)) &&
	perf_decodes $f
'

test_expect_success PERF 'a command that fails: the crash snapshot holds the AUX data' '
	expect_fail 3 err env PULSE_AUX_MODEL=256K,slow "$PULSE" record -S -e intel_pt// -m ,64 \
		-M 1M --switch-output -o x.data -- sh -c "sleep 0.3; exit 3" &&
	grep -q "the command failed" err &&
	f=$(ls x.data.*) && n=$(ncpu_of $f) &&
	set -- $(aux_sum $f) && expect_eq "$2" $((n * 262144)) &&
	perf_decodes $f
'

test_expect_success PERF '-Se in a flight recording: a last snapshot at the end' '
	PULSE_AUX_MODEL=256K pulse record -Se -e intel_pt// -m ,64 --overwrite --switch-output \
		-o se.data -- true 2>err &&
	f=$(ls se.data.*) && n=$(ncpu_of $f) &&
	set -- $(aux_sum $f) && expect_eq "$1" "$n" && expect_eq "$2" $((n * 262144)) &&
	perf_decodes $f
'

test_expect_success 'full mode in a flight recording, AUX with --threads: one error line, exit 129' '
	expect_fail 129 err env PULSE_AUX_MODEL=1M "$PULSE" record -e intel_pt// --overwrite \
		--switch-output -o fl.data -- true &&
	one_error err "flight recording .* needs -S" &&
	expect_fail 129 err env PULSE_AUX_MODEL=1M "$PULSE" record -S -e intel_pt// -M 1M \
		--threads -o th.data -- true &&
	one_error err "does not go with --threads" &&
	! ls fl.data* th.data* 2>/dev/null
'

test_done
