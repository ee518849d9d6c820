#!/bin/bash
# pulse report -T/--threads as perf 6.1's: after the tip, the per-thread
# counts of the READ records a 'record -s' (inherit_stat) file holds, one
# row per (pid, tid) and a column per event, in the order first read;
# --pretty=raw prints perf's raw cells; a file without READ records gets
# the bare "# PID  TID" line.
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data
W=$PULSE_BUILD/workloads/forkrename

# same_T FILE ARGS...: perf's and pulse's report --stdio (no --symfs: the
# vdso's symbols are read as perf reads them), the random tip left out
same_T() {
	local f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	pulse report -i "$f" --stdio "$@" 2>/dev/null | grep -v "^# (Tip:" >pulse.out &&
	diff -u perf.out pulse.out
}

# read_rows FILE: the "pid tid count" rows the file's READ records make, a
# row per (pid, tid) with its counts summed over the CPUs, sorted: which
# tasks the kernel writes a READ record for at exit varies from run to run
# (perf's and pulse's files alike: now the first child, now the parent has
# none), so the rows are checked against the file, never against a number
read_rows() {
	pulse report -D -i "$1" 2>/dev/null |
	awk '/PERF_RECORD_READ:/ { k = $5 " " $6; s[k] += $8 }
	     END { for (k in s) print k, s[k] }' | sort
}

# T_rows OUT N: the last N lines of a -T report, as "pid tid count", sorted
T_rows() {
	tail -n "$2" "$1" | awk 'NF == 3 && $1 ~ /^[0-9]+$/ { print $1, $2, $3 }' | sort
}

# one statement a line (set -e): a failing step says which it was; the
# header's PID column is 3 wide at least (perf's), so "# PID" for 3-digit
# pids, which the full suite reaches where pid_max is 32768
test_expect_success ROOT '-T: a row per task of a record -s file with a READ record, file and pipe' '
	pulse record -q -s -e task-clock -o s.data -- "$W" 3 >/dev/null 2>rec.err ||
		{ echo "record:"; cat rec.err; false; }
	read_rows s.data >expect
	n=$(wc -l <expect)
	test "$n" -ge 2 || { echo "$n READ tasks"; pulse report -D -i s.data | grep -E "READ|EXIT"; false; }
	pulse report -i s.data -T --stdio >out
	tail -n $((n + 1)) out | head -n 1 | grep -q "^#  *PID  *TID  task-clock$" ||
		{ echo "no header above $n rows:"; tail -n 8 out; false; }
	T_rows out "$n" >rows
	test_cmp expect rows
	pulse record -q -s -e task-clock -o - -- "$W" 2 >p.data 2>rec.err ||
		{ echo "record to a pipe:"; cat rec.err; false; }
	read_rows p.data >expect
	n=$(wc -l <expect)
	test "$n" -ge 1 || { echo "no READ task in the pipe"; false; }
	pulse report -i p.data -T --stdio >out
	T_rows out "$n" >rows
	test_cmp expect rows
	pulse report -i s.data --stdio >out
	not grep "PID" out
'

test_expect_success '-T on a file without READ records: the header line alone' '
	pulse report -i "$DATA/perf-2ev.data" -T --stdio 2>/dev/null >out &&
	tail -n 1 out >last &&
	printf "# PID  TID\n" >expect &&
	test_cmp expect last
'

test_expect_success PERF,ROOT 'the same output as perf 6.1 on pulse and perf files' '
	pulse record -q -s -e task-clock,page-faults -o ps.data -- "$W" 3 >/dev/null 2>&1 &&
	pulse record -q -s -o - -- "$W" 2 >pp.data 2>/dev/null &&
	perf record -q -s -e task-clock -e page-faults -o fs.data -- "$W" 3 >/dev/null 2>&1 &&
	perf record -q -s -e task-clock -o - -- "$W" 2 >fp.data 2>/dev/null &&
	for f in ps.data pp.data fs.data fp.data "$DATA/perf-2ev.data"; do
		for a in "-T" "--threads --pretty=raw" "-T -q" "-T --pretty normal -n"; do
			same_T "$f" $a || { echo "$f $a" >&2; return 1; }
		done
	done
'

test_done
