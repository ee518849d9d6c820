#!/bin/bash
# pulse record's AUX area capture, run against the model PMU (the hidden
# PULSE_AUX_MODEL=BYTES hook: no hardware here has Intel PT) on a fake
# sysfs intel_pt PMU, and the files read back by perf 6.1: AUXTRACE_INFO
# with Intel PT's private words, an AUXTRACE record before each piece of
# AUX data, the AUXTRACE feature index, ITRACE_START and AUX records;
# -S snapshots on SIGUSR2, on --control snapshot and at the end (-Se).
# perf decodes the model's stream (a PSB every 16 KiB) into psb events.
. "$(dirname "$0")/lib/test-lib.sh"

export PULSE_TEST_SYSFS=$PULSE_TOP/tests/data/sysfs-pt

# the sum of the AUXTRACE sizes perf -D shows, and their count
aux_sum() {
	perf report -D -i "$1" 2>/dev/null | sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\) .*/\1/p' |
		while read -r s; do echo $((s)); done | awk '{ n++; t += $1 } END { print n + 0, t + 0 }'
}

test_expect_success PERF 'full mode: 1 MiB per CPU, every byte in AUXTRACE records' '
	PULSE_AUX_MODEL=1M "$PULSE" record -e intel_pt// -m ,16 -o pt.data -- true 2>err &&
	grep -q "from the model PMU (PULSE_AUX_MODEL), not hardware" err &&
	ncpu=$(perf report -D -i pt.data 2>/dev/null | grep -c "PERF_RECORD_ITRACE_START") &&
	test "$ncpu" -ge 1 &&
	set -- $(aux_sum pt.data) &&
	expect_eq "$2" $((ncpu * 1048576)) &&
	# the areas are 64 KiB: the data came in many pieces
	test "$1" -gt $((ncpu * 16))
'

test_expect_success PERF 'perf reads AUXTRACE_INFO as Intel PT with the fake PMU'"'"'s words' '
	perf report -D -i pt.data >dump 2>derr &&
	grep -q "PERF_RECORD_AUXTRACE_INFO type: 1" dump &&
	grep -q "PMU Type            8" dump &&
	grep -q "TSC bit             0x400" dump &&
	grep -q "MTC freq bits       0x3c000" dump &&
	grep -q "TSC:CTC denominator 200" dump &&
	grep -q "Max non-turbo ratio 26" dump &&
	grep -q "Snapshot mode       0" dump &&
	grep -q "PERF_RECORD_AUX offset: 0 size: 0x4000 flags: 0 \[\]" dump
'

test_expect_success PERF 'the AUXTRACE feature: perf says so and decodes through the index' '
	perf report --header-only -i pt.data >hdr &&
	grep -q "contains AUX area data" hdr &&
	perf script -i pt.data >script.out 2>script.err &&
	! grep -iE "error|failed" script.err &&
	n=$(grep -c " psb: " script.out) &&
	set -- $(aux_sum pt.data) &&
	# a PSB every 16 KiB of the stream
	expect_eq "$n" $(($2 / 16384))
'

test_expect_success PERF 'perf script --itrace=i100: no error' '
	perf script -i pt.data --itrace=i100 >/dev/null 2>e &&
	! grep -iE "error|failed" e
'

test_expect_success PERF 'pipe mode: the same records in-band' '
	PULSE_AUX_MODEL=256K "$PULSE" record -e intel_pt// -m ,16 -o - -- true >pipe.data 2>err &&
	"$PULSE" report -D -i pipe.data >pdump 2>&1 &&
	grep -q "PERF_RECORD_AUXTRACE_INFO type: 1" pdump &&
	test "$(grep -c "PERF_RECORD_AUXTRACE size" pdump)" -ge 4
'

test_expect_success PERF '-Se: one snapshot at the end, the newest area'"'"'s worth' '
	PULSE_AUX_MODEL=1M "$PULSE" record -Se -e intel_pt// -m ,16 -o se.data -- true 2>err &&
	perf report -D -i se.data >sdump 2>/dev/null &&
	grep -q "Snapshot mode       1" sdump &&
	grep "PERF_RECORD_AUXTRACE size" sdump >recs &&
	test -s recs &&
	# the Intel PT driver keeps aux_head inside the area in snapshot mode:
	# perf'"'"'s offsets are in the area (1 MiB is 16 laps of 64 KiB: 0)
	! grep -v "size: 0x10000  offset: 0 " recs &&
	grep "PERF_RECORD_AUX offset" sdump >aux &&
	! grep -vE "offset: (0|0x[0-9a-f]{1,4}) size" aux &&
	perf script -i se.data 2>e >/dev/null && ! grep -iE "error|failed" e
