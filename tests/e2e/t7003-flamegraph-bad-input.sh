#!/bin/bash
# pulse flamegraph on bad input and outputs: one `error:` line and a
# non-zero exit, never a crash or hang, and no SVG (not even a partial
# one) left behind; damaged files follow report's damage table (t5001):
# a cut in the data section draws the whole records before it, with the
# warning; a damaged header, attr or feature table is an error. An empty
# file is an error too: there is nothing to draw (report exits 0).
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data
MK=$TOOLS/pulse-mkdata
RANDOM=7003

rd64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
wr64() { perl -e 'print pack("Q<", $ARGV[0])' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
no_leftovers() { # DIR: no SVG, no temporary file
	if ls -A "$1" | grep -E "\.svg|\.tmp\."; then return 1; fi
}
# fails FILE WHAT: one error line, exit 1, no SVG
fails() {
	rm -rf out && mkdir out &&
	expect_fail 1 err timeout -k 2 10 "$PULSE" flamegraph -i "$1" -o out/g.svg &&
	one_error err "${2:-.}" &&
	no_leftovers out
}
# draws FILE: exit 0 and a whole SVG, or the no-samples error
draws_or_empty() {
	rm -rf out && mkdir out && rc=0 &&
	timeout -k 2 10 "$PULSE" flamegraph -i "$1" -o out/g.svg 2>err || rc=$?
	if [ $rc = 0 ]; then
		tail -n 1 out/g.svg | grep -q "^</svg>$" && not grep -q "^error:" err
	else
		expect_eq $rc 1 && one_error err "no samples" && no_leftovers out
	fi
}

test_expect_success 'an empty file: one error line, exit 1, no SVG' '
	: >empty.data &&
	fails empty.data "empty"
'

test_expect_success 'not a perf.data file, a missing file: one error line' '
	head -c 4096 /dev/urandom >noise.data &&
	fails noise.data &&
	fails nosuch.data "nosuch.data"
'

for f in perf-cpuclock perf-g; do
	test_expect_success "$f: cut at record boundaries and random offsets: the damage table" '
		src=$DATA/$f.data && size=$(stat -c %s $src) &&
		doff=$(rd64 $src 40) && dend=$((doff + $(rd64 $src 48))) &&
		"$MK" dump $src - | awk "/^record at/ {print \$3}" | uniq >bounds &&
		cuts="$(head -40 bounds | while read -r h; do echo $((h)); done)" &&
		for i in $(seq 12); do c=$((RANDOM * 32768 + RANDOM)); cuts="$cuts $((c % (size - 1) + 1))"; done &&
		for c in $cuts; do
			head -c $c $src >cut.data &&
			if [ $c -lt $doff ] || [ $c -ge $dend ]; then
				fails cut.data || { echo "cut at $c"; return 1; }
			else
				draws_or_empty cut.data || { echo "cut at $c"; cat err; return 1; }
			fi
		done
	'
done

test_expect_success 'a cut in the data section: the whole records, the warning' '
	src=$DATA/perf-g.data && doff=$(rd64 $src 40) && dsize=$(rd64 $src 48) &&
	head -c $((doff + dsize - 5)) $src >cut.data &&
	pulse flamegraph -i cut.data -o cut.svg 2>err &&
	grep -q "^warning: [0-9]* bytes unreadable at 0x" err &&
	grep -q "<title>all (" cut.svg
'

test_expect_success 'damaged header fields: one error line' '
	src=$DATA/perf-cpuclock.data && size=$(stat -c %s $src) &&
	for spec in "0 42" "16 7" "24 $((size + 8))" "40 $((size + 1))" "48 18446744073709551600"; do
		set -- $spec &&
		cp $src hdr.data && wr64 hdr.data $1 $2 &&
		fails hdr.data || { echo "offset $1 = $2"; return 1; }
	done
'

test_expect_success 'outputs that cannot be written: one error line, nothing left' '
	mkdir w && cd w &&
	for o in nosuchdir/g.svg /proc/g.svg /proc/self/g.svg; do
		expect_fail 1 err pulse flamegraph -i $DATA/perf-g.data -o $o &&
		one_error err "cannot write .$o.: " || return 1
	done &&
	mkdir isdir &&
	expect_fail 1 err pulse flamegraph -i $DATA/perf-g.data -o isdir &&
	one_error err "cannot write .isdir.: is a directory" &&
	no_leftovers . && test -d isdir && cd ..
'

test_expect_success 'a write that fails midway (file size limit): no partial SVG' '
	mkdir small &&
	(trap "" XFSZ; ulimit -f 2; exec "$PULSE" flamegraph -i $DATA/perf-g.data -o small/g.svg \
		--minwidth 0) 2>err && false ||
	one_error err "cannot write .small/g.svg.: file too large" &&
	no_leftovers small
'

test_expect_success 'an existing SVG is replaced only when the new one is whole' '
	echo old >keep.svg &&
	expect_fail 1 err pulse flamegraph -i empty.data -o keep.svg &&
	expect_eq "$(cat keep.svg)" old &&
	pulse flamegraph -q -i $DATA/perf-g.data -o keep.svg &&
	tail -n 1 keep.svg | grep -q "^</svg>$"
'

test_expect_success 'filters that leave nothing, an event the file lacks: one error line' '
	expect_fail 1 err pulse flamegraph -i $DATA/perf-g.data -o f.svg --comms nosuchcomm &&
	one_error err "no samples" &&
	expect_fail 1 err pulse flamegraph -i $DATA/perf-g.data -o f.svg -e nosuchevent &&
	one_error err "nosuchevent" &&
	not test -e f.svg
'

test_expect_success '--diff of files of other events: one error naming both, exit 1' '
	pulse record -q -e cpu-clock -o cpu.data -- "$WL/flamesplit" 50 75 &&
	pulse record -q -e task-clock -o task.data -- "$WL/flamesplit" 50 75 &&
	mkdir d && cd d &&
	expect_fail 1 err pulse flamegraph --diff ../task.data ../cpu.data -o d.svg &&
	one_error err "../task.data.*cpu-clock.*../cpu.data" &&
	no_leftovers . && cd .. &&
	# OLD of both events, task-clock first: NEW'"'"'s cpu-clock is the one
	# compared, without the "samples of 2 events" warning of a free choice
	pulse record -q -e task-clock -e cpu-clock -o both.data -- "$WL/flamesplit" 50 75 &&
	pulse flamegraph --diff both.data cpu.data -o both.svg 2>err &&
	not grep -E "^(warning|error):" err &&
	test -s both.svg
'

test_done
