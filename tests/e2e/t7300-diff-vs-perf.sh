#!/bin/bash
# pulse diff against perf 6.1's perf diff on the same files: the same rows,
# numbers and layout, byte for byte. The files are recordings of the
# balance workload at two splits between work_a and work_b (so the deltas'
# signs are known), the new one also running work_c (a row only NEW has)
# or never work_b (a row only OLD has).
. "$(dirname "$0")/lib/test-lib.sh"

# compare_diff ARGS...: perf diff and pulse diff print the same
compare_diff() {
	perf diff "$@" >perf.out 2>/dev/null || return 1
	"$PULSE" diff "$@" >pulse.out 2>pulse.err || { cat pulse.err; return 1; }
	test -s perf.out && diff -u perf.out pulse.out || { cat pulse.err; return 1; }
}

# row_delta FILE SYMBOL: the delta of SYMBOL's row in a default diff
row_delta() { awk -v s="$2" '$NF == s { print ($1 ~ /%$/ && $2 ~ /%$/) ? $2 : $1; exit }' "$1"; }

# NEW at 90% with work_c: work_a 45% of its samples against OLD's 30% (a
# margin the sampled split keeps: on a VM it was seen 9 points off; at 70%,
# 35% against 30%, the sign of work_a's delta was not sure)
test_expect_success PERF,ROOT 'record: OLD at 30% work_a, NEW at 90% with work_c, ALL at 100%' '
	perf record -q -o old.data -- "$WL/balance" 30 300 >/dev/null 2>&1 &&
	perf record -q -o new.data -- "$WL/balance" 90 300 c >/dev/null 2>&1 &&
	perf record -q -o all.data -- "$WL/balance" 100 300 >/dev/null 2>&1 &&
	perf record -q -e cpu-clock,task-clock -o two.data -- "$WL/balance" 50 200 >/dev/null 2>&1 &&
	perf record -q -e page-faults -o pf.data -- "$WL/balance" 50 100 >/dev/null 2>&1
'

test_expect_success PERF,ROOT 'default: Baseline and Delta Abs by dso,sym, as perf' '
	compare_diff old.data new.data &&
	grep -q "^# Baseline  Delta Abs  Shared Object  *Symbol" pulse.out &&
	case $(row_delta pulse.out work_a) in +*) ;; *) false ;; esac &&
	case $(row_delta pulse.out work_b) in -*) ;; *) false ;; esac &&
	grep " work_c$" pulse.out | grep -q "^  *+[0-9.]*%" &&
	compare_diff new.data old.data &&
	compare_diff old.data all.data &&
	grep " work_b$" pulse.out | grep -q "%  *balance "
'

test_expect_success PERF,ROOT '-c delta, delta-abs, ratio, wdiff:w1,w2 and -F' '
	compare_diff -c delta old.data new.data &&
	compare_diff -c delta-abs old.data new.data &&
	compare_diff -c ratio old.data new.data &&
	grep -q "N/A  balance  *\[.\] work_c" pulse.out &&
	compare_diff -c wdiff:2,3 old.data new.data &&
	compare_diff -c wdiff:1,1 -F old.data new.data &&
	compare_diff -c delta -F old.data new.data &&
	compare_diff -c ratio -F old.data new.data
'

test_expect_success PERF,ROOT '--sort dso, sym, comm, pid, cpu' '
	compare_diff --sort dso old.data new.data &&
	compare_diff --sort sym old.data new.data &&
	compare_diff --sort comm old.data new.data &&
	compare_diff --sort sym,dso -c delta old.data new.data &&
	compare_diff --sort cpu,comm old.data new.data
'

test_expect_success PERF,ROOT '-p, --percentage, filters, -b, -o, -q' '
	compare_diff -p old.data new.data &&
	grep -q "Base period  *Delta Abs  *Period" pulse.out &&
	compare_diff --period -c ratio old.data new.data &&
	compare_diff --percentage absolute -d balance old.data new.data &&
	compare_diff --percentage relative -d balance old.data new.data &&
	compare_diff --percentage relative -S work_a,work_b old.data new.data &&
	compare_diff -C balance old.data new.data &&
	compare_diff -b old.data new.data &&
	compare_diff -o 0 old.data new.data &&
	compare_diff -o 0 -c ratio old.data new.data &&
	compare_diff -q old.data new.data
'

test_expect_success PERF,ROOT 'one file for both, three files, several events, other events' '
	compare_diff old.data old.data &&
	compare_diff old.data new.data all.data &&
	grep -q "^#  \[2\] all.data" pulse.out &&
	compare_diff -p -c ratio -o 2 old.data new.data all.data &&
	compare_diff -c wdiff:1,1 old.data old.data new.data all.data &&
	compare_diff two.data old.data &&
	compare_diff old.data two.data &&
	perf diff old.data pf.data >perf.out 2>/dev/null &&
	grep -q "work_a" perf.out &&
	expect_fail 1 err pulse diff old.data pf.data &&
	one_error err "none of the events"
'

