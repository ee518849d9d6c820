#!/bin/bash
# pulse data convert --to-json on bad input and bad output paths: one
# error: line, exit 1, no crash and no output file left behind (perf 6.1
# creates its output first and leaves it, empty, when the input is missing
# or empty; pulse opens the input first and removes an output it could not
# finish). A file cut short converts up to its last whole record with the
# readers' warning and exit 0 (see the README's "Damaged files").
. "$(dirname "$0")/lib/test-lib.sh"

# convert_fails IN OUT PATTERN: exit 1, one error line matching PATTERN, no OUT
convert_fails() {
	expect_fail 1 err pulse data convert --to-json "$2" -i "$1" &&
	one_error err "$3" &&
	[ ! -e "$2" ] || { echo "$2 was left behind" >&2; return 1; }
}

test_expect_success 'an empty input, a missing input, not a perf.data file' '
	: >empty.data &&
	convert_fails empty.data e.json "zero-sized" &&
	convert_fails missing.data m.json "cannot open .missing.data." &&
	echo hello >text.data &&
	convert_fails text.data t.json "text.data"
'

test_expect_success 'header damage: one error line with the offset, no output' '
	cp "$PULSE_TOP/tests/data/perf-cpuclock.data" bad.data &&
	printf "\377\377\377\377\377\377\377\177" | dd of=bad.data bs=1 seek=24 conv=notrunc 2>/dev/null &&
	convert_fails bad.data b.json "at offset 0x18$"
'

test_expect_success 'an output that cannot be created or written: one error line, exit 1' '
	convert_fails "$PULSE_TOP/tests/data/perf-g.data" nodir/x.json "cannot write .nodir/x.json." &&
	mkdir outdir &&
	expect_fail 1 err pulse data convert --force --to-json outdir -i "$PULSE_TOP/tests/data/perf-g.data" &&
	one_error err "outdir" &&
	[ -d outdir ]
'

test_expect_success '/dev/full: the write error, and the device left alone' '
	[ -c /dev/full ] || return 0
	expect_fail 1 err pulse data convert -f --to-json /dev/full -i "$PULSE_TOP/tests/data/perf-g.data" &&
	one_error err "cannot write ./dev/full.: No space left on device" &&
	[ -c /dev/full ]
'

test_expect_success 'a file cut short: whole records converted, one warning, exit 0' '
	cp "$PULSE_TOP/tests/data/perf-g.data" g.data &&
	dd if=/dev/zero of=g.data bs=1 seek=72 count=32 conv=notrunc 2>/dev/null &&
	head -c 5000 g.data >cut.data &&
	pulse data convert --to-json cut.json -i cut.data 2>err &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x[0-9a-f]*$" err &&
	grep -q "^\[ pulse data convert: Converted and wrote .* MB ([1-9][0-9]* samples) \]$" err &&
	python3 -m json.tool cut.json >/dev/null
'

test_expect_success 'a pipe cut short: what came is converted, a warning, exit 0' '
	head -c 4400 "$PULSE_TOP/tests/data/perf-pipe.data" >cutp.data &&
	pulse data convert --to-json cutp.json -i - <cutp.data 2>err &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x[0-9a-f]*$" err &&
	python3 -m json.tool cutp.json >/dev/null
'

test_expect_success 'every truncation of a tracepoint file: exit 0 (JSON) or 1 (no file), never a crash' '
	f="$PULSE_TOP/tests/data/perf-tp.data" &&
	size=$(stat -c %s "$f") &&
	for n in $(seq 1 97 $size); do
		head -c $n "$f" >t.data
		rm -f t.json
		rc=0; pulse data convert --to-json t.json -i t.data 2>err || rc=$?
		case $rc in
		0) [ -s t.json ] ;;
		1) [ ! -e t.json ] && [ $(grep -c "^error: " err) = 1 ] ;;
		*) false ;;
		esac || { echo "exit $rc at $n bytes" >&2; cat err >&2; exit 1; }
	done
'

test_expect_success 'flipped bytes in a pipe with tracing data: no crash' '
	f="$PULSE_TOP/tests/data/perf-pipe-tp.data" &&
	size=$(stat -c %s "$f") &&
	for off in $(seq 200 211 $size); do
		cp "$f" c.data
		printf "\377" | dd of=c.data bs=1 seek=$off conv=notrunc 2>/dev/null
		rm -f c.json
		rc=0; pulse data convert --to-json c.json -i - <c.data 2>err || rc=$?
		[ $rc -le 1 ] || { echo "exit $rc at offset $off" >&2; cat err >&2; exit 1; }
	done
'

test_done
