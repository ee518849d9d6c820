#!/bin/bash
# pulse script on damaged input: a file cut short prints every whole
# record, warns "N bytes unreadable at 0x…" and exits 0; a damaged header
# is one error: line naming the offset and a non-zero exit; an empty file
# is "zero-sized file, nothing to do" and exit 0. Never a crash or a hang
# (every run is under a timeout).
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'zero-sized file' '
	: >empty.data &&
	pulse script -i empty.data >out 2>err &&
	[ ! -s out ] &&
	expect_eq "$(cat err)" "zero-sized file, nothing to do"
'

# A recorder killed before its final header: no feature bits, and the
# data cut inside a record. (A finished file cut short loses its feature
# table, which the reader refuses as header damage for now.)
test_expect_success 'a file cut short: whole records printed, one warning, exit 0' '
	cp "$PULSE_TOP/tests/data/perf-g.data" g.data &&
	dd if=/dev/zero of=g.data bs=1 seek=72 count=32 conv=notrunc 2>/dev/null &&
	pulse script -i g.data >full 2>/dev/null &&
	head -c 5000 g.data >cut.data &&
	pulse script -i cut.data >out 2>err &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x[0-9a-f]*$" err &&
	[ $(wc -l <err) = 1 ] &&
	[ -s out ] &&
	# what is printed is a prefix of the whole output
	cmp -s out <(head -c $(stat -c %s out) full)
'

test_expect_success 'a pipe stream cut short: what came is printed, a warning, exit 0' '
	pulse script -i - <"$PULSE_TOP/tests/data/perf-pipe.data" >full &&
	head -c 4400 "$PULSE_TOP/tests/data/perf-pipe.data" >cutp.data &&
	pulse script -i - <cutp.data >out 2>err &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x[0-9a-f]*$" err &&
	[ -s out ] &&
	cmp -s out <(head -c $(stat -c %s out) full)
'

test_expect_success 'header damage: one error line with the offset, exit 1' '
	cp "$PULSE_TOP/tests/data/perf-cpuclock.data" bad.data &&
	printf "\377\377\377\377\377\377\377\177" | dd of=bad.data bs=1 seek=24 conv=notrunc 2>/dev/null &&
	rc=0 && pulse script -i bad.data >out 2>err || rc=$? &&
	expect_eq "$rc" 1 &&
	[ $(wc -l <err) = 1 ] &&
	grep -q "^error: .* at offset 0x18$" err
'

test_expect_success 'not a perf.data file; a missing file' '
	echo hello >text.data &&
	rc=0 && pulse script -i text.data >out 2>err || rc=$? &&
	expect_eq "$rc" 1 && grep -q "^error: " err && [ $(wc -l <err) = 1 ] &&
	rc=0 && pulse script -i nonexistent.data 2>err || rc=$? &&
	expect_eq "$rc" 1 && grep -q "^error: cannot open" err
'

test_expect_success 'every truncation of a tracepoint file: exit 0 or 1, never a crash' '
	f="$PULSE_TOP/tests/data/perf-tp.data" &&
	size=$(stat -c %s "$f") &&
	for n in $(seq 1 97 $size); do
		head -c $n "$f" >t.data
		rc=0; pulse script -i t.data >/dev/null 2>err || rc=$?
		[ $rc -le 1 ] || { echo "exit $rc at $n bytes" >&2; cat err >&2; exit 1; }
	done
'

test_expect_success 'corrupted tracing data bytes: no crash' '
	f="$PULSE_TOP/tests/data/perf-pipe-tp.data" &&
	size=$(stat -c %s "$f") &&
	for off in $(seq 200 211 $size); do
		cp "$f" c.data
		printf "\377" | dd of=c.data bs=1 seek=$off conv=notrunc 2>/dev/null
		rc=0; pulse script -i - <c.data >/dev/null 2>err || rc=$?
		[ $rc -le 1 ] || { echo "exit $rc at offset $off" >&2; cat err >&2; exit 1; }
	done
'

test_done
