#!/bin/bash
# pulse record -g: frame-pointer callchains of calltree (main -> mid ->
# leaf_a / leaf_b) as the real perf script sees them, and pulse report's
# rows for the two leaves (leaf_a does twice leaf_b's work).
. "$(dirname "$0")/lib/test-lib.sh"

check_chains() {
	callchains "$1" >chains
	test -s chains
	grep -q "^leaf_a;mid;main;" chains || { echo "no leaf_a;mid;main chain:"; sort chains | uniq -c | sort -rn | head; return 1; }
	grep -q "^leaf_b;mid;main;" chains || { echo "no leaf_b;mid;main chain:"; sort chains | uniq -c | sort -rn | head; return 1; }
	# most samples are in a leaf, all of them called through mid
	leaves=$(grep -c "^leaf_[ab];" chains)
	through_mid=$(grep -c "^leaf_[ab];mid;main;" chains)
	expect_ge $((through_mid * 100)) $((leaves * 95)) "leaf samples with mid and main (of $leaves)"
	expect_ge $((leaves * 100)) $(($(wc -l <chains) * 80)) "leaf samples (of $(wc -l <chains))"
}

check_rows() {
	report_rows <"$1" >rows.$1
	cat rows.$1
	a=$(row_pct leaf_a <rows.$1)
	b=$(row_pct leaf_b <rows.$1)
	test -n "$a" && test -n "$b"
	grep -q "^[0-9.]*% calltree calltree \[\.\] leaf_a$" rows.$1
	grep -q "^[0-9.]*% calltree calltree \[\.\] leaf_b$" rows.$1
	# leaf_a ~2/3, leaf_b ~1/3 (work-based, not timing-based)
	awk -v a="$a" -v b="$b" "BEGIN { exit !(a > b && a + b > 80) }" ||
		{ echo "leaf_a $a% leaf_b $b%"; return 1; }
}

test_expect_success PERF 'file mode: -g records callchains' '
	record_ok err -g -o cg.data -- $WL/calltree
	perf_in cg.data evlist -v >evlist
	grep -q "sample_type: [A-Z|]*CALLCHAIN" evlist
'

test_expect_success PERF 'file mode: perf script shows main, mid, leaf_a, leaf_b frames' '
	check_chains cg.data
'

test_expect_success PERF 'file mode: pulse report has leaf_a and leaf_b rows' '
	pulse report -i cg.data --stdio --no-children >rep
	check_rows rep
'

test_expect_success 'pipe mode: -g records callchains' '
	record_ok err.pipe -g -o - -- $WL/calltree >cg.pipe
	is_pipe_file cg.pipe
'

test_expect_success PERF 'pipe mode: perf script shows main, mid, leaf_a, leaf_b frames' '
	check_chains cg.pipe
'

test_expect_success 'pipe mode: pulse report has leaf_a and leaf_b rows' '
	pulse report -i - --stdio --no-children <cg.pipe >rep.pipe
	check_rows rep.pipe
'

test_expect_success PERF 'without -g: no callchains, same leaf rows' '
	record_ok err.nog -o nocg.data -- $WL/calltree
	perf_in nocg.data evlist -v >evlist.nog
	not grep -q CALLCHAIN evlist.nog
	pulse report -i nocg.data --stdio >rep.nog
	check_rows rep.nog
'

test_done
