#!/bin/bash
# pulse report -I (--show-info): CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and
# MEM_TOPOLOGY in full, as perf 6.1 prints them, against perf's output kept
# in tests/data/show-info (so this runs without perf) and against perf on
# the golden files, their variants (older layouts, byte-swapped, pipe) and
# fresh recordings; damaged sections never crash.
. "$(dirname "$0")/lib/test-lib.sh"
DATA=$PULSE_TOP/tests/data
EXP=$DATA/show-info

# feat_edit FILE BIT SIZE|- [AT VALUE [PACK]]: set the size of feature BIT's
# section in the table, and/or a value at AT in the section (perl pack
# format PACK, a little-endian u32 "V" by default)
feat_edit() {
	perl -e '
		my ($f, $bit, $size, $at, $v, $fmt) = @ARGV;
		open my $fh, "+<", $f or die; binmode $fh;
		read $fh, my $h, 104;
		my ($doff, $dsize) = unpack "x40QQ", $h;
		my @w = unpack "x72Q4", $h;
		my $n = 0;
		for my $b (1 .. $bit - 1) { $n++ if ($w[$b >> 6] >> ($b & 63)) & 1 }
		my $ent = $doff + $dsize + 16 * $n;
		seek $fh, $ent, 0; read $fh, my $s, 16;
		my ($off, $sz) = unpack "QQ", $s;
		if ($size ne "-") { seek $fh, $ent + 8, 0; print $fh pack("Q", $size) }
		if (defined $v) { seek $fh, $off + $at, 0; print $fh pack($fmt // "V", $v) }
		close $fh;' "$@"
}

# the CPU_TOPOLOGY lines of a header
topology() {
	sed -n "/^# sibling sockets/,/^# \(node0 meminfo\|pmu\)/p" "$1" | sed "\$d"
}

# si_cmp FILE OPTS...: perf's and pulse's output equal (no random Tip line)
si_cmp() {
	f=$1
	shift
	perf report --stdio "$@" -i "$f" 2>/dev/null | grep -v '^# (Tip:' >perf.out
	pulse report --stdio "$@" -i "$f" 2>pulse.err | grep -v '^# (Tip:' >pulse.out
	test_cmp perf.out pulse.out || { cat pulse.err; return 1; }
}

# the variants: CPU_TOPOLOGY of perf before core ids (212 bytes), before
# dies (228); NRCPUS saying 3 CPUs, whose third socket id is too big
make_variants() {
	cp "$DATA/perf-2ev.data" v212.data && feat_edit v212.data 13 212 &&
	cp "$DATA/perf-2ev.data" v228.data && feat_edit v228.data 13 228 &&
	cp "$DATA/perf-2ev.data" vcpu3.data && feat_edit vcpu3.data 7 - 0 3
}

test_expect_success 'golden file: --header-only -I as perf 6.1 printed it' '
	pulse report --header-only -I -i "$DATA/perf-2ev.data" | sed 2d >out &&
	test_cmp "$EXP/perf-2ev.header-I" out &&
	pulse report --header-only --show-info -i "$DATA/perf-2ev.data" | sed 2d >out &&
	test_cmp "$EXP/perf-2ev.header-I" out &&
	not grep -q "use -I to display" out
'

test_expect_success 'without --header, -I changes nothing on a file' '
	pulse report --stdio -i "$DATA/perf-cpuclock.data" >plain &&
	pulse report --stdio -I -i "$DATA/perf-cpuclock.data" >out &&
	test_cmp plain out
'

test_expect_success 'a pipe: -I alone prints its features in full after the hint' '
	pulse report --stdio -I --symfs "$DATA/root" -i "$DATA/perf-pipe.data" |
		grep -v "^# (Tip:" >out &&
	test_cmp "$EXP/perf-pipe.report-I" out &&
	pulse report --stdio -I --symfs "$DATA/root" -i - <"$DATA/perf-pipe.data" |
		grep -v "^# (Tip:" >out &&
	test_cmp "$EXP/perf-pipe.report-I" out
'

test_expect_success 'older layouts and a socket id past NRCPUS: perf 6.1 lines' '
	make_variants &&
	for v in v212 v228 vcpu3; do
		pulse report --header-only -I -i $v.data >out &&
		topology out >got &&
		test_cmp "$EXP/perf-2ev-$v.topology" got || return 1
	done
'

test_expect_success 'byte-swapped file: the same topology, caches and memory nodes' '
	"$TOOLS/pulse-mkdata" swap "$DATA/perf-2ev.data" sw.data 2>/dev/null &&
	pulse report --header-only -I -i sw.data >out &&
	pat="^# (sibling|CPU [0-9]|node|memory nodes|Core ID)|^#  " &&
	grep -E "$pat" "$EXP/perf-2ev.header-I" >expect &&
	grep -E "$pat" out >got &&
	test_cmp expect got
'

# damage FILE BIT BYTE VALUE: overwrite a byte of feature BIT's section
damage() { feat_edit "$1" "$2" - "$3" "$4" C; }

test_expect_success 'damaged or cut topology sections: skipped or perf lines, never a crash' '
	for bit in 7 13 14 20 22; do
		for at in 0 1 3 4 8 12 16 24 72 76 212 216 228 232; do
			for v in 0 255 63; do
				cp "$DATA/perf-2ev.data" bad.data &&
				damage bad.data $bit $at $v &&
				pulse report --header-only -I -i bad.data >out 2>err; rc=$?
				test $rc -lt 128 || { echo "crash: bit $bit byte $at = $v"; return 1; }
				grep -q "^# missing features" out || return 1
			done
		done
	done &&
	for size in 0 3 4 71 72 100 211 213 220 227 229 299 300 307; do
		cp "$DATA/perf-2ev.data" cut.data &&
		feat_edit cut.data 13 $size &&
		pulse report --header-only -I -i cut.data >out 2>err; rc=$?
		test $rc -lt 128 || { echo "crash: size $size"; return 1; }
		grep -q "^# missing features" out || return 1
	done
'

test_expect_success PERF 'golden files: -I with --header-only, --header and alone equal perf' '
	for f in "$DATA"/*.data "$DATA"/golden/*.data; do
		si_cmp "$f" --header-only -I || return 1
	done &&
	for f in "$DATA"/perf-2ev.data "$DATA"/perf-pipe.data "$DATA"/perf-pipe-tp.data; do
		si_cmp "$f" --header -I && si_cmp "$f" -I || return 1
	done
'

test_expect_success PERF 'variants: older layouts, byte-swapped: perf prints the same' '
	make_variants &&
	si_cmp v212.data --header-only -I &&
	si_cmp v228.data --header-only -I &&
	for f in perf-2ev perf-tp perf-g; do
		"$TOOLS/pulse-mkdata" swap "$DATA/$f.data" sw-$f.data 2>/dev/null &&
		si_cmp sw-$f.data --header-only -I || return 1
	done &&
	# perf stops reading features after this one: compare its own lines
	perf report --header-only -I -i vcpu3.data 2>/dev/null >perf.out &&
	pulse report --header-only -I -i vcpu3.data >pulse.out &&
	topology perf.out >expect &&
	topology pulse.out >got &&
	test_cmp expect got
'

test_expect_success PERF 'fresh perf recordings: file, pipe, -a' '
	perf record -q -o f.data -- "$WL/spin" 20 >/dev/null 2>&1 &&
	si_cmp f.data --header-only -I &&
	si_cmp f.data --header -I &&
	perf record -q -o - -- "$WL/spin" 20 2>/dev/null >p.data &&
	si_cmp p.data --header -I &&
	si_cmp p.data -I &&
	perf record -q -a -o a.data -- sleep 0.2 >/dev/null 2>&1 &&
	si_cmp a.data --header-only -I &&
	grep -q "^# CPU 1: Core ID" pulse.out &&
	grep -q "^# memory nodes" pulse.out
'

test_done
