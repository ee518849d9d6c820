#!/bin/bash
# --max-size SIZE: the recording stops once that much data is written,
# with perf 6.1's line; the command is stopped with SIGTERM and the
# recorder dies of it (143), as perf; the file is complete. The unit is
# required, as perf's parser.
. "$(dirname "$0")/lib/test-lib.sh"

rc() { local r=0; "$@" 2>>"$TEST_DIR/rc.err" >/dev/null || r=$?; echo $r; }

test_expect_success PERF '--max-size 20K: stops early with perfs line, exit 143 as perf, readable' '
	: >rc.err
	expect_eq "$(rc pulse record --max-size 20K -o m.data -- $WL/spin 5000)" 143
	cat rc.err
	grep -q "^\[ pulse record: pulse size limit reached ([0-9]* KB), stopping session \]$" rc.err
	size=$(stat -c %s m.data)
	expect_gt 1000000 "$size" "file size"
	perf_ok m.data report --stdio >/dev/null
	: >rc.err
	expect_eq "$(rc perf record --max-size 20K -o p.data -- $WL/spin 5000)" 143
	grep -q "perf size limit reached" rc.err
'

# perf 6.1 adds up what every reader wrote: so does pulse. (perf's own
# --threads run is not checked: on a busy machine it sometimes lets the
# command finish, exit 0, before it stops.)
test_expect_success PERF '--max-size with --threads counts the data.N files too' '
	: >rc.err
	expect_eq "$(rc pulse record --threads --max-size 20K -o t.data -- $WL/spin 5000)" 143
	cat rc.err
	grep -q "^\[ pulse record: pulse size limit reached ([0-9]* KB), stopping session \]$" rc.err
	size=$(cat t.data/data.* | wc -c)
	expect_gt 1000000 "$size" "data.N sizes"
	perf_ok t.data report --stdio >/dev/null
'

test_expect_success PERF '--max-size without a unit or with a bad one: 129, as perf' '
	expect_fail 129 err pulse record --max-size 20 -o x.data -- $WL/spin 10
	one_error err "max-size"
	expect_fail 129 perr perf record --max-size 20 -o p.data -- $WL/spin 10
	expect_fail 129 err pulse record --max-size 20X -o x.data -- $WL/spin 10
'

test_expect_success 'a recording below the limit is untouched' '
	record_ok err --max-size 100M -o big.data -- $WL/spin 20
	not grep -q "size limit" err
'

test_done
