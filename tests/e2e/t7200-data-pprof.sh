#!/bin/bash
# pulse data convert --to-pprof: go tool pprof reads the profile; its flat
# -top has the functions and percentages of pulse report --no-children
# --sort sym on the same file; the mappings' build-ids are perf
# buildid-list's; file and line of a function built with -g are
# addr2line's and report --sort srcline's; comm/pid/tid labels.
. "$(dirname "$0")/lib/test-lib.sh"

export PPROF_TMPDIR=$TEST_DIR HOME=$TEST_DIR GOCACHE=$TEST_DIR/go-cache GOFLAGS=-mod=mod

pprof() { go tool pprof "$@" 2>/dev/null; }

# "NAME NS" for each function with a flat share, from pprof -top in
# nanoseconds (exact, where percentages are rounded); one line per name, as
# two functions of one name in two DSOs (_start of the program and of
# ld.so) are one row in pprof (no source file either) and two in report;
# an address no symbol has is "0x..." in report, "[DSO]" in pprof: neither kept
pprof_flat() {
	# -noinlines: a symbol's inlined functions count as the symbol, as in report
	pprof -top -unit=ns -noinlines -nodefraction=0 -nodecount=100000 "$1" |
		awk '$1 ~ /^[0-9]+ns$/ && $2 ~ /%$/ {
			name = $6; for (i = 7; i <= NF; i++) name = name " " $i
			v = $1; sub("ns", "", v); if (v > 0) ns[name] += v }
		END { for (n in ns) print n, ns[n] }' | grep -v -e '^0x' -e '^\[.*\] [0-9]*$' | sort
}

# the same from pulse report --no-children --sort sym, its Period column
report_flat() {
	pulse report -i "$1" --stdio --no-children --sort sym -g none --show-total-period 2>/dev/null |
		awk '$1 ~ /%$/ && $2 ~ /^[0-9]+$/ {
			name = $4; for (i = 5; i <= NF; i++) name = name " " $i
			if ($2 > 0) ns[name] += $2 }
		END { for (n in ns) print n, ns[n] }' | grep -v '^0x' | sort
}

test_expect_success 'record calltree with pulse -g' '
	record_ok rec.err -g -o cg.data -- "$WL/calltree" 200 &&
	pulse data convert --to-pprof cg.pb.gz -i cg.data 2>conv.err &&
	grep -q "Converted .cg.data. into pprof data .cg.pb.gz." conv.err &&
	gzip -t cg.pb.gz
'

test_expect_success GO 'go tool pprof -top reads it: leaf_a, leaf_b and their callers' '
	pprof -top -nodefraction=0 cg.pb.gz >top.out &&
	grep -q "^Type: cpu$" top.out &&
	grep -q "^File: calltree$" top.out &&
	grep -q " leaf_a$" top.out && grep -q " leaf_b$" top.out &&
	grep -qE " [0-9.]+m?s +[0-9.]+% +mid$" top.out &&
	grep -qE " [0-9.]+m?s +[0-9.]+% +main$" top.out
'

test_expect_success GO 'the flat -top is report --no-children --sort sym, row by row (twins: by name)' '
	pprof_flat cg.pb.gz >pprof.rows &&
	report_flat cg.data >report.rows &&
	grep -q "^leaf_a " pprof.rows &&
	test_cmp report.rows pprof.rows &&
	record_ok rec.err -g -o tw.data -- "$WL/twins" 200 &&
	pulse data convert --to-pprof tw.pb.gz -i tw.data 2>conv.err &&
	pprof_flat tw.pb.gz >pprof.rows &&
	report_flat tw.data >report.rows &&
	expect_eq "$(grep -c "^work " report.rows)" 1 &&
	test_cmp report.rows pprof.rows
'

test_expect_success GO '-raw: sample types, labels comm, pid and tid, leaf first' '
	pprof -raw cg.pb.gz >raw.out &&
	grep -q "^samples/count cpu/nanoseconds\[dflt\]$" raw.out &&
	grep -qE "^ +comm:\[calltree\]$" raw.out &&
	grep -qE "^ +pid:\[[0-9]+\] tid:\[[0-9]+\]$" raw.out &&
	grep -q "^PeriodType: cpu nanoseconds$" raw.out
'

test_expect_success GO 'file and line of leaf_a are addr2line'"'"'s and report --sort srcline'"'"'s' '
	pprof -raw cg.pb.gz >raw.out &&
	awk "/^Locations/ {on = 1} on && \$4 == \"leaf_a\" {print \$2, \$5}" raw.out >leaf_a.locs &&
	test -s leaf_a.locs &&
	grep -q "calltree.c:[0-9]" leaf_a.locs &&
	pulse report -i cg.data --stdio --no-children --sort srcline -g none 2>/dev/null >srcline.out &&
	while read addr line; do
		grep -q " $line\$" srcline.out || { echo "$line not in report"; exit 1; }
	done <leaf_a.locs
'

test_expect_success GO 'addr2line agrees on a leaf_a address' '
	# the mapping places the address as the process did: back to a file offset
	awk "/^Mappings/ {on = 1; next} on && /calltree/ {split(\$2, a, \"/\"); print a[1], a[3]; exit}" raw.out >map &&
	read start off <map &&
	read addr line <leaf_a.locs &&
	fileaddr=$(printf "0x%x" $((addr - start + off))) &&
	addr2line -e "$WL/calltree" "$fileaddr" >a2l.out &&
	test "$(sed "s|.*/||" a2l.out | sed "s/ .*//")" = "$line"
'

test_expect_success PERF,GO 'build-ids of the mappings are perf buildid-list'"'"'s' '
	perf buildid-list -i cg.data 2>/dev/null | sort >perf.ids &&
	grep -q calltree perf.ids &&
	pprof -raw cg.pb.gz | awk "/^Mappings/ {on = 1; next} on && NF >= 4 {print \$4, \$3}" |
		sort >pprof.ids &&
	join -j 2 <(sort -k2 perf.ids) <(sort -k2 pprof.ids) >joined &&
	grep -q calltree joined &&
	awk "\$2 != \$3 {print; bad = 1} END {exit bad}" joined
'

test_expect_success PERF,GO 'a perf -g recording: the same flat rows as report' '
	perf record -q -g -o perf-cg.data -- "$WL/calltree" 200 >/dev/null 2>&1 &&
	pulse data convert --to-pprof perf-cg.pb.gz -i perf-cg.data 2>/dev/null &&
	pprof_flat perf-cg.pb.gz >pprof2.rows &&
	report_flat perf-cg.data >report2.rows &&
	grep -q "^leaf_b " pprof2.rows &&
	test_cmp report2.rows pprof2.rows
'

test_done
