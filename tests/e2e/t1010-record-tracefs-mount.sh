#!/bin/bash
# tracefs not mounted: in a private mount namespace with tracefs (and
# debugfs, whose tracing/ automounts it) unmounted, pulse record -e
# sched:sched_switch as root mounts tracefs itself, as perf does, and records.
. "$(dirname "$0")/lib/test-lib.sh"

# in_no_tracefs CMD: run the shell command CMD in a private mount namespace
# without tracefs; $PULSE and $WL are $1 and $2 there. Status in ns.rc.
in_no_tracefs() {
	timeout -k 5 "$TMO" unshare -m --propagation private bash -c '
		PULSE=$1 WL=$2
		for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do
			while mountpoint -q $m 2>/dev/null; do umount $m || exit 90; done
		done
		if grep -qE " (tracefs|debugfs) " /proc/self/mounts; then
			echo "tracefs still mounted:"; grep -E " (tracefs|debugfs) " /proc/self/mounts
			exit 91
		fi
		rc=0
		eval "$3" || rc=$?
		echo $rc >ns.rc
		exit 0
	' _ "$PULSE" "$WL" "$1"
}

test_expect_success ROOT,UNSHARE 'pulse record -e sched:sched_switch mounts tracefs itself' '
	in_no_tracefs "\"\$PULSE\" record -e sched:sched_switch -o ss.data -- \$WL/getppid 10 --delay-ms 50 2>err; grep -E \" tracefs \" /proc/self/mounts >mounts.after || true"
	cat err
	expect_eq "$(cat ns.rc)" 0
	not grep -q "^error: " err
	test -s mounts.after
'

test_expect_success PERF,ROOT,UNSHARE 'the recording holds the workload'"'"'s context switches' '
	perf_ok ss.data script -F comm,event >ss.out
	# getppid sleeps 50 ms: it is switched out at least once
	n=$(awk "\$1 == \"getppid\" && \$2 == \"sched:sched_switch:\"" ss.out | wc -l)
	expect_gt "$n" 0 "sched_switch samples of getppid"
	pulse report -i ss.data --stdio >rep
	expect_gt "$(report_event_count sched:sched_switch <rep)" 0 "pulse report event count"
'

test_expect_success ROOT,UNSHARE 'pulse list shows tracepoints without tracefs mounted' '
	in_no_tracefs "\"\$PULSE\" list >list.out 2>list.err"
	cat list.err
	expect_eq "$(cat ns.rc)" 0
	grep -q "sched:sched_switch" list.out
'

test_done
