#!/bin/bash
# A full disk: recording into a 1 MiB tmpfs (mounted in a private mount
# namespace) fails with exactly one error line saying the disk is full and
# a non-zero exit, and leaves a file that perf and pulse both read.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
# a busy machine may lose events before the disk fills: perf's warning
# about them is fine, the files must read
PERF_HARMLESS_STDERR='^[[:space:]]*$|^Warning:$|lost [0-9]+ chunks|Check IO/CPU overload'

# in_full_fs OUT CMD: run the shell command CMD in a private mount namespace
# with a 1 MiB tmpfs on ./full; CMD's exit status goes to OUT.rc and full/*
# is copied out next to the test afterwards (as OUT.*). $PULSE and $WL are
# passed as $1 and $2.
in_full_fs() {
	local out=$1 cmd=$2
	mkdir -p full
	timeout -k 5 "$TMO" unshare -m --propagation private bash -c '
		PULSE=$1 WL=$2 OUT=$3
		mount -t tmpfs -o size=1M pulse-test-full full || exit 90
		rc=0
		eval "$4" || rc=$?
		echo $rc >"$OUT.rc"
		for f in full/*; do [ -e "$f" ] && cp "$f" "$OUT.${f#full/}"; done
		exit 0
	' _ "$PULSE" "$WL" "$out" "$cmd"
}

test_expect_success ROOT,UNSHARE,TRACEFS 'file mode: a full disk gives one error and a non-zero exit' '
	in_full_fs fm "\"\$PULSE\" record -e $TP -o full/f.data -- \$WL/getppid 100000 2>full.err"
	cat full.err
	rc=$(cat fm.rc)
	test "$rc" -ne 0 && test "$rc" -lt 124 || { echo "exit status $rc"; false; }
	one_error full.err "no space left on device|disk.*full"
	test -s fm.f.data
'

test_expect_success PERF,ROOT,UNSHARE,TRACEFS 'file mode: perf script reads the file left on the full disk' '
	perf_ok fm.f.data script -F event >script.out
	n=$(grep -c . script.out)
	echo "# $n samples kept"
	expect_gt "$n" 0 "perf script samples"
	expect_gt 100000 "$n" "perf script samples"
'

test_expect_success PERF,ROOT,UNSHARE,TRACEFS 'file mode: perf report and pulse report read it, same counts' '
	perf_ok fm.f.data report --stdio >prep
	pulse report -i fm.f.data --stdio >rep 2>rep.err
	cat rep.err
	expect_eq "$(report_event_count $TP <rep)" "$(report_event_count $TP <prep)"
	expect_eq "$(report_event_count $TP <rep)" "$(grep -c . script.out)"
'

test_expect_success ROOT,UNSHARE,TRACEFS 'pipe mode: stdout on a full disk gives one error and a non-zero exit' '
	in_full_fs pm "\"\$PULSE\" record -e $TP -o - -- \$WL/getppid 100000 >full/f.pipe 2>pfull.err"
	cat pfull.err
	rc=$(cat pm.rc)
	test "$rc" -ne 0 && test "$rc" -lt 124 || { echo "exit status $rc"; false; }
	one_error pfull.err "no space left on device|disk.*full"
'

test_done
