#!/bin/bash
# pulse record --off-cpu: perf 6.1's offcpu-time event (software
# BPF_OUTPUT, freq 1, period 1, sample_type masked with OFFCPU_SAMPLE_TYPES,
# named in EVENT_DESC) beside the user's events, its samples made from
# sched:sched_switch without BPF: one per (pid, tid, stack, state), period
# = the nanoseconds blocked. The workload blocks 3 x 100 ms in wait_long()
# (one call site) and 100 ms in wait_short(): exactly two offcpu-time
# samples of those stacks (it may block elsewhere too: an ASan build does),
# 75% / 25% of the off-CPU time; perf report and perf script
# (which cannot record it: no BPF skeletons in Debian's perf 6.1) read the
# file and show the same; file and pipe mode, a command, -p and -a.
. "$(dirname "$0")/lib/test-lib.sh"

# offcpu_rows FILE ARGS: pulse report's rows under the offcpu-time event
offcpu_rows() {
	local f=$1; shift
	pulse_in "$f" report --stdio "$@" 2>/dev/null |
		awk '/^# Samples:/ { on = index($0, "of event '\''offcpu-time'\''") > 0 } on' |
		report_rows
}
# wait_samples FILE: "N NS", the offcpu-time samples whose stacks have
# wait_long or wait_short and their nanoseconds. Only those: the workload
# may block elsewhere too (an ASan build in page faults at start-up, a
# loaded machine), which adds samples of other stacks.
wait_samples() {
	pulse_in "$1" script -F event,period,ip,sym 2>/dev/null | awk '
		function flush() { if (ev && hit) { n++; t += per }; ev = 0 }
		/^[^\t]/ { flush(); ev = ($0 ~ / offcpu-time: /); per = $1; hit = 0; next }
		ev && ($NF == "wait_long" || $NF == "wait_short") { hit = 1 }
		END { flush(); print n + 0, t + 0 }'
}
# waits_ok FILE MS: exactly the 2 wait stacks, at least the MS they sleep
# (more on a loaded machine: the wait for a CPU after each wakeup counts too)
waits_ok() {
	local w min=$(($2 * 1000000))
	w=$(wait_samples "$1")
	set -- $w
	[ "$1" = 2 ] && [ "$2" -ge $min ] || { echo "wait samples: $w" >&2; return 1; }
}
# near A B TOL: |A - B| <= TOL (percentages)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }' ||
	{ echo "expected $2 +- $3, got $1" >&2; return 1; }; }
# split_ok ROWS: wait_long ~75%, wait_short ~25% (children column). Off-CPU
# time runs from switch-out to switch-in, so it has the wait for a CPU after
# each wakeup in it too (as perf's): a loaded machine moves the split a little.
split_ok() {
	local l s
	l=$(awk '$NF == "wait_long" { sub(/%/, "", $1); print $1; exit }' "$1")
	s=$(awk '$NF == "wait_short" { sub(/%/, "", $1); print $1; exit }' "$1")
	near "${l:-0}" 75 6 && near "${s:-0}" 25 6
}

test_expect_success ROOT,TRACEFS 'record --off-cpu -g: offcpu-time beside cpu-clock' '
	record_ok rec.err --off-cpu -g -o oc.data -- "$WL/offcpu" 100 &&
	pulse report -i oc.data --header-only >hdr &&
	grep -q "^# event : name = offcpu-time," hdr &&
	grep -q "^# event : name = cpu-clock:ppp," hdr
'

test_expect_success ROOT,TRACEFS,PERF 'the attr is perf 6.1s' '
	perf_ok oc.data evlist -v >ev &&
	grep "^offcpu-time:" ev >a &&
	grep -q "type: 1, size: 128, config: 0xa, { sample_period, sample_freq }: 1, sample_type: IP|TID|TIME|CALLCHAIN|PERIOD|IDENTIFIER, read_format: ID|LOST, disabled: 1, inherit: 1, freq: 1, enable_on_exec: 1, sample_id_all: 1" a
'

test_expect_success ROOT,TRACEFS,PERF 'exactly one sample per blocking stack, periods in ns' '
	waits_ok oc.data 400 &&
	test "$(count_samples oc.data offcpu-time)" -ge 2 &&
	test "$(count_samples oc.data sched:sched_switch)" = 0
'

test_expect_success ROOT,TRACEFS 'pulse report: 75% wait_long, 25% wait_short' '
	offcpu_rows oc.data --children --sort sym >rows &&
	split_ok rows
'

