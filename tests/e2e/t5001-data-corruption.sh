#!/bin/bash
# Damaged perf.data files give the exit code the damage table (issue 3)
# says, in `pulse report` and `pulse script` alike, and never hang or crash:
#   0-length file               "zero-sized file, nothing to do", exit 0
#   data short / cut mid-record every whole record, a warning, exit 0
#   header, attr or feature     one `error:` line, non-zero exit
#   table damage, sizes outside
#   the file, a record smaller
#   than its header
# The damage is made from the perf 6.1 golden files: cuts at every record
# boundary and at (seeded) random offsets, flipped header fields, sections
# pointed outside the file. Every run is under `timeout 10` (30 in a
# sanitizer build: script of a tracepoint file without tracing data has
# libtracefs read this machine's formats and /proc/kallsyms, which took 13 s
# under ASan on a machine where fresh pages are dear): 124 is a hang.
. "$(dirname "$0")/lib/test-lib.sh"

TMO_RUN=10
pulse_sanitized && TMO_RUN=30

DATA=$PULSE_TOP/tests/data
MK=$TOOLS/pulse-mkdata
RANDOM=5001

cmds=(report)
if "$PULSE" script -i "$DATA/perf-cpuclock.data" >/dev/null 2>&1; then
	cmds+=(script)
fi
echo "# commands: ${cmds[*]}"

# run_one CMD FILE: sets rc, nerr (error: lines) and out (stderr).
run_one() {
	local cmd=$1 file=$2
	rc=0
	timeout -k 2 "$TMO_RUN" "$PULSE" "$cmd" -i "$file" >stdout 2>stderr || rc=$?
	out=$(cat stderr)
	nerr=$(grep -c '^error:' stderr || true)
}

# expect KIND FILE WHAT: KIND is ok (exit 0, no error), err (exit 1 and
# exactly one error: line) or zero (the 0-length message, exit 0).
expect() {
	local kind=$1 file=$2 what=$3 cmd
	for cmd in "${cmds[@]}"; do
		run_one "$cmd" "$file"
		case "$rc" in
		124|137) die "$cmd, $what: hung (timeout)"; return 1 ;;
		1[2-9][0-9]|2[0-9][0-9]) [ "$kind" = err ] && [ "$rc" -lt 128 ] ||
			{ die "$cmd, $what: exit $rc (crash?): $out"; return 1; } ;;
		esac
		case "$kind" in
		ok)
			[ "$rc" -eq 0 ] && [ "$nerr" -eq 0 ] ||
				{ die "$cmd, $what: expected exit 0, got $rc: $out"; return 1; } ;;
		err)
			[ "$rc" -ne 0 ] && [ "$nerr" -eq 1 ] ||
				{ die "$cmd, $what: expected one error line and a non-zero exit, got $rc: $out"; return 1; } ;;
		zero)
			[ "$rc" -eq 0 ] && grep -q '^zero-sized file, nothing to do$' stderr ||
				{ die "$cmd, $what: expected the zero-sized message, got $rc: $out"; return 1; } ;;
		esac
	done
}

