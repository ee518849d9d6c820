#!/bin/bash
# The record options a perf user types first, with perf 6.1's effect on the
# attrs (perf evlist -v of both files, the event name aside) and features:
# -n (no samples: period 0), -s (inherit_stat, TOTAL_TIME_* read_format,
# READ records per thread that perf report -T shows), -B (no BUILD_ID),
# -N (no build-id cache: pulse never writes one), -D MS (a dummy tracks
# side-band from the exec; the events are enabled MS later).
. "$(dirname "$0")/lib/test-lib.sh"

# same_attrs OPT: pulse's and perf's attrs agree for `record OPT`.
same_attrs() {
	record_ok err $1 -o q.data -- $WL/spin 20 &&
	perf record -q $1 -o p.data -- $WL/spin 20 &&
	perf_ok q.data evlist -v | grep -v "^#" | sed "s/^[^:]*: //" >q.ev &&
	perf_ok p.data evlist -v | grep -v "^#" | sed "s/^[^:]*: //" >p.ev &&
	test_cmp p.ev q.ev
}

test_expect_success PERF '-n: no samples, the attrs of perf -n' '
	same_attrs -n
	expect_eq "$(count_samples q.data)" 0
'

test_expect_success PERF '-s: per-thread counts, the attrs of perf -s, perf report -T reads them' '
	same_attrs -s
	grep -q "inherit_stat: 1" q.ev
	record_ok err -s -o s.data -- sh -c "$WL/spin 20; $WL/spin 20"
	perf_ok s.data report -T --stdio >rep
	grep -A3 "PID *TID" rep | grep -qE "^ +[0-9]+ +[0-9]+ +[0-9]+"
'

test_expect_success PERF '-B: no BUILD_ID feature, as perf' '
	same_attrs -B
	perf_ok q.data report --header-only >hdr
	grep "missing features" hdr | grep -q BUILD_ID
'

test_expect_success PERF '-N: accepted, the file keeps its BUILD_ID' '
	same_attrs -N
	perf_ok q.data buildid-list >bids
	grep -q "/spin$" bids
'

test_expect_success PERF '-D 100: the attrs of perf -D 100, perfs lines, no sample in the first 100 ms' '
	same_attrs "-D 100"
	record_ok err -D 100 -o d.data -- $WL/spin 300
	grep -qx "Events disabled" err
	grep -qx "Events enabled" err
	perf_ok d.data script --show-task-events -F event,time >ev
	exec_t=$(grep -m1 "PERF_RECORD_COMM exec" ev | grep -oE "[0-9]+\.[0-9]+" | head -1)
	first=$(grep -v PERF_RECORD ev | grep -oE "[0-9]+\.[0-9]+" | head -1)
	echo "# exec $exec_t, first sample $first"
	awk -v a="$exec_t" -v b="$first" "BEGIN { exit !(b - a >= 0.09) }"
'

test_expect_success ROOT '-D 100 -a: the attrs of perf -D 100 -a' '
	record_ok err -q -D 100 -a -o da.data -- $WL/spin 200
	perf record -q -D 100 -a -o pda.data -- $WL/spin 200
	perf_ok da.data evlist -v | grep -v "^#" >q.ev
	perf_ok pda.data evlist -v | grep -v "^#" >p.ev
	test_cmp p.ev q.ev
'

test_expect_success '--no-samples --stat --no-buildid --no-buildid-cache: the long names' '
	record_ok err --no-samples --stat --no-buildid --no-buildid-cache -o l.data -- $WL/spin 10
'

test_done