test_expect_success ROOT,TRACEFS,PERF 'perf report reads it and shows the same split, as pulse' '
	same_report_in oc.data --children --sort sym &&
	same_report_in oc.data --no-children --sort sym &&
	perf report -i oc.data --stdio --children --sort sym 2>/dev/null |
		awk "/^# Samples:/ { on = index(\$0, \"offcpu-time\") > 0 } on" | report_rows >prows &&
	split_ok prows
'

test_expect_success ROOT,TRACEFS,PERF 'perf script prints the offcpu-time samples, as pulse script' '
	callchains oc.data >cc &&
	test "$(grep -c "wait_long;main" cc)" -ge 1 &&
	same_script oc.data -F comm,tid,event,period,ip,sym &&
	test "$(grep -c " offcpu-time: " oc.data.pulse)" -ge 2
'

test_expect_success ROOT,TRACEFS,PERF 'pipe mode' '
	pulse record -q --off-cpu -g -o - -- "$WL/offcpu" 50 >oc.pipe &&
	waits_ok oc.pipe 200 &&
	same_report_in oc.pipe --sort sym &&
	same_script oc.pipe -F event,period
'

test_expect_success ROOT,TRACEFS 'without -g: the stacks are still there (they make the samples)' '
	record_ok rec2.err --off-cpu -o nog.data -- "$WL/offcpu" 50 &&
	offcpu_rows nog.data --children --sort sym >rows2 &&
	split_ok rows2
'

test_expect_success ROOT,TRACEFS 'the workloads children (inherit: the shell waiting, two offcpu runs), and -p' '
	record_ok rec3.err --off-cpu -g -o kids.data -- sh -c "\"$WL/offcpu\" 100; \"$WL/offcpu\" 100" &&
	offcpu_rows kids.data --children --sort sym >rows3 &&
	l=$(awk "\$NF == \"wait_long\" { sub(/%/, \"\", \$1); print \$1; exit }" rows3) &&
	s=$(awk "\$NF == \"wait_short\" { sub(/%/, \"\", \$1); print \$1; exit }" rows3) &&
	{ near "$(awk -v l="$l" -v s="$s" "BEGIN { print l / s }")" 3 0.6 || { cat rows3; false; }; } &&
	pulse script -i kids.data -F pid,event >ks &&
	test "$(awk "\$2 == \"offcpu-time:\" { print \$1 }" ks | sort -u | wc -l)" = 3 &&
	"$WL/offcpu" 200 & wl=$! && track_bg $wl &&
	record_ok rec4.err --off-cpu -g -p $wl -o p.data &&
	offcpu_rows p.data --children --sort sym >rows4 &&
	grep -q "wait_short$" rows4
'

test_expect_success ROOT,TRACEFS '--no-inherit: the command alone; beside a user sched_switch event' '
	record_ok rec6.err --off-cpu -i -o ni.data -- sh -c "\"$WL/offcpu\" 20; \"$WL/offcpu\" 20" &&
	pulse script -i ni.data -F pid,event >nis &&
	test "$(awk "\$2 == \"offcpu-time:\" { print \$1 }" nis | sort -u | wc -l)" = 1 &&
	record_ok rec7.err --off-cpu -g -e sched:sched_switch -o ss.data -- "$WL/offcpu" 20 &&
	pulse script -i ss.data -F event >sss &&
	test "$(wait_samples ss.data | cut -d" " -f1)" = 2 &&
	test "$(grep -c "sched:sched_switch:" sss)" -ge 4
'

test_expect_success ROOT,TRACEFS 'system wide' '
	record_ok rec5.err --off-cpu -g -a -o a.data -- "$WL/offcpu" 50 &&
	pulse report -i a.data --stdio --sort comm,sym --children 2>/dev/null >ra &&
	grep -q "offcpu-time" ra && grep -q "wait_short$" ra
'

# (the recorder waits in epoll for its rings: under -a that was a quarter of the off-CPU time)
test_expect_success ROOT,TRACEFS 'system wide: no offcpu-time sample of the recorder itself' '
	"$PULSE" record -q --off-cpu -g -a -o self.data -- "$WL/offcpu" 50 2>self.err &
	rp=$! && wait $rp &&
	not grep -qE "$SANITIZER_REPORT" self.err &&
	pulse script -i self.data -F pid,event >selfs &&
	grep -q "offcpu-time:" selfs &&
	expect_eq "$(awk -v p=$rp "\$1 == p && \$2 == \"offcpu-time:\"" selfs | wc -l)" 0
'

test_done
