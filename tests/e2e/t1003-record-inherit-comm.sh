#!/bin/bash
# Inheritance: forkrename's children (renamed child-0..child-3 with
# PR_SET_NAME) are followed, their comm shows in perf script and pulse
# report; with --no-inherit only the parent is recorded.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

check_comms() {
	perf_in "$1" script -F comm 2>/dev/null | awk "{ print \$1 }" | sort | uniq -c >comms
	cat comms
	for i in 0 1 2 3; do
		grep -q " child-$i$" comms || { echo "no sample of child-$i"; return 1; }
	done
}

check_report_comms() {
	report_rows <"$1" | awk "{ print \$2 }" | sort -u >rcomms
	for i in 0 1 2 3; do
		grep -qx "child-$i" rcomms || { echo "no row of child-$i:"; cat "$1"; return 1; }
	done
}

test_expect_success PERF 'file mode: every child comm in perf script' '
	record_ok err -o f.data -- $WL/forkrename
	check_comms f.data
'

test_expect_success PERF 'file mode: every child comm in pulse report' '
	pulse report -i f.data --stdio >rep
	check_report_comms rep
'

test_expect_success PERF 'pipe mode: every child comm in perf script and pulse report' '
	record_ok err.pipe -o - -- $WL/forkrename >f.pipe
	check_comms f.pipe
	pulse report -i - --stdio <f.pipe >rep.pipe
	check_report_comms rep.pipe
'

# Each child makes exactly 100 getppid calls after its rename; the parent none.
test_expect_success PERF,ROOT,TRACEFS 'tracepoint: 100 samples per child, under its new comm' '
	record_ok err.tp -e $TP -o tp.data -- $WL/forkrename
	perf_in tp.data script -F comm,event 2>/dev/null | awk "{ print \$1, \$2 }" |
		sort | uniq -c | sed "s/^ *//" >tp.comms
	cat >tp.expect <<-EOT
	100 child-0 $TP:
	100 child-1 $TP:
	100 child-2 $TP:
	100 child-3 $TP:
	EOT
	test_cmp tp.expect tp.comms
'

test_expect_success PERF,ROOT,TRACEFS '--no-inherit: no child is recorded' '
	record_ok err.ni --no-inherit -e $TP -o ni.data -- $WL/forkrename
	expect_eq "$(count_samples ni.data $TP)" 0
	perf_in ni.data evlist -v >evlist.ni
	not grep -q "inherit: 1" evlist.ni
'

test_expect_success PERF '--no-inherit: only the parent comm is sampled' '
	record_ok err.ni2 --no-inherit -o ni2.data -- $WL/forkrename
	perf_in ni2.data script -F comm >ni2.out
	awk "{ print \$1 }" ni2.out | sort -u >ni2.comms
	not grep -q "^child-" ni2.comms
'

test_done
