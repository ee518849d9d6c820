#!/bin/bash
# pulse report --time percent slices, --symbols with addresses, the parent
# sort key (-p, -x) and filters on what the sort keys do not show, against
# perf report --stdio on files the real perf records. Only perf's random
# "Tip" line is left out.
. "$(dirname "$0")/lib/test-lib.sh"

compare() {
	local f=$1
	shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out || return 1
	"$PULSE" report -i "$f" --stdio "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out || return 1
	diff -u perf.out pulse.out || { cat pulse.err; return 1; }
}

test_expect_success PERF,ROOT 'record the files' '
	perf record -q -o a.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf record -q -g -o sc.data -- "$WL/getppid" 2000000 >/dev/null 2>&1 &&
	perf record -q -g -o g.data -- "$WL/calltree" >/dev/null 2>&1
'

test_expect_success PERF,ROOT '--time percent slices and ranges, "(time slices: ...)" in the header' '
	compare a.data --time 10%/1 &&
	grep -q "of event .* (time slices: 10%/1)\$" pulse.out &&
	compare a.data --time 10%/2 -n &&
	compare a.data --time 25% &&
	compare a.data --time 0%-10% &&
	compare a.data --time 10%-20%,30%-40% &&
	compare a.data --time 10%/1,10%/3 &&
	compare a.data --time 33.3%/3 &&
	compare a.data --time 100%/1 &&
	compare sc.data --time 50%/2 --no-children &&
	compare sc.data --time 20%-60% --comms getppid
'

test_expect_success PERF,ROOT '--time in seconds: several ranges, open ends, blanks' '
	first=$(perf report -i a.data --header-only | sed -n "s/^# time of first sample : //p") &&
	s=${first%.*} &&
	compare a.data --time "$first," &&
	compare a.data --time ",$s.5" &&
	compare a.data --time "$s.1,$s.2 $s.3," &&
	compare a.data --time "$s.1, $s.9"
'

test_expect_success PERF,ROOT 'a --time that leaves no sample: no table' '
	compare a.data --time 20%-10% &&
	test "$(wc -l <pulse.out)" = 2
'

test_expect_success PERF,ROOT 'malformed --time: an error, as in perf' '
	for t in abc 10%- 0%/1 10%/11 "1,3 2,4" "3,4 1,2" 1.0123456789, "1,2 "; do
		rc=0 && "$PULSE" report -i a.data --stdio --time "$t" >out 2>err || rc=$? &&
		test "$rc" = 129 && grep -q "^error: invalid --time" err || return 1
	done
'

test_expect_success PERF,ROOT '--symbols with sample addresses: the first sample decides its entry' '
	ip=$(perf script -i a.data -F ip 2>/dev/null | sort | uniq -c | sort -rn | awk "NR == 1 { print \$2 }") &&
	ip2=$(perf script -i a.data -F ip 2>/dev/null | sort | uniq -c | sort -rn | awk "NR == 2 { print \$2 }") &&
	compare a.data --symbols "0x$ip" -n &&
	compare a.data --symbols "$ip" &&
	compare a.data --symbols "0x$ip,0x$ip2" --sort sym &&
	compare a.data --symbols "0x$ip,spin_loop" &&
	compare a.data --symbols "main,0x$ip2" &&
	compare a.data --symbols "0x$ip" --percentage relative
'

test_expect_success PERF,ROOT 'filters on what the sort keys do not show' '
	compare a.data --sort dso --symbols spin_loop &&
	compare a.data --sort comm --dsos spin &&
	compare a.data --sort dso --comms spin &&
	compare sc.data --no-children --dsos "[kernel.kallsyms]" --percentage relative
'

test_expect_success PERF,ROOT 'a list with an entry twice is refused' '
	rc=0 && "$PULSE" report -i a.data --stdio --symbols spin_loop,spin_loop >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "problems parsing symbol list" err
'

test_expect_success PERF,ROOT 'parent: default regex, -p, -x, in both callchain orders' '
	compare sc.data --sort parent &&
	compare sc.data --no-children --sort parent,sym &&
	compare sc.data -p __x64_sys &&
	compare sc.data --no-children -p __x64_sys &&
	compare sc.data --no-children -g none -p __x64_sys -x &&
	compare sc.data -p __x64_sys -x &&
	compare sc.data --no-children -x &&
	compare sc.data --no-children --sort sym,parent -p "^do_|^entry" &&
	compare sc.data --no-children -g caller -p "^do_|^entry" &&
	compare sc.data --sort symbol -p sys -n &&
	compare sc.data --no-children -p sys --percentage relative -x &&
	compare g.data --sort parent,comm -p "^(main|a|b|c)$"
'

test_expect_success PERF,ROOT 'parent without callchains, a bad regex: errors' '
	rc=0 && "$PULSE" report -i a.data --stdio --sort parent >out 2>err || rc=$? &&
	test "$rc" = 1 && grep -q "Selected --sort parent, but no callchain data" err &&
	rc=0 && "$PULSE" report -i sc.data --stdio -p "foo(" >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "^error: invalid --parent regex" err
'

test_expect_success PERF,ROOT '--no-<option> of callbacks, abbreviated too, the last one wins' '
	compare sc.data --no-children &&
	compare sc.data --no-child -p sys &&
	compare sc.data --no-children --children &&
	compare sc.data --children --no-children -g caller &&
	compare sc.data --no-children --no-call-graph &&
	rc=0 && "$PULSE" report -i sc.data --stdio --no-children=1 >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "takes no value" err
'

test_done
