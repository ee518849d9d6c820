#!/bin/bash
# -F above kernel.perf_event_max_sample_rate: perf 6.1's warning, throttled
# to the limit (--strict-freq: an error); -F max: perf's info line; -m that
# is not a power of two: rounded up with perf's line; a failed open names
# the event as opened (cpu-clock:ppp on this machine, not cycles:P) and
# gives the hint that fits the errno and the target.
. "$(dirname "$0")/lib/test-lib.sh"

MAX=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
HIGH=$((MAX * 10))
evlist() { perf_ok "$1" evlist -v | grep -v "^#"; }
# no_summary FILE: the lines of FILE but perf's/pulse's summary
no_summary() { grep -v "^\[ p[a-z]* record: " "$1" || true; }

test_expect_success PERF '-F above the limit: perf 6.1s warning, throttled to the limit' '
	record_ok err -F $HIGH -o f.data -- $WL/spin 50
	evlist f.data | head -1 | grep -q "sample_freq }: $MAX, "
	perf record -F $HIGH -o p.data -- $WL/spin 50 2>perr
	no_summary err >pulse.lines
	no_summary perr >perf.lines
	test_cmp perf.lines pulse.lines
	record_ok errq -q -F $HIGH -o f.data -- $WL/spin 10
	test_must_be_empty errq
'

test_expect_success PERF '--strict-freq -F above the limit: refused, as perf' '
	expect_fail 129 err pulse record --strict-freq -F $HIGH -o s.data -- $WL/spin 10
	one_error err "Maximum frequency rate \($MAX Hz\) exceeded"
	expect_fail nonzero perr perf record --strict-freq -F $HIGH -o p.data -- $WL/spin 10 || true
	grep -q "Maximum frequency rate ($MAX Hz) exceeded" perr
'

test_expect_success PERF '-F max: perf 6.1s info line' '
	record_ok err -F max -o m.data -- $WL/spin 10
	grep -qx "info: Using a maximum frequency rate of $MAX Hz" err
	evlist m.data | head -1 | grep -q "sample_freq }: $MAX, "
'

test_expect_success PERF '-c with -F: refused, as perf' '
	expect_fail 129 err pulse record -c 1000 -F 100 -o x.data -- $WL/spin 10
	one_error err "frequency and period"
	! perf record -c 1000 -F 100 -o p.data -- $WL/spin 10 2>perr
	grep -q "cannot set frequency and period at the same time" perr
'

test_expect_success PERF '-m 3, -m 0, -m 12: rounded up to a power of two with perf 6.1s line' '
	for m in 3 0 12 5K; do
		record_ok err -m $m -o r.data -- $WL/spin 10 &&
		perf record -m $m -o p.data -- $WL/spin 10 2>perr &&
		no_summary err >pulse.lines && no_summary perr >perf.lines &&
		test_cmp perf.lines pulse.lines || return 1
	done
	record_ok err -m 12 -o r.data -- $WL/spin 10
	grep -qx "rounding mmap pages size to 64K (16 pages)" err
'

test_expect_success '-C 99: the event as opened, and a hint that there is no cpu 99' '
	expect_fail 1 err pulse record -C 99 -o x.data -- $WL/spin 10
	one_error err "cpu-clock:ppp.*cpu 99"
	not grep -q "cycles:P" err
	has_hint err "no cpu 99.*online"
	not grep -q "modifiers" err
'

test_expect_success 'msr/tsc/ per thread: the hint says to record system wide (-a), as perf' '
	test -d /sys/bus/event_source/devices/msr || { echo "# no msr PMU: skipped"; return 0; }
	expect_fail 1 err pulse record -e msr/tsc/ -o x.data -- $WL/spin 10
	one_error err "msr/tsc/"
	has_hint err "system wide with -a"
'

test_done
