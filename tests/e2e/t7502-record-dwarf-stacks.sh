#!/bin/bash
# The proof that pulse's --call-graph dwarf recordings carry the right
# registers and stack: perf 6.1 unwinds them. The dwarf-rec workload
# (tests/workloads/dwarf-rec/, built here without frame pointers: main ->
# dwarf_rec_mid -> dwarf_rec_leaf_a/_b, the last three in a shared library)
# gives whole stacks in `perf script` of a pulse file for a command, -a,
# -p, -t, --threads and a flight recorder snapshot (-M); an fp recording
# of the same program does not (it stops at the leaf).
. "$(dirname "$0")/lib/test-lib.sh"

sh "$PULSE_TOP/tests/workloads/dwarf-rec/build.sh" wl >/dev/null 2>&1 && test_set_prereq CC
DW=$TEST_DIR/wl/dwarf-rec

# whole FILE: "W N": of the N samples perf script shows in a leaf, W reach main through mid
whole() {
	perf_in "$1" script -F comm,tid,ip,sym 2>/dev/null | awk '
		/^[^ \t]/ { first = ""; mid = 0; top = 0; next }
		/^$/ { if (first ~ /^dwarf_rec_leaf_[ab]$/) { n++; if (mid && top) w++ } first = "x"; next }
		{ if (first == "") first = $2; if ($2 == "dwarf_rec_mid") mid = 1; if ($2 == "main") top = 1 }
		END { print w + 0, n + 0 }'
}
# all_whole FILE: at least 20 leaf samples, every one whole
all_whole() {
	local w n
	read w n <<<"$(whole "$1")"
	echo "$1: $w of $n leaf samples whole"
	expect_ge "$n" 20 "leaf samples" && expect_eq "$w" "$n"
}

test_expect_success PERF,CC 'a command: perf unwinds every leaf sample to main' '
	record_ok err --call-graph dwarf -o cmd.data -- $DW 300
	all_whole cmd.data
	perf_ok cmd.data report --stdio --no-children -S dwarf_rec_leaf_a -G >rep
	grep -q "dwarf_rec_mid" rep
'

test_expect_success PERF,CC 'frame pointers on the same program stop at the leaf' '
	record_ok err -g -o fp.data -- $DW 200
	read w n <<<"$(whole fp.data)"
	expect_gt "$n" 20 "leaf samples"
	expect_eq "$w" 0
'

test_expect_success PERF,CC,ROOT '-a and --threads' '
	record_ok err -a --call-graph dwarf -o a.data -- $DW 300
	all_whole a.data
	record_ok err --threads -a --call-graph dwarf -o th.data -- $DW 300
	all_whole th.data
'

test_expect_success PERF,CC '-p and -t: the data maps are synthesized too, as perf' '
	$DW 3000 & dp=$!
	track_bg $dp
	sleep 0.2
	timeout -s INT 0.6 "$PULSE" record -q --call-graph dwarf -p $dp -o p.data 2>err || true
	all_whole p.data
	timeout -s INT 0.6 "$PULSE" record -q --call-graph dwarf -t $dp -o t.data 2>err || true
	all_whole t.data
	kill $dp
'

test_expect_success PERF,CC,ROOT 'a flight recorder snapshot carries the registers and stack' '
	rm -f fl.data.*
	"$PULSE" record -M 64M --switch-output --call-graph dwarf -a -o fl.data 2>fl.err &
	rp=$!
	track_bg $rp
	wait_for "grep -q . /proc/$rp/maps 2>/dev/null" 10
	sleep 1
	$DW 400
	kill -USR2 $rp
	wait_for "grep -q Dump fl.err" 20
	kill -INT $rp
	wait_exit $rp 20 || true
	all_whole $(ls fl.data.* | head -1)
'

test_done
