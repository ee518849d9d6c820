#!/bin/bash
# A damaged perf record --threads directory: as for a file (issue 3's
# table), every whole record before the damage is read, and one warning
# says how many bytes could not be, where, and in which of the
# directory's files; a DIR/data that is no perf.data is one error line.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF 'set up: a directory' '
	perf record -q --threads -o thr.data -- "$WL/spin" >/dev/null 2>&1 &&
	big=$(cd thr.data && ls -S data.* | head -1) &&
	echo "$big" >big &&
	pulse script -i thr.data >all.out &&
	test -s all.out
'

test_expect_success PERF 'a data.N cut mid-record: the records before, one warning naming it' '
	rm -rf cut.data && cp -r thr.data cut.data &&
	big=$(cat big) && size=$(stat -c %s cut.data/$big) &&
	truncate -s $((size - 5)) cut.data/$big &&
	pulse script -i cut.data >cut.out 2>err &&
	grep -c . err >n && expect_eq "$(cat n)" 1 &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x[0-9a-f]* of .cut.data/$big.$" err &&
	test -s cut.out &&
	pulse report -i cut.data --stdio >/dev/null 2>err &&
	grep -q "of .cut.data/$big.$" err
'

test_expect_success PERF 'a record smaller than its header in a data.N' '
	rm -rf bad.data && cp -r thr.data bad.data &&
	big=$(cat big) &&
	printf "\001\000\000\000\000\000\004\000" >bad.data/$big &&
	pulse report -D -i bad.data >/dev/null 2>err &&
	grep -q "^warning: 8 bytes unreadable at 0 of .bad.data/$big.$" err
'

test_expect_success PERF 'a DIR/data that is no perf.data: one error line' '
	rm -rf junk.data && cp -r thr.data junk.data &&
	echo garbage-garbage-garbage >junk.data/data &&
	{ pulse script -i junk.data >/dev/null 2>err; test $? = 1; } &&
	grep -c . err >n && expect_eq "$(cat n)" 1 &&
	grep -q "^error: .junk.data.: bad magic" err
'

test_done
