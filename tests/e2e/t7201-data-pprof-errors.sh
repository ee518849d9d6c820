#!/bin/bash
# pulse data convert --to-pprof on bad input and output: a missing, empty,
# damaged or foreign input, an output that cannot be written, an output
# that exists: one error line, exit 1, and nothing left behind (perf data
# convert --to-json exits 255 and leaves an empty or partial output).
. "$(dirname "$0")/lib/test-lib.sh"

# fails ERRFILE ARGS...: exit 1, exactly one line, an error: line, no leftovers
fails() {
	local errf=$1 rc=0; shift
	pulse data convert "$@" 2>"$errf" || rc=$?
	test "$rc" = 1 || { echo "exit $rc"; cat "$errf"; return 1; }
	test "$(wc -l <"$errf")" = 1 || { cat "$errf"; return 1; }
	grep -q "^error: " "$errf" || { cat "$errf"; return 1; }
	! ls out.pb.gz* 2>/dev/null
}

test_expect_success 'a small good recording' '
	record_ok rec.err -g -o good.data -- "$WL/calltree" 50
'

test_expect_success 'a missing input' '
	fails err --to-pprof out.pb.gz -i missing.data &&
	grep -q "missing.data.*No such file" err
'

test_expect_success 'an empty input' '
	: >empty.data &&
	fails err --to-pprof out.pb.gz -i empty.data &&
	grep -q "empty.data" err
'

test_expect_success 'not a perf.data' '
	printf "hello, this is not a perf.data file at all, not even close\n" >text.data &&
	fails err --to-pprof out.pb.gz -i text.data
'

test_expect_success 'a header cut short, and a data section cut' '
	head -c 100 good.data >cut.data &&
	fails err --to-pprof out.pb.gz -i cut.data &&
	size=$(stat -c %s good.data) &&
	head -c $((size / 2)) good.data >half.data &&
	rc=0 && pulse data convert --to-pprof half.pb.gz -i half.data 2>half.err || rc=$?

	{ test $rc = 0 || { test $rc = 1 && test ! -e half.pb.gz; }; } &&
	! grep -qE "$SANITIZER_REPORT" half.err
'

test_expect_success 'an output in a directory that does not exist' '
	fails err --to-pprof nodir/out.pb.gz -i good.data &&
	grep -q "cannot create .nodir/out.pb.gz.: No such file or directory" err &&
	test ! -e nodir
'

test_expect_success 'an output under a file' '
	: >afile &&
	fails err --to-pprof afile/out.pb.gz -i good.data &&
	grep -q "Not a directory" err
'

test_expect_success 'an existing output is kept without --force, replaced with it' '
	echo keep >out.pb.gz &&
	rc=0 && pulse data convert --to-pprof out.pb.gz -i good.data 2>err || rc=$?
	test $rc = 1 &&
	grep -q "^error: .out.pb.gz. exists$" err &&
	grep -q "^hint: use --force to overwrite it$" err &&
	test "$(cat out.pb.gz)" = keep &&
	pulse data convert --to-pprof out.pb.gz -i good.data -f 2>err &&
	gzip -t out.pb.gz &&
	rm out.pb.gz &&
	test -z "$(ls | grep "out.pb.gz")"
'

test_expect_success 'a written profile has the mode a new file gets' '
	(umask 022 && pulse data convert --to-pprof mode.pb.gz -i good.data 2>/dev/null) &&
	test "$(stat -c %a mode.pb.gz)" = 644
'

test_expect_success 'usage errors exit 129' '
	rc=0 && pulse data convert -i good.data 2>err || rc=$?
	test $rc = 129
'

test_done