# perf -v also prints long DSO names and symbol addresses, which pulse does not
test_expect_success PERF,ROOT '-v: the "# Data files:" list with two files too, as perf' '
	perf diff -v old.data new.data 2>/dev/null | sed -n "1,/^# Baseline/p" >perf.v &&
	"$PULSE" diff -v old.data new.data >pulse.v &&
	grep -q "^#  \[0\] old.data (Baseline)" perf.v &&
	grep -q "^#  \[1\] new.data" perf.v &&
	sed -n "1,/^# Baseline/p" pulse.v | sed "\$d" >pulse.head &&
	sed "\$d" perf.v >perf.head &&
	diff -u perf.head pulse.head &&
	"$PULSE" diff -v old.data new.data all.data >pulse.v3 &&
	expect_eq "$(grep -c "^# Data files:" pulse.v3)" 1 &&
	"$PULSE" diff old.data new.data >pulse.nov &&
	not grep -q "Data files" pulse.nov
'

# Rows the baseline lacks (work_a: files 1 and 2; work_c, larger: file 2
# only) tie in the -o column of a ratio: file 1's column orders them, as
# perf's hist_entry__cmp_compute_idx() (t7300 failed now and then when load
# put such kernel rows in the files)
test_expect_success PERF,ROOT '-c ratio -o 2: two rows without baseline tie in the -o column' '
	perf record -q -o b0.data -- "$WL/balance" 0 200 >/dev/null 2>&1 &&
	perf record -q -o b1.data -- "$WL/balance" 50 200 >/dev/null 2>&1 &&
	perf record -q -o b2.data -- "$WL/balance" 50 200 c >/dev/null 2>&1 &&
	compare_diff -c ratio -o 2 b0.data b1.data b2.data &&
	a=$(grep -n " work_a$" pulse.out | cut -d: -f1) &&
	c=$(grep -n " work_c$" pulse.out | cut -d: -f1) &&
	test "$a" -lt "$c" &&
	compare_diff -c wdiff:1,2 -o 2 b0.data b1.data b2.data &&
	compare_diff -c ratio -o 1 b0.data b2.data b1.data
'

test_expect_success PERF,ROOT 'no file: perf.data.old and perf.data; one file: the new one' '
	mkdir -p dflt && cp old.data dflt/perf.data.old && cp new.data dflt/perf.data &&
	(cd dflt && compare_diff) &&
	(cd dflt && cp ../all.data . && compare_diff all.data)
'

test_expect_success PERF,ROOT 'files pulse records: the same as perf diff on them' '
	record_ok err -o pold.data -- "$WL/balance" 30 300 &&
	record_ok err -o pnew.data -- "$WL/balance" 70 300 c &&
	compare_diff pold.data pnew.data &&
	compare_diff -c ratio -p pold.data pnew.data &&
	compare_diff old.data pnew.data
'

# (no build-id: else the tools find the symbols in the build-id cache)
test_expect_success PERF,ROOT 'a stripped program: its unresolved addresses are one row, as perf' '
	objcopy --strip-all --remove-section=.note.gnu.build-id "$WL/balance" stripped &&
	perf record -q -o s1.data -- ./stripped 30 200 >/dev/null 2>&1 &&
	perf record -q -o s2.data -- ./stripped 70 200 >/dev/null 2>&1 &&
	compare_diff s1.data s2.data &&
	expect_eq "$(grep -c "stripped  *\[\.\] 0x" pulse.out)" 1 &&
	compare_diff -c ratio -p s1.data s2.data
'

# twins: a static work() in the program and one in its library. perf
# report --sort sym gives them two rows (sort__sym_cmp() compares DSOs),
# perf diff one: its collapse compares names alone in diff mode (t7300
# failed in CI when _start of balance and of ld.so both had a sample)
test_expect_success PERF,ROOT '--sort sym: one name in two DSOs is one row, as perf diff' '
	perf record -q -o t1.data -- "$WL/twins" 200 >/dev/null 2>&1 &&
	perf record -q -o t2.data -- "$WL/twins" 200 >/dev/null 2>&1 &&
	perf report -i t1.data --stdio -q --sort sym 2>/dev/null >t1.report &&
	expect_eq "$(grep -c "\] work$" t1.report)" 2 &&
	compare_diff --sort sym t1.data t2.data &&
	expect_eq "$(grep -c "\] work$" pulse.out)" 1 &&
	compare_diff --sort sym,comm -c ratio t2.data t1.data &&
	compare_diff --sort dso,sym t1.data t2.data &&
	expect_eq "$(grep -c "\] work$" pulse.out)" 2 &&
	compare_diff --sort sym s1.data s2.data &&
	compare_diff --sort sym old.data s1.data
'

test_expect_success ROOT 'a pipe (perf diff reads none): pulse reads - from stdin' '
	record_ok err -o - -- "$WL/balance" 30 200 >old.pipe &&
	record_ok err -o pnew2.data -- "$WL/balance" 70 200 &&
	"$PULSE" diff - pnew2.data <old.pipe >pipe.out 2>pipe.err &&
	grep " work_a$" pipe.out | grep -q "%  *+" &&
	grep " work_b$" pipe.out | grep -q "%  *-"
'

test_done