'

test_expect_success PERF '-S4096: the snapshot size limits each snapshot' '
	PULSE_AUX_MODEL=1M "$PULSE" record -Se4096 -e intel_pt// -m ,16 -o s4.data -- true 2>err &&
	perf report -D -i s4.data 2>/dev/null | grep "PERF_RECORD_AUXTRACE size" >recs &&
	test -s recs &&
	! grep -v "size: 0x1000  offset: 0xf000 " recs
'

test_expect_success PERF '-S: nothing without a trigger, a snapshot on SIGUSR2' '
	PULSE_AUX_MODEL=1M "$PULSE" record -S -e intel_pt// -m ,16 -o s0.data -- true 2>err &&
	set -- $(aux_sum s0.data) && expect_eq "$1" 0 || return 1
	PULSE_AUX_MODEL=1M "$PULSE" record -S -e intel_pt// -m ,16 -o s1.data -- sleep 1 2>err &
	rp=$!
	track_bg $rp &&
	sleep 0.4 && kill -USR2 $rp && wait $rp &&
	perf report -D -i s1.data 2>/dev/null | grep "PERF_RECORD_AUXTRACE size" >recs &&
	test -s recs &&
	! grep -v "size: 0x10000  offset: 0 " recs
'

test_expect_success PERF '-S: --control snapshot takes one too' '
	mkfifo ctl ack || return 1
	PULSE_AUX_MODEL=1M "$PULSE" record -S --control fifo:ctl,ack -e intel_pt// -m ,16 \
		-o sc.data -- sleep 1 2>err &
	rp=$!
	track_bg $rp &&
	sleep 0.4 && echo snapshot >ctl && read -r a <ack && expect_eq "$a" ack &&
	wait $rp &&
	set -- $(aux_sum sc.data) && test "$1" -ge 1
'

test_expect_success PERF 'a PMU that outruns the recorder: TRUNCATED, counted as perf counts it' '
	PULSE_AUX_MODEL=8M,truncate "$PULSE" record -e intel_pt// -m ,16 -o tr.data -- true 2>err &&
	perf report -D -i tr.data 2>/dev/null | grep "PERF_RECORD_AUX offset" >aux &&
	grep -q "flags: 0x1 \[T\]" aux &&
	grep "^warning: AUX data lost [0-9]* times out of [0-9]*!$" err | sed "s/^warning: //" >mine &&
	test -s mine &&
	perf report -i tr.data --stdio 2>&1 | grep "^AUX data lost" | sort -u >theirs &&
	test_cmp theirs mine &&
	# the file has every byte the PMU got into the areas
	set -- $(aux_sum tr.data) &&
	kept=$(sed -n "s/.*size: \(0x[0-9a-f]*\) flags.*/\1/p" aux | while read -r v; do echo $((v)); done |
		awk "{ t += \$1 } END { print t }") &&
	test "$2" -ge "$kept" && test $(($2 - kept)) -lt $((8 * $1))
'

test_expect_success PERF 'PARTIAL and COLLISION: counted, and said in perf'"'"'s words' '
	PULSE_AUX_MODEL=1M,partial,collision "$PULSE" record -e intel_pt// -m ,16 -o pc.data \
		-- true 2>err &&
	perf report -D -i pc.data 2>/dev/null | grep -c "flags: 0xc \[P\]" >n &&
	test "$(cat n)" -gt 0 &&
	grep "^warning: AUX data" err | sed "s/^warning: //" | sort >mine &&
	test "$(wc -l <mine)" -eq 2 &&
	perf report -i pc.data --stdio 2>&1 | grep "^AUX data" | sort -u >theirs &&
	test_cmp theirs mine
'

test_expect_success 'full mode with the flight recorder (t6200: -S), --threads: one error line, exit 129' '
	expect_fail 129 err env PULSE_AUX_MODEL=1M "$PULSE" record -e intel_pt// \
		--switch-output=signal -o fl.data -- true &&
	one_error err "needs -S" &&
	! grep -q "model PMU" err &&
	expect_fail 129 err env PULSE_AUX_MODEL=1M "$PULSE" record --threads -e intel_pt// \
		-o th.data -- true &&
	one_error err "does not go with --threads"
'

test_done
