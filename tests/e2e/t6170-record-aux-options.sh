#!/bin/bash
# pulse record's AUX area options on a machine with no AUX PMU, against
# perf 6.1: -e intel_pt// (and the other AUX PMUs) fail with one line that
# says the CPU lacks it and one hint, exit 129 as perf; -m pages,auxpages
# parses and rounds as perf's; -S/--snapshot and --aux-sample without an
# AUX event say perf's words (perf exits 234 there, pulse 129: a usage
# error). On a fake sysfs tree with an intel_pt PMU (PULSE_TEST_SYSFS),
# intel_pt// gets perf's default terms.
. "$(dirname "$0")/lib/test-lib.sh"

SYSFS_PT=$PULSE_TOP/tests/data/sysfs-pt
test -d /sys/bus/event_source/devices/intel_pt || test_set_prereq NO_PT
test_declare_prereq NO_PT

test_expect_success NO_PT 'intel_pt//: one error line, one hint, exit 129' '
	expect_fail 129 err "$PULSE" record -o pt.data -e intel_pt// true &&
	one_error err "this CPU has no Intel PT" &&
	has_hint err "VM" &&
	test "$(wc -l <err)" -eq 2
'

test_expect_success NO_PT,PERF 'intel_pt//: perf exits 129 too' '
	expect_fail 129 perr perf record -o perf-pt.data -e intel_pt// true
'

test_expect_success 'other AUX PMUs: named in the error' '
	expect_fail 129 err "$PULSE" record -o x.data -e intel_bts// true &&
	one_error err "no Intel BTS" &&
	expect_fail 129 err "$PULSE" record -o x.data -e arm_spe_0/ts_enable=1/ true &&
	one_error err "no ARM SPE" &&
	expect_fail 129 err "$PULSE" record -o x.data -e cs_etm// true &&
	one_error err "no CoreSight ETM"
'

# the rounding lines and the exit code of pulse and perf for -m ARG
same_m() {
	local rc=0 prc=0
	"$PULSE" record -m "$1" -e cpu-clock -o m.data true 2>m.err >/dev/null || rc=$?
	perf record -m "$1" -e cpu-clock -o pm.data true 2>pm.err >/dev/null || prc=$?
	expect_eq "$rc" "$prc" || return 1
	grep "^rounding" m.err >m.round || true
	grep "^rounding" pm.err >pm.round || true
	test_cmp pm.round m.round
}

test_expect_success PERF '-m pages,auxpages: as perf 6.1' '
	for m in 16,64 ,64 16, 3,5 4,3 0,0 16,64K 16,1M 16,abc 16,64,3 ,; do
		same_m "$m" || { echo "-m $m differs" >&2; return 1; }
	done
'

test_expect_success '-m 16,abc: one error line' '
	expect_fail 129 err "$PULSE" record -m 16,abc -o x.data true &&
	one_error err "invalid -m"
'

test_expect_success '-S, --snapshot, --aux-sample without an AUX event: perf words' '
	for s in -S -Se -S4096 -Sx --snapshot --snapshot=e100; do
		expect_fail 129 err "$PULSE" record $s -e cpu-clock -o x.data true &&
		one_error err "^error: no AUX area tracing to snapshot$" || return 1
	done &&
	for s in --aux-sample --aux-sample=8192; do
		expect_fail 129 err "$PULSE" record $s -e cpu-clock -o x.data true &&
		one_error err "^error: no AUX area event to sample$" || return 1
	done
'

test_expect_success PERF 'perf says the same (and exits 234)' '
	expect_fail 234 perr perf record -S -e cpu-clock -o px.data true &&
	grep -q "No AUX area tracing to snapshot" perr &&
	expect_fail 234 perr perf record --aux-sample -e cpu-clock -o px.data true &&
	grep -q "No AUX area event to sample" perr
'

# attr.type and attr.config of the first attr pulse tried to open
attr_type_config() {
	od -An -t u4 -N 4 "$1" | tr -d " " &&
	printf "%x\n" "$(od -An -t u8 -j 8 -N 8 "$1" | tr -d " ")"
}

test_expect_success 'fake intel_pt: perf'"'"'s default terms (0x300e601)' '
	mkdir attrs &&
	PULSE_TEST_SYSFS=$SYSFS_PT PULSE_TEST_ATTR=$PWD/attrs \
		"$PULSE" record -a -e intel_pt// -o x.data true 2>err || true &&
	f=$(ls attrs | head -1) && test -n "$f" &&
	attr_type_config "attrs/$f" >got &&
	printf "8\n300e601\n" >want &&
	test_cmp want got
'

test_expect_success 'fake intel_pt: terms given are taken as given' '
	mkdir attrs2 &&
	PULSE_TEST_SYSFS=$SYSFS_PT PULSE_TEST_ATTR=$PWD/attrs2 \
		"$PULSE" record -a -e intel_pt/cyc,noretcomp/ -o x.data true 2>err || true &&
	f=$(ls attrs2 | head -1) && test -n "$f" &&
	attr_type_config "attrs2/$f" >got &&
	printf "8\n802\n" >want &&
	test_cmp want got
'

test_done
