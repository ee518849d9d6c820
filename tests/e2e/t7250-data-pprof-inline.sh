#!/bin/bash
# pulse data convert --to-pprof, inlined functions: where the DWARF says
# an address is in code inlined from other functions, its location has a
# line per function, innermost first (add_up, inlined into scale, inlined
# into hot), each at the line addr2line -i gives; every function has its
# own Function with its file and start line (DW_AT_decl_line); pprof shows
# add_up as an inline frame and -noinlines folds it back into hot.
. "$(dirname "$0")/lib/test-lib.sh"

export PPROF_TMPDIR=$TEST_DIR HOME=$TEST_DIR GOCACHE=$TEST_DIR/go-cache GOFLAGS=-mod=mod

pprof() { go tool pprof "$@" 2>/dev/null; }

# the line in the workload's source where TEXT is: the source is the truth
src_line() { grep -n -F "$1" "$PULSE_TOP/tests/workloads/inlined.c" | head -1 | cut -d: -f1; }

test_expect_success 'record the inlined workload with -g and convert it' '
	record_ok rec.err -g -o in.data -- "$WL/inlined" 300 &&
	pulse data convert --to-pprof in.pb.gz -i in.data 2>conv.err &&
	gzip -t in.pb.gz
'

test_expect_success GO '-raw: a location of add_up, then scale, then hot, at their lines' '
	pprof -raw in.pb.gz >raw.out &&
	inner=$(src_line "sink += i;") && call1=$(src_line "add_up(n * 2);") &&
	call2=$(src_line "	scale(n);") &&
	# a location line, then its further lines (indented, no id)
	awk "/^Locations/ {on = 1; next} /^Mappings/ {on = 0}
	     on && /^ +[0-9]+: / {id = \$1; print id, \$4, \$5; next}
	     on && NF >= 2 {print id, \$1, \$2}" raw.out >lines.out &&
	grep " add_up inlined.c:$inner\$" lines.out | head -1 | cut -d" " -f1 >loc.id &&
	test -s loc.id &&
	grep "^$(cat loc.id) " lines.out >loc.lines &&
	printf "%s\n" "add_up inlined.c:$inner" "scale inlined.c:$call1" "hot inlined.c:$call2" >expect &&
	cut -d" " -f2- loc.lines >actual &&
	test_cmp expect actual
'

test_expect_success GO 'each function has its own start line (DW_AT_decl_line)' '
	for f in add_up scale hot; do
		decl=$(grep -n "[ *]$f(unsigned long n)\$" "$PULSE_TOP/tests/workloads/inlined.c" |
			cut -d: -f1) &&
		grep -qE " $f inlined.c:[0-9]+ s=$decl\$" raw.out ||
			{ echo "$f: no s=$decl"; exit 1; }
	done
'

test_expect_success GO 'addr2line -i gives the same chain for that address' '
	awk "/^Mappings/ {on = 1; next} on && /inlined/ {split(\$2, a, \"/\"); print a[1], a[3]; exit}" raw.out >map &&
	read start off <map &&
	addr=$(awk -v id="$(cat loc.id)" "/^Locations/ {on = 1; next} on && \$1 == id {print \$2; exit}" raw.out) &&
	fileaddr=$(printf "0x%x" $((addr - start + off))) &&
	addr2line -i -f -e "$WL/inlined" "$fileaddr" >a2l.out &&
	paste -d" " - - <a2l.out | sed "s| /.*/| |" >a2l.lines &&
	cut -d" " -f2- loc.lines >ours &&
	test_cmp a2l.lines ours
'

test_expect_success GO '-top: add_up is an inline frame; -noinlines folds it into hot' '
	pprof -top in.pb.gz >top.out &&
	grep -qE "%  add_up \(inline\)\$" top.out &&
	grep -qE "%  scale \(inline\)\$" top.out &&
	pprof -top -noinlines in.pb.gz >noinl.out &&
	! grep -q add_up noinl.out &&
	grep -qE "[1-9][0-9.]*%  hot\$" noinl.out
'

test_expect_success GO '-traces: add_up (inline), scale (inline), hot, main' '
	pprof -traces in.pb.gz >traces.out &&
	grep -A3 -E "^ +[0-9.]+m?s +add_up \(inline\)\$" traces.out | head -4 |
		sed "s/^ *[0-9.]*m*s //; s/^ *//" >trace.top &&
	printf "%s\n" "add_up (inline)" "scale (inline)" "hot" "main" >expect.trace &&
	test_cmp expect.trace trace.top
'

test_done