rd64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
# wr64 FILE OFFSET VALUE: little-endian u64 in place
wr64() { perl -e 'print pack("Q<", $ARGV[0])' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
cut_at() { head -c "$2" "$1" >cut.data; }

# the offsets where records start (the tool prints them in hex)
boundaries() {
	local h
	"$MK" dump "$1" - >dump.txt || return 1
	awk '/^record at/ { print $3 }' dump.txt | uniq | while read -r h; do echo $((h)); done
}

test_expect_success 'a 0-length file: nothing to do, exit 0' '
	: >empty.data &&
	expect zero empty.data "0-length file"
'

test_expect_success 'not a perf.data file: one error line' '
	head -c 4096 /dev/urandom >noise.data &&
	expect err noise.data "random bytes" &&
	printf "PERFILE" >short.data &&
	expect err short.data "7 bytes"
'

for f in perf-cpuclock perf-2ev perf-z perf-tp; do
	test_expect_success "$f: cut at every record boundary: whole records, exit 0" '
		src=$DATA/$f.data &&
		doff=$(rd64 $src 40) && dsize=$(rd64 $src 48) &&
		bs=$(boundaries $src) && [ $(wc -w <<<"$bs") -gt 10 ] &&
		for b in $bs $((doff + dsize - 1)); do
			cut_at $src $b &&
			expect ok cut.data "cut at $b" || return 1
			if [ $b -gt $doff ]; then
				grep -q "^warning: [0-9]* bytes unreadable at 0x" stderr ||
					{ die "cut at $b: no unreadable warning: $out"; return 1; }
			fi
		done
	'

	test_expect_success "$f: cut at random offsets: exit per the damage table" '
		src=$DATA/$f.data && size=$(stat -c %s $src) &&
		doff=$(rd64 $src 40) && dend=$(( $(rd64 $src 40) + $(rd64 $src 48) )) &&
		for i in $(seq 12); do
			# 1 .. size-1: a cut at the size is no cut, at 0 an empty file
			c=$((RANDOM * 32768 + RANDOM)); c=$((c % (size - 1) + 1)) &&
			cut_at $src $c &&
			if [ $c -lt $doff ] || [ $c -ge $dend ]; then
				# the header, attrs or feature table are cut
				expect err cut.data "cut at $c" || return 1
			else
				expect ok cut.data "cut at $c" || return 1
			fi
		done
	'
done

test_expect_success 'pipe mode: cuts anywhere after the header read what is whole' '
	src=$DATA/perf-pipe.data && size=$(stat -c %s $src) &&
	for c in 16 17 24 $(seq 40 97 $size); do
		cut_at $src $c &&
		expect ok cut.data "pipe cut at $c" || return 1
	done &&
	cut_at $src 12 && expect err cut.data "pipe header cut"
'

test_expect_success 'header fields: magic, size, attr_size, sections outside the file' '
	src=$DATA/perf-cpuclock.data && size=$(stat -c %s $src) &&
	for spec in "0 42" "8 4096" "16 7" "16 $((size * 2))" "24 $((size + 8))" \
		    "32 $((size * 4))" "40 $((size + 1))" "40 8" "48 18446744073709551600"; do
		set -- $spec &&
		cp $src hdr.data && wr64 hdr.data $1 $2 &&
		expect err hdr.data "header offset $1 = $2" || return 1
	done
'

test_expect_success 'feature table and attr ids pointing outside the file' '
	src=$DATA/perf-cpuclock.data && size=$(stat -c %s $src) &&
	table=$(( $(rd64 $src 40) + $(rd64 $src 48) )) &&
	cp $src feat.data && wr64 feat.data $table $((size + 100)) &&
	expect err feat.data "first feature section offset" &&
	cp $src feat.data && wr64 feat.data $((table + 8)) $((size * 3)) &&
	expect err feat.data "first feature section size" &&
	aoff=$(rd64 $src 24) && asz=$(od -An -t u4 -j $((aoff + 4)) -N 4 $src | tr -d " ") &&
	cp $src ids.data && wr64 ids.data $((aoff + asz)) $((size + 64)) &&
	expect err ids.data "attr ids offset"
'

test_expect_success 'a record smaller than its header inside the data: the records before it, a warning' '
	src=$DATA/perf-cpuclock.data &&
	b=$(boundaries $src | sed -n 5p) &&
	cp $src small.data &&
	printf "\004\000" | dd of=small.data bs=1 seek=$((b + 6)) conv=notrunc status=none &&
	expect ok small.data "record of 4 bytes at $b" &&
	grep -qx "warning: [0-9]* bytes unreadable at $(printf %#x $b)" stderr
'

# a stream of three samples, the third after a record whose size is 0
synth_damaged() {
	cat >dmg.spec <<-EOF
	format $1
	event name=cpu-clock type=1 period=1000 sample_type=IP|TID|TIME|PERIOD ids=7 flags=sample_id_all|comm|mmap|mmap2
	comm pid=100 tid=100 comm=damaged exec=1 time=1000
	sample ip=0x400100 pid=100 tid=100 time=2000 period=1000
	sample ip=0x400104 pid=100 tid=100 time=3000 period=1000
	bytes 0900020000000000
	sample ip=0x400108 pid=100 tid=100 time=4000 period=1000
	EOF
	"$TOOLS/pulse-synth" dmg.spec dmg.data
}

for mode in pipe file; do
test_expect_success "a $mode with a record of size 0: every whole record before it, the offset named" '
	synth_damaged '$mode' &&
	expect ok dmg.data "'$mode', size 0" &&
	off=$(grep -o "unreadable at 0x[0-9a-f]*" stderr | sed -n 1p) &&
	test -n "$off" &&
	"$PULSE" report --stdio -n -i dmg.data >out 2>err &&
	grep -q "^# Samples: 2 " out &&
	grep -q "^ *50.00% *1 *damaged .*0x0000000000400100" out &&
	grep -q "^ *50.00% *1 *damaged .*0x0000000000400104" out &&
	grep -qx "warning: [0-9]* bytes $off" err &&
	"$PULSE" script -i - <dmg.data >out 2>err &&
	test $(grep -c "damaged  *100 " out) = 2 &&
	grep -qx "warning: [0-9]* bytes $off" err &&
	"$PULSE" report -D -i dmg.data >out 2>err &&
	test $(grep -c "PERF_RECORD_SAMPLE" out) = 2
'
done

# A record of size 0 halfway through a real pipe: the same lines as the
# stream cut at that record, and a warning naming where.
test_expect_success 'a pulse pipe recording damaged mid-stream: the records before the damage' '
	"$PULSE" record -q -o - -- "$WL/spin" 150 >rec.pipe 2>/dev/null &&
	"$PULSE" report -D -i rec.pipe >dump.txt &&
	n=$(grep -cE "^0x[0-9a-f]+@[^ ]* \[0x[0-9a-f]+\]: event: 9" dump.txt) &&
	expect_gt "$n" 4 "samples" &&
	at=$(grep -E "^0x[0-9a-f]+@[^ ]* \[0x[0-9a-f]+\]: event: 9" dump.txt |
		sed -n "$((n / 2))p" | sed "s/@.*//") &&
	at=$((at + 16)) && # -D counts from after the pipe header
	cp rec.pipe bad.pipe &&
	printf "\000\000" | dd of=bad.pipe bs=1 seek=$((at + 6)) conv=notrunc status=none &&
	head -c $at rec.pipe >cut.pipe &&
	"$PULSE" script -i - <bad.pipe >part.txt 2>err &&
	grep -qx "warning: [0-9]* bytes unreadable at $(printf %#x $at)" err &&
	"$PULSE" script -i - <cut.pipe >cut.txt 2>/dev/null &&
	test_cmp cut.txt part.txt &&
	expect_gt "$(wc -l <part.txt)" 1 "lines before the damage"
'

test_expect_success 'a recorder killed before its final header: every record, exit 0' '
	src=$DATA/perf-cpuclock.data &&
	cp $src killed.data && wr64 killed.data 48 0 &&
	expect ok killed.data "data.size 0" &&
	cp $src killed.data && wr64 killed.data 48 64 &&
	for w in 72 80 88 96; do wr64 killed.data $w 0; done &&
	expect ok killed.data "data.size short, no features"
'

test_done
