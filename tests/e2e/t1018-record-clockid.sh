#!/bin/bash
# -k CLOCK: use_clockid and clockid on every event, the CLOCKID and
# CLOCK_DATA features, as perf 6.1 writes them; perf's clock names (with or
# without CLOCK_, any case, or a number); an unknown one is refused (129).
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF '-k mono: the attrs and header of perf -k mono' '
	record_ok err -k mono -o k.data -- $WL/spin 20
	perf record -q -k mono -o p.data -- $WL/spin 20
	perf_ok k.data evlist -v | grep -v "^#" | sed "s/^[^:]*: //" >k.ev
	perf_ok p.data evlist -v | grep -v "^#" | sed "s/^[^:]*: //" >p.ev
	test_cmp p.ev k.ev
	perf_ok k.data report --header-only >hdr
	grep -qx "# clockid frequency: 1000 MHz" hdr
	grep -qx "# clockid: monotonic (1)" hdr
	pulse report -i k.data --stdio >rep
	grep -q spin_loop rep
'

test_expect_success PERF '-k CLOCK_REALTIME, -k 7: names and numbers as perf' '
	record_ok err -k CLOCK_REALTIME -o r.data -- $WL/spin 10
	perf_ok r.data report --header-only | grep -qx "# clockid: realtime (0)"
	# realtime sample times are seconds since the epoch
	t=$(perf_ok r.data script -F time | head -1 | cut -d. -f1 | tr -d " ")
	expect_gt "$t" 1600000000 "sample time"
	record_ok err -k 7 -o b.data -- $WL/spin 10
	perf_ok b.data report --header-only | grep -qx "# clockid: boottime (7)"
'

test_expect_success PERF 'an unknown clock: refused with perfs message, exit 129 as perf' '
	expect_fail 129 err pulse record -k bogus -o x.data -- $WL/spin 10
	one_error err "unknown clockid bogus"
	expect_fail 129 perr perf record -k bogus -o p.data -- $WL/spin 10
'

test_done
